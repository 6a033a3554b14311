#pragma once

class QMainWindow;

namespace hiera::ui {

// The main window's parts — the runners, the facts document and the panels over them — made in one
// place (PanelSetup::create) and wired to each other (PanelSetup::connectPanels). MainWindow keeps them
// in one WindowParts; the docks they sit in are DockSetup's job (docksetup.h), and what they ask of
// the window itself (show a source, open a node, take the answer's signals) stays in mainwindow.cpp.

class AllKeysPanel;
class AnswerPanel;
class DataFileEditor;
class DataFileSync;
class EditRunner;
class FactsDocument;
class FactsPanel;
class FleetPanel;
class FleetRunner;
class HierarchyPanel;
class ImpactPanel;
class ImpactRunner;
class LookupBar;
class LookupRunner;
class LookupScheduler;
class NodeDiffPanel;
class NodeReportRunner;
class NodesPanel;
class OverridesPanel;
class RevisionDiffPanel;
class RevisionDiffRunner;
class SourceViewer;
class TracePanel;

// Every part exists once and is owned by the window as a Qt child (the runners directly, the panels
// through their docks and the central widget): these are only pointers.
struct WindowParts
{
    // The work: one lookup, the facts being edited, the data on disk, and the many-node runners.
    LookupRunner* runner = nullptr;
    FactsDocument* facts = nullptr;
    DataFileSync* fileSync = nullptr;
    LookupScheduler* scheduler = nullptr;
    FleetRunner* fleet = nullptr;
    NodeReportRunner* reports = nullptr;
    RevisionDiffRunner* revisionDiffs = nullptr;
    ImpactRunner* impacts = nullptr;
    // The data file edited in the Source pane, and its edits parsed and evaluated off the GUI thread.
    EditRunner* edits = nullptr;
    DataFileEditor* dataEditor = nullptr;

    // The central widget: the lookup bar over the answer and its trace.
    LookupBar* lookupBar = nullptr;
    AnswerPanel* answerPanel = nullptr;
    TracePanel* tracePanel = nullptr;

    // The docked panels (DockSetup::dockPanels places them).
    FactsPanel* factsPanel = nullptr;
    HierarchyPanel* hierarchyPanel = nullptr;
    SourceViewer* sourceViewer = nullptr;
    OverridesPanel* overridesPanel = nullptr;
    NodesPanel* nodesPanel = nullptr;
    FleetPanel* fleetPanel = nullptr;
    AllKeysPanel* allKeysPanel = nullptr;
    NodeDiffPanel* nodeDiffPanel = nullptr;
    RevisionDiffPanel* revisionDiffPanel = nullptr;
    ImpactPanel* impactPanel = nullptr;
};

namespace PanelSetup {

// Makes the runners and the facts document (children of `window`), sets the central widget (lookup
// bar, answer over trace in the "answerSplitter") and makes the dock panels, not yet docked.
WindowParts create(QMainWindow& window);

// The connections between parts that need nothing of the window: the Nodes selection to the fleet
// view and the revision diff, the data on disk to the scheduler, the Impact panel and the source,
// saved facts to the node library, the answer to the source pane. Made before the window's own
// connections (MainWindow::connectParts), so that a signal both hear reaches these first, as it always has.
void connectPanels(QMainWindow& window, const WindowParts& parts);

} // namespace PanelSetup

} // namespace hiera::ui
