#pragma once

// FleetPanel — the current key across every node of the library (or the nodes the Nodes panel's
// filter shows): which nodes get which value (largest group first), from which files. It follows the key bar: each new
// key runs in the background, with progress and Cancel, while the panel is on screen (a hidden tab catches up when
// shown). Export saves the result as CSV, JSON or Markdown. A node opens its own answer.

#include "jobs/fleetrunner.h"
#include "widgets/reportexport.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QToolButton;
class QTimer;
class QTreeView;

namespace hiera::ui {

class FleetModel;
class LookupRunner;
class ShownRefresh;

class FleetPanel : public QWidget
{
    Q_OBJECT
public:
    FleetPanel(FleetRunner* fleet, LookupRunner* runner, QWidget* parent = nullptr);

    FleetModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QString summaryText() const;
    QPushButton* cancelButton() const { return m_cancel; }

    // Runs the current key (the key bar's) across the library now.
    void runNow();
    // The nodes to run on: the Nodes panel's filter (every node when it has none). A change runs the
    // key again, a moment after the last one (typing a filter runs once).
    void setNodeSelection(const NodeSelection& selection);
    // Facts the hierarchy's paths use that no node of the library has: the summary warns that the
    // levels using them matched nothing (NodesPanel::missingFactsChanged).
    void setMissingFacts(const QStringList& facts);
    // Writes the shown result to `path` as CSV, JSON or Markdown, by its extension (.csv, .json, .md).
    bool exportTo(const QString& path, QString* error) const;

Q_SIGNALS:
    void nodeChosen(const QString& name);
    void fleetShown(); // a result (or a cancelled one) is on screen

private:
    void show(const FleetResultPtr& result);
    void updateButtons();
    // The selection a run uses now: the Nodes filter's nodes when they are of the current library.
    NodeSelection effectiveSelection() const;
    QList<ReportExport::Format> exportFormats() const;
    void chooseExport();

    FleetRunner* m_fleet;
    LookupRunner* m_runner;
    FleetModel* m_model;
    ShownRefresh* m_refresh; // a key runs across the library while the panel is on screen
    QLabel* m_summary;
    QProgressBar* m_progress;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QToolButton* m_export;
    QTreeView* m_view;
    std::string m_key;
    hiera::LookupRequest m_request;
    NodeSelection m_selection; // the newest, from the Nodes panel
    NodeSelection m_runSelection; // the one the newest run used
    NodeSelection m_shownSelection; // the one the result on screen used
    QTimer* m_selectionDelay;
    QStringList m_missingFacts;
};

} // namespace hiera::ui
