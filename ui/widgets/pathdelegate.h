#pragma once

// PathDelegate — the cells of a column of file paths ("data/nodes/web02.example.com.yaml:12"): elided
// in the middle, where a path says least (its directory and its file name both stay in sight), and
// shown whole in a tooltip when the cell is too narrow for it and the model gives no tooltip of its
// own. Views elide per view, not per column: a status column next to it keeps its end-elision.

#include <QStyledItemDelegate>

class QAbstractItemView;

namespace hiera::ui {

class PathDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // Sets a PathDelegate (owned by `view`) on each of `columns` of `view`.
    static void install(QAbstractItemView* view, std::initializer_list<int> columns);

    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace hiera::ui
