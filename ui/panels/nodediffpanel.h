#pragma once

// NodeDiffPanel — node against node: every key whose resolved answer differs between two nodes (after
// merges, with lookup_options), the two answers and the files that contributed on each side; a key
// prefix narrows it to part of the data ("profile::"); Export saves it as Markdown, JSON or CSV.
//
// Each side is a node of the library or the current facts (the facts panel's scope, edits included),
// so "what does my edit change against db01" is one comparison. It runs in the background
// (NodeReportRunner) while the panel is on screen, again after each change of a side, the prefix or
// the hierarchy.

#include "jobs/fleetrunner.h"
#include "jobs/nodereportrunner.h"
#include "widgets/reportexport.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStringListModel;
class QTableView;
class QTimer;
class QToolButton;

namespace hiera::ui {

class LookupRunner;
class NodeDiffModel;
class ShownRefresh;

class NodeDiffPanel : public QWidget
{
    Q_OBJECT
public:
    NodeDiffPanel(NodeReportRunner* reports, FleetRunner* fleet, LookupRunner* runner, QWidget* parent = nullptr);

    NodeDiffModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QComboBox* nodeABox() const { return m_nodeA; }
    QComboBox* nodeBBox() const { return m_nodeB; }
    QLineEdit* prefixEdit() const { return m_prefix; }
    QString summaryText() const;

    // The name the current facts have in the side pickers.
    static QString currentFactsName();
    // The current facts' trusted.certname (empty before a scope is resolved).
    QString currentCertname() const;
    // Compares node `a` with node `b` (library node names, or currentFactsName()).
    void compare(const QString& a, const QString& b);
    // Writes the comparison to `path`: Markdown (.md), JSON (.json) or CSV (.csv).
    bool exportTo(const QString& path, QString* error) const;

Q_SIGNALS:
    // A row was activated: look its key up as `node` has it (a library node's name, or
    // currentFactsName()); the side is the one of the column activated (the key's column: node A).
    void nodeAnswerRequested(const QString& node, const QString& key);
    void sourceRequested(const QModelIndex& index);
    void diffShown(); // a comparison is on screen

private:
    void libraryChanged(const NodeLibraryPtr& library);
    void acceptTypedName(QComboBox* box);
    NodeSide side(const QString& name) const;
    void refresh();
    void show(const NodeDiffReportPtr& report);
    QList<ReportExport::Format> exportFormats() const;
    void chooseExport();

    NodeReportRunner* m_reports;
    FleetRunner* m_fleet;
    LookupRunner* m_runner;
    NodeDiffModel* m_model;
    QStringListModel* m_names; // both pickers': the current facts, then the library's nodes
    QComboBox* m_nodeA;
    QComboBox* m_nodeB;
    QLineEdit* m_prefix;
    QTimer* m_prefixDelay;
    QLabel* m_summary;
    QToolButton* m_export;
    QTableView* m_view;
    ShownRefresh* m_refresh;
    ScopeSnapshotPtr m_snapshot; // the current facts' newest resolved scope
};

} // namespace hiera::ui
