#pragma once

// HierarchyModel — the hierarchy as the current scope makes it: levels in priority order, each with
// its backend and datadir; under each level its locations as written and as interpolated, with the
// file's status (present / missing / failed with the error) and a warning when a location
// interpolated an empty or undefined variable (why `nodes/.yaml` matched nothing).
//
// Read-only over an immutable ScopeSnapshot, reset per snapshot.

#include "snapshots.h"

#include <QAbstractItemModel>

class HierarchyModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, BackendColumn, DeclaredColumn, InterpolatedColumn, StatusColumn, ColumnCount };

    explicit HierarchyModel(QObject* parent = nullptr);
    Q_DISABLE_COPY_MOVE(HierarchyModel)

    void setSnapshot(ScopeSnapshotPtr snapshot);
    ScopeSnapshotPtr snapshot() const { return m_snapshot; }
    // Shown paths are relative to this directory (the hiera.yaml's).
    void setBaseDirectory(const QString& directory) { m_baseDirectory = directory; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant levelData(const hiera::ResolvedLevel& level, int column, int role) const;
    QVariant locationData(const hiera::ResolvedLocation& location, int column, int role) const;

    ScopeSnapshotPtr m_snapshot;
    QString m_baseDirectory;
};
