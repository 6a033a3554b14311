#include "widgets/elidingheaderview.h"

#include <QStyleOptionHeader>

namespace hiera::ui {

ElidingHeaderView::ElidingHeaderView(QWidget* parent) : QHeaderView(Qt::Horizontal, parent)
{
    // As the header QTableView makes for itself.
    setSectionsClickable(true);
    setHighlightSections(true);
    setTextElideMode(Qt::ElideMiddle);
}

void ElidingHeaderView::initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const
{
    // paintSection() takes the title from here, then the style draws it as given.
    QHeaderView::initStyleOptionForIndex(option, logicalIndex);
    int room = sectionSize(logicalIndex) - 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, option, this);
    if (option->sortIndicator != QStyleOptionHeader::None)
        room -= style()->pixelMetric(QStyle::PM_HeaderMarkSize, option, this)
            + style()->pixelMetric(QStyle::PM_HeaderMargin, option, this);
    if (room > 0)
        option->text = option->fontMetrics.elidedText(option->text, textElideMode(), room);
}

} // namespace hiera::ui
