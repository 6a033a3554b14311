#include "window/mainwindow.h"

#include "widgets/elidedlabel.h"
#include "widgets/reportexport.h"

#include "document/datafilesync.h"
#include "document/demo.h"
#include "jobs/fleetrunner.h"
#include "jobs/impactrunner.h"
#include "jobs/lookuprunner.h"
#include "jobs/nodereportrunner.h"
#include "jobs/revisiondiffrunner.h"
#include "models/facttreemodel.h"
#include "models/modelroles.h"
#include "models/overridesmodel.h"
#include "models/valueconvert.h"
#include "models/valuetreemodel.h"
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
#include "widgets/messagebanner.h"
#include "widgets/sourceviewer.h"
#include "window/explanationreport.h"
#include "window/helpguide.h"
#include "window/repositorymenu.h"
#include "window/repositoryswitch.h"

#include <QAction>
#include <QApplication>
#include <QChildEvent>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

#include <QVBoxLayout>
#include <hiera/lookupkey.h>
#include <hiera/scope.h>
#include <hiera/version.h>

namespace {
constexpr int maxRecentFiles = 10;
// Only files up to this size are shown unasked after an answer: highlighting a large data file would
// stall the first answer.
constexpr qint64 autoShowSourceLimit = 64 * 1024;

const auto recentHierarchiesKey = QStringLiteral("recent/hierarchies");
const auto recentFactsKey = QStringLiteral("recent/facts");
const auto keyHistoryKey = QStringLiteral("lookup/history");
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("HieraExplorerMainWindow"));
    setAcceptDrops(true);
    createPanels();
    createActions();
    readSettings();
    updateTitle();
}

MainWindow::~MainWindow()
{
    // Destroying the child widgets moves the focus, and a focused editor then emits signals whose slots
    // would run on the half-destroyed window: cut every connection from our children to this window.
    const auto children = findChildren<QObject*>();
    for (QObject* child : children)
        QObject::disconnect(child, nullptr, this, nullptr);
}

// ---------------------------------------------------------------------------------------------------
// Panels

void MainWindow::createPanels()
{
    m_runner = new LookupRunner(this);
    m_facts = new FactsDocument(m_runner, this);
    m_facts->setQuestionHandler(
        [this](Question question, const QString& text) { return askWithMessageBox(question, text); });
    m_facts->setSavePathPrompt(
        [this](const QString& suggestion, FactsDocument::SaveKind kind) { return askSavePath(suggestion, kind); });
    m_fileSync = new DataFileSync(m_runner, this);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_lookupBar = new LookupBar(m_runner, central);
    m_scheduler = new LookupScheduler(m_runner, m_facts, m_lookupBar, this);
    layout->addWidget(m_lookupBar);
    auto* splitter = new QSplitter(Qt::Vertical, central);
    splitter->setObjectName(QStringLiteral("answerSplitter"));
    m_answerPanel = new AnswerPanel(m_runner, m_scheduler, splitter);
    m_tracePanel = new TracePanel(m_runner, m_scheduler, splitter);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    setCentralWidget(central);

    m_factsPanel = new FactsPanel(m_facts);
    m_hierarchyPanel = new HierarchyPanel(m_runner);
    m_sourceViewer = new SourceViewer;
    addDock(m_factsPanel, tr("Facts and scope"), QStringLiteral("factsDock"), Qt::LeftDockWidgetArea);
    addDock(m_hierarchyPanel, tr("Hierarchy"), QStringLiteral("hierarchyDock"), Qt::BottomDockWidgetArea);
    addDock(m_sourceViewer, tr("Source"), QStringLiteral("sourceDock"), Qt::RightDockWidgetArea);
    // What every level holds and what each leaf overrode: a tab beside the hierarchy.
    m_overridesPanel = new OverridesPanel(m_runner);
    tabifyDockWidget(
        findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
        addDock(m_overridesPanel, tr("Overridden values"), QStringLiteral("overridesDock"), Qt::BottomDockWidgetArea));
    connect(m_overridesPanel, &OverridesPanel::sourceRequested, this, &MainWindow::showSourceFor);
    // Many nodes: the node library beside the facts, the key across it beside the hierarchy.
    m_fleet = new FleetRunner(this);
    m_nodesPanel = new NodesPanel(m_fleet, m_runner);
    tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("factsDock")),
                     addDock(m_nodesPanel, tr("Nodes"), QStringLiteral("nodesDock"), Qt::LeftDockWidgetArea));
    m_fleetPanel = new FleetPanel(m_fleet, m_runner);
    tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
                     addDock(m_fleetPanel, tr("Across nodes"), QStringLiteral("fleetDock"), Qt::BottomDockWidgetArea));
    // Whole-node reports: every key of this node, and this node (or any) against another.
    m_reports = new NodeReportRunner(this);
    m_allKeysPanel = new AllKeysPanel(m_reports, m_runner);
    tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
                     addDock(m_allKeysPanel, tr("All keys"), QStringLiteral("allKeysDock"), Qt::BottomDockWidgetArea));
    m_nodeDiffPanel = new NodeDiffPanel(m_reports, m_fleet, m_runner);
    tabifyDockWidget(
        findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
        addDock(m_nodeDiffPanel, tr("Compare nodes"), QStringLiteral("nodeDiffDock"), Qt::BottomDockWidgetArea));
    connect(m_allKeysPanel, &AllKeysPanel::keyChosen, this, &MainWindow::setKey);
    connect(m_allKeysPanel, &AllKeysPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_nodeDiffPanel, &NodeDiffPanel::nodeAnswerRequested, this,
            [this](const QString& node, const QString& key) {
                // The answer as the compared node has it: the library node's facts become the scope first
                // (the question about unsaved edits may keep the current ones; the key is set either way).
                if (node != NodeDiffPanel::currentFactsName())
                    openLibraryNode(node);
                setKey(key);
            });
    connect(m_nodeDiffPanel, &NodeDiffPanel::sourceRequested, this, &MainWindow::showSourceFor);
    // What a change to the data does to the fleet: the library on two revisions.
    m_revisionDiffs = new RevisionDiffRunner(this);
    m_revisionDiffPanel = new RevisionDiffPanel(m_revisionDiffs, m_fleet, m_runner);
    tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
                     addDock(m_revisionDiffPanel, tr("Revision diff"), QStringLiteral("revisionDiffDock"),
                             Qt::BottomDockWidgetArea));
    // What one data file decides across the library: asked from the hierarchy or the source.
    m_impacts = new ImpactRunner(this);
    m_impactPanel = new ImpactPanel(m_impacts, m_fleet, m_runner);
    tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
                     addDock(m_impactPanel, tr("Impact"), QStringLiteral("impactDock"), Qt::BottomDockWidgetArea));
    findChild<QDockWidget*>(QStringLiteral("factsDock"))->raise();
    findChild<QDockWidget*>(QStringLiteral("hierarchyDock"))->raise();
    const auto openNodeAndRootKey = [this](const QString& node, const QString& key) {
        openLibraryNode(node);
        setKey(QString::fromStdString(hiera::LookupKey::forRoot(key.toStdString()))); // a root key
    };
    connect(m_revisionDiffPanel, &RevisionDiffPanel::nodeAnswerRequested, this, openNodeAndRootKey);
    connect(m_impactPanel, &ImpactPanel::nodeAnswerRequested, this, openNodeAndRootKey);
    const auto showImpact = [this](const QString& path) {
        m_impactPanel->showImpactOf(path);
        raisePanel(m_impactPanel);
    };
    connect(m_hierarchyPanel, &HierarchyPanel::impactRequested, this, showImpact);
    connect(m_sourceViewer, &SourceViewer::impactRequested, this, showImpact);
    connect(m_nodesPanel, &NodesPanel::nodeChosen, this, &MainWindow::openNode);
    // The fleet view runs on the nodes the Nodes filter shows; the revision diff shows only theirs.
    connect(m_nodesPanel, &NodesPanel::selectionChanged, m_fleetPanel, &FleetPanel::setNodeSelection);
    connect(m_nodesPanel, &NodesPanel::selectionChanged, m_revisionDiffPanel, &RevisionDiffPanel::setNodeSelection);
    connect(m_nodesPanel, &NodesPanel::missingFactsChanged, m_fleetPanel, &FleetPanel::setMissingFacts);
    connect(m_nodesPanel, &NodesPanel::compareRequested, this, [this](const QString& a, const QString& b) {
        m_nodeDiffPanel->compare(a, b);
        raisePanel(m_nodeDiffPanel);
    });
    // Saved facts that belong to the library (a node's file, its PuppetDB export) are read into it again.
    connect(m_facts, &FactsDocument::fileWritten, m_fleet, &FleetRunner::reloadIfHolds);
    connect(m_fleetPanel, &FleetPanel::nodeChosen, this, &MainWindow::openLibraryNode);
    if (const QString library = NodesPanel::rememberedLibrary(); !library.isEmpty() && QFileInfo::exists(library))
        m_nodesPanel->openLibrary(library);
    // The facts run the full height on the left (a node has many); the hierarchy sits under the
    // answer and the source.
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

    connect(m_answerPanel, &AnswerPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_tracePanel, &TracePanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_hierarchyPanel, &HierarchyPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_tracePanel, &TracePanel::winnerShown, this, [this](const QModelIndex& origin) {
        // The source follows the answer: each new one shows the highest-priority file that contributed
        // (a file too large to highlight unasked is left for a click).
        if (QFileInfo(origin.data(HieraRoles::SourceFileRole).toString()).size() <= autoShowSourceLimit)
            showSourceFor(origin);
        else
            m_sourceViewer->clear();
    });
    connect(m_answerPanel, &AnswerPanel::answerShown, this, [this] {
        // No answer, no file of it: the previous key's file must not stay as if it were this one's.
        if (const LookupOutcomePtr outcome = m_answerPanel->outcome(); outcome && !outcome->result.found())
            m_sourceViewer->clear();
    });
    connect(m_fileSync, &DataFileSync::dataInvalidated, m_scheduler, &LookupScheduler::refresh);
    connect(m_fileSync, &DataFileSync::dataInvalidated, m_impactPanel, &ImpactPanel::refresh);
    // A report names the revision its data came from: read again whenever the data changes on disk.
    connect(m_fileSync, &DataFileSync::filesChanged, m_runner, &LookupRunner::readRevision);
    connect(m_fileSync, &DataFileSync::filesChanged, this,
            [this](const QSet<QString>& files, const QSet<QString>& directories) {
                const QString viewed = m_sourceViewer->currentFile();
                if (!viewed.isEmpty()
                    && (files.contains(viewed) || directories.contains(QFileInfo(viewed).absolutePath())))
                    m_sourceViewer->reload();
            });

    connect(m_runner, &LookupRunner::engineLoaded, this, &MainWindow::onEngineLoaded);
    connect(m_runner, &LookupRunner::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_answerPanel, &AnswerPanel::answerShown, this, &MainWindow::settleKeyAfterSwitch);
    connect(m_answerPanel, &AnswerPanel::answerShown, this, &MainWindow::answerShown);
    connect(m_hierarchyPanel, &HierarchyPanel::hierarchyShown, this, &MainWindow::hierarchyShown);
    connect(m_facts, &FactsDocument::readFinished, this, &MainWindow::factsLoadFinished);
    // The Nodes list marks the node whose facts are open: when they are read, and when a library opens.
    connect(m_facts, &FactsDocument::readFinished, this, &MainWindow::markCurrentNode);
    connect(m_fleet, &FleetRunner::libraryLoaded, this, &MainWindow::markCurrentNode);
    connect(m_facts, &FactsDocument::readFinished, this, [this](bool ok) {
        if (ok && m_facts->node().isEmpty()) // a PuppetDB export is a library, not a facts file
            addRecent(recentFactsKey, m_facts->path());
    });
    connect(m_facts, &FactsDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_facts, &FactsDocument::modifiedChanged, this, &MainWindow::updateTitle);

    // Elided to the status bar's width: a long path here set the window's minimum width.
    m_statusLabel = new ElidedLabel(Qt::ElideMiddle, this);
    m_busyLabel = new QLabel(this);
    // A fixed size: its text comes and goes with every job, and must not re-lay out the window.
    m_busyLabel->setFixedSize(m_busyLabel->fontMetrics().horizontalAdvance(tr("Working…")) + 8,
                              m_busyLabel->fontMetrics().height());
    // Which facts the answers are for, always in view (the title bar can be cut short or hidden).
    m_factsLabel = new ElidedLabel(Qt::ElideMiddle, this);
    m_factsLabel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred); // its full width when there is room
    m_factsLabel->setObjectName(QStringLiteral("factsFileLabel"));
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_factsLabel);
    statusBar()->addPermanentWidget(m_busyLabel);
    updateTitle();
    connect(m_runner, &LookupRunner::busyChanged, this,
            [this](bool busy) { m_busyLabel->setText(busy ? tr("Working…") : QString()); });
    connect(m_facts, &FactsDocument::statusMessage, m_statusLabel, &ElidedLabel::setFullText);
    connect(m_answerPanel, &AnswerPanel::statusMessage, m_statusLabel, &ElidedLabel::setFullText);

    // The first size: roomy, but inside the screen's free area (a 1280x800 laptop cut off the Source
    // dock and the status bar). A size the user left is restored over it (readSettings()).
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1500, 950);
    resize(std::min(1500, available.width() * 9 / 10), std::min(950, available.height() * 9 / 10));
}

QDockWidget* MainWindow::addDock(QWidget* panel, const QString& title, const QString& objectName,
                                 Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    // A tab behind another stays isVisible() (Qt only covers it), so Tab walked into its widgets and
    // typing went to a list nobody saw. Disabled while covered, it is out of the focus chain.
    connect(dock, &QDockWidget::visibilityChanged, panel, &QWidget::setEnabled);
    return dock;
}

void MainWindow::applyDefaultLayout()
{
    // First-run proportions (readSettings() restores the user's own instead): the facts wide enough
    // for their values, the source for a data file's lines, most of the height for the answer.
    auto* factsDock = findChild<QDockWidget*>(QStringLiteral("factsDock"));
    auto* sourceDock = findChild<QDockWidget*>(QStringLiteral("sourceDock"));
    auto* hierarchyDock = findChild<QDockWidget*>(QStringLiteral("hierarchyDock"));
    resizeDocks({factsDock, sourceDock}, {330, 380}, Qt::Horizontal);
    resizeDocks({hierarchyDock}, {height() / 3}, Qt::Vertical);
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        splitter->setSizes({splitter->height() / 2, splitter->height() / 2});
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Once the layout has its real size: dock sizes asked for earlier are overridden by the first layout.
    if (!std::exchange(m_shownOnce, true) && !m_layoutRestored)
        QTimer::singleShot(0, this, &MainWindow::applyDefaultLayout);
}

// ---------------------------------------------------------------------------------------------------
// Actions and settings

void MainWindow::createActions()
{
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* openAction = fileMenu->addAction(tr("&Open Hierarchy…"), this, &MainWindow::openHierarchyDialog);
    openAction->setShortcut(QKeySequence::Open);
    // A control repository is opened by its hiera.yaml (above) or by its root directory (here).
    QAction* openFolderAction =
        fileMenu->addAction(tr("Open Control Repository &Folder…"), this, &MainWindow::openRepositoryFolderDialog);
    openFolderAction->setObjectName(QStringLiteral("openFolderAction"));
    m_recentHierarchyMenu = fileMenu->addMenu(tr("Open &Recent Hierarchy"));
    fileMenu->addAction(tr("Open &Demo"), this, &MainWindow::openDemo);
    QAction* reloadAction = fileMenu->addAction(tr("Re&load"), this, [this] {
        if (!m_hieraYaml.isEmpty())
            m_runner->load(m_hieraYaml);
    });
    reloadAction->setShortcut(QKeySequence::Refresh);
    fileMenu->addSeparator();
    QAction* openFactsAction = fileMenu->addAction(tr("Open &Facts…"), this, &MainWindow::openFactsDialog);
    openFactsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentFactsMenu = fileMenu->addMenu(tr("Recent Fa&cts"));
    QAction* saveAction = fileMenu->addAction(tr("&Save Facts"), m_facts, &FactsDocument::save);
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = fileMenu->addAction(tr("Save Facts &As…"), m_facts, &FactsDocument::saveAs);
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    QAction* saveScopeAction = fileMenu->addAction(tr("Save Sco&pe As…"), m_facts, &FactsDocument::saveScopeAs);
    saveScopeAction->setObjectName(QStringLiteral("saveScopeAction"));
    saveScopeAction->setStatusTip(tr("Save facts, trusted data and top-scope variables as one scope file for "
                                     "Hiera Explorer (not a facts file)"));
    fileMenu->addAction(tr("&Export Facts Only…"), this, &MainWindow::exportFactsDialog);
    QAction* openLibraryAction = fileMenu->addAction(tr("Open &Node Library…"), this, [this] {
        raisePanel(m_nodesPanel); // where the library will show, and its progress meanwhile
        m_nodesPanel->chooseLibrary();
    });
    openLibraryAction->setObjectName(QStringLiteral("openNodeLibraryAction"));
    openLibraryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    fileMenu->addSeparator();
    QAction* exportAction = fileMenu->addAction(tr("Export E&xplanation…"), this, &MainWindow::exportExplanationDialog);
    exportAction->setObjectName(QStringLiteral("exportExplanationAction"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction* printAction = fileMenu->addAction(tr("&Print Explanation…"), this, &MainWindow::printExplanationDialog);
    printAction->setShortcut(QKeySequence::Print);
    fileMenu->addSeparator();
    QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QToolBar* factsToolBar = m_factsPanel->toolBar();
    factsToolBar->addAction(tr("Open…"), this, &MainWindow::openFactsDialog);
    factsToolBar->addAction(tr("Save"), m_facts, &FactsDocument::save);

    QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction* undoAction = m_facts->undoStack()->createUndoAction(this, tr("&Undo"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction* redoAction = m_facts->undoStack()->createRedoAction(this, tr("&Redo"));
    redoAction->setShortcut(QKeySequence::Redo);
    editMenu->addAction(undoAction);
    editMenu->addAction(redoAction);
    editMenu->addSeparator();
    editMenu->addAction(tr("&Add Fact"), m_factsPanel, &FactsPanel::addFact);
    editMenu->addAction(m_factsPanel->removeAction());
    editMenu->addSeparator();
    // Ctrl+F searches where the user is: the search of the panel in focus (All keys, Nodes, Compare
    // nodes' prefix), else the key. Ctrl+L, as a browser's address bar, always leads to the key.
    QAction* findAction = editMenu->addAction(tr("&Find"), this, &MainWindow::findInFocusedPanel);
    findAction->setObjectName(QStringLiteral("findAction"));
    findAction->setShortcut(QKeySequence::Find);
    QAction* keyAction = editMenu->addAction(tr("Go to &Key"), m_lookupBar, &LookupBar::focusKey);
    keyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction* copyAction = editMenu->addAction(tr("&Copy Value as YAML"), m_answerPanel, &AnswerPanel::copyYaml);
    copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addSeparator();
    QAction* resetLayoutAction = viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    resetLayoutAction->setObjectName(QStringLiteral("resetLayoutAction"));

    m_repositoryMenu = new RepositoryMenu(m_runner, this);
    menuBar()->addMenu(m_repositoryMenu->menu());
    connect(m_repositoryMenu, &RepositoryMenu::optionsChanged, this, [this] {
        if (!m_hieraYaml.isEmpty())
            loadHierarchy(m_hieraYaml);
    });

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction* guideAction = helpMenu->addAction(tr("Hiera Explorer &Guide"), this, &MainWindow::showGuide);
    guideAction->setShortcut(QKeySequence::HelpContents);
    helpMenu->addSeparator();
    helpMenu->addAction(tr("&About Hiera Explorer"), this, &MainWindow::showAbout);
    helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::readSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // A size saved on a larger screen (a docked laptop, then the laptop alone) is made to fit this one:
    // restoreGeometry() brings a window back on screen but keeps its size. The margin is for the frame.
    if (const QScreen* current = screen()) {
        const QRect available = current->availableGeometry();
        const QSize fit(std::min(width(), available.width() - 16), std::min(height(), available.height() - 48));
        if (fit != size()) {
            resize(fit.expandedTo(minimumSizeHint()));
            move(std::clamp(x(), available.left(), std::max(available.left(), available.right() - width())),
                 std::clamp(y(), available.top(), std::max(available.top(), available.bottom() - height())));
        }
    }
    m_layoutRestored = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        splitter->restoreState(settings.value(QStringLiteral("window/answerSplitter")).toByteArray());
    m_lookupBar->setHistory(settings.value(keyHistoryKey).toStringList());
    rebuildRecentMenus();
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        settings.setValue(QStringLiteral("window/answerSplitter"), splitter->saveState());
    settings.setValue(keyHistoryKey, m_lookupBar->history());
}

void MainWindow::addRecent(const QString& settingsKey, const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(settingsKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    settings.setValue(settingsKey, files);
    rebuildRecentMenus();
}

void MainWindow::rebuildRecentMenus()
{
    QSettings settings;
    auto fill = [&](QMenu* menu, const QString& key, bool hierarchy) {
        menu->clear();
        const QStringList files = settings.value(key).toStringList();
        for (const QString& file : files) {
            menu->addAction(file, this, [this, file, hierarchy] {
                if (hierarchy)
                    openHierarchy(file);
                else
                    openFacts(file);
            });
        }
        menu->setEnabled(!files.isEmpty());
    };
    fill(m_recentHierarchyMenu, recentHierarchiesKey, true);
    fill(m_recentFactsMenu, recentFactsKey, false);
}

void MainWindow::updateTitle()
{
    QString title;
    if (!m_facts->path().isEmpty())
        title = m_facts->displayName() + QStringLiteral("[*] — ");
    else
        title = tr("unsaved facts") + QStringLiteral("[*] — ");
    if (!m_hieraYaml.isEmpty())
        title += QDir::toNativeSeparators(m_hieraYaml) + QStringLiteral(" — ");
    title += tr("Hiera Explorer");
    setWindowTitle(title);
    setWindowModified(m_facts->isModified());
    if (m_factsLabel) {
        const QString path = m_facts->path();
        QString text = path.isEmpty() ? tr("Facts: not saved to a file") : tr("Facts: %1").arg(m_facts->displayName());
        if (m_facts->isModified())
            text += tr(" (modified)");
        if (Demo::isDemoFile(path))
            text += tr(" (bundled demo, read-only)");
        m_factsLabel->setFullText(text);
        m_factsLabel->setExtraToolTip(path.isEmpty() ? tr("The facts have not been saved to a file")
                                                     : QDir::toNativeSeparators(path));
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_facts->maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

// ---------------------------------------------------------------------------------------------------
// Opening

bool MainWindow::looksLikeHieraYaml(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QFileInfo(path).fileName() == QLatin1String("hiera.yaml");
    const QString head = QString::fromUtf8(file.read(64 * 1024));
    static const QRegularExpression version(QStringLiteral("^version\\s*:\\s*5\\b"),
                                            QRegularExpression::MultilineOption);
    static const QRegularExpression hierarchy(QStringLiteral("^(hierarchy|defaults)\\s*:"),
                                              QRegularExpression::MultilineOption);
    return version.match(head).hasMatch() && hierarchy.match(head).hasMatch();
}

bool MainWindow::openHierarchy(const QString& hieraYaml)
{
    const QString path = RepositoryOptions::hieraYamlFor(hieraYaml);
    if (path != m_hieraYaml && !m_hieraYaml.isEmpty() && !m_facts->maybeSave(true))
        return false;
    loadHierarchy(path);
    return true;
}

void MainWindow::loadHierarchy(const QString& hieraYaml)
{
    const QString path = RepositoryOptions::hieraYamlFor(hieraYaml);
    m_statusLabel->setFullText(tr("Loading %1…").arg(path));
    m_repositoryMenu->setRepository(path);
    m_runner->load(path, m_repositoryMenu->optionsFor(path));
}

void MainWindow::onEngineLoaded(const QString& hieraYaml)
{
    const QString previous = std::exchange(m_hieraYaml, hieraYaml);
    if (!previous.isEmpty() && previous != hieraYaml)
        leaveRepository(previous);
    m_facts->setHierarchy(hieraYaml); // offers its autosave before the first answer
    addRecent(recentHierarchiesKey, hieraYaml);
    m_statusLabel->setFullText(tr("Loaded %1 (environment %2)").arg(hieraYaml, m_runner->environmentName()));
    updateTitle();
    Q_EMIT engineLoadFinished(true);
}

void MainWindow::leaveRepository(const QString& previous)
{
    Q_UNUSED(previous) // what it held is what is judged: the facts and filters still on screen
    QStringList notice;
    const EnginePtr engine = m_runner->engine();
    const hiera::Value facts = m_facts->scope();
    // Facts being read were chosen for this repository (the demo's, a node's): nothing to judge.
    const bool anyFacts = !m_facts->path().isEmpty() || (facts.isHash() && !facts.asHash().empty());
    if (engine && anyFacts && !m_facts->isReading()) {
        const RepositorySwitch::FactsVerdict verdict = RepositorySwitch::judgeFacts(*engine, facts);
        const QString name = m_facts->path().isEmpty() ? tr("the unsaved facts") : m_facts->displayName();
        notice << RepositorySwitch::factsSentence(verdict, name);
        if (!verdict.keep)
            m_facts->close(); // its unsaved edits were asked about before the switch (openHierarchy)
    }
    // Searches typed for the other repository's keys would hide this one's.
    const std::pair<QLineEdit*, QString> keyFilters[] = {
        {m_allKeysPanel->searchEdit(), tr("the All keys search")},
        {m_nodeDiffPanel->prefixEdit(), tr("the Compare nodes prefix")},
    };
    for (const auto& [edit, what] : keyFilters) {
        if (edit->text().isEmpty())
            continue;
        notice << tr("cleared %1 “%2”").arg(what, edit->text());
        edit->clear();
    }
    m_switchNotice = notice;
    m_switchEngine = m_lookupBar->key().isEmpty() ? nullptr : engine;
    if (!m_switchEngine && !notice.isEmpty())
        m_answerPanel->banner()->showMessage(
            MessageBanner::Kind::Information,
            tr("Opened %1: %2.").arg(QDir::toNativeSeparators(m_hieraYaml), notice.join(QStringLiteral("; "))));
}

void MainWindow::settleKeyAfterSwitch()
{
    const LookupOutcomePtr outcome = m_answerPanel->outcome();
    if (!m_switchEngine || !outcome || outcome->engine != m_switchEngine)
        return; // no switch, or an answer of the engine before
    m_switchEngine = nullptr;
    const QString key = m_lookupBar->key();
    const bool keep = outcome->result.status != hiera::LookupResult::Status::NotFound;
    m_switchNotice << (keep ? tr("kept the key %1").arg(key)
                            : tr("cleared the key %1, which it does not hold for these facts").arg(key));
    const QString text =
        tr("Opened %1: %2.").arg(QDir::toNativeSeparators(m_hieraYaml), m_switchNotice.join(QStringLiteral("; ")));
    if (keep) {
        m_answerPanel->banner()->showMessage(MessageBanner::Kind::Information, text);
    } else {
        m_answerPanel->setNoKeyNotice(text); // said when the emptied key field is answered
        setKey(QString());
    }
}

void MainWindow::onLoadFailed(const QString& hieraYaml)
{
    m_statusLabel->setFullText(tr("Loading failed: the Hierarchy panel says why"));
    // The failure is told there only: make sure that panel is on screen.
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("hierarchyDock"))) {
        dock->show();
        dock->raise();
    }
    if (m_hieraYaml.isEmpty())
        m_hieraYaml = hieraYaml;
    Q_EMIT engineLoadFinished(false);
}

bool MainWindow::openFacts(const QString& path)
{
    return m_facts->open(path);
}

void MainWindow::openNode(const QString& name, const QString& factsFile, bool ownFile)
{
    // A node of its own facts file opens as that file; a node of a PuppetDB export as its entry there.
    // Either way edits are saved back in the file's format and autosaved.
    const bool started = ownFile ? openFacts(factsFile) : m_facts->openNode(factsFile, name);
    // Not opened (the question about unsaved edits was cancelled): the list marks the node still open,
    // not the one clicked.
    if (!started)
        markCurrentNode();
}

void MainWindow::openLibraryNode(const QString& name)
{
    if (const NodeLibraryPtr library = m_fleet->library())
        if (const hiera::Node* node = library->find(ValueConvert::toStd(name)))
            openNode(name, ValueConvert::toQString(node->sourceFile), node->format != hiera::FactsFormat::PuppetDB);
}

void MainWindow::markCurrentNode()
{
    const std::optional<hiera::Value> certname = hiera::MapScope(m_facts->scope()).lookup("trusted.certname");
    m_nodesPanel->markOpened(certname && certname->isString() ? ValueConvert::toQString(certname->asString())
                                                              : QString());
}

bool MainWindow::openDemo()
{
    const QString hieraYaml = Demo::hieraYaml();
    if (hieraYaml.isEmpty()) {
        m_answerPanel->banner()->showMessage(
            MessageBanner::Kind::Warning,
            tr("The demo hierarchy is not installed. Open a hiera.yaml with File ▸ Open."));
        return false;
    }
    if (!m_facts->maybeSave())
        return false;
    const QString facts = Demo::defaultFactsFile(hieraYaml);
    if (!facts.isEmpty())
        m_facts->read(facts);
    loadHierarchy(hieraYaml);
    if (m_lookupBar->key().isEmpty())
        setKey(Demo::defaultKey());
    // Its nodes come along, so that the Nodes, Across nodes and Compare panels have something to show.
    const QString library = Demo::nodeLibrary(hieraYaml);
    if (!library.isEmpty() && QFileInfo(m_fleet->libraryPath()) != QFileInfo(library)
        && QFileInfo(NodesPanel::rememberedLibrary()) != QFileInfo(library))
        m_nodesPanel->openLibrary(library);
    return true;
}

void MainWindow::openHierarchyDialog()
{
    const QString start = m_hieraYaml.isEmpty() ? QString() : QFileInfo(m_hieraYaml).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open hiera.yaml"), start,
                                                      tr("Hiera configuration (hiera.yaml *.yaml);;All files (*)"));
    if (!path.isEmpty())
        openHierarchy(path);
}

void MainWindow::openRepositoryFolderDialog()
{
    const QString start = m_hieraYaml.isEmpty() ? QString() : QFileInfo(m_hieraYaml).absolutePath();
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open control repository"), start);
    if (!path.isEmpty())
        openHierarchy(path);
}

void MainWindow::openFactsDialog()
{
    if (!m_facts->maybeSave())
        return;
    const QString start =
        m_facts->path().isEmpty() ? QFileInfo(m_hieraYaml).absolutePath() : QFileInfo(m_facts->path()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open facts"), start, tr("Facts (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty())
        m_facts->read(path);
}

QLineEdit* MainWindow::searchOf(const QWidget* panel) const
{
    const std::pair<const QWidget*, QLineEdit*> searches[] = {
        {m_allKeysPanel, m_allKeysPanel->searchEdit()},
        {m_nodesPanel, m_nodesPanel->filterEdit()},
        {m_nodeDiffPanel, m_nodeDiffPanel->prefixEdit()},
    };
    for (const auto& [owner, search] : searches)
        if (owner == panel)
            return search;
    return nullptr;
}

void MainWindow::focusPanel(QWidget* panel)
{
    // Its search when it has one (Ctrl+F then searches it too), else its first widget that takes Tab.
    if (QLineEdit* search = searchOf(panel)) {
        search->setFocus(Qt::TabFocusReason);
        return;
    }
    for (QWidget* w = panel->nextInFocusChain(); w && w != panel && panel->isAncestorOf(w); w = w->nextInFocusChain()) {
        if ((w->focusPolicy() & Qt::TabFocus) && w->isEnabled() && w->isVisible()) {
            w->setFocus(Qt::TabFocusReason);
            return;
        }
    }
}

bool MainWindow::event(QEvent* event)
{
    // A dock tab clicked (the one in front too) brings its panel the keyboard: Ctrl+F and typing then go
    // to that panel, not to the key field left focused. QMainWindow makes its tab bars as docks are
    // tabbed together; each is met here once it is fully made.
    if (event->type() == QEvent::ChildPolished) {
        auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child());
        if (bar && !bar->property("focusesPanels").toBool()) {
            bar->setProperty("focusesPanels", true);
            connect(bar, &QTabBar::tabBarClicked, this, [this, bar](int index) {
                const QString title = bar->tabText(index);
                // Once the tab has switched and its panel is enabled (addDock).
                QTimer::singleShot(0, this, [this, title] {
                    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
                        if (dock->windowTitle() == title && dock->widget() && dock->widget()->isEnabled()
                            && dock->widget()->isVisible())
                            focusPanel(dock->widget());
                });
            });
        }
    }
    return QMainWindow::event(event);
}

void MainWindow::findInFocusedPanel()
{
    const QWidget* focus = QApplication::focusWidget();
    for (QWidget* panel : std::initializer_list<QWidget*>{m_allKeysPanel, m_nodesPanel, m_nodeDiffPanel}) {
        QLineEdit* search = searchOf(panel);
        if (focus && panel->isAncestorOf(focus)) {
            search->setFocus(Qt::ShortcutFocusReason);
            search->selectAll();
            return;
        }
    }
    m_lookupBar->focusKey();
}

void MainWindow::exportFactsDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export facts"), ReportExport::lastFolder(),
                                                      tr("YAML (*.yaml *.yml);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    ReportExport::rememberFolder(path);
    m_facts->saveTo(path, true);
}

ExplanationReport MainWindow::explanationReport() const
{
    ExplanationReport report;
    report.outcome = m_answerPanel->outcome();
    report.overrides = m_overridesPanel->model()->result();
    report.hieraYaml = m_hieraYaml;
    report.factsFile = m_facts->path();
    report.factsEdited = m_facts->isModified();
    report.fileScope = m_facts->fileScope();
    report.revision = m_runner->revisionText();
    report.revealSecrets = m_runner->revealSecrets(); // only what the user chose to see
    return report;
}

void MainWindow::exportExplanationDialog()
{
    if (!m_answerPanel->outcome())
        return;
    // A name that says what it is (profile--ntp-web01.example.com.md), in the folder used last time.
    // The format is the one used last time.
    QString filter = ExplanationReport::lastFilter();
    const QString name =
        ExplanationReport::suggestedFileName(m_answerPanel->outcome()->request.key, m_facts->path(), filter);
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export explanation"), QDir(ReportExport::lastFolder()).filePath(name),
                                     ExplanationReport::fileFilters(), &filter);
    if (path.isEmpty())
        return;
    path = ExplanationReport::withExtension(path, filter);
    ReportExport::rememberFolder(path);
    QString error;
    if (!explanationReport().save(path, &error)) {
        m_answerPanel->banner()->showMessage(MessageBanner::Kind::Error, error);
        return;
    }
    ExplanationReport::rememberFormat(path);
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::printExplanationDialog()
{
    if (!m_answerPanel->outcome())
        return;
    QPrinter printer;
    QPrintDialog dialog(&printer, this);
    if (dialog.exec() == QDialog::Accepted)
        explanationReport().print(&printer);
}

QString MainWindow::askSavePath(const QString& suggestion, FactsDocument::SaveKind kind)
{
    const QString title = kind == FactsDocument::SaveKind::Scope ? tr("Save scope (facts, trusted and variables) as")
                                                                 : tr("Save facts as");
    // The bundled demo is never written: its facts are offered a name in the folder of the last export
    // (else the home folder) instead of the demo's own, read-only one.
    QString start = suggestion;
    if (Demo::isDemoFile(suggestion))
        start = QDir(ReportExport::lastFolder()).filePath(QFileInfo(suggestion).fileName());
    return QFileDialog::getSaveFileName(this, title, start, tr("YAML (*.yaml *.yml);;JSON (*.json)"));
}

MainWindow::Answer MainWindow::askWithMessageBox(Question question, const QString& text)
{
    QMessageBox box(this);
    box.setText(text);
    QAbstractButton* accept = nullptr;
    QAbstractButton* discard = nullptr;
    if (question == Question::SaveChanges || question == Question::SaveChangesAs) {
        box.setIcon(QMessageBox::Warning);
        box.setWindowTitle(tr("Unsaved facts"));
        accept = question == Question::SaveChanges ? box.addButton(QMessageBox::Save)
                                                   : box.addButton(tr("Save &As…"), QMessageBox::AcceptRole);
        discard = box.addButton(QMessageBox::Discard);
        box.addButton(QMessageBox::Cancel);
    } else if (question == Question::OverwriteChanged) {
        box.setIcon(QMessageBox::Warning);
        box.setWindowTitle(tr("Facts file changed on disk"));
        accept = box.addButton(tr("&Overwrite"), QMessageBox::AcceptRole);
        box.setDefaultButton(box.addButton(QMessageBox::Cancel)); // the safe choice on Enter
        box.exec();
        return box.clickedButton() == accept ? Answer::Accept : Answer::Cancel;
    } else {
        box.setIcon(QMessageBox::Question);
        box.setWindowTitle(tr("Recover unsaved facts"));
        accept = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
        discard = box.addButton(QMessageBox::Discard);
        box.addButton(tr("&Not Now"), QMessageBox::RejectRole);
    }
    box.setDefaultButton(qobject_cast<QPushButton*>(accept));
    box.exec();
    if (box.clickedButton() == accept)
        return Answer::Accept;
    if (box.clickedButton() == discard)
        return Answer::Discard;
    return Answer::Cancel;
}

void MainWindow::setQuestionHandler(QuestionHandler handler)
{
    if (!handler)
        handler = [this](Question question, const QString& text) { return askWithMessageBox(question, text); };
    m_facts->setQuestionHandler(std::move(handler));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) {
        for (const QUrl& url : event->mimeData()->urls()) {
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (QFileInfo(path).isDir() || looksLikeHieraYaml(path)) // a control repository, or its hiera.yaml
            openHierarchy(path);
        else
            openFacts(path);
    }
    event->acceptProposedAction();
}

// ---------------------------------------------------------------------------------------------------
// Small things

void MainWindow::raisePanel(QWidget* panel)
{
    for (QWidget* w = panel; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
            // Brought forward for a table (a node comparison, every key, a fleet): a few rows at least.
            // Under the answer it could be a couple of rows high; the user's larger size is kept.
            if (dockWidgetArea(dock) == Qt::BottomDockWidgetArea && !dock->isFloating()
                && dock->height() < height() / 3)
                resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
            return;
        }
    }
}

void MainWindow::showSourceFor(const QModelIndex& index)
{
    const QString file = index.data(HieraRoles::SourceFileRole).toString();
    if (file.isEmpty())
        return;
    m_sourceViewer->showLocation(file, index.data(HieraRoles::SourceLineRole).toInt(),
                                 index.data(HieraRoles::SourceColumnRole).toInt(),
                                 index.data(HieraRoles::SourceKeyRole).toString());
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("sourceDock")))
        dock->show();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Hiera Explorer"),
                       tr("<p><b>Hiera Explorer</b> %1</p><p>Looks up keys in a Hiera 5 hierarchy with the facts you "
                          "give it, and shows where every part of the answer came from.</p>"
                          "<p>Hiera lookup engine %2 · Qt %3</p>")
                           .arg(QCoreApplication::applicationVersion(), QStringLiteral(HIERA_VERSION),
                                QString::fromLatin1(qVersion())));
}

void MainWindow::showGuide()
{
    if (!m_helpGuide) {
        m_helpGuide = new HelpGuide(this);
        connect(m_helpGuide, &HelpGuide::lookupRequested, this, [this](const QString& key) {
            // The tour's keys are the demo's: open it unless a hierarchy is shown already.
            if (m_hieraYaml.isEmpty())
                openDemo();
            setKey(key);
        });
        m_helpGuide->placeBeside(this); // once: where the user moves it, it stays
    }
    m_helpGuide->show();
    m_helpGuide->raise();
    m_helpGuide->activateWindow();
}

void MainWindow::resetLayout()
{
    // Every dock back where it starts, shown and docked, with the first-run proportions.
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        dock->setFloating(false);
        dock->show();
    }
    addDockWidget(Qt::LeftDockWidgetArea, findChild<QDockWidget*>(QStringLiteral("factsDock")));
    addDockWidget(Qt::RightDockWidgetArea, findChild<QDockWidget*>(QStringLiteral("sourceDock")));
    addDockWidget(Qt::BottomDockWidgetArea, findChild<QDockWidget*>(QStringLiteral("hierarchyDock")));
    for (const char* tab : {"nodesDock"})
        tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("factsDock")),
                         findChild<QDockWidget*>(QLatin1String(tab)));
    for (const char* tab :
         {"overridesDock", "fleetDock", "allKeysDock", "nodeDiffDock", "revisionDiffDock", "impactDock"})
        tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("hierarchyDock")),
                         findChild<QDockWidget*>(QLatin1String(tab)));
    findChild<QDockWidget*>(QStringLiteral("factsDock"))->raise();
    findChild<QDockWidget*>(QStringLiteral("hierarchyDock"))->raise();
    applyDefaultLayout();
}

// ---------------------------------------------------------------------------------------------------
// The parts, for tests and main.cpp

QString MainWindow::factsStatusText() const
{
    return m_factsLabel->fullText();
}
QString MainWindow::factsPath() const
{
    return m_facts->path();
}
bool MainWindow::isReadingFacts() const
{
    return m_facts->isReading();
}
bool MainWindow::saveFactsTo(const QString& path, bool factsOnly)
{
    return m_facts->saveTo(path, factsOnly);
}
void MainWindow::setKey(const QString& key)
{
    m_lookupBar->setKey(key);
}
void MainWindow::setMergeStrategy(const QString& strategy)
{
    m_lookupBar->setMergeStrategy(strategy);
}
QString MainWindow::autosaveFile() const
{
    return m_facts->autosaveFile();
}
void MainWindow::setAutosaveDelays(int afterEditMs, int periodMs)
{
    m_facts->setAutosaveDelays(afterEditMs, periodMs);
}
