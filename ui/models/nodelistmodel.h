#pragma once

// NodeListModel — the nodes of a library as a table: the node's name, then one column for each fact
// the hierarchy's paths use (facts.role, facts.os.family, trusted.certname...): the values that decide
// which files a node reads, so that a list of 20,000 nodes can be sorted and filtered by them.

#include "models/nodereports.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <optional>
#include <vector>

namespace hiera::ui {

class NodeListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // A fact column's items, when its value is an array (each item's display text): a filter's
    // `datacenters=us-east` matches a node whose datacenters list holds us-east.
    enum Role { ItemsRole = Qt::UserRole + 1 };

    explicit NodeListModel(QObject* parent = nullptr);

    void setLibrary(NodeLibraryPtr library);
    // The fact columns, from the hierarchy of `engine` (null: none).
    void setHierarchy(const EnginePtr& engine);
    NodeLibraryPtr library() const { return m_library; }
    QStringList factColumns() const { return m_columns; }
    // The fact columns no node of the library has: a hierarchy level that interpolates one matches no
    // file for any node, which usually means the library is not this hierarchy's (or its facts lack
    // what the hierarchy expects, such as trusted extensions). Stops at the first node that has a
    // fact; a fact absent everywhere costs one lookup per node (about 10 ms for 20,000 nodes).
    QStringList columnsNoNodeHas() const;
    // Whether the node in `row` has the fact `reference` (team, facts.os.family, trusted.certname) equal
    // to `text` (case ignored), or an array holding it: the filter's fact=value for a fact no column shows.
    bool factEquals(int row, const std::string& reference, const QString& text) const;

    // The references the hierarchy's location templates use (%{facts.role}, %{::trusted.certname}),
    // in hierarchy order, each once; a mapped_paths loop variable stands for the fact it runs over.
    static QStringList hierarchyFacts(const hiera::Engine& engine);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    NodeLibraryPtr m_library;
    QStringList m_columns;
    struct RowCells
    {
        QStringList text; // per fact column
        std::vector<QStringList> items; // per fact column: an array's items, else empty
    };
    const RowCells& cells(int row) const;

    // Display text per node and fact column, made when a row is first asked for (a view asks only for
    // the rows it shows; 20,000 nodes are not looked up on the GUI thread when a library opens) and
    // kept: the view asks again on every paint, and a scope lookup is not free.
    mutable std::vector<std::optional<RowCells>> m_cells;
};

} // namespace hiera::ui
