#pragma once

// ExternalEditor — "Open in editor": the file at a line in the user's own editor. $VISUAL, else
// $EDITOR, with the line argument that editor understands (vi, emacs, nano... take "+LINE file",
// VS Code "-g file:LINE"); without either, the desktop's default application (QDesktopServices,
// which cannot be told a line).

#include <QString>
#include <QStringList>

namespace hiera::ui {

namespace ExternalEditor {

struct Command
{
    QString program;
    QStringList arguments;
    bool isValid() const { return !program.isEmpty(); }
};

// The command for `editor` (a $VISUAL / $EDITOR value, possibly with its own arguments) opening
// `file` at `line` (1-based; 0 = no line). Invalid when `editor` is empty.
Command build(const QString& editor, const QString& file, int line);

// The editor the environment names: $VISUAL, else $EDITOR; empty when neither is set.
QString fromEnvironment();

// Starts the editor detached (or asks the desktop to open the file). False if nothing could start.
bool open(const QString& file, int line);

} // namespace ExternalEditor

} // namespace hiera::ui
