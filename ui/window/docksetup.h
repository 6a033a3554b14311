#pragma once

// Where the panels sit in the main window: each in a dock named for View ▸ and for the saved layout
// (its objectName is the key QMainWindow::saveState() stores), tabbed in three groups — the facts and
// the Nodes on the left, the Source on the right, the hierarchy and the many-node views under the
// answer — with the first-run proportions, which View ▸ Reset Layout brings back.

#include <Qt>

class QDockWidget;
class QMainWindow;
class QString;
class QWidget;

namespace hiera::ui {

struct WindowParts;

namespace DockSetup {

// Puts `panel` in a dock of `window` called `objectName`, in `area`.
QDockWidget* addDock(QMainWindow& window, QWidget* panel, const QString& title, const QString& objectName,
                     Qt::DockWidgetArea area);

// Docks every panel of `parts` (PanelSetup::create) in its place, each group's first tab in front.
void dockPanels(QMainWindow& window, const WindowParts& parts);

// First-run proportions of the docks and of the answer's splitter, for a window that has its real size
// (WindowSettings::restore() brings back the user's own layout instead).
void applyDefaultLayout(QMainWindow& window);

// Every dock back where dockPanels() put it, shown and docked, with the first-run proportions.
void resetLayout(QMainWindow& window);

// Brings the dock that holds `panel` to the front (its tab, if tabbed).
void raiseDockOf(QMainWindow& window, QWidget* panel);

} // namespace DockSetup

} // namespace hiera::ui
