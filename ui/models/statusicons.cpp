#include "models/statusicons.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QStyle>

#include <array>

namespace hiera::ui {

namespace StatusIcons {

namespace {
// A padlock in the palette's text colour: no QStyle standard icon has one, and icon themes may not.
QIcon lockIcon()
{
    const QIcon themed = QIcon::fromTheme(QStringLiteral("object-locked"));
    if (!themed.isNull())
        return themed;
    QIcon icon;
    for (const int size : {16, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(size / 16.0, size / 16.0);
        const QColor colour = QApplication::palette().color(QPalette::Text);
        painter.setPen(QPen(colour, 1.6));
        painter.setBrush(Qt::NoBrush);
        QPainterPath shackle;
        shackle.moveTo(5, 7.5);
        shackle.lineTo(5, 5);
        shackle.arcTo(5, 2, 6, 6, 180, -180);
        shackle.lineTo(11, 7.5);
        painter.drawPath(shackle);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawRoundedRect(QRectF(3, 7, 10, 7.5), 1.5, 1.5);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}
} // namespace

const QIcon& icon(Kind kind)
{
    // Never destroyed: a QIcon must not outlive the QGuiApplication, and a function static would.
    static const auto* icons = [] {
        QStyle* style = QApplication::style();
        return new std::array<QIcon, 5>{
            style->standardIcon(QStyle::SP_DialogApplyButton),
            style->standardIcon(QStyle::SP_ArrowDown),
            style->standardIcon(QStyle::SP_MessageBoxCritical),
            style->standardIcon(QStyle::SP_MessageBoxWarning),
            lockIcon(),
        };
    }();
    return (*icons)[static_cast<std::size_t>(kind)];
}

QColor warningColour(const QPalette& palette)
{
    // The amber the explanation already uses on light bases; a lighter one where the base is dark.
    return palette.color(QPalette::Base).lightness() < 128 ? QColor(0xf0, 0xb0, 0x50) : QColor(0xb3, 0x5c, 0x00);
}

} // namespace StatusIcons

} // namespace hiera::ui
