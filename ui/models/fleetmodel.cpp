#include "models/fleetmodel.h"

#include "models/columnheaders.h"

#include "models/valueconvert.h"

#include <QStringList>

#include <set>
#include <string_view>

namespace hiera::ui {

// Group rows carry no internal id; a node row carries its group's index + 1.

FleetModel::FleetModel(QObject* parent) : QAbstractItemModel(parent)
{
}

void FleetModel::setResult(FleetResultPtr result, const QString& baseDirectory, bool revealSecrets)
{
    beginResetModel();
    m_result = std::move(result);
    m_groupLevels.assign(m_result ? m_result->groups.size() : 0, std::nullopt);
    m_baseDirectory = baseDirectory;
    m_reveal = revealSecrets;
    endResetModel();
}

QModelIndex FleetModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex FleetModel::parent(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(index.internalId() - 1), 0, quintptr(0));
}

int FleetModel::rowCount(const QModelIndex& parent) const
{
    if (!m_result)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_result->groups.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return static_cast<int>(m_result->groups[static_cast<std::size_t>(parent.row())].members.size());
}

int FleetModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QString FleetModel::valueText(const hiera::Value& value) const
{
    return ValueConvert::cellShown(ValueConvert::compactJson(value, m_reveal));
}

QString FleetModel::groupLevel(std::size_t group) const
{
    std::optional<QString>& cached = m_groupLevels[group];
    if (!cached) {
        std::set<std::string_view> levels;
        for (std::size_t member : m_result->groups[group].members)
            if (const std::string& level = m_result->nodes[member].level; !level.empty())
                levels.insert(level);
        cached = levels.size() == 1 ? ValueConvert::toQString(std::string(*levels.begin()))
            : levels.empty()        ? QString()
                                    : tr("%1 levels").arg(levels.size());
    }
    return *cached;
}

QVariant FleetModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_result)
        return {};
    if (index.internalId() == 0) {
        const hiera::FleetGroup& group = m_result->groups[static_cast<std::size_t>(index.row())];
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case WhatColumn:
                if (group.status == hiera::LookupResult::Status::Found)
                    return valueText(group.value);
                return group.status == hiera::LookupResult::Status::NotFound
                    ? tr("(not found)")
                    : tr("error: %1").arg(ValueConvert::toQString(group.error));
            case NodesColumn:
                return static_cast<qulonglong>(group.members.size());
            case LevelColumn:
                return groupLevel(static_cast<std::size_t>(index.row()));
            case FileColumn: {
                QStringList files;
                for (const std::string& f : group.decidingFiles)
                    files << ValueConvert::shortPath(ValueConvert::toQString(f), m_baseDirectory);
                return files.join(QStringLiteral(", "));
            }
            }
        }
        return {};
    }
    const hiera::FleetGroup& group = m_result->groups[static_cast<std::size_t>(index.internalId() - 1)];
    const hiera::FleetNodeResult& node = m_result->nodes[group.members[static_cast<std::size_t>(index.row())]];
    if (role == NodeNameRole)
        return ValueConvert::toQString(node.name);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case WhatColumn:
        return ValueConvert::toQString(node.name);
    case LevelColumn:
        return ValueConvert::toQString(node.level);
    case FileColumn:
        return ValueConvert::shortPath(ValueConvert::toQString(node.file), m_baseDirectory);
    }
    return {};
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return ColumnHeaders::label(m_headerLabels, section, orientation, role);
}

} // namespace hiera::ui
