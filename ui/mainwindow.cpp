#include "mainwindow.h"

#include "contributionmodel.h"
#include "datafilewatcher.h"
#include "demo.h"
#include "explanationmodel.h"
#include "factcommands.h"
#include "factsautosave.h"
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
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QLocale>
#include <QMimeData>
#include <QPalette>
#include <QPushButton>
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
constexpr int keyDelayMs = 15;
constexpr int fileChangeDelayMs = 150;
// Unsaved edits reach the autosave a second after the last one, and every five seconds at the latest
// while the user keeps editing.
constexpr int autosaveDelayMs = 1000;
constexpr int autosavePeriodMs = 5000;

const auto recentHierarchiesKey = QStringLiteral("recent/hierarchies");
const auto recentFactsKey = QStringLiteral("recent/facts");
const auto keyHistoryKey = QStringLiteral("lookup/history");

QTreeView* makeTreeView(QWidget* parent, const QString& name)
{
    auto* view = new QTreeView(parent);
    view->setObjectName(name);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
    return view;
}

// "deep merge (knockout_prefix --, sort_merged_arrays)", "first found".
QString mergeText(const std::optional<hiera::MergeSpec>& spec)
{
    if (!spec || spec->strategy == hiera::MergeStrategy::First)
        return MainWindow::tr("first found");
    QString text = MainWindow::tr("%1 merge").arg(QString::fromLatin1(hiera::mergeStrategyName(spec->strategy)));
    QStringList options;
    if (spec->knockoutPrefix)
        options << QStringLiteral("knockout_prefix %1").arg(toQString(*spec->knockoutPrefix));
    if (spec->sortMergedArrays)
        options << QStringLiteral("sort_merged_arrays");
    if (spec->mergeHashArrays)
        options << QStringLiteral("merge_hash_arrays");
    if (!options.isEmpty())
        text += QStringLiteral(" (%1)").arg(options.join(QStringLiteral(", ")));
    return text;
}

// How the answer was merged and why, in words: "deep merge (knockout_prefix --) from lookup_options
// entry 'profile::ntp'". Other lookup_options of the entry (convert_to) follow.
QString mergeSummary(const hiera::TraceNode& root, bool chosenInSelector)
{
    const QString entry = toQString(root.lookupOptionsEntry);
    QString text = mergeText(root.merge);
    if (chosenInSelector) {
        text += MainWindow::tr(", chosen in the merge selector");
        if (!entry.isEmpty() && root.mergeFromLookupOptions)
            text += MainWindow::tr(" (overrides lookup_options entry '%1')").arg(entry);
    } else if (root.mergeFromLookupOptions) {
        text += MainWindow::tr(" from lookup_options entry '%1'").arg(entry);
    } else {
        text += MainWindow::tr(" (default)");
    }
    if (root.lookupOptions && root.lookupOptions->isHash()) {
        QStringList others;
        for (const auto& option : root.lookupOptions->asHash()) {
            const QString name = ValueConvert::keyText(option.key);
            if (name == QLatin1String("merge"))
                continue;
            others << QStringLiteral("%1 %2").arg(name, ExplanationModel::valueText(option.value));
        }
        if (!others.isEmpty()) {
            text += root.mergeFromLookupOptions ? QStringLiteral(", ")
                                                : MainWindow::tr("; lookup_options entry '%1': ").arg(entry);
            text += others.join(QStringLiteral(", "));
        }
    }
    return text;
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

MainWindow::~MainWindow()
{
    // QUndoStack's destructor clears the stack, which announces a clean state: that must neither reach
    // a half-destroyed window nor delete the autosave of edits nobody saved.
    m_undoStack->disconnect(this);
    m_factModel->disconnect(this);
    // Destroying the child widgets moves the focus, and a focused editor then emits signals (the key
    // combo's activated()) whose slots would run on the half-destroyed window: cut every connection
    // from our children to this window first.
    const auto children = findChildren<QObject*>();
    for (QObject* child : children)
        QObject::disconnect(child, nullptr, this, nullptr);
}

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

    // A fact edit is one commit of an editor, not a keystroke: it is looked up at once (the zero
    // interval only folds the several changes of one undo step). The runner coalesces what comes faster.
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(0);
    m_lookupTimer = new QTimer(this);
    m_lookupTimer->setSingleShot(true);
    m_lookupTimer->setInterval(keyDelayMs);
    m_fileChangeTimer = new QTimer(this);
    m_fileChangeTimer->setSingleShot(true);
    m_fileChangeTimer->setInterval(fileChangeDelayMs);
    m_watcher = new DataFileWatcher(this);
    m_autosaveTimer = new QTimer(this);
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(autosaveDelayMs);
    m_autosaveTick = new QTimer(this);
    m_autosaveTick->setInterval(autosavePeriodMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::writeAutosave);
    connect(m_autosaveTick, &QTimer::timeout, this, &MainWindow::writeAutosave);

    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        // The answer first: the hierarchy view, completion and file watching (a heavier job on a big
        // hierarchy) follow once it is on screen, so that the two do not compete for the CPU.
        if (runLookup())
            m_scopeAfterLookup = true;
        else
            runScope();
    });
    connect(m_lookupTimer, &QTimer::timeout, this, &MainWindow::runLookup);
    connect(m_fileChangeTimer, &QTimer::timeout, this, &MainWindow::processChangedFiles);
    connect(m_watcher, &DataFileWatcher::configChanged, this, [this] {
        m_configChanged = true;
        m_fileChangeTimer->start();
    });
    connect(m_watcher, &DataFileWatcher::dataChanged, this, &MainWindow::onDataChanged);

    connect(m_factModel, &FactTreeModel::factsChanged, this, [this] {
        ++m_factsChanges;
        m_scopeDirty = true;
        scheduleRefresh();
        // Whether the edit leaves the scope unsaved is decided when the timer fires: the undo stack
        // moves its clean state only after the command that changed the model.
        m_autosavePending = true;
        m_autosaveTimer->start();
    });
    connect(m_undoStack, &QUndoStack::cleanChanged, this, [this](bool clean) {
        updateTitle();
        if (clean)
            discardAutosave(); // saved, or undone back to the saved state: nothing left to recover
        else
            m_autosaveTick->start();
    });
    connect(m_runner, &LookupRunner::engineLoaded, this, &MainWindow::onEngineLoaded);
    connect(m_runner, &LookupRunner::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_runner, &LookupRunner::scopeResolved, this, &MainWindow::onScopeResolved);
    connect(m_runner, &LookupRunner::lookupFinished, this, &MainWindow::onLookupFinished);
    connect(m_runner, &LookupRunner::factsRead, this, &MainWindow::onFactsRead);
    connect(m_runner, &LookupRunner::factsReadFailed, this, &MainWindow::onFactsReadFailed);
    connect(m_runner, &LookupRunner::autosaveRead, this, &MainWindow::onAutosaveRead);
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
    m_keyCombo->setMinimumContentsLength(24);
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
    m_knockoutEdit->setMinimumWidth(m_knockoutEdit->fontMetrics().horizontalAdvance(m_knockoutEdit->placeholderText()) + 16);
    m_knockoutEdit->setMaximumWidth(140);
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
    // A read-only line edit rather than a label: a label's new text re-lays out the window (its size
    // hint follows the text), and that repainted every panel on each answer. Selectable all the same.
    m_summaryLabel = new QLineEdit(central);
    m_summaryLabel->setObjectName(QStringLiteral("summaryLabel"));
    m_summaryLabel->setReadOnly(true);
    m_summaryLabel->setFrame(false);
    m_summaryLabel->setFocusPolicy(Qt::ClickFocus);
    QPalette summaryPalette = m_summaryLabel->palette();
    summaryPalette.setColor(QPalette::Base, summaryPalette.color(QPalette::Window));
    m_summaryLabel->setPalette(summaryPalette);
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
    connect(m_answerTabs, &QTabWidget::currentChanged, this, &MainWindow::updateStaleViews);
    connect(m_traceTabs, &QTabWidget::currentChanged, this, &MainWindow::updateStaleViews);
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
    m_factsToolBar = factsToolBar;
    m_factBanner = new MessageBanner(factsPage);
    m_factBanner->setObjectName(QStringLiteral("factBanner"));
    factsLayout->addWidget(m_factBanner);
    m_factView = makeTreeView(factsPage, QStringLiteral("factView"));
    m_factView->setModel(m_factModel);
    m_factView->setItemDelegate(new FactValueDelegate(m_factView));
    m_factView->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_factView->setUniformRowHeights(true);
    m_factView->header()->setStretchLastSection(false);
    m_factView->header()->setSectionResizeMode(FactTreeModel::ValueColumn, QHeaderView::Stretch);
    m_factView->header()->setSectionResizeMode(FactTreeModel::TypeColumn, QHeaderView::ResizeToContents);
    m_factView->setColumnWidth(FactTreeModel::KeyColumn, 130);
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
    // The facts run the full height on the left (a node has many); the hierarchy sits under the
    // answer and the source.
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

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
    // A fixed size: its text comes and goes with every job, and must not re-lay out the window.
    m_busyLabel->setFixedSize(m_busyLabel->fontMetrics().horizontalAdvance(tr("Working…")) + 8,
        m_busyLabel->fontMetrics().height());
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_busyLabel);
    connect(m_runner, &LookupRunner::busyChanged, this,
        [this](bool busy) { m_busyLabel->setText(busy ? tr("Working…") : QString()); });

    resize(1500, 950);
}

void MainWindow::applyDefaultLayout()
{
    // First-run proportions (readSettings() restores the user's own instead): the facts wide enough
    // for their values, the source for a data file's lines, most of the height for the answer.
    auto* factsDock = findChild<QDockWidget*>(QStringLiteral("factsDock"));
    auto* sourceDock = findChild<QDockWidget*>(QStringLiteral("sourceDock"));
    auto* hierarchyDock = findChild<QDockWidget*>(QStringLiteral("hierarchyDock"));
    resizeDocks({ factsDock, sourceDock }, { 330, 380 }, Qt::Horizontal);
    resizeDocks({ hierarchyDock }, { height() / 4 }, Qt::Vertical);
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        splitter->setSizes({ splitter->height() / 2, splitter->height() / 2 });
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Once the layout has its real size: dock sizes asked for earlier are overridden by the first layout.
    if (!std::exchange(m_shownOnce, true) && !m_layoutRestored)
        QTimer::singleShot(0, this, &MainWindow::applyDefaultLayout);
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
    m_layoutRestored = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
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

bool MainWindow::openHierarchy(const QString& hieraYaml)
{
    const QString path = QFileInfo(hieraYaml).absoluteFilePath();
    if (path != m_hieraYaml && !m_hieraYaml.isEmpty() && !maybeSaveFacts(true))
        return false;
    loadHierarchy(path);
    return true;
}

void MainWindow::loadHierarchy(const QString& hieraYaml)
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
    if (changedHierarchy)
        m_watcher->clear();
    m_watcher->watchConfig(hieraYaml);
    addRecent(recentHierarchiesKey, hieraYaml);
    m_statusLabel->setText(tr("Loaded %1").arg(hieraYaml));
    updateTitle();
    // The autosave is offered before the first lookup, so that recovered facts give the first answer:
    // lookups wait for it (scopeSettled()).
    if (changedHierarchy) {
        m_pendingRecovery.reset();
        m_runner->readAutosave(hieraYaml);
    }
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
    m_watcher->watchConfig(hieraYaml);
    if (m_hieraYaml.isEmpty())
        m_hieraYaml = hieraYaml;
    Q_EMIT engineLoadFinished(false);
}

bool MainWindow::openFacts(const QString& path)
{
    if (!maybeSaveFacts())
        return false;
    readFacts(path);
    return true;
}

bool MainWindow::isReadingFacts() const
{
    return m_runner->isReadingFacts();
}

void MainWindow::readFacts(const QString& path)
{
    const QString file = QFileInfo(path).absoluteFilePath();
    m_factsChangesAtRead = m_factsChanges;
    m_runner->readFacts(file);
    // Visible while it lasts, and no edits meanwhile: the facts being read would replace them.
    m_factBanner->showMessage(
        MessageBanner::Kind::Information, tr("Reading facts from %1…").arg(QDir::toNativeSeparators(file)));
    m_statusLabel->setText(tr("Reading facts from %1…").arg(file));
    m_factView->setEnabled(false);
    m_factsToolBar->setEnabled(false);
    m_removeFactAction->setEnabled(false);
}

void MainWindow::onFactsRead(const QString& path, const std::shared_ptr<FactsFile::Scope>& facts)
{
    // Unsaved edits were asked about before the read started. The panel was disabled since, but an edit
    // can still come in (an undo, a script): ask before replacing that, and keep it if the user says so.
    const bool editedMeanwhile = m_factsChanges != m_factsChangesAtRead;
    if (editedMeanwhile && !m_undoStack->isClean() && !maybeSaveFacts()) {
        finishFactsRead();
        m_factBanner->showMessage(MessageBanner::Kind::Warning,
            tr("Kept the unsaved edits; the facts of %1 were not applied.").arg(QDir::toNativeSeparators(path)));
        Q_EMIT factsLoadFinished(false);
        return;
    }
    m_factBanner->clearMessage();
    m_statusLabel->setText(tr("Read facts from %1").arg(path));
    m_factsPath = path;
    // The tree and the scope were made on the worker: nothing here is linear in the number of facts but
    // the view's own layout. (The previous tree goes back to the runner, which frees it on a worker.)
    m_factModel->setPrepared(*facts->tree);
    m_scope = std::move(facts->scope);
    m_scopeDirty = false;
    m_undoStack->clear();
    expandFacts();
    resizeFactColumns();
    addRecent(recentFactsKey, m_factsPath);
    updateTitle();
    finishFactsRead();
    Q_EMIT factsLoadFinished(true);
}

void MainWindow::onFactsReadFailed(const QString& path, const QString& message)
{
    Q_UNUSED(path) // the message names the file
    m_factBanner->showMessage(MessageBanner::Kind::Error, message);
    m_statusLabel->setText(tr("Reading facts failed"));
    finishFactsRead();
    Q_EMIT factsLoadFinished(false);
}

void MainWindow::finishFactsRead()
{
    m_factView->setEnabled(true);
    m_factsToolBar->setEnabled(true);
    m_removeFactAction->setEnabled(true);
    if (auto entry = std::exchange(m_pendingRecovery, nullptr))
        offerRecovery(*entry);
    // The lookups that waited for these facts (setPrepared() has scheduled them already if they arrived).
    scheduleRefresh();
}

bool MainWindow::scopeSettled() const
{
    return !m_runner->isReadingFacts() && !m_runner->isReadingAutosave();
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
        readFacts(facts);
    loadHierarchy(hieraYaml);
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
        readFacts(path);
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
        else
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
                else
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

void MainWindow::expandFacts()
{
    // The first level open (facts, trusted, the top-scope hashes), unless there are very many: QTreeView
    // inserts each expanded row's children into one flat array, so expanding tens of thousands of
    // top-level hashes (the top-scope copies of a large facts file) is quadratic, and froze the window
    // for seconds after the file was read. Then only the facts and trusted hashes open.
    constexpr int expandEveryRowUpTo = 200;
    if (m_factModel->rowCount() <= expandEveryRowUpTo) {
        m_factView->expandToDepth(0);
        return;
    }
    for (const QString& name : { QStringLiteral("facts"), QStringLiteral("trusted") }) {
        const QModelIndex index = m_factModel->indexForKeyPath(name);
        if (index.isValid())
            m_factView->expand(index);
    }
}

void MainWindow::resizeFactColumns()
{
    // Keys to their width (within reason), the type as narrow as its names; the value takes the rest.
    m_factView->resizeColumnToContents(FactTreeModel::KeyColumn);
    const int keyWidth = m_factView->columnWidth(FactTreeModel::KeyColumn);
    m_factView->setColumnWidth(FactTreeModel::KeyColumn, std::clamp(keyWidth, 90, 160));
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
    // QSaveFile writes a new file and renames it over the target: over a device or a FIFO (/dev/full,
    // as root) that would replace the special file itself. Only regular files (or new ones) are saved to.
    if (const QFileInfo target(path); target.exists() && !target.isFile()) {
        m_factBanner->showMessage(MessageBanner::Kind::Error,
                                  tr("Cannot save %1: it is not a regular file").arg(path));
        return false;
    }
    // QSaveFile: a crash or a full disk never leaves a half-written facts file behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        m_factBanner->showMessage(MessageBanner::Kind::Error, tr("Cannot save %1: %2").arg(path, file.errorString()));
        return false;
    }
    // Read it back: a full file system (or a device such as /dev/full named as the file) can take the
    // bytes without an error and keep none of them; the edits must then stay unsaved.
    if (QFile written(path); !written.open(QIODevice::ReadOnly) || written.read(bytes.size() + 1) != bytes) {
        m_factBanner->showMessage(MessageBanner::Kind::Error,
                                  tr("Cannot save %1: the file does not hold what was written (is the disk full?)").arg(path));
        return false;
    }
    m_factBanner->clearMessage();
    if (!factsOnly) {
        m_factsPath = QFileInfo(path).absoluteFilePath();
        discardAutosave(); // also when the stack was clean already (saved as another file)
        m_undoStack->setClean();
        addRecent(recentFactsKey, m_factsPath);
        updateTitle();
    }
    m_statusLabel->setText(tr("Saved %1").arg(path));
    return true;
}

bool MainWindow::saveFacts()
{
    // The bundled demo's facts are part of the installation (or the source tree): save a copy elsewhere.
    if (m_factsPath.isEmpty() || Demo::isDemoFile(m_factsPath))
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

bool MainWindow::maybeSaveFacts(bool revertOnDiscard)
{
    if (m_undoStack->isClean())
        return true;
    const QString text = revertOnDiscard
        ? tr("The facts have unsaved changes. Save them before opening another hierarchy?\n"
             "Discard goes back to the facts as they were last saved.")
        : tr("The facts have unsaved changes. Save them first?");
    switch (ask(Question::SaveChanges, text)) {
    case Answer::Accept:
        return saveFacts();
    case Answer::Discard:
        discardAutosave();
        if (revertOnDiscard)
            revertFacts();
        return true;
    case Answer::Cancel:
        break;
    }
    return false;
}

MainWindow::Answer MainWindow::ask(Question question, const QString& text)
{
    if (m_questionHandler)
        return m_questionHandler(question, text);
    QMessageBox box(this);
    box.setText(text);
    QAbstractButton* accept = nullptr;
    QAbstractButton* discard = nullptr;
    if (question == Question::SaveChanges) {
        box.setIcon(QMessageBox::Warning);
        box.setWindowTitle(tr("Unsaved facts"));
        accept = box.addButton(QMessageBox::Save);
        discard = box.addButton(QMessageBox::Discard);
        box.addButton(QMessageBox::Cancel);
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

void MainWindow::revertFacts()
{
    // Back to the facts as they were last opened or saved here: the undo stack has them, with no file
    // to read (and the edits stay on the redo stack).
    if (m_undoStack->cleanIndex() >= 0) {
        m_undoStack->setIndex(m_undoStack->cleanIndex());
        return;
    }
    if (!m_factsPath.isEmpty() && QFileInfo::exists(m_factsPath)) {
        readFacts(m_factsPath); // the stack lost its clean state: read the file again, in the background
        return;
    }
    m_factModel->setScope(Value(hiera::Hash()));
    m_undoStack->clear();
}

// ---------------------------------------------------------------------------------------------------
// Autosave

QString MainWindow::autosaveFile() const
{
    return FactsAutosave::fileFor(m_hieraYaml);
}

void MainWindow::setAutosaveDelays(int afterEditMs, int periodMs)
{
    m_autosaveTimer->setInterval(afterEditMs);
    m_autosaveTick->setInterval(periodMs);
}

void MainWindow::writeAutosave()
{
    m_autosaveTimer->stop();
    if (m_undoStack->isClean()) {
        m_autosavePending = false;
        m_autosaveTick->stop();
        return;
    }
    if (!m_autosavePending)
        return;
    QString error;
    if (!FactsAutosave::write(m_hieraYaml, m_factsPath, scopeValue(), &error)) {
        m_statusLabel->setText(tr("Cannot autosave the facts: %1").arg(error));
        return;
    }
    if (!m_autosaveKey.isEmpty() && m_autosaveKey != m_hieraYaml)
        FactsAutosave::remove(m_autosaveKey); // the edits moved on to another hierarchy
    m_autosaveKey = m_hieraYaml;
    m_autosavePending = false;
}

void MainWindow::discardAutosave()
{
    m_autosaveTimer->stop();
    m_autosaveTick->stop();
    m_autosavePending = false;
    FactsAutosave::remove(m_hieraYaml);
    if (!m_autosaveKey.isEmpty())
        FactsAutosave::remove(m_autosaveKey);
    m_autosaveKey.clear();
}

void MainWindow::onAutosaveRead(const QString& hieraYaml, const std::shared_ptr<const FactsAutosave::Entry>& entry)
{
    if (entry && hieraYaml == m_hieraYaml) {
        if (m_runner->isReadingFacts())
            m_pendingRecovery = entry; // offered on top of the facts being read, once they are in
        else
            offerRecovery(*entry);
    }
    scheduleRefresh(); // the lookups that waited for the autosave
}

void MainWindow::offerRecovery(const FactsAutosave::Entry& entry)
{
    const QString from = entry.factsPath.isEmpty() ? tr("facts that were never saved")
                                                   : QDir::toNativeSeparators(entry.factsPath);
    const QString text = tr("Fact edits for this hierarchy were not saved when Hiera Explorer last closed "
                            "(%1, autosaved %2). Recover them?")
                             .arg(from, QLocale().toString(entry.written, QLocale::ShortFormat));
    switch (ask(Question::RecoverAutosave, text)) {
    case Answer::Accept:
        m_factsPath = entry.factsPath;
        m_factBanner->clearMessage();
        // Undoable, and it leaves the scope unsaved: the facts file still holds the old facts.
        m_undoStack->push(new ReplaceScopeCommand(m_factModel, entry.scope, tr("Recover autosaved facts")));
        expandFacts();
        m_statusLabel->setText(tr("Recovered the unsaved fact edits"));
        updateTitle();
        break;
    case Answer::Discard:
        FactsAutosave::remove(m_hieraYaml);
        break;
    case Answer::Cancel:
        break;
    }
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
    if (m_runner->engine() && scopeSettled())
        m_runner->resolveScope(scopeValue());
}

bool MainWindow::runLookup()
{
    m_lookupTimer->stop();
    const QString key = m_keyCombo->currentText().trimmed();
    if (key.isEmpty()) {
        showNoKey();
        return false;
    }
    if (!m_runner->engine())
        return false;
    if (!scopeSettled()) {
        if (m_runner->isReadingFacts())
            setSummary(tr("Reading the facts: the answer follows."));
        return false;
    }
    m_runner->lookup(scopeValue(), LookupRequest { toStd(key), currentMerge() });
    return true;
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
    // The deep-merge options only where they apply: the lookup bar stays short enough for the docks.
    const bool deep = m_mergeCombo->currentData().toString() == QLatin1String("deep");
    m_knockoutEdit->setVisible(deep);
    m_sortArraysCheck->setVisible(deep);
    m_mergeHashArraysCheck->setVisible(deep);
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
    ScopeSnapshotPtr previous = m_hierarchyModel->snapshot();
    m_hierarchyModel->setSnapshot(snapshot);
    m_hierarchyView->expandAll();
    for (int column = 0; column < HierarchyModel::StatusColumn; ++column)
        m_hierarchyView->resizeColumnToContents(column);
    if (!snapshot->error.empty())
        m_hierarchyBanner->showMessage(MessageBanner::Kind::Error, toQString(snapshot->error));
    else if (m_hierarchyBanner->kind() != MessageBanner::Kind::Error || m_runner->engine())
        m_hierarchyBanner->clearMessage();

    // Replacing the list while the popup is open would close it under the user's fingers. Most fact
    // edits leave the keys as they were: then the list is not even converted.
    const bool sameKeys = m_keysSnapshot && m_keysSnapshot->keys == snapshot->keys;
    if (!sameKeys && !m_keyCompleter->popup()->isVisible()) {
        // The model shares the snapshot's list: replacing it here frees nothing on this thread.
        m_keyListModel->setStringList(snapshot->keyList);
        m_runner->releaseLater(std::exchange(m_keysSnapshot, snapshot));
    } else if (sameKeys) {
        // The same keys, but the newer snapshot: the old one holds its engine, which must not outlive
        // a hierarchy that was replaced (the completer's list is shared and stays as it is).
        m_runner->releaseLater(std::exchange(m_keysSnapshot, snapshot));
    }
    m_runner->releaseLater(std::move(previous));
    m_watcher->setCandidates(snapshot);
    Q_EMIT hierarchyShown();
}

void MainWindow::showNoKey()
{
    m_lastOutcome.reset();
    m_valueModel->clear();
    m_rootValueModel->clear();
    m_contributionModel->setTrace(nullptr);
    m_explanationModel->setTrace(nullptr);
    m_staleViews = YamlView | ExplanationTree | ExplanationText;
    updateStaleViews();
    setSummary(tr("Type a key to look it up (Ctrl+F focuses the key field)."));
    if (m_answerBanner->kind() != MessageBanner::Kind::Error || m_runner->engine())
        m_answerBanner->clearMessage();
}

void MainWindow::onLookupFinished(const LookupOutcomePtr& outcome)
{
    // The previous answer (its trace and values) is freed on a worker once every view has let go.
    LookupOutcomePtr previous = std::exchange(m_lastOutcome, outcome);
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

    m_contributionModel->setTrace(result.trace, m_baseDirectory);
    m_explanationModel->setTrace(result.trace, m_baseDirectory);
    m_contributionView->resizeColumnsToContents();
    // Long paths would push the values out of sight: no column takes much more than a quarter of the table.
    const int widest = std::max(170, m_contributionView->viewport()->width() / 4);
    for (int column = 0; column < ContributionModel::ValueColumn; ++column)
        m_contributionView->setColumnWidth(column, std::min(m_contributionView->columnWidth(column), widest));
    // Until the user picks an origin, the source view shows the highest-priority file that contributed,
    // if it is small: highlighting a large data file unasked would stall the first answer.
    if (m_sourceViewer->currentFile().isEmpty()) {
        constexpr qint64 autoShowLimit = 64 * 1024;
        const auto& rows = m_contributionModel->rows();
        for (std::size_t row = 0; row < rows.size(); ++row) {
            if (rows[row].outcome == ContributionModel::Outcome::Won
                || rows[row].outcome == ContributionModel::Outcome::Merged) {
                const QModelIndex origin
                    = m_contributionModel->index(static_cast<int>(row), ContributionModel::OriginColumn);
                if (QFileInfo(origin.data(HieraRoles::SourceFileRole).toString()).size() <= autoShowLimit)
                    showSourceFor(origin);
                break;
            }
        }
    }
    // The YAML and explain texts and the expanded explain tree cost more than the rest of the answer
    // on a large trace: they are made when their tab is shown.
    m_staleViews = YamlView | ExplanationTree | ExplanationText;
    updateStaleViews();
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
    if (result.trace)
        summary << mergeSummary(*result.trace, outcome->request.merge.has_value());
    QString files = contributed == 1 ? tr("1 file contributed") : tr("%1 files contributed").arg(contributed);
    if (lacking > 0)
        files += tr(", %1 without the key").arg(lacking);
    if (missing > 0)
        files += tr(", %1 missing").arg(missing);
    summary << files;
    summary << tr("%1 ms").arg(outcome->elapsedMs, 0, 'f', 1);
    setSummary(summary.join(QStringLiteral(" · ")));
    m_runner->releaseLater(std::move(previous));
    if (std::exchange(m_scopeAfterLookup, false))
        runScope();
    Q_EMIT answerShown();
}

// ---------------------------------------------------------------------------------------------------
// Files on disk

void MainWindow::onDataChanged(const QStringList& files, const QStringList& directories)
{
    for (const QString& file : files)
        m_changedFiles.insert(file);
    for (const QString& directory : directories)
        m_changedDirectories.insert(directory);
    m_fileChangeTimer->start();
}

void MainWindow::processChangedFiles()
{
    const QSet<QString> files = std::exchange(m_changedFiles, {});
    const QSet<QString> directories = std::exchange(m_changedDirectories, {});
    const bool configChanged = std::exchange(m_configChanged, false);
    if (configChanged) {
        m_runner->load(m_hieraYaml);
    } else if (const EnginePtr engine = m_runner->engine()) {
        for (const QString& file : files)
            engine->invalidate(toStd(file));
        // A file appeared or vanished there: the globs are matched again (invalidate(path) drops the
        // glob cache; the directory itself is no cached file).
        for (const QString& directory : directories)
            engine->invalidate(toStd(directory));
        scheduleRefresh();
    }
    const QString viewed = m_sourceViewer->currentFile();
    if (!viewed.isEmpty()
        && ((configChanged && viewed == m_hieraYaml) || files.contains(viewed)
            || directories.contains(QFileInfo(viewed).absolutePath())))
        m_sourceViewer->reload();
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
    return m_lastOutcome ? yamlText(*m_lastOutcome) : QString();
}

QString MainWindow::yamlText(const LookupOutcome& outcome)
{
    const hiera::LookupResult& result = outcome.result;
    const QString key = toQString(outcome.request.key);
    const auto parsedKey = hiera::LookupKey::tryParse(outcome.request.key);
    QString yaml;
    try {
        if (result.found())
            yaml = QStringLiteral("# %1\n").arg(key) + toQString(hiera::toYaml(result.value));
        if (result.rootFound && parsedKey && parsedKey->isDotted())
            yaml += QStringLiteral("\n# %1 (root key, merged)\n").arg(toQString(parsedKey->root()))
                + toQString(hiera::toYaml(result.rootValue));
    } catch (const std::exception& e) {
        yaml = QString::fromUtf8(e.what());
    }
    return yaml;
}

void MainWindow::updateStaleViews()
{
    if ((m_staleViews & YamlView) && m_answerTabs->currentWidget() == m_yamlText) {
        m_staleViews &= ~YamlView;
        m_yamlText->setPlainText(answerYaml());
    }
    if ((m_staleViews & ExplanationTree) && m_traceTabs->currentWidget() == m_explanationView->parentWidget()) {
        m_staleViews &= ~ExplanationTree;
        m_explanationView->expandAll();
        m_explanationView->resizeColumnToContents(ExplanationModel::StepColumn);
    }
    if ((m_staleViews & ExplanationText) && m_traceTabs->currentWidget() == m_explainText) {
        m_staleViews &= ~ExplanationText;
        QString text;
        try {
            if (m_lastOutcome && m_lastOutcome->result.trace)
                text = toQString(hiera::explainText(*m_lastOutcome->result.trace));
        } catch (const std::exception& e) {
            text = QString::fromUtf8(e.what());
        }
        m_explainText->setPlainText(text);
    }
}

void MainWindow::setSummary(const QString& text)
{
    m_summaryLabel->setText(text);
    m_summaryLabel->setCursorPosition(0); // the beginning says the most
    m_summaryLabel->setToolTip(text);
}

QString MainWindow::summaryText() const
{
    return m_summaryLabel->text();
}

void MainWindow::copyYaml()
{
    QApplication::clipboard()->setText(answerYaml());
    m_statusLabel->setText(tr("Copied the value as YAML"));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Hiera Explorer"),
        tr("<p><b>Hiera Explorer</b> %1</p><p>Looks up keys in a Hiera 5 hierarchy with the facts you "
           "give it, and shows where every part of the answer came from.</p>")
            .arg(QCoreApplication::applicationVersion()));
}
