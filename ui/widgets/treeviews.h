#pragma once

// The way the explorer's panels set up their item views, written once.

#include "widgets/elidingheaderview.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

namespace hiera::ui {

namespace TreeViews {

// How many rows (beyond the visible ones) sizing a column to its contents measures. Qt's default, 1000,
// shapes the text of a thousand rows per column: 20-40 ms per view when an answer has thousands of
// leaves or sources (a merge over a glob), and the window froze that long (docs/performance.md, "Cost that grows with
// the input"). The rows shown first decide the width; a wider one further down is elided, as it would be after a
// resize.
inline constexpr int kSizedRows = 100;

// Every view of thousands of rows that sizes its columns to their contents.
inline void limitContentSizing(QHeaderView* header)
{
    header->setResizeContentsPrecision(kSizedRows);
}

// A read-only tree with uniform rows (fast on large values and traces).
inline QTreeView* make(QWidget* parent, const QString& objectName, QAbstractItemModel* model)
{
    auto* view = new QTreeView(parent);
    view->setObjectName(objectName);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
    limitContentSizing(view->header());
    view->setModel(model);
    return view;
}

// A read-only table of whole-row selection for reports of thousands of rows (all keys of a node, a
// node diff): fixed row heights, as a variable one asks every row's size hint; no word wrap.
inline QTableView* makeTable(QWidget* parent, const QString& objectName, QAbstractItemModel* model)
{
    auto* view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setHorizontalHeader(new ElidingHeaderView(view)); // long titles elided, not clipped
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    limitContentSizing(view->horizontalHeader());
    return view;
}

// Sets the widths of the first columns, in order (the last stretches).
inline void setColumnWidths(QHeaderView* header, std::initializer_list<int> widths)
{
    int column = 0;
    for (const int width : widths)
        header->resizeSection(column++, width);
}

// A click on the origin column (file:line) asks for that source, as does a double click (activation)
// anywhere on a row: `signal` of `panel` is emitted with the index.
template <typename Panel>
void connectSourceClicks(QAbstractItemView* view, int originColumn, Panel* panel,
                         void (Panel::*signal)(const QModelIndex&))
{
    QObject::connect(view, &QAbstractItemView::clicked, panel, [panel, signal, originColumn](const QModelIndex& index) {
        if (index.column() == originColumn)
            Q_EMIT(panel->*signal)(index);
    });
    QObject::connect(view, &QAbstractItemView::activated, panel, [panel, signal](const QModelIndex& index) {
        Q_EMIT(panel->*signal)(index);
    });
}

} // namespace TreeViews

} // namespace hiera::ui
