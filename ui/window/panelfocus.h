#pragma once

class QMainWindow;
class QTabBar;

namespace hiera::ui {

// Giving the keyboard to the panel the user turns to. A dock tab clicked (the one in front too) focuses
// its panel, so that Ctrl+F and typing go there and not to the key field left focused; Ctrl+F searches
// the search field of the panel in focus (All keys, Nodes, Compare nodes' prefix), else goes to the key.

struct WindowParts;

namespace PanelFocus {

// Makes clicks on `bar`'s tabs focus the panel of the clicked tab (once per bar: QMainWindow makes
// its tab bars as docks are tabbed together, and the window hands each here when it is polished).
void followTabBar(QMainWindow& window, const WindowParts& parts, QTabBar* bar);

// Edit ▸ Find (Ctrl+F).
void findInFocusedPanel(const WindowParts& parts);

} // namespace PanelFocus

} // namespace hiera::ui
