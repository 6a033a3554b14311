#include "window/windowsettings.h"

#include "panels/lookupbar.h"
#include "window/panelsetup.h"

#include <QMainWindow>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

#include <algorithm>

namespace hiera::ui {

namespace {
constexpr int maxRecentFiles = 10;

const auto recentHierarchiesKey = QStringLiteral("recent/hierarchies");
const auto recentFactsKey = QStringLiteral("recent/facts");
const auto keyHistoryKey = QStringLiteral("lookup/history");

QString keyOf(WindowSettings::Recent list)
{
    return list == WindowSettings::Recent::Hierarchies ? recentHierarchiesKey : recentFactsKey;
}
} // namespace

bool WindowSettings::restore(QMainWindow& window, const WindowParts& parts)
{
    QSettings settings;
    window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // A size saved on a larger screen (a docked laptop, then the laptop alone) is made to fit this one:
    // restoreGeometry() brings a window back on screen but keeps its size. The margin is for the frame.
    if (const QScreen* current = window.screen()) {
        const QRect available = current->availableGeometry();
        const QSize fit(std::min(window.width(), available.width() - 16),
                        std::min(window.height(), available.height() - 48));
        if (fit != window.size()) {
            window.resize(fit.expandedTo(window.minimumSizeHint()));
            window.move(std::clamp(window.x(), available.left(),
                                   std::max(available.left(), available.right() - window.width())),
                        std::clamp(window.y(), available.top(),
                                   std::max(available.top(), available.bottom() - window.height())));
        }
    }
    const bool layoutRestored = window.restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (auto* splitter = window.findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        splitter->restoreState(settings.value(QStringLiteral("window/answerSplitter")).toByteArray());
    parts.lookupBar->setHistory(settings.value(keyHistoryKey).toStringList());
    return layoutRestored;
}

void WindowSettings::save(const QMainWindow& window, const WindowParts& parts)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window.saveState());
    if (auto* splitter = window.findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        settings.setValue(QStringLiteral("window/answerSplitter"), splitter->saveState());
    settings.setValue(keyHistoryKey, parts.lookupBar->history());
}

void WindowSettings::addRecent(Recent list, const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(keyOf(list)).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    settings.setValue(keyOf(list), files);
}

void WindowSettings::fillRecentMenu(QMenu* menu, Recent list, QObject* context,
                                    const std::function<void(const QString&)>& open)
{
    menu->clear();
    const QStringList files = QSettings().value(keyOf(list)).toStringList();
    for (const QString& file : files)
        menu->addAction(file, context, [open, file] { open(file); });
    menu->setEnabled(!files.isEmpty());
}

} // namespace hiera::ui
