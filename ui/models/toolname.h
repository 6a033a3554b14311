#pragma once

// How the explorer names itself in the documents it writes: "Hiera Explorer 0.9 (engine 0.9)" (the
// explanation reports' "Made by").

#include <hiera/version.h>

#include <QCoreApplication>
#include <QString>

namespace hiera::ui {

namespace ToolName {

inline QString text()
{
    return QStringLiteral("Hiera Explorer %1 (engine %2)")
        .arg(QCoreApplication::applicationVersion(), QStringLiteral(HIERA_VERSION));
}

} // namespace ToolName

} // namespace hiera::ui
