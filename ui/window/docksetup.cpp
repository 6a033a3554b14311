#include "window/docksetup.h"

#include "panels/allkeyspanel.h"
#include "panels/factspanel.h"
#include "panels/fleetpanel.h"
#include "panels/hierarchypanel.h"
#include "panels/impactpanel.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "panels/revisiondiffpanel.h"
#include "widgets/sourceviewer.h"
#include "window/panelsetup.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QSplitter>

namespace hiera::ui {

namespace {

// The dock titles keep the translation context they had when the window made its docks itself.
QString tr(const char* text)
{
    return QCoreApplication::translate("MainWindow", text);
}

QDockWidget* dockNamed(const QMainWindow& window, const char* objectName)
{
    return window.findChild<QDockWidget*>(QLatin1String(objectName));
}

// The first tab of each group: the one in front after dockPanels() and resetLayout().
constexpr const char* factsDock = "factsDock";
constexpr const char* sourceDock = "sourceDock";
constexpr const char* hierarchyDock = "hierarchyDock";
// The tabs behind them, in tab order.
constexpr const char* tabsBehindFacts[] = {"nodesDock"};
constexpr const char* tabsBehindHierarchy[] = {"overridesDock", "fleetDock",        "allKeysDock",
                                               "nodeDiffDock",  "revisionDiffDock", "impactDock"};

} // namespace

QDockWidget* DockSetup::addDock(QMainWindow& window, QWidget* panel, const QString& title, const QString& objectName,
                                Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, &window);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    window.addDockWidget(area, dock);
    // A tab behind another stays isVisible() (Qt only covers it), so Tab walked into its widgets and
    // typing went to a list nobody saw. Disabled while covered, it is out of the focus chain.
    QObject::connect(dock, &QDockWidget::visibilityChanged, panel, &QWidget::setEnabled);
    return dock;
}

void DockSetup::dockPanels(QMainWindow& window, const WindowParts& parts)
{
    // The docks are made in this order, which is also View ▸'s order of their entries.
    addDock(window, parts.factsPanel, tr("Facts and scope"), QStringLiteral("factsDock"), Qt::LeftDockWidgetArea);
    addDock(window, parts.hierarchyPanel, tr("Hierarchy"), QStringLiteral("hierarchyDock"), Qt::BottomDockWidgetArea);
    addDock(window, parts.sourceViewer, tr("Source"), QStringLiteral("sourceDock"), Qt::RightDockWidgetArea);
    const auto behind = [&window](const char* front, QDockWidget* dock) {
        window.tabifyDockWidget(dockNamed(window, front), dock);
    };
    // What every level holds and what each leaf overrode: a tab beside the hierarchy.
    behind(hierarchyDock,
           addDock(window, parts.overridesPanel, tr("Overridden values"), QStringLiteral("overridesDock"),
                   Qt::BottomDockWidgetArea));
    // Many nodes: the node library beside the facts, the key across it beside the hierarchy.
    behind(factsDock,
           addDock(window, parts.nodesPanel, tr("Nodes"), QStringLiteral("nodesDock"), Qt::LeftDockWidgetArea));
    behind(
        hierarchyDock,
        addDock(window, parts.fleetPanel, tr("Across nodes"), QStringLiteral("fleetDock"), Qt::BottomDockWidgetArea));
    behind(
        hierarchyDock,
        addDock(window, parts.allKeysPanel, tr("All keys"), QStringLiteral("allKeysDock"), Qt::BottomDockWidgetArea));
    behind(hierarchyDock,
           addDock(window, parts.nodeDiffPanel, tr("Compare nodes"), QStringLiteral("nodeDiffDock"),
                   Qt::BottomDockWidgetArea));
    behind(hierarchyDock,
           addDock(window, parts.revisionDiffPanel, tr("Revision diff"), QStringLiteral("revisionDiffDock"),
                   Qt::BottomDockWidgetArea));
    behind(hierarchyDock,
           addDock(window, parts.impactPanel, tr("Impact"), QStringLiteral("impactDock"), Qt::BottomDockWidgetArea));
    dockNamed(window, factsDock)->raise();
    dockNamed(window, hierarchyDock)->raise();
    // The facts run the full height on the left (a node has many); the hierarchy sits under the
    // answer and the source.
    window.setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    window.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
}

void DockSetup::applyDefaultLayout(QMainWindow& window)
{
    // The facts wide enough for their values, the source for a data file's lines, most of the height
    // for the answer.
    window.resizeDocks({dockNamed(window, factsDock), dockNamed(window, sourceDock)}, {330, 380}, Qt::Horizontal);
    window.resizeDocks({dockNamed(window, hierarchyDock)}, {window.height() / 3}, Qt::Vertical);
    if (auto* splitter = window.findChild<QSplitter*>(QStringLiteral("answerSplitter")))
        splitter->setSizes({splitter->height() / 2, splitter->height() / 2});
}

void DockSetup::resetLayout(QMainWindow& window)
{
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        dock->setFloating(false);
        dock->show();
    }
    window.addDockWidget(Qt::LeftDockWidgetArea, dockNamed(window, factsDock));
    window.addDockWidget(Qt::RightDockWidgetArea, dockNamed(window, sourceDock));
    window.addDockWidget(Qt::BottomDockWidgetArea, dockNamed(window, hierarchyDock));
    for (const char* tab : tabsBehindFacts)
        window.tabifyDockWidget(dockNamed(window, factsDock), dockNamed(window, tab));
    for (const char* tab : tabsBehindHierarchy)
        window.tabifyDockWidget(dockNamed(window, hierarchyDock), dockNamed(window, tab));
    dockNamed(window, factsDock)->raise();
    dockNamed(window, hierarchyDock)->raise();
    applyDefaultLayout(window);
}

void DockSetup::raiseDockOf(QMainWindow& window, QWidget* panel)
{
    for (QWidget* w = panel; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
            // Brought forward for a table (a node comparison, every key, a fleet): a few rows at least.
            // Under the answer it could be a couple of rows high; the user's larger size is kept.
            if (window.dockWidgetArea(dock) == Qt::BottomDockWidgetArea && !dock->isFloating()
                && dock->height() < window.height() / 3)
                window.resizeDocks({dock}, {window.height() * 2 / 5}, Qt::Vertical);
            return;
        }
    }
}

} // namespace hiera::ui
