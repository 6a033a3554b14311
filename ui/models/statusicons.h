#pragma once

// The outcome icons the models show (found, merged, failed, warning, a lock for secrets), made once.
// QStyle::standardIcon() builds a new QIcon on every call, and a new icon misses the pixmap cache: each repaint of a
// view decoded the icons' PNGs again.

#include <QColor>
#include <QIcon>
#include <QPalette>

namespace hiera::ui {

namespace StatusIcons {

enum class Kind { Found, Merged, Failed, Warning, Locked };

// Call on the GUI thread (after QApplication exists).
const QIcon& icon(Kind kind);

// The text colour of a warning (amber), readable on the palette's base: QPalette has no warning role.
QColor warningColour(const QPalette& palette = QPalette());

} // namespace StatusIcons

} // namespace hiera::ui
