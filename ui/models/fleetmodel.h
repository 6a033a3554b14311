#pragma once

// FleetModel — one key across the node library, grouped by the value the nodes get (largest group
// first): a group row (value, how many nodes, the files that decide it) holds its nodes (node, value,
// level, file). Secrets are masked unless revealed.

#include "models/nodereports.h"

#include <QAbstractItemModel>
#include <QStringList>

#include <optional>
#include <vector>

namespace hiera::ui {

class FleetModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { WhatColumn, NodesColumn, LevelColumn, FileColumn, ColumnCount };
    enum Role { NodeNameRole = Qt::UserRole + 100 };

    explicit FleetModel(QObject* parent = nullptr);

    void setResult(FleetResultPtr result, const QString& baseDirectory, bool revealSecrets);
    FleetResultPtr result() const { return m_result; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const QStringList m_headerLabels = {tr("Value / node"), tr("Nodes"), tr("Level"),
                                        tr("Deciding files")}; // Column order
    QString valueText(const hiera::Value& value) const;

    // A group's level column: its members' level when they share one, else how many (made when first
    // shown: a group of 20,000 nodes is not walked for every paint).
    QString groupLevel(std::size_t group) const;

    FleetResultPtr m_result;
    mutable std::vector<std::optional<QString>> m_groupLevels;
    QString m_baseDirectory;
    bool m_reveal = false;
};

} // namespace hiera::ui
