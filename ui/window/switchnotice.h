#pragma once

// The window's side of a repository switch: what it keeps and clears, and the one notice that tells
// the user (“Opened …: kept the facts of web01; cleared the All keys search “ntp”; kept the key …”).
// The facts are judged by RepositorySwitch (repositoryswitch.h); the key filters are always cleared;
// the key is decided at the new engine's first answer for it: kept if the new repository holds it.

#include "models/snapshots.h"

#include <QCoreApplication>
#include <QStringList>

namespace hiera::ui {

struct WindowParts;

class SwitchNotice
{
    Q_DECLARE_TR_FUNCTIONS(MainWindow) // the texts keep the context they had in mainwindow.cpp
public:
    // The engine of `opened` has just replaced another repository's: judges the facts and the filters
    // still on screen (closing facts the new hierarchy cannot use) and, with no key to wait for, shows
    // the notice at once.
    void leave(const WindowParts& parts, const QString& opened);
    // Each answer shown: the first one of the new engine keeps or clears the key and shows the notice.
    void settleKey(const WindowParts& parts, const QString& opened);

private:
    EnginePtr m_engine; // the new engine, while its first answer for the key is awaited
    QStringList m_notice;
};

} // namespace hiera::ui
