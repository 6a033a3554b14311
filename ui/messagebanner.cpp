#include "messagebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

MessageBanner::MessageBanner(QWidget* parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::clearMessage);
    hide();
}

void MessageBanner::showMessage(Kind kind, const QString& text)
{
    m_kind = kind;
    m_label->setText(text);
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    QString colors = QStringLiteral("background: #e8f0fb; border: 1px solid #7aa7e0;");
    if (kind == Kind::Warning) {
        pixmap = QStyle::SP_MessageBoxWarning;
        colors = QStringLiteral("background: #fdf3e1; border: 1px solid #e0a84a;");
    } else if (kind == Kind::Error) {
        pixmap = QStyle::SP_MessageBoxCritical;
        colors = QStringLiteral("background: #fbe9ea; border: 1px solid #d9656c;");
    }
    setStyleSheet(QStringLiteral("#messageBanner { %1 border-radius: 3px; } QLabel { color: #202020; }").arg(colors));
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
    show();
}

void MessageBanner::clearMessage()
{
    m_label->clear();
    hide();
}

QString MessageBanner::text() const
{
    return m_label->text();
}
