#pragma once

// HierarchyModel — the hierarchy as the current scope makes it: levels in priority order, each with
// its backend and datadir; under each level its locations as written and as interpolated, with the
// file's status (present / missing / failed with the error) and a warning when a location
// interpolated an empty or undefined variable (why `nodes/.yaml` matched nothing).
//
// A control repository has several layers (global, environment, one per module): then the levels are
// grouped under one row per layer, in search order, a broken module layer shows its error there, and a
// module's default_hierarchy levels are marked. A lone hiera.yaml keeps its levels at the top, where a
// single layer row would only add a step. A level the engine cannot run says "not run: <reason>" (and
// whether lookups skip it) in the warning colour: it is not an error until a lookup consults it.
//
// Read-only over an immutable ScopeSnapshot, reset per snapshot.

#include "models/snapshots.h"

#include <QAbstractItemModel>
#include <QStringList>

namespace hiera::ui {

class HierarchyModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, BackendColumn, DeclaredColumn, InterpolatedColumn, StatusColumn, ColumnCount };
    enum class RowKind { Layer, Level, Location };

    explicit HierarchyModel(QObject* parent = nullptr);
    Q_DISABLE_COPY_MOVE(HierarchyModel)

    void setSnapshot(ScopeSnapshotPtr snapshot);
    ScopeSnapshotPtr snapshot() const { return m_snapshot; }
    // Levels are grouped under layer rows (more than one layer, or a broken one).
    bool isGrouped() const { return !m_groups.empty(); }
    // The row of a level in priority order (ScopeSnapshot::levels), wherever it is shown.
    QModelIndex levelIndex(std::size_t level, int column = 0) const;
    // Shown paths are relative to this directory (the hiera.yaml's).
    void setBaseDirectory(const QString& directory) { m_baseDirectory = directory; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const QStringList m_headerLabels = {tr("Level / location"), tr("Backend"), tr("As written"), tr("Interpolated"),
                                        tr("Status")}; // Column order
    struct Group
    {
        const hiera::Layer* layer = nullptr;
        std::vector<std::size_t> levels; // indices into ScopeSnapshot::levels
    };

    RowKind rowKind(const QModelIndex& index) const;
    std::size_t levelOf(const QModelIndex& levelRow) const; // index into ScopeSnapshot::levels
    QVariant layerData(const Group& group, int column, int role) const;
    QVariant levelData(const hiera::ResolvedLevel& level, int column, int role) const;
    QVariant locationData(const hiera::ResolvedLocation& location, int column, int role) const;

    ScopeSnapshotPtr m_snapshot;
    QString m_baseDirectory;
    // Internal ids: layer rows 0, level rows 1 + their group (grouped) or 0 (flat), location rows
    // 1 + groups + their level's index in ScopeSnapshot::levels.
    std::vector<Group> m_groups; // empty: flat
    std::vector<std::pair<std::size_t, int>> m_levelRows; // per level: its group and row in it
};

} // namespace hiera::ui
