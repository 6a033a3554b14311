#pragma once

// OverridesModel — the override chain (hiera::OverrideChain) as a tree: "Every level" lists what each level holds
// for the key, greyed where the answer uses none of it (the tooltip says why: overridden, knocked out, root key
// only); "Each leaf" lists the answer's leaves with their origin and, under each, the elements of a merged array
// with the level each came from, the values it replaced, and what a knockout removed and by which entry. Files are
// named from the repository's root. Rows answer the source roles, so a click shows the file. Read-only; reset per
// result.
//
// A model over the chain itself, not a copy in items: a merge over thousands of files has thousands of levels
// and leaves, and making every cell's text up front (items, formatted values) held the window for tens of
// milliseconds (docs/performance.md, "Cost that grows with the input"). A row is a few indexes into the chain; its
// texts are made when a view asks.

#include "models/snapshots.h"

#include <QAbstractItemModel>

#include <cstddef>
#include <vector>

namespace hiera::ui {

class OverridesModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { WhereColumn, ValueColumn, FileColumn, ColumnCount };
    enum Role { OverriddenRole = Qt::UserRole + 100 }; // bool: a value the answer does not use

    explicit OverridesModel(QObject* parent = nullptr);

    // Decrypted eyaml values are shown masked unless `revealSecrets` (the runner's reveal state).
    // Files are named relative to `baseDirectory` (the repository's root) when they lie under it.
    void setResult(const OverrideChainPtr& result, bool revealSecrets = false, const QString& baseDirectory = {});
    OverrideChainPtr result() const { return m_result; }
    QModelIndex levelsRoot() const { return index(0, 0); }
    QModelIndex leavesRoot() const { return index(1, 0); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    enum class Kind { LevelsGroup, LeavesGroup, Level, Leaf, Element, Overrode, Removed };
    struct Row
    {
        Kind kind;
        int parent; // position in m_rows; -1 at the top
        int rowInParent;
        std::size_t item; // the level, leaf or removed value it shows
        std::size_t part; // Element, Overrode: the element or value of the leaf
        std::vector<int> children;
    };
    const hiera::Value* valueOf(const Row& row) const;
    hiera::SourceLocation locationOf(const Row& row) const;
    bool greyed(const Row& row) const;
    QString whereText(const Row& row) const;
    QString toolTip(const Row& row) const;
    int add(Kind kind, int parent, std::size_t item = 0, std::size_t part = 0);

    OverrideChainPtr m_result;
    bool m_reveal = false;
    bool m_oneLayer = true; // every level of one layer: levels are named without it
    QString m_base;
    std::vector<Row> m_rows; // the two groups first
};

} // namespace hiera::ui
