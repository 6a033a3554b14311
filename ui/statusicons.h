#pragma once

// The outcome icons the models show (found, merged, failed, warning), made once. QStyle::standardIcon()
// builds a new QIcon on every call, and a new icon misses the pixmap cache: each repaint of a view
// decoded the icons' PNGs again.

#include <QIcon>

namespace StatusIcons {

enum class Kind { Found, Merged, Failed, Warning };

// Call on the GUI thread (after QApplication exists).
const QIcon& icon(Kind kind);

} // namespace StatusIcons
