#include "window/panelsetup.h"

#include "document/datafileeditor.h"
#include "document/datafilesync.h"
#include "document/factsdocument.h"
#include "jobs/editrunner.h"
#include "jobs/fleetrunner.h"
#include "jobs/impactrunner.h"
#include "jobs/lookuprunner.h"
#include "jobs/nodereportrunner.h"
#include "jobs/revisiondiffrunner.h"
#include "panels/allkeyspanel.h"
#include "panels/answerpanel.h"
#include "panels/factspanel.h"
#include "panels/fleetpanel.h"
#include "panels/hierarchypanel.h"
#include "panels/impactpanel.h"
#include "panels/lookupbar.h"
#include "panels/lookupscheduler.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "panels/revisiondiffpanel.h"
#include "panels/tracepanel.h"
#include "widgets/sourceviewer.h"

#include <QFileInfo>
#include <QMainWindow>
#include <QSplitter>
#include <QVBoxLayout>

namespace hiera::ui {

WindowParts PanelSetup::create(QMainWindow& window)
{
    WindowParts parts;
    parts.runner = new LookupRunner(&window);
    parts.facts = new FactsDocument(parts.runner, &window);
    parts.fileSync = new DataFileSync(parts.runner, &window);

    auto* central = new QWidget(&window);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    parts.lookupBar = new LookupBar(parts.runner, central);
    parts.scheduler = new LookupScheduler(parts.runner, parts.facts, parts.lookupBar, &window);
    layout->addWidget(parts.lookupBar);
    auto* splitter = new QSplitter(Qt::Vertical, central);
    splitter->setObjectName(QStringLiteral("answerSplitter"));
    parts.answerPanel = new AnswerPanel(parts.runner, parts.scheduler, splitter);
    parts.tracePanel = new TracePanel(parts.runner, parts.scheduler, splitter);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    window.setCentralWidget(central);

    parts.factsPanel = new FactsPanel(parts.facts);
    parts.hierarchyPanel = new HierarchyPanel(parts.runner);
    parts.sourceViewer = new SourceViewer;
    // The Source pane edits data files: parsed as the user types, saved exactly (docs/editing-data.md).
    parts.edits = new EditRunner(&window);
    parts.dataEditor = new DataFileEditor(parts.sourceViewer, parts.edits, parts.runner, &window);
    // What every level holds and what each leaf overrode.
    parts.overridesPanel = new OverridesPanel(parts.runner);
    // Many nodes: the node library, and the key across it.
    parts.fleet = new FleetRunner(&window);
    parts.nodesPanel = new NodesPanel(parts.fleet, parts.runner);
    parts.fleetPanel = new FleetPanel(parts.fleet, parts.runner);
    // Whole-node reports: every key of this node, and this node (or any) against another.
    parts.reports = new NodeReportRunner(&window);
    parts.allKeysPanel = new AllKeysPanel(parts.reports, parts.runner);
    parts.nodeDiffPanel = new NodeDiffPanel(parts.reports, parts.fleet, parts.runner);
    // What a change to the data does to the fleet: the library on two revisions.
    parts.revisionDiffs = new RevisionDiffRunner(&window);
    parts.revisionDiffPanel = new RevisionDiffPanel(parts.revisionDiffs, parts.fleet, parts.runner);
    // What one data file decides across the library: asked from the hierarchy or the source.
    parts.impacts = new ImpactRunner(&window);
    parts.impactPanel = new ImpactPanel(parts.impacts, parts.fleet, parts.runner);
    return parts;
}

void PanelSetup::connectPanels(QMainWindow& window, const WindowParts& parts)
{
    // The fleet view runs on the nodes the Nodes filter shows; the revision diff shows only theirs.
    QObject::connect(parts.nodesPanel, &NodesPanel::selectionChanged, parts.fleetPanel, &FleetPanel::setNodeSelection);
    QObject::connect(parts.nodesPanel, &NodesPanel::selectionChanged, parts.revisionDiffPanel,
                     &RevisionDiffPanel::setNodeSelection);
    QObject::connect(parts.nodesPanel, &NodesPanel::missingFactsChanged, parts.fleetPanel,
                     &FleetPanel::setMissingFacts);
    // Saved facts that belong to the library (a node's file, its PuppetDB export) are read into it again.
    QObject::connect(parts.facts, &FactsDocument::fileWritten, parts.fleet, &FleetRunner::reloadIfHolds);

    // The two lambdas have the window as their context, as every connection to the window does: its
    // destructor cuts them before the parts go (MainWindow::~MainWindow).
    SourceViewer* source = parts.sourceViewer;
    AnswerPanel* answer = parts.answerPanel;
    QObject::connect(answer, &AnswerPanel::answerShown, &window, [answer, source] {
        // No answer, no file of it: the previous key's file must not stay as if it were this one's.
        if (const LookupOutcomePtr outcome = answer->outcome(); outcome && !outcome->result.found())
            source->clear();
    });
    QObject::connect(parts.fileSync, &DataFileSync::dataInvalidated, parts.scheduler, &LookupScheduler::refresh);
    QObject::connect(parts.fileSync, &DataFileSync::dataInvalidated, parts.impactPanel, &ImpactPanel::refresh);
    // An unsaved data edit: evaluated over the library, shown in the Impact panel, and the answer on its
    // engine (docs/editing-data.md).
    QObject::connect(parts.fleet, &FleetRunner::libraryLoaded, parts.dataEditor,
                     [parts] { parts.dataEditor->setNodeLibrary(parts.fleet->library()); });
    QObject::connect(parts.fileSync, &DataFileSync::filesChanged, parts.dataEditor,
                     &DataFileEditor::filesChangedOnDisk);
    QObject::connect(parts.dataEditor, &DataFileEditor::answerEngineChanged, parts.scheduler,
                     &LookupScheduler::refresh);
    QObject::connect(parts.dataEditor, &DataFileEditor::editImpactReady, parts.impactPanel,
                     &ImpactPanel::showEditImpact);
    QObject::connect(parts.dataEditor, &DataFileEditor::editImpactCleared, parts.impactPanel,
                     &ImpactPanel::clearEditImpact);
    // A report names the revision its data came from: read again whenever the data changes on disk.
    QObject::connect(parts.fileSync, &DataFileSync::filesChanged, parts.runner, &LookupRunner::readRevision);
    QObject::connect(parts.fileSync, &DataFileSync::filesChanged, &window,
                     [source](const QSet<QString>& files, const QSet<QString>& directories) {
                         const QString viewed = source->currentFile();
                         if (!viewed.isEmpty()
                             && (files.contains(viewed) || directories.contains(QFileInfo(viewed).absolutePath())))
                             source->reload();
                     });
}

} // namespace hiera::ui
