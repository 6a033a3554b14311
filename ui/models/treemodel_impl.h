#pragma once

// The tree walking of TreeModel<Node>, for the .cpp that defines Node and instantiates the model.

#include "models/treemodel.h"

namespace hiera::ui {

template <typename Node>
QModelIndex TreeModel<Node>::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeFor(parent)->children[static_cast<std::size_t>(row)].get());
}

template <typename Node>
QModelIndex TreeModel<Node>::parent(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    Node* parentNode = nodeFor(index)->parent;
    if (!parentNode || parentNode == m_root.get())
        return {};
    return createIndex(parentNode->row(), 0, parentNode);
}

template <typename Node>
int TreeModel<Node>::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(nodeFor(parent)->children.size());
}

template <typename Node>
QVariant TreeModel<Node>::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    return rowData(*nodeFor(index), index.column(), role);
}

} // namespace hiera::ui
