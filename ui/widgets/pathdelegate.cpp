#include "widgets/pathdelegate.h"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QToolTip>

namespace hiera::ui {

void PathDelegate::install(QAbstractItemView* view, std::initializer_list<int> columns)
{
    auto* delegate = new PathDelegate(view);
    for (int column : columns)
        view->setItemDelegateForColumn(column, delegate);
}

void PathDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = Qt::ElideMiddle;
}

bool PathDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                             const QModelIndex& index)
{
    if (event->type() == QEvent::ToolTip && index.isValid() && !index.data(Qt::ToolTipRole).isValid()) {
        const QString text = index.data(Qt::DisplayRole).toString();
        QStyleOptionViewItem shown = option;
        initStyleOption(&shown, index);
        // Room for the text: the cell less the decoration and the style's margins (a little spare).
        const int room = shown.rect.width() - shown.decorationSize.width() - 12;
        if (!text.isEmpty() && shown.fontMetrics.horizontalAdvance(text) > room) {
            QToolTip::showText(event->globalPos(), text, view);
            return true;
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

} // namespace hiera::ui
