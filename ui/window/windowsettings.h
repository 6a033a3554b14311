#pragma once

// What the main window keeps between sessions (QSettings): its geometry and dock layout, the answer's
// splitter, the key history, and the recent hierarchies and facts files with their menus.

#include <QString>

#include <functional>

class QMainWindow;
class QMenu;
class QObject;

namespace hiera::ui {

struct WindowParts;

namespace WindowSettings {

// Restores what save() kept, fitting a size saved on a larger screen to this one. True if the user's
// dock layout was found (else the first-run layout applies once the window is shown).
bool restore(QMainWindow& window, const WindowParts& parts);
void save(const QMainWindow& window, const WindowParts& parts);

enum class Recent { Hierarchies, Facts };
// Puts `path` first in the list (at most ten, no duplicates).
void addRecent(Recent list, const QString& path);
// Fills `menu` with the list, one entry a file calling `open` (in `context`); disabled when empty.
void fillRecentMenu(QMenu* menu, Recent list, QObject* context, const std::function<void(const QString&)>& open);

} // namespace WindowSettings

} // namespace hiera::ui
