#pragma once

// ImpactPanel — what one data file decides across the node library (hiera::fileImpact, as
// `hiera-lookup --impact` prints it): the nodes that read the file, and each key it defines with the
// nodes for which it is the winner or a contributor to a merge. The file comes from the Hierarchy
// panel's or the Source pane's "Impact" action, the file dialog, or is typed; the work runs in the
// background with progress, Cancel (Escape) stops it, and it runs again when the data changes on
// disk. A row opens its first node and key in the window; Export writes the command line's documents
// (Markdown, JSON).
//
// Above it, while a data file has unsaved edits in the Source pane, the edit's impact: every key whose
// answer the edit changes, before -> after, on which nodes (hiera::EditSession, updated as the user
// types: docs/editing-data.md).

#include "models/fileimpactreport.h"
#include "models/revisiondiffreport.h"
#include "widgets/reportexport.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QToolButton;

namespace hiera::ui {

class FileImpactModel;
class FleetRunner;
class RevisionDiffModel;
class ImpactRunner;
class LookupRunner;

class ImpactPanel : public QWidget
{
    Q_OBJECT
public:
    ImpactPanel(ImpactRunner* impacts, FleetRunner* fleet, LookupRunner* runner, QWidget* parent = nullptr);

    FileImpactModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLineEdit* fileEdit() const { return m_file; }
    QString summaryText() const;

    // What `path` decides for every node of the library.
    void showImpactOf(const QString& path);
    // Runs again for the file shown, if any (the data changed on disk).
    void refresh();
    // The unsaved edit of `file`: its changed answers (report->diff, from the disk to the edit).
    void showEditImpact(const RevisionDiffReportPtr& report, const QString& file);
    // No unsaved edit (saved, reverted, undone).
    void clearEditImpact();
    RevisionDiffModel* editModel() const { return m_editModel; }
    QTableView* editView() const { return m_editView; }
    QString editSummaryText() const;
    // Writes the impact to `path`: Markdown (.md) or JSON (.json).
    bool exportTo(const QString& path, QString* error) const;

Q_SIGNALS:
    void impactShown(); // an impact (or why there is none) is on screen
    void editImpactShown(); // an unsaved edit's impact is on screen
    // Open `node` and look `key` up in the window.
    void nodeAnswerRequested(const QString& node, const QString& key);

private:
    void run();
    void show(const FileImpactReportPtr& report);
    void updateButtons();
    QList<ReportExport::Format> exportFormats() const;

    ImpactRunner* m_impacts;
    FleetRunner* m_fleet;
    LookupRunner* m_runner;
    FileImpactModel* m_model;
    QLineEdit* m_file;
    QToolButton* m_choose;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_summary;
    QToolButton* m_export;
    QTableView* m_view;
    RevisionDiffModel* m_editModel;
    QWidget* m_editBox;
    QLabel* m_editSummary;
    QTableView* m_editView;
};

} // namespace hiera::ui
