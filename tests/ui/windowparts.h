#pragma once

// How the GUI tests reach a part of the main window: they find it among the window's children by its
// type (each part exists once), then use that part's own API — `part<FactsDocument>(window)->model()`,
// `part<AnswerPanel>(window)->banner()`. The window exposes no getters for its panels' insides, so a
// test depends on a panel's interface, not on how the window wires it.

#include "document/datafilesync.h"
#include "document/factsdocument.h"
#include "jobs/fleetrunner.h"
#include "jobs/lookuprunner.h"
#include "jobs/nodereportrunner.h"
#include "panels/allkeyspanel.h"
#include "panels/answerpanel.h"
#include "panels/factspanel.h"
#include "panels/fleetpanel.h"
#include "panels/hierarchypanel.h"
#include "panels/lookupbar.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "panels/tracepanel.h"
#include "widgets/sourceviewer.h"
#include "window/helpguide.h"
#include "window/mainwindow.h"
#include "window/repositorymenu.h"

#include <QObject>

#include <memory>

using namespace hiera::ui;

namespace UiTest {

// The window's one part of type T (null if it has none yet, as the help guide before F1).
template <typename T>
T* part(const QObject* window)
{
    return window ? window->findChild<T*>() : nullptr;
}
template <typename T>
T* part(const QObject& window)
{
    return part<T>(&window);
}
template <typename T, typename W>
T* part(const std::unique_ptr<W>& window)
{
    return part<T>(window.get());
}

} // namespace UiTest
