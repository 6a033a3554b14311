#include "mainwindow.h"

#include "contributionmodel.h"
#include "demo.h"
#include "explanationmodel.h"
#include "facttreemodel.h"
#include "factvaluedelegate.h"
#include "hierarchymodel.h"
#include "lookuprunner.h"
#include "messagebanner.h"
#include "modelroles.h"
#include "sourceviewer.h"
#include "valueconvert.h"
#include "valuetreemodel.h"

#include <hiera/explain.h>
#include <hiera/facts.h>
#include <hiera/lookupkey.h>
#include <hiera/valueformat.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QStringListModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

using hiera::Value;
using ValueConvert::toQString;
using ValueConvert::toStd;

namespace {
constexpr int maxRecentFiles = 10;
constexpr int maxKeyHistory = 30;
// Small enough to feel instant, long enough to fold a burst of keystrokes or a paste into one job.
constexpr int refreshDelayMs = 15;
constexpr int fileChangeDelayMs = 150;

const auto recentHierarchiesKey = QStringLiteral("recent/hierarchies");
const auto recentFactsKey = QStringLiteral("recent/facts");
const auto keyHistoryKey = QStringLiteral("lookup/history");

// A facts file names its node through clientcert (what `puppet lookup --node` uses), else its fqdn.
std::string certnameFor(const Value& facts)
{
    if (!facts.isHash())
        return {};
    for (const char* name : { "clientcert", "fqdn" }) {
        const Value* v = facts.asHash().find(std::string_view(name));
        if (v && v->isString() && !v->asString().empty())
            return v->asString();
    }
    if (const Value* networking = facts.asHash().find(std::string_view("networking"));
        networking && networking->isHash()) {
        const Value* v = networking->asHash().find(std::string_view("fqdn"));
        if (v && v->isString())
            return v->asString();
    }
    return {};
}

// A file this window saved holds the whole scope: a `facts` hash at the top next to the top-scope copies.
bool isSavedScope(const Value& v)
{
    if (!v.isHash())
        return false;
    const Value* facts = v.asHash().find(std::string_view("facts"));
    return facts && facts->isHash();
}

QTreeView* makeTreeView(QWidget* parent, const QString& name)
{
    auto* view = new QTreeView(parent);
    view->setObjectName(name);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
    return view;
}

QString mergeText(const hiera::MergeSpec& spec)
{
    try {
        return toQString(hiera::toJson(spec.toValue()));
    } catch (const std::exception&) {
        return QString::fromLatin1(hiera::mergeStrategyName(spec.strategy));
    }
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("HieraExplorerMainWindow"));
    setAcceptDrops(true);
    createModels();
    createWidgets();
    createActions();
    readSettings();
    updateTitle();
    updateMergeOptions();
    showNoKey();
}

MainWindow::~MainWindow() = default;

void MainWindow::createModels()
{
    m_undoStack = new QUndoStack(this);
    m_factModel = new FactTreeModel(this);
    m_factModel->setUndoStack(m_undoStack);
    m_hierarchyModel = new HierarchyModel(this);
    m_valueModel = new ValueTreeModel(this);
    m_rootValueModel = new ValueTreeModel(this);
    m_contributionModel = new ContributionModel(this);
    m_explanationModel = new ExplanationModel(this);
    m_explanationProxy = new QSortFilterProxyModel(this);
    m_explanationProxy->setSourceModel(m_explanationModel);
    m_explanationProxy->setRecursiveFilteringEnabled(true);
    m_explanationProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_explanationProxy->setFilterKeyColumn(-1);
    m_keyListModel = new QStringListModel(this);
    m_runner = new LookupRunner(this);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(refreshDelayMs);
    m_lookupTimer = new QTimer(this);
    m_lookupTimer->setSingleShot(true);
    m_lookupTimer->setInterval(refreshDelayMs);
    m_fileChangeTimer = new QTimer(this);
    m_fileChangeTimer->setSingleShot(true);
    m_fileChangeTimer->setInterval(fileChangeDelayMs);
    m_watcher = new QFileSystemWatcher(this);

    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        runScope();
        runLookup();
    });
    connect(m_lookupTimer, &QTimer::timeout, this, &MainWindow::runLookup);
    connect(m_fileChangeTimer, &QTimer::timeout, this, &MainWindow::processChangedFiles);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::onFileChanged);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &MainWindow::onFileChanged);

    connect(m_factModel, &FactTreeModel::factsChanged, this, [this] {
        m_scopeDirty = true;
        scheduleRefresh();
    });
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_runner, &LookupRunner::engineLoaded, this, &MainWindow::onEngineLoaded);
    connect(m_runner, &LookupRunner::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_runner, &LookupRunner::scopeResolved, this, &MainWindow::onScopeResolved);
    connect(m_runner, &LookupRunner::lookupFinished, this, &MainWindow::onLookupFinished);
}

void MainWindow::createWidgets()
{
    // --- The lookup bar ---
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    centralLayout->addLayout(bar);

    m_keyCombo = new QComboBox(central);
    m_keyCombo->setObjectName(QStringLiteral("keyCombo"));
    m_keyCombo->setEditable(true);
    m_keyCombo->setInsertPolicy(QComboBox::NoInsert);
    m_keyCombo->setMinimumContentsLength(32);
    m_keyCombo->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_keyCombo->lineEdit()->setPlaceholderText(tr("Key to look up, e.g. profile::ntp.servers.0"));
    m_keyCombo->lineEdit()->setClearButtonEnabled(true);
    m_keyCombo->setToolTip(tr("The key to look up; dotted keys dig into the value. Recent keys are in the list."));
    m_keyCompleter = new QCompleter(m_keyListModel, this);
    m_keyCompleter->setCaseSensitivity(Qt::CaseInsensitive);
    m_keyCompleter->setFilterMode(Qt::MatchContains);
    m_keyCompleter->setMaxVisibleItems(16);
    // A large hierarchy has tens of thousands of keys and the first letter matches most of them: a
    // popup that measured every row would freeze each keystroke.
    auto* popup = new QListView;
    popup->setUniformItemSizes(true);
    popup->setLayoutMode(QListView::Batched);
    m_keyCompleter->setPopup(popup);
    m_keyCombo->setCompleter(m_keyCompleter);
    auto* keyLabel = new QLabel(tr("&Key:"), central);
    keyLabel->setBuddy(m_keyCombo);
    bar->addWidget(keyLabel);
    bar->addWidget(m_keyCombo, 1);

    m_mergeCombo = new QComboBox(central);
    m_mergeCombo->setObjectName(QStringLiteral("mergeCombo"));
    m_mergeCombo->addItem(tr("as lookup_options says"), QString());
    for (const char* name : { "first", "unique", "hash", "deep" })
        m_mergeCombo->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
    m_mergeCombo->setToolTip(tr("Merge strategy: overrides lookup_options when set"));
    auto* mergeLabel = new QLabel(tr("&Merge:"), central);
    mergeLabel->setBuddy(m_mergeCombo);
    bar->addWidget(mergeLabel);
    bar->addWidget(m_mergeCombo);
    m_knockoutEdit = new QLineEdit(central);
    m_knockoutEdit->setPlaceholderText(tr("knockout_prefix"));
    m_knockoutEdit->setMaximumWidth(120);
    m_sortArraysCheck = new QCheckBox(tr("sort_merged_arrays"), central);
    m_mergeHashArraysCheck = new QCheckBox(tr("merge_hash_arrays"), central);
    bar->addWidget(m_knockoutEdit);
    bar->addWidget(m_sortArraysCheck);
    bar->addWidget(m_mergeHashArraysCheck);

    connect(m_keyCombo->lineEdit(), &QLineEdit::textEdited, this, &MainWindow::scheduleLookup);
    connect(m_keyCombo->lineEdit(), &QLineEdit::returnPressed, this, &MainWindow::commitKey);
    connect(m_keyCombo, &QComboBox::activated, this, [this] { scheduleLookup(); });
    connect(m_keyCompleter, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& key) {
        m_keyCombo->setEditText(key);
        commitKey();
    });
    connect(m_mergeCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateMergeOptions();
        scheduleLookup();
    });
    connect(m_knockoutEdit, &QLineEdit::textEdited, this, &MainWindow::scheduleLookup);
    connect(m_sortArraysCheck, &QCheckBox::toggled, this, &MainWindow::scheduleLookup);
    connect(m_mergeHashArraysCheck, &QCheckBox::toggled, this, &MainWindow::scheduleLookup);

    m_answerBanner = new MessageBanner(central);
    m_answerBanner->setObjectName(QStringLiteral("answerBanner"));
    centralLayout->addWidget(m_answerBanner);
    m_summaryLabel = new QLabel(central);
    m_summaryLabel->setObjectName(QStringLiteral("summaryLabel"));
    m_summaryLabel->setWordWrap(true);
    m_summaryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    centralLayout->addWidget(m_summaryLabel);

    // --- The answer ---
    auto* splitter = new QSplitter(Qt::Vertical, central);
    splitter->setObjectName(QStringLiteral("answerSplitter"));
    centralLayout->addWidget(splitter, 1);

    m_answerTabs = new QTabWidget(splitter);
    m_valueView = makeTreeView(m_answerTabs, QStringLiteral("valueView"));
    m_valueView->setModel(m_valueModel);
    m_rootValueView = makeTreeView(m_answerTabs, QStringLiteral("rootValueView"));
    m_rootValueView->setModel(m_rootValueModel);
    m_yamlText = new QPlainTextEdit(m_answerTabs);
    m_yamlText->setObjectName(QStringLiteral("yamlText"));
    m_yamlText->setReadOnly(true);
    m_yamlText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_answerTabs->addTab(m_valueView, tr("&Value"));
    m_answerTabs->addTab(m_rootValueView, tr("&Root value"));
    m_answerTabs->addTab(m_yamlText, tr("YA&ML"));
    auto* copyButton = new QToolButton(m_answerTabs);
    copyButton->setText(tr("Copy YAML"));
    copyButton->setToolTip(tr("Copy the value as YAML"));
    copyButton->setAutoRaise(true);
    connect(copyButton, &QToolButton::clicked, this, &MainWindow::copyYaml);
    m_answerTabs->setCornerWidget(copyButton);

    m_traceTabs = new QTabWidget(splitter);
    m_contributionView = new QTableView(m_traceTabs);
    m_contributionView->setObjectName(QStringLiteral("contributionView"));
    m_contributionView->setModel(m_contributionModel);
    m_contributionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_contributionView->setAlternatingRowColors(true);
    m_contributionView->horizontalHeader()->setStretchLastSection(true);
    m_contributionView->verticalHeader()->setVisible(false);
    m_contributionView->setWordWrap(false);
    m_contributionView->verticalHeader()->setDefaultSectionSize(m_contributionView->fontMetrics().height() + 6);

    auto* explainPage = new QWidget(m_traceTabs);
    auto* explainLayout = new QVBoxLayout(explainPage);
    explainLayout->setContentsMargins(0, 0, 0, 0);
    m_explanationFilter = new QLineEdit(explainPage);
    m_explanationFilter->setPlaceholderText(tr("Filter the trace…"));
    m_explanationFilter->setClearButtonEnabled(true);
    m_explanationView = makeTreeView(explainPage, QStringLiteral("explanationView"));
    m_explanationView->setModel(m_explanationProxy);
    explainLayout->addWidget(m_explanationFilter);
    explainLayout->addWidget(m_explanationView, 1);
    connect(m_explanationFilter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_explanationProxy->setFilterFixedString(text);
        m_explanationView->expandAll();
    });

    m_explainText = new QPlainTextEdit(m_traceTabs);
    m_explainText->setObjectName(QStringLiteral("explainText"));
    m_explainText->setReadOnly(true);
    m_explainText->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_explainText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_traceTabs->addTab(m_contributionView, tr("&Sources"));
    m_traceTabs->addTab(explainPage, tr("&Explain"));
    m_traceTabs->addTab(m_explainText, tr("Explain &text"));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    setCentralWidget(central);

    // --- Facts dock ---
    auto* factsDock = new QDockWidget(tr("Facts and scope"), this);
    factsDock->setObjectName(QStringLiteral("factsDock"));
    auto* factsPage = new QWidget(factsDock);
    auto* factsLayout = new QVBoxLayout(factsPage);
    factsLayout->setContentsMargins(2, 2, 2, 2);
    auto* factsToolBar = new QToolBar(factsPage);
    factsToolBar->setObjectName(QStringLiteral("factsToolBar"));
    factsToolBar->setIconSize(QSize(16, 16));
    factsToolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    factsLayout->addWidget(factsToolBar);
    m_factBanner = new MessageBanner(factsPage);
    m_factBanner->setObjectName(QStringLiteral("factBanner"));
    factsLayout->addWidget(m_factBanner);
    m_factView = makeTreeView(factsPage, QStringLiteral("factView"));
    m_factView->setModel(m_factModel);
    m_factView->setItemDelegate(new FactValueDelegate(m_factView));
    m_factView->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_factView->setUniformRowHeights(true);
    factsLayout->addWidget(m_factView, 1);
    factsDock->setWidget(factsPage);
    addDockWidget(Qt::LeftDockWidgetArea, factsDock);

    auto* addAction = factsToolBar->addAction(tr("Add"), this, &MainWindow::addFact);
    addAction->setToolTip(tr("Add a fact under the selected hash or array (or next to the selected value)"));
    m_removeFactAction = factsToolBar->addAction(tr("Remove"), this, &MainWindow::removeFact);
    m_removeFactAction->setShortcut(QKeySequence::Delete);
    m_removeFactAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_factView->addAction(m_removeFactAction);
    factsToolBar->addSeparator();
    factsToolBar->addAction(tr("Open…"), this, &MainWindow::openFactsDialog);
    factsToolBar->addAction(tr("Save"), this, &MainWindow::saveFacts);

    // --- Hierarchy dock ---
    auto* hierarchyDock = new QDockWidget(tr("Hierarchy"), this);
    hierarchyDock->setObjectName(QStringLiteral("hierarchyDock"));
    auto* hierarchyPage = new QWidget(hierarchyDock);
    auto* hierarchyLayout = new QVBoxLayout(hierarchyPage);
    hierarchyLayout->setContentsMargins(2, 2, 2, 2);
    m_hierarchyBanner = new MessageBanner(hierarchyPage);
    hierarchyLayout->addWidget(m_hierarchyBanner);
    m_hierarchyView = makeTreeView(hierarchyPage, QStringLiteral("hierarchyView"));
    m_hierarchyView->setModel(m_hierarchyModel);
    hierarchyLayout->addWidget(m_hierarchyView, 1);
    hierarchyDock->setWidget(hierarchyPage);
    addDockWidget(Qt::BottomDockWidgetArea, hierarchyDock);

    // --- Source dock ---
    auto* sourceDock = new QDockWidget(tr("Source"), this);
    sourceDock->setObjectName(QStringLiteral("sourceDock"));
    m_sourceViewer = new SourceViewer(sourceDock);
    sourceDock->setWidget(m_sourceViewer);
    addDockWidget(Qt::RightDockWidgetArea, sourceDock);
    // First-run proportions; readSettings() restores the user's own afterwards.
    resizeDocks({ factsDock, sourceDock }, { 330, 380 }, Qt::Horizontal);
    resizeDocks({ hierarchyDock }, { 230 }, Qt::Vertical);

    // A click on an origin (file:line) shows it; a double click anywhere on a row does too.
    auto connectSourceClicks = [this](QAbstractItemView* view, int originColumn) {
        connect(view, &QAbstractItemView::clicked, this, [this, originColumn](const QModelIndex& index) {
            if (index.column() == originColumn)
                showSourceFor(index);
        });
        connect(view, &QAbstractItemView::activated, this, &MainWindow::showSourceFor);
    };
    connectSourceClicks(m_valueView, ValueTreeModel::OriginColumn);
    connectSourceClicks(m_rootValueView, ValueTreeModel::OriginColumn);
    connectSourceClicks(m_contributionView, ContributionModel::OriginColumn);
    connectSourceClicks(m_explanationView, ExplanationModel::OriginColumn);
    connectSourceClicks(m_hierarchyView, HierarchyModel::InterpolatedColumn);

    m_statusLabel = new QLabel(this);
    m_busyLabel = new QLabel(this);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_busyLabel);
    connect(m_runner, &LookupRunner::busyChanged, this,
        [this](bool busy) { m_busyLabel->setText(busy ? tr("Working…") : QString()); });

    resize(1400, 900);
}

void MainWindow::createActions()
{
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* openAction = fileMenu->addAction(tr("&Open Hierarchy…"), this, &MainWindow::openHierarchyDialog);
    openAction->setShortcut(QKeySequence::Open);
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
    QAction* saveAction = fileMenu->addAction(tr("&Save Facts"), this, &MainWindow::saveFacts);
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = fileMenu->addAction(tr("Save Facts &As…"), this, &MainWindow::saveFactsAsDialog);
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    fileMenu->addAction(tr("&Export Facts Only…"), this, &MainWindow::exportFactsDialog);
    fileMenu->addSeparator();
    QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction* undoAction = m_undoStack->createUndoAction(this, tr("&Undo"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction* redoAction = m_undoStack->createRedoAction(this, tr("&Redo"));
    redoAction->setShortcut(QKeySequence::Redo);
    editMenu->addAction(undoAction);
    editMenu->addAction(redoAction);
    editMenu->addSeparator();
    editMenu->addAction(tr("&Add Fact"), this, &MainWindow::addFact);
    editMenu->addAction(m_removeFactAction);
    editMenu->addSeparator();
    QAction* findAction = editMenu->addAction(tr("&Find Key"), this, [this] {
        m_keyCombo->setFocus(Qt::ShortcutFocusReason);
        m_keyCombo->lineEdit()->selectAll();
    });
    findAction->setShortcut(QKeySequence::Find);
    QAction* copyAction = editMenu->addAction(tr("&Copy Value as YAML"), this, &MainWindow::copyYaml);
    copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu->addAction(dock->toggleViewAction());

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About Hiera Explorer"), this, &MainWindow::showAbout);
    helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::readSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        splitter->restoreState(settings.value(QStringLiteral("window/answerSplitter")).toByteArray());
    const QStringList history = settings.value(keyHistoryKey).toStringList();
    m_keyCombo->addItems(history);
    m_keyCombo->setCurrentIndex(-1);
    m_keyCombo->setEditText(QString());
    rebuildRecentMenus();
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        settings.setValue(QStringLiteral("window/answerSplitter"), splitter->saveState());
    settings.setValue(keyHistoryKey, keyHistory());
}

// ---------------------------------------------------------------------------------------------------
// Opening

bool MainWindow::looksLikeHieraYaml(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QFileInfo(path).fileName() == QLatin1String("hiera.yaml");
    const QString head = QString::fromUtf8(file.read(64 * 1024));
    static const QRegularExpression version(
        QStringLiteral("^version\\s*:\\s*5\\b"), QRegularExpression::MultilineOption);
    static const QRegularExpression hierarchy(
        QStringLiteral("^(hierarchy|defaults)\\s*:"), QRegularExpression::MultilineOption);
    return version.match(head).hasMatch() && hierarchy.match(head).hasMatch();
}

void MainWindow::openHierarchy(const QString& hieraYaml)
{
    const QString path = QFileInfo(hieraYaml).absoluteFilePath();
    m_statusLabel->setText(tr("Loading %1…").arg(path));
    m_runner->load(path);
}

void MainWindow::onEngineLoaded(const QString& hieraYaml, const EnginePtr& engine)
{
    Q_UNUSED(engine)
    const bool changedHierarchy = hieraYaml != m_hieraYaml;
    m_hieraYaml = hieraYaml;
    m_baseDirectory = QFileInfo(hieraYaml).absolutePath();
    m_hierarchyModel->setBaseDirectory(m_baseDirectory);
    m_hierarchyBanner->clearMessage();
    if (m_answerBanner->kind() == MessageBanner::Kind::Error)
        m_answerBanner->clearMessage();
    if (changedHierarchy && !m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (changedHierarchy && !m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    if (QFileInfo::exists(hieraYaml) && !m_watcher->files().contains(hieraYaml))
        m_watcher->addPath(hieraYaml);
    addRecent(recentHierarchiesKey, hieraYaml);
    m_statusLabel->setText(tr("Loaded %1").arg(hieraYaml));
    updateTitle();
    runScope();
    runLookup();
    Q_EMIT engineLoadFinished(true);
}

void MainWindow::onLoadFailed(const QString& hieraYaml, const QString& message)
{
    const QString text = m_runner->engine()
        ? tr("Cannot reload %1 (still showing the previous version): %2").arg(hieraYaml, message)
        : tr("Cannot load %1: %2").arg(hieraYaml, message);
    m_hierarchyBanner->showMessage(MessageBanner::Kind::Error, text);
    m_answerBanner->showMessage(MessageBanner::Kind::Error, text);
    m_statusLabel->setText(tr("Loading failed"));
    // Keep watching a broken hiera.yaml: fixing it should bring the explorer back by itself.
    if (QFileInfo::exists(hieraYaml) && !m_watcher->files().contains(hieraYaml))
        m_watcher->addPath(hieraYaml);
    if (m_hieraYaml.isEmpty())
        m_hieraYaml = hieraYaml;
    Q_EMIT engineLoadFinished(false);
}

bool MainWindow::openFacts(const QString& path)
{
    Value loaded;
    try {
        loaded = hiera::loadFactsFile(toStd(path));
    } catch (const std::exception& e) {
        m_factBanner->showMessage(
            MessageBanner::Kind::Error, tr("Cannot read facts: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    Value scope;
    try {
        scope = isSavedScope(loaded) ? loaded : hiera::scopeFromFacts(loaded, certnameFor(loaded));
    } catch (const std::exception& e) {
        m_factBanner->showMessage(
            MessageBanner::Kind::Error, tr("Cannot use these facts: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_factBanner->clearMessage();
    m_factsPath = QFileInfo(path).absoluteFilePath();
    m_factModel->setScope(scope);
    m_undoStack->clear();
    m_factView->expandToDepth(0);
    m_factView->resizeColumnToContents(FactTreeModel::KeyColumn);
    addRecent(recentFactsKey, m_factsPath);
    updateTitle();
    return true;
}

bool MainWindow::openDemo()
{
    const QString hieraYaml = Demo::hieraYaml();
    if (hieraYaml.isEmpty()) {
        m_answerBanner->showMessage(MessageBanner::Kind::Warning,
            tr("The demo hierarchy is not installed. Open a hiera.yaml with File ▸ Open."));
        return false;
    }
    if (!maybeSaveFacts())
        return false;
    const QString facts = Demo::defaultFactsFile(hieraYaml);
    if (!facts.isEmpty())
        openFacts(facts);
    openHierarchy(hieraYaml);
    if (m_keyCombo->currentText().isEmpty())
        setKey(Demo::defaultKey());
    return true;
}

void MainWindow::setKey(const QString& key)
{
    m_keyCombo->setEditText(key);
    commitKey();
}

void MainWindow::setMergeStrategy(const QString& strategy)
{
    const int index = m_mergeCombo->findData(strategy);
    m_mergeCombo->setCurrentIndex(index >= 0 ? index : 0);
}

QLineEdit* MainWindow::keyEdit() const
{
    return m_keyCombo->lineEdit();
}

void MainWindow::openHierarchyDialog()
{
    const QString start = m_hieraYaml.isEmpty() ? QString() : QFileInfo(m_hieraYaml).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open hiera.yaml"), start, tr("Hiera configuration (hiera.yaml *.yaml);;All files (*)"));
    if (!path.isEmpty())
        openHierarchy(path);
}

void MainWindow::openFactsDialog()
{
    if (!maybeSaveFacts())
        return;
    const QString start = m_factsPath.isEmpty() ? m_baseDirectory : QFileInfo(m_factsPath).absolutePath();
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open facts"), start, tr("Facts (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty())
        openFacts(path);
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
        if (looksLikeHieraYaml(path))
            openHierarchy(path);
        else if (maybeSaveFacts())
            openFacts(path);
    }
    event->acceptProposedAction();
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
                else if (maybeSaveFacts())
                    openFacts(file);
            });
        }
        menu->setEnabled(!files.isEmpty());
    };
    fill(m_recentHierarchyMenu, recentHierarchiesKey, true);
    fill(m_recentFactsMenu, recentFactsKey, false);
}

// ---------------------------------------------------------------------------------------------------
// Facts

void MainWindow::addFact()
{
    const QModelIndex current = m_factView->currentIndex();
    const QModelIndex added = m_factModel->addChild(current);
    if (!added.isValid())
        return;
    m_factView->expand(added.parent());
    m_factView->setCurrentIndex(added);
    m_factView->scrollTo(added);
    m_factView->edit(added);
}

void MainWindow::removeFact()
{
    const QModelIndex current = m_factView->currentIndex();
    if (current.isValid())
        m_factModel->removeNodeAt(current);
}

bool MainWindow::saveFactsTo(const QString& path, bool factsOnly)
{
    const Value scope = scopeValue();
    Value value = scope;
    if (factsOnly) {
        const Value* facts = scope.isHash() ? scope.asHash().find(std::string_view("facts")) : nullptr;
        value = facts ? *facts : Value(hiera::Hash());
    }
    QByteArray bytes;
    try {
        if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
            bytes = QByteArray::fromStdString(hiera::toJson(value, true));
            bytes += '\n';
        } else {
            const char* header = factsOnly
                ? "# Facts exported by Hiera Explorer (puppet lookup --facts reads this)\n"
                : "# Scope saved by Hiera Explorer: facts, trusted and top-scope variables\n";
            bytes = QByteArray(header) + QByteArray::fromStdString(hiera::toYaml(value));
        }
    } catch (const std::exception& e) {
        m_factBanner->showMessage(
            MessageBanner::Kind::Error, tr("Cannot write facts: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    // QSaveFile: a crash or a full disk never leaves a half-written facts file behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        m_factBanner->showMessage(MessageBanner::Kind::Error, tr("Cannot save %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_factBanner->clearMessage();
    if (!factsOnly) {
        m_factsPath = QFileInfo(path).absoluteFilePath();
        m_undoStack->setClean();
        addRecent(recentFactsKey, m_factsPath);
        updateTitle();
    }
    m_statusLabel->setText(tr("Saved %1").arg(path));
    return true;
}

bool MainWindow::saveFacts()
{
    if (m_factsPath.isEmpty())
        return saveFactsAsDialog();
    return saveFactsTo(m_factsPath);
}

bool MainWindow::saveFactsAsDialog()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save scope"), m_factsPath, tr("YAML (*.yaml *.yml);;JSON (*.json)"));
    return !path.isEmpty() && saveFactsTo(path);
}

void MainWindow::exportFactsDialog()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Export facts"), QString(), tr("YAML (*.yaml *.yml);;JSON (*.json)"));
    if (!path.isEmpty())
        saveFactsTo(path, true);
}

bool MainWindow::maybeSaveFacts()
{
    if (m_undoStack->isClean())
        return true;
    const auto answer
        = QMessageBox::warning(this, tr("Unsaved facts"), tr("The facts have been changed. Save them first?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return saveFacts();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSaveFacts()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

void MainWindow::updateTitle()
{
    QString title;
    if (!m_factsPath.isEmpty())
        title = QFileInfo(m_factsPath).fileName() + QStringLiteral("[*] — ");
    else
        title = tr("unsaved facts") + QStringLiteral("[*] — ");
    if (!m_hieraYaml.isEmpty())
        title += QDir::toNativeSeparators(m_hieraYaml) + QStringLiteral(" — ");
    title += tr("Hiera Explorer");
    setWindowTitle(title);
    setWindowModified(!m_undoStack->isClean());
}

// ---------------------------------------------------------------------------------------------------
// Running

hiera::Value MainWindow::scopeValue()
{
    if (m_scopeDirty) {
        m_scope = m_factModel->toValue();
        m_scopeDirty = false;
    }
    return m_scope;
}

void MainWindow::scheduleRefresh()
{
    m_refreshTimer->start();
}

void MainWindow::scheduleLookup()
{
    if (!m_refreshTimer->isActive())
        m_lookupTimer->start();
}

void MainWindow::runScope()
{
    if (m_runner->engine())
        m_runner->resolveScope(scopeValue());
}

void MainWindow::runLookup()
{
    m_lookupTimer->stop();
    const QString key = m_keyCombo->currentText().trimmed();
    if (key.isEmpty()) {
        showNoKey();
        return;
    }
    if (!m_runner->engine())
        return;
    m_runner->lookup(scopeValue(), LookupRequest { toStd(key), currentMerge() });
}

std::optional<hiera::MergeSpec> MainWindow::currentMerge() const
{
    const QString strategy = m_mergeCombo->currentData().toString();
    if (strategy.isEmpty())
        return std::nullopt;
    hiera::MergeSpec spec;
    if (strategy == QLatin1String("unique"))
        spec.strategy = hiera::MergeStrategy::Unique;
    else if (strategy == QLatin1String("hash"))
        spec.strategy = hiera::MergeStrategy::Hash;
    else if (strategy == QLatin1String("deep")) {
        spec.strategy = hiera::MergeStrategy::Deep;
        if (!m_knockoutEdit->text().isEmpty())
            spec.knockoutPrefix = toStd(m_knockoutEdit->text());
        spec.sortMergedArrays = m_sortArraysCheck->isChecked();
        spec.mergeHashArrays = m_mergeHashArraysCheck->isChecked();
    }
    return spec;
}

void MainWindow::updateMergeOptions()
{
    const bool deep = m_mergeCombo->currentData().toString() == QLatin1String("deep");
    m_knockoutEdit->setEnabled(deep);
    m_sortArraysCheck->setEnabled(deep);
    m_mergeHashArraysCheck->setEnabled(deep);
}

void MainWindow::commitKey()
{
    addToHistory(m_keyCombo->currentText().trimmed());
    m_lookupTimer->stop();
    runLookup();
}

void MainWindow::addToHistory(const QString& key)
{
    if (key.isEmpty())
        return;
    const QString text = m_keyCombo->currentText();
    const int existing = m_keyCombo->findText(key);
    if (existing == 0)
        return;
    if (existing > 0)
        m_keyCombo->removeItem(existing);
    m_keyCombo->insertItem(0, key);
    while (m_keyCombo->count() > maxKeyHistory)
        m_keyCombo->removeItem(m_keyCombo->count() - 1);
    m_keyCombo->setCurrentIndex(0);
    m_keyCombo->setEditText(text);
}

QStringList MainWindow::keyHistory() const
{
    QStringList keys;
    for (int i = 0; i < m_keyCombo->count(); ++i)
        keys << m_keyCombo->itemText(i);
    return keys;
}

void MainWindow::onScopeResolved(const ScopeSnapshotPtr& snapshot)
{
    m_hierarchyModel->setSnapshot(snapshot);
    m_hierarchyView->expandAll();
    for (int column = 0; column < HierarchyModel::StatusColumn; ++column)
        m_hierarchyView->resizeColumnToContents(column);
    if (!snapshot->error.empty())
        m_hierarchyBanner->showMessage(MessageBanner::Kind::Error, toQString(snapshot->error));
    else if (m_hierarchyBanner->kind() != MessageBanner::Kind::Error || m_runner->engine())
        m_hierarchyBanner->clearMessage();

    QStringList keys;
    keys.reserve(static_cast<qsizetype>(snapshot->keys.size()));
    for (const auto& key : snapshot->keys)
        keys << toQString(key);
    // Replacing the list while the popup is open would close it under the user's fingers.
    if (keys != m_keyListModel->stringList() && !m_keyCompleter->popup()->isVisible())
        m_keyListModel->setStringList(keys);
    updateWatcher(snapshot->candidateFiles);
    Q_EMIT hierarchyShown();
}

void MainWindow::showNoKey()
{
    m_lastOutcome.reset();
    m_valueModel->clear();
    m_rootValueModel->clear();
    m_contributionModel->setTrace(nullptr);
    m_explanationModel->setTrace(nullptr);
    m_yamlText->clear();
    m_explainText->clear();
    m_summaryLabel->setText(tr("Type a key to look it up (Ctrl+F focuses the key field)."));
    if (m_answerBanner->kind() != MessageBanner::Kind::Error || m_runner->engine())
        m_answerBanner->clearMessage();
}

void MainWindow::onLookupFinished(const LookupOutcomePtr& outcome)
{
    m_lastOutcome = outcome;
    const hiera::LookupResult& result = outcome->result;
    const QString key = toQString(outcome->request.key);
    const auto parsedKey = hiera::LookupKey::tryParse(outcome->request.key);
    const QString rootKey = parsedKey ? toQString(parsedKey->root()) : key;

    if (result.found())
        m_valueModel->setValue(result.value, key, m_baseDirectory);
    else
        m_valueModel->clear();
    if (result.rootFound)
        m_rootValueModel->setValue(result.rootValue, rootKey, m_baseDirectory);
    else
        m_rootValueModel->clear();
    m_valueView->expandAll();
    m_rootValueView->expandAll();
    for (QTreeView* view : { m_valueView, m_rootValueView }) {
        for (int column = 0; column < ValueTreeModel::OriginColumn; ++column)
            view->resizeColumnToContents(column);
    }

    QString yaml;
    try {
        if (result.found())
            yaml = QStringLiteral("# %1\n").arg(key) + toQString(hiera::toYaml(result.value));
        if (result.rootFound && parsedKey && parsedKey->isDotted())
            yaml += QStringLiteral("\n# %1 (root key, merged)\n").arg(rootKey)
                + toQString(hiera::toYaml(result.rootValue));
    } catch (const std::exception& e) {
        yaml = QString::fromUtf8(e.what());
    }
    m_yamlText->setPlainText(yaml);

    m_contributionModel->setTrace(result.trace, m_baseDirectory);
    m_explanationModel->setTrace(result.trace, m_baseDirectory);
    m_explanationView->expandAll();
    m_explanationView->resizeColumnToContents(ExplanationModel::StepColumn);
    m_contributionView->resizeColumnsToContents();
    try {
        m_explainText->setPlainText(result.trace ? toQString(hiera::explainText(*result.trace)) : QString());
    } catch (const std::exception& e) {
        m_explainText->setPlainText(QString::fromUtf8(e.what()));
    }

    // The banner says what went wrong, in place; the summary says how the answer was made.
    if (result.status == hiera::LookupResult::Status::Error && result.error) {
        m_answerBanner->showMessage(MessageBanner::Kind::Error, QString::fromUtf8(result.error->what()));
    } else if (result.status == hiera::LookupResult::Status::NotFound) {
        const QString text = result.rootFound
            ? tr("\"%1\" was found, but \"%2\" does not lead to a value inside it.").arg(rootKey, key)
            : tr("No value for \"%1\" in any level of the hierarchy.").arg(key);
        m_answerBanner->showMessage(MessageBanner::Kind::Information, text);
    } else if (!result.warnings.empty()) {
        QStringList warnings;
        for (const auto& w : result.warnings)
            warnings << toQString(w);
        m_answerBanner->showMessage(MessageBanner::Kind::Warning, warnings.join(QLatin1Char('\n')));
    } else {
        m_answerBanner->clearMessage();
    }

    QStringList summary;
    int contributed = 0, lacking = 0, missing = 0;
    for (const auto& row : m_contributionModel->rows()) {
        contributed
            += row.outcome == ContributionModel::Outcome::Won || row.outcome == ContributionModel::Outcome::Merged;
        lacking += row.outcome == ContributionModel::Outcome::NotFound;
        missing += row.outcome == ContributionModel::Outcome::Missing;
    }
    if (result.trace) {
        const hiera::TraceNode& root = *result.trace;
        QString merge = root.merge ? mergeText(*root.merge) : tr("first");
        if (outcome->request.merge)
            merge += tr(" (chosen in the merge selector)");
        else if (root.mergeFromLookupOptions || !root.lookupOptionsEntry.empty())
            merge += tr(" (from lookup_options)");
        else
            merge += tr(" (default)");
        summary << tr("Merge: %1").arg(merge);
        if (!root.lookupOptionsEntry.empty()) {
            QString options;
            if (root.lookupOptions) {
                try {
                    options = toQString(hiera::toJson(*root.lookupOptions));
                } catch (const std::exception&) {
                }
            }
            summary << tr("lookup_options entry \"%1\": %2").arg(toQString(root.lookupOptionsEntry), options);
        }
    }
    summary << tr("%n file(s) contributed", nullptr, contributed)
            + tr(", %1 without the key, %2 missing").arg(lacking).arg(missing);
    summary << tr("%1 ms").arg(outcome->elapsedMs, 0, 'f', 1);
    m_summaryLabel->setText(summary.join(QStringLiteral(" · ")));
    Q_EMIT answerShown();
}

// ---------------------------------------------------------------------------------------------------
// Files on disk

void MainWindow::updateWatcher(const std::vector<std::string>& candidates)
{
    // Existing candidates are watched as files; the directories they live in catch files appearing
    // (a node file created for the first time, a new drop-in matching a glob).
    QSet<QString> files;
    QSet<QString> directories;
    if (!m_hieraYaml.isEmpty() && QFileInfo::exists(m_hieraYaml))
        files.insert(m_hieraYaml);
    for (const auto& candidate : candidates) {
        const QString path = toQString(candidate);
        const QFileInfo info(path);
        if (info.isFile())
            files.insert(path);
        const QString dir = info.absolutePath();
        if (QFileInfo(dir).isDir())
            directories.insert(dir);
    }
    const QStringList watchedFiles = m_watcher->files();
    const QStringList watchedDirs = m_watcher->directories();
    QStringList stale;
    for (const QString& f : watchedFiles) {
        if (!files.contains(f))
            stale << f;
    }
    for (const QString& d : watchedDirs) {
        if (!directories.contains(d))
            stale << d;
    }
    if (!stale.isEmpty())
        m_watcher->removePaths(stale);
    QStringList added;
    for (const QString& f : std::as_const(files)) {
        if (!watchedFiles.contains(f))
            added << f;
    }
    for (const QString& d : std::as_const(directories)) {
        if (!watchedDirs.contains(d))
            added << d;
    }
    if (!added.isEmpty())
        m_watcher->addPaths(added);
}

void MainWindow::onFileChanged(const QString& path)
{
    m_changedFiles.insert(path);
    m_fileChangeTimer->start();
}

void MainWindow::processChangedFiles()
{
    const QSet<QString> changed = std::exchange(m_changedFiles, {});
    bool reloadConfig = false;
    for (const QString& path : changed) {
        if (path == m_hieraYaml) {
            reloadConfig = true;
        } else if (const EnginePtr engine = m_runner->engine()) {
            if (QFileInfo(path).isDir())
                engine->invalidate(); // something appeared or vanished: re-read all
            else
                engine->invalidate(toStd(path));
        }
        // Editors that save by rename drop the watch: put it back.
        if (QFileInfo::exists(path) && !m_watcher->files().contains(path) && !m_watcher->directories().contains(path))
            m_watcher->addPath(path);
        if (path == m_sourceViewer->currentFile())
            m_sourceViewer->reload();
    }
    if (!m_sourceViewer->currentFile().isEmpty()) {
        const QString viewed = QFileInfo(m_sourceViewer->currentFile()).absolutePath();
        if (changed.contains(viewed))
            m_sourceViewer->reload();
    }
    if (reloadConfig)
        m_runner->load(m_hieraYaml);
    else
        scheduleRefresh();
}

// ---------------------------------------------------------------------------------------------------
// Small actions

void MainWindow::showSourceFor(const QModelIndex& index)
{
    const QString file = index.data(HieraRoles::SourceFileRole).toString();
    if (file.isEmpty())
        return;
    m_sourceViewer->showLocation(file, index.data(HieraRoles::SourceLineRole).toInt(),
        index.data(HieraRoles::SourceColumnRole).toInt(), index.data(HieraRoles::SourceKeyRole).toString());
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("sourceDock")))
        dock->show();
}

QString MainWindow::answerYaml() const
{
    return m_yamlText->toPlainText();
}

QString MainWindow::summaryText() const
{
    return m_summaryLabel->text();
}

void MainWindow::copyYaml()
{
    QApplication::clipboard()->setText(m_yamlText->toPlainText());
    m_statusLabel->setText(tr("Copied the value as YAML"));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Hiera Explorer"),
        tr("<p><b>Hiera Explorer</b> %1</p><p>Looks up keys in a Hiera 5 hierarchy with the facts you "
           "give it, and shows where every part of the answer came from.</p>")
            .arg(QCoreApplication::applicationVersion()));
}
