#pragma once

// MessageBanner — an in-place message strip (KMessageWidget-like): errors and warnings appear above
// what they are about, never as a modal dialog, and replace each other instead of stacking up. A long
// message (a library's skipped files, one per line) shows its first lines and scrolls for the rest, so
// it never takes over the panel it is about.

#include <QFrame>

class QLabel;
class QScrollArea;
class QToolButton;

namespace hiera::ui {

class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBanner(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text);
    void clearMessage();
    QString text() const;
    Kind kind() const { return m_kind; }

    static constexpr int maxVisibleLines = 5;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeight();

    QLabel* m_icon;
    QLabel* m_label;
    QScrollArea* m_scroll;
    QToolButton* m_close;
    Kind m_kind = Kind::Information;
};

} // namespace hiera::ui
