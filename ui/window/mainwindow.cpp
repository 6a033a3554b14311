#include "window/mainwindow.h"

#include "widgets/elidedlabel.h"
#include "widgets/reportexport.h"

#include "document/datafilesync.h"
#include "document/demo.h"
#include "jobs/fleetrunner.h"
#include "jobs/lookuprunner.h"
#include "models/modelroles.h"
#include "models/overridesmodel.h"
#include "models/valueconvert.h"
#include "panels/allkeyspanel.h"
#include "panels/answerpanel.h"
#include "panels/fleetpanel.h"
#include "panels/hierarchypanel.h"
#include "panels/impactpanel.h"
#include "panels/lookupbar.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "panels/revisiondiffpanel.h"
#include "panels/tracepanel.h"
#include "widgets/messagebanner.h"
#include "widgets/sourceviewer.h"
#include "window/dataprompts.h"
#include "window/docksetup.h"
#include "window/explanationreport.h"
#include "window/factsprompts.h"
#include "window/helpguide.h"
#include "window/panelfocus.h"
#include "window/repositorymenu.h"
#include "window/switchnotice.h"
#include "window/windowactions.h"
#include "window/windowsettings.h"

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
#include <QMessageBox>
#include <QMimeData>
#include <QPrintDialog>
#include <QPrinter>
#include <QRegularExpression>
#include <QScreen>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>

#include <hiera/lookupkey.h>
#include <hiera/scope.h>
#include <hiera/version.h>

namespace hiera::ui {

namespace {
// Only files up to this size are shown unasked after an answer: highlighting a large data file would
// stall the first answer.
constexpr qint64 autoShowSourceLimit = 64 * 1024;
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("HieraExplorerMainWindow"));
    setAcceptDrops(true);
    m_parts = PanelSetup::create(*this);
    setQuestionHandler(nullptr); // message boxes
    setDataQuestionHandler(nullptr);
    m_parts.facts->setSavePathPrompt([this](const QString& suggestion, FactsDocument::SaveKind kind) {
        return FactsPrompts::askSavePath(this, suggestion, kind);
    });
    DockSetup::dockPanels(*this, m_parts);
    // The panels' connections to each other first, then the window's: a signal heard by both reaches
    // the panels first (the source pane is cleared before answerShown goes out).
    PanelSetup::connectPanels(*this, m_parts);
    connectParts();
    // The node library of the last session comes back (read in the background).
    if (const QString library = NodesPanel::rememberedLibrary(); !library.isEmpty() && QFileInfo::exists(library))
        m_parts.nodesPanel->openLibrary(library);
    createStatusBar();

    // The first size: roomy, but inside the screen's free area (a 1280x800 laptop cut off the Source
    // dock and the status bar). A size the user left is restored over it (WindowSettings::restore()).
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1500, 950);
    resize(std::min(1500, available.width() * 9 / 10), std::min(950, available.height() * 9 / 10));

    const WindowMenus menus = WindowActions::create(*this, *this, m_parts);
    m_recentHierarchyMenu = menus.recentHierarchies;
    m_recentFactsMenu = menus.recentFacts;
    m_repositoryMenu = menus.repository;
    m_layoutRestored = WindowSettings::restore(*this, m_parts);
    rebuildRecentMenus();
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
// Parts (panelsetup.cpp makes them, docksetup.cpp docks them)

void MainWindow::connectParts()
{
    // What the panels ask of the window: a source shown, a key looked up, a node's facts opened, a
    // panel brought forward.
    connect(m_parts.overridesPanel, &OverridesPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_parts.allKeysPanel, &AllKeysPanel::keyChosen, this, &MainWindow::setKey);
    connect(m_parts.allKeysPanel, &AllKeysPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_parts.nodeDiffPanel, &NodeDiffPanel::nodeAnswerRequested, this,
            [this](const QString& node, const QString& key) {
                // The answer as the compared node has it: the library node's facts become the scope first
                // (the question about unsaved edits may keep the current ones; the key is set either way).
                if (node != NodeDiffPanel::currentFactsName())
                    openLibraryNode(node);
                setKey(key);
            });
    connect(m_parts.nodeDiffPanel, &NodeDiffPanel::sourceRequested, this, &MainWindow::showSourceFor);
    const auto openNodeAndRootKey = [this](const QString& node, const QString& key) {
        openLibraryNode(node);
        setKey(QString::fromStdString(hiera::LookupKey::forRoot(key.toStdString()))); // a root key
    };
    connect(m_parts.revisionDiffPanel, &RevisionDiffPanel::nodeAnswerRequested, this, openNodeAndRootKey);
    connect(m_parts.impactPanel, &ImpactPanel::nodeAnswerRequested, this, openNodeAndRootKey);
    const auto showImpact = [this](const QString& path) {
        m_parts.impactPanel->showImpactOf(path);
        raisePanel(m_parts.impactPanel);
    };
    connect(m_parts.hierarchyPanel, &HierarchyPanel::impactRequested, this, showImpact);
    connect(m_parts.sourceViewer, &SourceViewer::impactRequested, this, showImpact);
    connect(m_parts.nodesPanel, &NodesPanel::nodeChosen, this, &MainWindow::openNode);
    connect(m_parts.nodesPanel, &NodesPanel::compareRequested, this, [this](const QString& a, const QString& b) {
        m_parts.nodeDiffPanel->compare(a, b);
        raisePanel(m_parts.nodeDiffPanel);
    });
    connect(m_parts.fleetPanel, &FleetPanel::nodeChosen, this, &MainWindow::openLibraryNode);

    connect(m_parts.answerPanel, &AnswerPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_parts.tracePanel, &TracePanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_parts.hierarchyPanel, &HierarchyPanel::sourceRequested, this, &MainWindow::showSourceFor);
    connect(m_parts.tracePanel, &TracePanel::winnerShown, this, [this](const QModelIndex& origin) {
        // The source follows the answer: each new one shows the highest-priority file that contributed
        // (a file too large to highlight unasked is left for a click).
        // A data file with unsaved edits stays on screen: the answer follows the edit, not the reverse.
        if (m_parts.sourceViewer->isModified())
            return;
        if (QFileInfo(origin.data(HieraRoles::SourceFileRole).toString()).size() <= autoShowSourceLimit)
            showSourceFor(origin);
        else
            m_parts.sourceViewer->clear();
    });

    // The window's own state: the repository loaded, the answer shown, the facts read, the title.
    connect(m_parts.runner, &LookupRunner::engineLoaded, this, &MainWindow::onEngineLoaded);
    connect(m_parts.runner, &LookupRunner::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_parts.answerPanel, &AnswerPanel::answerShown, this,
            [this] { m_switchNotice.settleKey(m_parts, m_hieraYaml); });
    connect(m_parts.answerPanel, &AnswerPanel::answerShown, this, &MainWindow::answerShown);
    connect(m_parts.hierarchyPanel, &HierarchyPanel::hierarchyShown, this, &MainWindow::hierarchyShown);
    connect(m_parts.facts, &FactsDocument::readFinished, this, &MainWindow::factsLoadFinished);
    // The Nodes list marks the node whose facts are open: when they are read, and when a library opens.
    connect(m_parts.facts, &FactsDocument::readFinished, this, &MainWindow::markCurrentNode);
    connect(m_parts.fleet, &FleetRunner::libraryLoaded, this, &MainWindow::markCurrentNode);
    connect(m_parts.facts, &FactsDocument::readFinished, this, [this](bool ok) {
        if (ok && m_parts.facts->node().isEmpty()) // a PuppetDB export is a library, not a facts file
            addRecent(WindowSettings::Recent::Facts, m_parts.facts->path());
    });
    connect(m_parts.facts, &FactsDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_parts.facts, &FactsDocument::modifiedChanged, this, &MainWindow::updateTitle);
}

void MainWindow::createStatusBar()
{
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
    connect(m_parts.runner, &LookupRunner::busyChanged, this,
            [this](bool busy) { m_busyLabel->setText(busy ? tr("Working…") : QString()); });
    connect(m_parts.facts, &FactsDocument::statusMessage, m_statusLabel, &ElidedLabel::setFullText);
    connect(m_parts.answerPanel, &AnswerPanel::statusMessage, m_statusLabel, &ElidedLabel::setFullText);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Once the layout has its real size: dock sizes asked for earlier are overridden by the first layout.
    if (!std::exchange(m_shownOnce, true) && !m_layoutRestored)
        QTimer::singleShot(0, this, [this] { DockSetup::applyDefaultLayout(*this); });
}

// ---------------------------------------------------------------------------------------------------
// Settings and commands

void MainWindow::reload()
{
    if (!m_hieraYaml.isEmpty())
        m_parts.runner->load(m_hieraYaml);
}

void MainWindow::reloadWithNewOptions()
{
    if (!m_hieraYaml.isEmpty())
        loadHierarchy(m_hieraYaml);
}

void MainWindow::addRecent(WindowSettings::Recent list, const QString& path)
{
    WindowSettings::addRecent(list, path);
    rebuildRecentMenus();
}

void MainWindow::rebuildRecentMenus()
{
    WindowSettings::fillRecentMenu(m_recentHierarchyMenu, WindowSettings::Recent::Hierarchies, this,
                                   [this](const QString& file) { openHierarchy(file); });
    WindowSettings::fillRecentMenu(m_recentFactsMenu, WindowSettings::Recent::Facts, this,
                                   [this](const QString& file) { openFacts(file); });
}

void MainWindow::updateTitle()
{
    QString title;
    if (!m_parts.facts->path().isEmpty())
        title = m_parts.facts->displayName() + QStringLiteral("[*] — ");
    else
        title = tr("unsaved facts") + QStringLiteral("[*] — ");
    if (!m_hieraYaml.isEmpty())
        title += QDir::toNativeSeparators(m_hieraYaml) + QStringLiteral(" — ");
    title += tr("Hiera Explorer");
    setWindowTitle(title);
    setWindowModified(m_parts.facts->isModified());
    if (m_factsLabel) {
        const QString path = m_parts.facts->path();
        QString text =
            path.isEmpty() ? tr("Facts: not saved to a file") : tr("Facts: %1").arg(m_parts.facts->displayName());
        if (m_parts.facts->isModified())
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
    if (!m_parts.facts->maybeSave() || !m_parts.dataEditor->maybeSave()) {
        event->ignore();
        return;
    }
    WindowSettings::save(*this, m_parts);
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
    if (path != m_hieraYaml && !m_hieraYaml.isEmpty()
        && (!m_parts.facts->maybeSave(true) || !m_parts.dataEditor->maybeSave()))
        return false;
    loadHierarchy(path);
    return true;
}

void MainWindow::loadHierarchy(const QString& hieraYaml)
{
    const QString path = RepositoryOptions::hieraYamlFor(hieraYaml);
    m_statusLabel->setFullText(tr("Loading %1…").arg(path));
    m_repositoryMenu->setRepository(path);
    m_parts.runner->load(path, m_repositoryMenu->optionsFor(path));
}

void MainWindow::onEngineLoaded(const QString& hieraYaml)
{
    const QString previous = std::exchange(m_hieraYaml, hieraYaml);
    if (!previous.isEmpty() && previous != hieraYaml)
        m_switchNotice.leave(m_parts, m_hieraYaml);
    m_parts.facts->setHierarchy(hieraYaml); // offers its autosave before the first answer
    addRecent(WindowSettings::Recent::Hierarchies, hieraYaml);
    m_statusLabel->setFullText(tr("Loaded %1 (environment %2)").arg(hieraYaml, m_parts.runner->environmentName()));
    updateTitle();
    Q_EMIT engineLoadFinished(true);
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
    return m_parts.facts->open(path);
}

void MainWindow::openNode(const QString& name, const QString& factsFile, bool ownFile)
{
    // A node of its own facts file opens as that file; a node of a PuppetDB export as its entry there.
    // Either way edits are saved back in the file's format and autosaved.
    const bool started = ownFile ? openFacts(factsFile) : m_parts.facts->openNode(factsFile, name);
    // Not opened (the question about unsaved edits was cancelled): the list marks the node still open,
    // not the one clicked.
    if (!started)
        markCurrentNode();
}

void MainWindow::openLibraryNode(const QString& name)
{
    if (const NodeLibraryPtr library = m_parts.fleet->library())
        if (const hiera::Node* node = library->find(ValueConvert::toStd(name)))
            openNode(name, ValueConvert::toQString(node->sourceFile), node->format != hiera::FactsFormat::PuppetDB);
}

void MainWindow::markCurrentNode()
{
    const std::optional<hiera::Value> certname = hiera::MapScope(m_parts.facts->scope()).lookup("trusted.certname");
    m_parts.nodesPanel->markOpened(certname && certname->isString() ? ValueConvert::toQString(certname->asString())
                                                                    : QString());
}

bool MainWindow::openDemo()
{
    const QString hieraYaml = Demo::hieraYaml();
    if (hieraYaml.isEmpty()) {
        m_parts.answerPanel->banner()->showMessage(
            MessageBanner::Kind::Warning,
            tr("The demo hierarchy is not installed. Open a hiera.yaml with File ▸ Open."));
        return false;
    }
    if (!m_parts.facts->maybeSave())
        return false;
    const QString facts = Demo::defaultFactsFile(hieraYaml);
    if (!facts.isEmpty())
        m_parts.facts->read(facts);
    loadHierarchy(hieraYaml);
    if (m_parts.lookupBar->key().isEmpty())
        setKey(Demo::defaultKey());
    // Its nodes come along, so that the Nodes, Across nodes and Compare panels have something to show.
    const QString library = Demo::nodeLibrary(hieraYaml);
    if (!library.isEmpty() && QFileInfo(m_parts.fleet->libraryPath()) != QFileInfo(library)
        && QFileInfo(NodesPanel::rememberedLibrary()) != QFileInfo(library))
        m_parts.nodesPanel->openLibrary(library);
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
    if (!m_parts.facts->maybeSave())
        return;
    const QString start = m_parts.facts->path().isEmpty() ? QFileInfo(m_hieraYaml).absolutePath()
                                                          : QFileInfo(m_parts.facts->path()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open facts"), start, tr("Facts (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty())
        m_parts.facts->read(path);
}

bool MainWindow::event(QEvent* event)
{
    // Each dock tab bar, once fully made, is taught to focus the panel of a clicked tab.
    if (event->type() == QEvent::ChildPolished)
        if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child()))
            PanelFocus::followTabBar(*this, m_parts, bar);
    return QMainWindow::event(event);
}

void MainWindow::findInFocusedPanel()
{
    PanelFocus::findInFocusedPanel(m_parts);
}

void MainWindow::exportFactsDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export facts"), ReportExport::lastFolder(),
                                                      tr("YAML (*.yaml *.yml);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    ReportExport::rememberFolder(path);
    m_parts.facts->saveTo(path, true);
}

ExplanationDocument MainWindow::explanationReport() const
{
    ExplanationDocument report;
    report.outcome = m_parts.answerPanel->outcome();
    report.overrides = m_parts.overridesPanel->model()->result();
    report.hieraYaml = m_hieraYaml;
    report.factsFile = m_parts.facts->path();
    report.factsEdited = m_parts.facts->isModified();
    report.fileScope = m_parts.facts->fileScope();
    report.revision = m_parts.runner->revisionText();
    report.revealSecrets = m_parts.runner->revealSecrets(); // only what the user chose to see
    return report;
}

void MainWindow::exportExplanationDialog()
{
    if (!m_parts.answerPanel->outcome())
        return;
    // A name that says what it is (profile--ntp-web01.example.com.md), in the folder used last time.
    // The format is the one used last time.
    QString filter = ExplanationDocument::lastFilter();
    const QString name = ExplanationDocument::suggestedFileName(m_parts.answerPanel->outcome()->request.key,
                                                                m_parts.facts->path(), filter);
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export explanation"), QDir(ReportExport::lastFolder()).filePath(name),
                                     ExplanationDocument::fileFilters(), &filter);
    if (path.isEmpty())
        return;
    path = ExplanationDocument::withExtension(path, filter);
    ReportExport::rememberFolder(path);
    QString error;
    if (!explanationReport().save(path, &error)) {
        m_parts.answerPanel->banner()->showMessage(MessageBanner::Kind::Error, error);
        return;
    }
    ExplanationDocument::rememberFormat(path);
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::printExplanationDialog()
{
    if (!m_parts.answerPanel->outcome())
        return;
    QPrinter printer;
    QPrintDialog dialog(&printer, this);
    if (dialog.exec() == QDialog::Accepted)
        explanationReport().print(&printer);
}

void MainWindow::setQuestionHandler(QuestionHandler handler)
{
    if (!handler)
        handler = [this](Question question, const QString& text) { return FactsPrompts::ask(this, question, text); };
    m_parts.facts->setQuestionHandler(std::move(handler));
}

void MainWindow::setDataQuestionHandler(DataFileEditor::QuestionHandler handler)
{
    if (!handler)
        handler = [this](DataFileEditor::Question question, const QString& text) {
            return DataPrompts::ask(this, question, text);
        };
    m_parts.dataEditor->setQuestionHandler(std::move(handler));
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
    DockSetup::raiseDockOf(*this, panel);
}

void MainWindow::showSourceFor(const QModelIndex& index)
{
    const QString file = index.data(HieraRoles::SourceFileRole).toString();
    if (file.isEmpty())
        return;
    m_parts.sourceViewer->showLocation(file, index.data(HieraRoles::SourceLineRole).toInt(),
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
    DockSetup::resetLayout(*this);
}

// ---------------------------------------------------------------------------------------------------
// The parts, for tests and the program's start (app/hiera-explorer/startup.cpp)

QString MainWindow::factsStatusText() const
{
    return m_factsLabel->fullText();
}
QString MainWindow::factsPath() const
{
    return m_parts.facts->path();
}
bool MainWindow::isReadingFacts() const
{
    return m_parts.facts->isReading();
}
bool MainWindow::saveFactsTo(const QString& path, bool factsOnly)
{
    return m_parts.facts->saveTo(path, factsOnly);
}
void MainWindow::setKey(const QString& key)
{
    m_parts.lookupBar->setKey(key);
}
void MainWindow::setMergeStrategy(const QString& strategy)
{
    m_parts.lookupBar->setMergeStrategy(strategy);
}
QString MainWindow::autosaveFile() const
{
    return m_parts.facts->autosaveFile();
}
void MainWindow::setAutosaveDelays(int afterEditMs, int periodMs)
{
    m_parts.facts->setAutosaveDelays(afterEditMs, periodMs);
}

} // namespace hiera::ui
