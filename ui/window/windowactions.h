#pragma once

class QMainWindow;
class QMenu;

namespace hiera::ui {

// The main window's menus (File, Edit, View, Repository, Help) and the facts panel's tool bar: every
// action, its shortcut and objectName, connected to what it does. The window's own commands (its
// dialogs) are reached through the WindowCommands interface it implements, so that this file need not
// include mainwindow.h (which includes this one: scripts/check-rooms.py forbids the circle); the parts'
// own slots (save, undo, copy) are connected directly.

class RepositoryMenu;
struct WindowParts;

// What the menus ask of the window (MainWindow implements it).
class WindowCommands
{
public:
    virtual void openHierarchyDialog() = 0;
    virtual void openRepositoryFolderDialog() = 0;
    virtual bool openDemo() = 0;
    virtual void reload() = 0; // the same hierarchy, read again
    virtual void reloadWithNewOptions() = 0; // the Repository menu changed an option of the open repository
    virtual void openFactsDialog() = 0;
    virtual void exportFactsDialog() = 0;
    virtual void exportExplanationDialog() = 0;
    virtual void printExplanationDialog() = 0;
    virtual void findInFocusedPanel() = 0;
    virtual void resetLayout() = 0;
    virtual void showGuide() = 0;
    virtual void showAbout() = 0;

protected:
    ~WindowCommands() = default;
};

// What the window needs back from its menus: the recent lists it refills as files are opened, and the
// Repository menu, which keeps each repository's options.
struct WindowMenus
{
    QMenu* recentHierarchies = nullptr;
    QMenu* recentFacts = nullptr;
    RepositoryMenu* repository = nullptr;
};

namespace WindowActions {

// Fills `window`'s menu bar (after the docks exist: View ▸ lists them) and the facts tool bar.
// `commands` is the window itself.
WindowMenus create(QMainWindow& window, WindowCommands& commands, const WindowParts& parts);

} // namespace WindowActions

} // namespace hiera::ui
