#pragma once

// TreeModel<Node> — the one implementation of index / parent / rowCount / columnCount / data for the
// explorer's hand-written node trees (facts, values, explanations), as hotspot's treemodel.h does it:
// the concrete models build nodes and answer rowData(node, column, role); the tree walking is here,
// written and tested once.
//
// Nodes derive from TreeNode<Node> (a parent pointer and owned children, as in Qt's tree examples).
// The model owns an invisible root node that always exists; its children are the top-level rows.
// A model's .cpp defines its node type, includes treemodel_impl.h and instantiates the template:
//     template class TreeModel<FactNode>;

#include "models/columnheaders.h"

#include <QAbstractItemModel>
#include <QStringList>

#include <algorithm>
#include <memory>
#include <vector>

namespace hiera::ui {

template <typename Node>
struct TreeNode
{
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    // Appends a child and returns it. Children created this way know their row without a search.
    Node* append(std::unique_ptr<Node> child)
    {
        child->parent = static_cast<Node*>(this);
        child->m_rowHint = static_cast<int>(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }

    // The row among the parent's children. Insertions and removals (the editable facts) move rows,
    // so the remembered row is only a hint, checked before use and searched for when stale.
    int row() const
    {
        if (!parent)
            return 0;
        const auto& siblings = parent->children;
        if (m_rowHint >= 0 && m_rowHint < static_cast<int>(siblings.size())
            && siblings[static_cast<std::size_t>(m_rowHint)].get() == this)
            return m_rowHint;
        const auto it = std::find_if(siblings.begin(), siblings.end(),
                                     [this](const std::unique_ptr<Node>& sibling) { return sibling.get() == this; });
        m_rowHint = static_cast<int>(it - siblings.begin());
        return m_rowHint;
    }

private:
    mutable int m_rowHint = -1;
};

template <typename Node>
class TreeModel : public QAbstractItemModel
{
public:
    // Defined in treemodel_impl.h, which only the concrete model's .cpp includes (with an explicit
    // instantiation): elsewhere the node type is incomplete.
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const final;
    QModelIndex parent(const QModelIndex& index) const final;
    int rowCount(const QModelIndex& parent = {}) const final;
    int columnCount(const QModelIndex& = {}) const final { return m_columnCount; }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override
    {
        return ColumnHeaders::label(m_headerLabels, section, orientation, role);
    }

protected:
    // One label per column, in column order.
    TreeModel(QStringList headerLabels, QObject* parent)
        : QAbstractItemModel(parent)
        , m_root(std::make_unique<Node>())
        , m_columnCount(static_cast<int>(headerLabels.size()))
        , m_headerLabels(std::move(headerLabels))
    {
    }

    // What a view asks of one row's cell; `node` is never the invisible root.
    virtual QVariant rowData(const Node& node, int column, int role) const = 0;

    // The node behind an index; the invisible root for an invalid one.
    Node* nodeFor(const QModelIndex& index) const
    {
        return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
    }
    QModelIndex indexOf(const Node* node, int column = 0) const
    {
        if (!node || node == m_root.get())
            return {};
        return createIndex(node->row(), column, const_cast<Node*>(node));
    }
    Node* root() const { return m_root.get(); }

    // Replaces every row at once (a new answer, trace or facts file): one reset, no per-row signals.
    // Returns the previous tree, for a caller that frees it elsewhere.
    std::unique_ptr<Node> resetRoot(std::unique_ptr<Node> root)
    {
        beginResetModel();
        std::swap(m_root, root);
        endResetModel();
        return root;
    }

private:
    std::unique_ptr<Node> m_root;
    const int m_columnCount;
    const QStringList m_headerLabels;
};

} // namespace hiera::ui
