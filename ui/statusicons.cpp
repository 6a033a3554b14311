#include "statusicons.h"

#include <QApplication>
#include <QStyle>

#include <array>

namespace StatusIcons {

const QIcon& icon(Kind kind)
{
    // Never destroyed: a QIcon must not outlive the QGuiApplication, and a function static would.
    static const auto* icons = [] {
        QStyle* style = QApplication::style();
        return new std::array<QIcon, 4> {
            style->standardIcon(QStyle::SP_DialogApplyButton),
            style->standardIcon(QStyle::SP_ArrowDown),
            style->standardIcon(QStyle::SP_MessageBoxCritical),
            style->standardIcon(QStyle::SP_MessageBoxWarning),
        };
    }();
    return (*icons)[static_cast<std::size_t>(kind)];
}

} // namespace StatusIcons
