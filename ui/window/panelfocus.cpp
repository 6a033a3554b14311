#include "window/panelfocus.h"

#include "panels/allkeyspanel.h"
#include "panels/lookupbar.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "window/panelsetup.h"

#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMainWindow>
#include <QTabBar>
#include <QTimer>

namespace hiera::ui {

namespace {

// A panel's search field (All keys, Nodes, Compare), or null.
QLineEdit* searchOf(const WindowParts& parts, const QWidget* panel)
{
    const std::pair<const QWidget*, QLineEdit*> searches[] = {
        {parts.allKeysPanel, parts.allKeysPanel->searchEdit()},
        {parts.nodesPanel, parts.nodesPanel->filterEdit()},
        {parts.nodeDiffPanel, parts.nodeDiffPanel->prefixEdit()},
    };
    for (const auto& [owner, search] : searches)
        if (owner == panel)
            return search;
    return nullptr;
}

void focusPanel(const WindowParts& parts, QWidget* panel)
{
    // Its search when it has one (Ctrl+F then searches it too), else its first widget that takes Tab.
    if (QLineEdit* search = searchOf(parts, panel)) {
        search->setFocus(Qt::TabFocusReason);
        return;
    }
    for (QWidget* w = panel->nextInFocusChain(); w && w != panel && panel->isAncestorOf(w); w = w->nextInFocusChain()) {
        if ((w->focusPolicy() & Qt::TabFocus) && w->isEnabled() && w->isVisible()) {
            w->setFocus(Qt::TabFocusReason);
            return;
        }
    }
}

} // namespace

void PanelFocus::followTabBar(QMainWindow& window, const WindowParts& parts, QTabBar* bar)
{
    if (bar->property("focusesPanels").toBool())
        return;
    bar->setProperty("focusesPanels", true);
    // The window is the context, as for every connection to it: its destructor cuts them first.
    QObject::connect(bar, &QTabBar::tabBarClicked, &window, [&window, parts, bar](int index) {
        const QString title = bar->tabText(index);
        // Once the tab has switched and its panel is enabled (DockSetup::addDock).
        QTimer::singleShot(0, &window, [&window, parts, title] {
            for (QDockWidget* dock : window.findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
                if (dock->windowTitle() == title && dock->widget() && dock->widget()->isEnabled()
                    && dock->widget()->isVisible())
                    focusPanel(parts, dock->widget());
        });
    });
}

void PanelFocus::findInFocusedPanel(const WindowParts& parts)
{
    const QWidget* focus = QApplication::focusWidget();
    for (QWidget* panel : std::initializer_list<QWidget*>{parts.allKeysPanel, parts.nodesPanel, parts.nodeDiffPanel}) {
        QLineEdit* search = searchOf(parts, panel);
        if (focus && panel->isAncestorOf(focus)) {
            search->setFocus(Qt::ShortcutFocusReason);
            search->selectAll();
            return;
        }
    }
    parts.lookupBar->focusKey();
}

} // namespace hiera::ui
