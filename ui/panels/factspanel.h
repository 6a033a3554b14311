#pragma once

// FactsPanel — the facts dock: the FactsDocument's tree with a value delegate, a banner for what
// happened to the facts (reading, errors), and a tool bar (add, remove, and the window's file actions).
// While a file is read the panel waits, disabled: the facts being read would replace any edit.

#include <QWidget>

class QAction;
class QToolBar;
class QTreeView;

namespace hiera::ui {

class FactsDocument;
class MessageBanner;

class FactsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FactsPanel(FactsDocument* document, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    MessageBanner* banner() const { return m_banner; }
    QToolBar* toolBar() const { return m_toolBar; }
    QAction* addAction() const { return m_addAction; }
    QAction* removeAction() const { return m_removeAction; }

    void addFact();
    void removeFact();

private:
    void setReading(bool reading);
    void expandFacts();
    void resizeColumns();

    FactsDocument* m_document;
    QToolBar* m_toolBar;
    MessageBanner* m_banner;
    QTreeView* m_view;
    QAction* m_addAction;
    QAction* m_removeAction;
};

} // namespace hiera::ui
