#pragma once

// AllKeysPanel — every key the hierarchy defines, resolved for the current node (the facts panel's
// scope): key, value, winning level and file, merge used, in one searchable table; Export saves the
// node's complete resolved data as YAML or JSON (or the table as CSV). A row's file opens its source;
// a double click looks the key up in the answer panel.
//
// It follows the scope: each resolved scope (a fact edit, another node, a reload) resolves the keys
// again in the background (NodeReportRunner), while the panel is on screen; a hidden panel only
// remembers that its table is stale and catches up when it is shown.

#include "jobs/nodereportrunner.h"
#include "widgets/reportexport.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace hiera::ui {

class AllKeysModel;
class KeyWarningsModel;
class LookupRunner;
class ShownRefresh;

class AllKeysPanel : public QWidget
{
    Q_OBJECT
public:
    AllKeysPanel(NodeReportRunner* reports, LookupRunner* runner, QWidget* parent = nullptr);

    AllKeysModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    KeyWarningsModel* warningsModel() const { return m_warningsModel; }
    QTableView* warningsView() const { return m_warningsView; }
    QLineEdit* searchEdit() const { return m_search; }
    QString summaryText() const;

    // Writes the node's data to `path`: YAML (.yaml, .yml), JSON (.json) or the table as CSV (.csv).
    bool exportTo(const QString& path, QString* error) const;
    // True while the newest scope waits for the panel to be shown.
    bool isStale() const;

Q_SIGNALS:
    void keyChosen(const QString& key); // a row was activated: look it up
    void sourceRequested(const QModelIndex& index);
    void allKeysShown(); // a report is on screen

private:
    void scopeChanged(const ScopeSnapshotPtr& snapshot);
    void refresh();
    void show(const AllKeysReportPtr& report);
    void showWarnings(std::vector<hiera::NodeWarning> warnings);
    QList<ReportExport::Format> exportFormats() const;
    void chooseExport();

    NodeReportRunner* m_reports;
    LookupRunner* m_runner;
    AllKeysModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_search;
    QLabel* m_summary;
    QToolButton* m_warningsButton;
    QToolButton* m_export;
    QTableView* m_view;
    KeyWarningsModel* m_warningsModel;
    QTableView* m_warningsView;
    ShownRefresh* m_refresh;
    ScopeSnapshotPtr m_snapshot; // the newest resolved scope
};

} // namespace hiera::ui
