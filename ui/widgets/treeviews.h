#pragma once

// The way the explorer's panels set up their item views, written once.

#include "widgets/elidingheaderview.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

namespace TreeViews {

// A read-only tree with uniform rows (fast on large values and traces).
inline QTreeView* make(QWidget* parent, const QString& objectName, QAbstractItemModel* model)
{
    auto* view = new QTreeView(parent);
    view->setObjectName(objectName);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
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
