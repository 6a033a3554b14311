#pragma once

// ShownRefresh — a panel's background refresh, run only while the panel is on screen. A tab of a
// tabbed dock that is not the current one, or a closed dock, only notes that it is stale, and
// refreshes once when it is shown. A whole-node report or a fleet run costs tens of ms to seconds of
// both cores per change; nobody should pay that for a tab they do not look at.
//
//     m_refresh = new ShownRefresh(this, [this] { m_reports->resolveAllKeys(...); });
//     connect(runner, &LookupRunner::scopeResolved, m_refresh, &ShownRefresh::request);
//
// "On screen" comes from the enclosing QDockWidget's visibilityChanged: Qt keeps a background tab's
// widgets isVisible() (it only covers them), and that signal is the one that follows the tabs. A panel
// outside any dock goes by its own show and hide.

#include <QDockWidget>
#include <QEvent>
#include <QObject>
#include <QPointer>
#include <QWidget>

#include <functional>

namespace hiera::ui {

class ShownRefresh : public QObject
{
    Q_OBJECT
public:
    ShownRefresh(QWidget* panel, std::function<void()> refresh)
        : QObject(panel)
        , m_panel(panel)
        , m_refresh(std::move(refresh))
    {
        panel->installEventFilter(this);
        findDock();
    }

    // Something the panel shows changed: refresh now if it is on screen, else when it is shown.
    void request()
    {
        m_stale = true;
        runIfShown();
    }
    bool isStale() const { return m_stale; }
    bool isOnScreen() const { return m_dock ? m_dockShown : m_panel->isVisible(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched != m_panel)
            return false;
        if (event->type() == QEvent::ParentChange)
            findDock(); // MainWindow puts the panel in its dock after making it
        else if (event->type() == QEvent::Show)
            runIfShown();
        return false;
    }

private:
    void findDock()
    {
        QDockWidget* dock = nullptr;
        for (QWidget* w = m_panel->parentWidget(); w && !dock; w = w->parentWidget())
            dock = qobject_cast<QDockWidget*>(w);
        if (dock == m_dock)
            return;
        if (m_dock)
            disconnect(m_dock, nullptr, this, nullptr);
        m_dock = dock;
        // Until the dock says otherwise (it does when its window is shown): a background tab made
        // before its window was shown must not count as on screen.
        m_dockShown = dock && dock->isVisible() && !dock->visibleRegion().isEmpty();
        if (dock)
            connect(dock, &QDockWidget::visibilityChanged, this, [this](bool shown) {
                m_dockShown = shown;
                runIfShown();
            });
    }

    void runIfShown()
    {
        if (!m_stale || !isOnScreen())
            return;
        m_stale = false;
        m_refresh();
    }

    QWidget* m_panel;
    QPointer<QDockWidget> m_dock;
    bool m_dockShown = false;
    std::function<void()> m_refresh;
    bool m_stale = false;
};

} // namespace hiera::ui
