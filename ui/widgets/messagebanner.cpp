#include "widgets/messagebanner.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>

namespace hiera::ui {

MessageBanner::MessageBanner(QWidget* parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    layout->setAlignment(m_icon, Qt::AlignTop);
    m_scroll->setWidget(m_label);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->viewport()->setAutoFillBackground(false); // the banner's colour shows through
    m_label->setAutoFillBackground(false);
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
    setStyleSheet(QStringLiteral("#messageBanner { %1 border-radius: 3px; } QLabel { color: #202020; } "
                                 "QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }")
                      .arg(colors));
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
    m_scroll->verticalScrollBar()->setValue(0);
    show();
    fitHeight();
}

void MessageBanner::resizeEvent(QResizeEvent* event)
{
    QFrame::resizeEvent(event);
    fitHeight();
}

void MessageBanner::fitHeight()
{
    // The whole text when it is short; otherwise maxVisibleLines of it and a scroll bar.
    const int width = m_scroll->viewport()->width() > 0 ? m_scroll->viewport()->width() : m_scroll->width();
    const int needed = m_label->heightForWidth(width);
    const int most = maxVisibleLines * m_label->fontMetrics().lineSpacing() + 2;
    const int height = needed > 0 ? std::min(needed, most) : m_label->sizeHint().height();
    if (m_scroll->height() != height)
        m_scroll->setFixedHeight(height);
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

} // namespace hiera::ui
