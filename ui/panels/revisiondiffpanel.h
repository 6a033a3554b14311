#pragma once

// RevisionDiffPanel — what a change to the data does to the fleet: the node library (the Nodes panel's)
// resolved on two revisions of the repository, every key whose answer changes on some node, one row per
// change (before, after, the nodes, the file:line behind each side). The revisions are picked from the
// repository's HEAD, branches, tags and recent commits (each with its message, author and date), the newer
// side the working tree unless another is chosen. Compare runs it in the background with progress;
// Cancel (Escape) stops it. A key prefix and the Nodes panel's filter narrow the rows (the diff is of
// every node; the filter only chooses which are shown); Export writes what is shown as hiera-lookup
// --revision-diff writes it (Markdown, HTML, JSON), saying how it was narrowed. A row opens its node's
// answer explained on both revisions (RevisionAnswerDialog); with the working tree as the newer side,
// its context menu also opens the node and key in the window.

#include "jobs/fleetrunner.h"
#include "jobs/revisiondiffrunner.h"
#include "models/nodereports.h"
#include "widgets/reportexport.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QToolButton;

namespace hiera::ui {

class LookupRunner;
class RevisionAnswerDialog;
class RevisionDiffModel;

class RevisionDiffPanel : public QWidget
{
    Q_OBJECT
public:
    RevisionDiffPanel(RevisionDiffRunner* diffs, FleetRunner* fleet, LookupRunner* runner, QWidget* parent = nullptr);

    RevisionDiffModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QComboBox* fromBox() const { return m_from; }
    QComboBox* toBox() const { return m_to; }
    QLineEdit* prefixEdit() const { return m_prefix; }
    QPushButton* compareButton() const { return m_compare; }
    QPushButton* cancelButton() const { return m_cancel; }
    QString summaryText() const;

    // Diffs the library between `from` and `to` (a revision's name; empty `to`: the working tree).
    void compare(const QString& from, const QString& to);
    // Writes the diff as shown to `path`: Markdown (.md), HTML (.html) or JSON (.json).
    bool exportTo(const QString& path, QString* error) const;
    // The nodes the Nodes panel's filter shows: only their changes are shown.
    void setNodeSelection(const NodeSelection& selection);
    // Opens the row's answer explained on both revisions, for its first node (the others in the dialog).
    RevisionAnswerDialog* explainRow(const QModelIndex& index);

Q_SIGNALS:
    void revisionsShown(); // the pickers hold the repository's revisions (or say why not)
    void diffShown(); // a diff (or why there is none) is on screen
    // Open `node` and look `key` up in the window (the working tree's answer).
    void nodeAnswerRequested(const QString& node, const QString& key);

private:
    void listed(const RevisionListPtr& list);
    void show(const RevisionDiffReportPtr& report);
    void updateButtons();
    void updateSummary();
    void showContextMenu(const QPoint& position);
    QString revisionOf(const QComboBox* box) const;
    QList<ReportExport::Format> exportFormats() const;

    RevisionDiffRunner* m_diffs;
    FleetRunner* m_fleet;
    LookupRunner* m_runner;
    RevisionDiffModel* m_model;
    QComboBox* m_from;
    QComboBox* m_to;
    QPushButton* m_compare;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLineEdit* m_prefix;
    QLabel* m_summary;
    QToolButton* m_export;
    QTableView* m_view;
    QString m_nodeFilter; // the Nodes filter narrowing the rows; empty: every node shown
};

} // namespace hiera::ui
