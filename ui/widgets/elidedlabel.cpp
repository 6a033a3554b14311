#include "widgets/elidedlabel.h"

namespace hiera::ui {

ElidedLabel::ElidedLabel(Qt::TextElideMode mode, QWidget* parent) : QLabel(parent), m_mode(mode)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text)
{
    if (text == m_full)
        return;
    m_full = text;
    updateGeometry(); // its size hint follows the text
    updateShown();
}

void ElidedLabel::setExtraToolTip(const QString& toolTip)
{
    m_toolTip = toolTip;
    updateShown();
}

QSize ElidedLabel::minimumSizeHint() const
{
    // Room for a few characters and the ellipsis: the layout decides the rest.
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(QStringLiteral("MMMM…")) + m.left() + m.right(),
            QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_full) + m.left() + m.right() + 2, QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    updateShown();
}

void ElidedLabel::updateShown()
{
    const QString shown = fontMetrics().elidedText(m_full, m_mode, contentsRect().width());
    QLabel::setText(shown);
    if (shown == m_full)
        setToolTip(m_toolTip);
    else
        setToolTip(m_toolTip.isEmpty() || m_toolTip == m_full ? m_full : m_full + QLatin1Char('\n') + m_toolTip);
}

} // namespace hiera::ui
