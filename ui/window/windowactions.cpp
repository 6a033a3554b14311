#include "window/windowactions.h"

#include "document/factsdocument.h"
#include "panels/answerpanel.h"
#include "panels/factspanel.h"
#include "panels/lookupbar.h"
#include "panels/nodespanel.h"
#include "window/docksetup.h"
#include "window/panelsetup.h"
#include "window/repositorymenu.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoStack>

namespace hiera::ui {

namespace {

// The texts keep the translation context they had when the window made its menus itself.
QString tr(const char* text)
{
    return QCoreApplication::translate("MainWindow", text);
}

} // namespace

WindowMenus WindowActions::create(QMainWindow& window, WindowCommands& commands, const WindowParts& parts)
{
    // Every action has the window as its context, as when it was connected to the window's own slots.
    QMainWindow* w = &window;
    WindowCommands* c = &commands;
    WindowMenus menus;
    QMenuBar* menuBar = window.menuBar();

    QMenu* fileMenu = menuBar->addMenu(tr("&File"));
    QAction* openAction = fileMenu->addAction(tr("&Open Hierarchy…"), w, [c] { c->openHierarchyDialog(); });
    openAction->setShortcut(QKeySequence::Open);
    // A control repository is opened by its hiera.yaml (above) or by its root directory (here).
    QAction* openFolderAction =
        fileMenu->addAction(tr("Open Control Repository &Folder…"), w, [c] { c->openRepositoryFolderDialog(); });
    openFolderAction->setObjectName(QStringLiteral("openFolderAction"));
    menus.recentHierarchies = fileMenu->addMenu(tr("Open &Recent Hierarchy"));
    fileMenu->addAction(tr("Open &Demo"), w, [c] { c->openDemo(); });
    QAction* reloadAction = fileMenu->addAction(tr("Re&load"), w, [c] { c->reload(); });
    reloadAction->setShortcut(QKeySequence::Refresh);
    fileMenu->addSeparator();
    QAction* openFactsAction = fileMenu->addAction(tr("Open &Facts…"), w, [c] { c->openFactsDialog(); });
    openFactsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    menus.recentFacts = fileMenu->addMenu(tr("Recent Fa&cts"));
    QAction* saveAction = fileMenu->addAction(tr("&Save Facts"), parts.facts, &FactsDocument::save);
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = fileMenu->addAction(tr("Save Facts &As…"), parts.facts, &FactsDocument::saveAs);
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    QAction* saveScopeAction = fileMenu->addAction(tr("Save Sco&pe As…"), parts.facts, &FactsDocument::saveScopeAs);
    saveScopeAction->setObjectName(QStringLiteral("saveScopeAction"));
    saveScopeAction->setStatusTip(tr("Save facts, trusted data and top-scope variables as one scope "
                                     "file for Hiera Explorer (not a facts file)"));
    fileMenu->addAction(tr("&Export Facts Only…"), w, [c] { c->exportFactsDialog(); });
    QAction* openLibraryAction = fileMenu->addAction(tr("Open &Node Library…"), w, [w, nodes = parts.nodesPanel] {
        DockSetup::raiseDockOf(*w, nodes); // where the library will show, and its progress meanwhile
        nodes->chooseLibrary();
    });
    openLibraryAction->setObjectName(QStringLiteral("openNodeLibraryAction"));
    openLibraryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    fileMenu->addSeparator();
    QAction* exportAction = fileMenu->addAction(tr("Export E&xplanation…"), w, [c] { c->exportExplanationDialog(); });
    exportAction->setObjectName(QStringLiteral("exportExplanationAction"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction* printAction = fileMenu->addAction(tr("&Print Explanation…"), w, [c] { c->printExplanationDialog(); });
    printAction->setShortcut(QKeySequence::Print);
    fileMenu->addSeparator();
    QAction* quitAction = fileMenu->addAction(tr("&Quit"), w, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QToolBar* factsToolBar = parts.factsPanel->toolBar();
    factsToolBar->addAction(tr("Open…"), w, [c] { c->openFactsDialog(); });
    factsToolBar->addAction(tr("Save"), parts.facts, &FactsDocument::save);

    QMenu* editMenu = menuBar->addMenu(tr("&Edit"));
    QAction* undoAction = parts.facts->undoStack()->createUndoAction(w, tr("&Undo"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction* redoAction = parts.facts->undoStack()->createRedoAction(w, tr("&Redo"));
    redoAction->setShortcut(QKeySequence::Redo);
    editMenu->addAction(undoAction);
    editMenu->addAction(redoAction);
    editMenu->addSeparator();
    editMenu->addAction(tr("&Add Fact"), parts.factsPanel, &FactsPanel::addFact);
    editMenu->addAction(parts.factsPanel->removeAction());
    editMenu->addSeparator();
    // Ctrl+F searches where the user is: the search of the panel in focus (All keys, Nodes, Compare
    // nodes' prefix), else the key. Ctrl+L, as a browser's address bar, always leads to the key.
    QAction* findAction = editMenu->addAction(tr("&Find"), w, [c] { c->findInFocusedPanel(); });
    findAction->setObjectName(QStringLiteral("findAction"));
    findAction->setShortcut(QKeySequence::Find);
    QAction* keyAction = editMenu->addAction(tr("Go to &Key"), parts.lookupBar, &LookupBar::focusKey);
    keyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction* copyAction = editMenu->addAction(tr("&Copy Value as YAML"), parts.answerPanel, &AnswerPanel::copyYaml);
    copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));

    QMenu* viewMenu = menuBar->addMenu(tr("&View"));
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addSeparator();
    QAction* resetLayoutAction = viewMenu->addAction(tr("&Reset Layout"), w, [c] { c->resetLayout(); });
    resetLayoutAction->setObjectName(QStringLiteral("resetLayoutAction"));

    menus.repository = new RepositoryMenu(parts.runner, w);
    menuBar->addMenu(menus.repository->menu());
    QObject::connect(menus.repository, &RepositoryMenu::optionsChanged, w, [c] { c->reloadWithNewOptions(); });

    QMenu* helpMenu = menuBar->addMenu(tr("&Help"));
    QAction* guideAction = helpMenu->addAction(tr("Hiera Explorer &Guide"), w, [c] { c->showGuide(); });
    guideAction->setShortcut(QKeySequence::HelpContents);
    helpMenu->addSeparator();
    helpMenu->addAction(tr("&About Hiera Explorer"), w, [c] { c->showAbout(); });
    helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    return menus;
}

} // namespace hiera::ui
