#pragma once

// MessageBanner — an in-place message strip (KMessageWidget-like): errors and warnings appear above
// what they are about, never as a modal dialog, and replace each other instead of stacking up.

#include <QFrame>

class QLabel;
class QToolButton;

class MessageBanner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBanner(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text);
    void clearMessage();
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    QLabel* m_icon;
    QLabel* m_label;
    QToolButton* m_close;
    Kind m_kind = Kind::Information;
};
