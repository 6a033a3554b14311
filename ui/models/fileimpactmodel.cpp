#include "models/fileimpactmodel.h"

#include "models/valueconvert.h"

namespace hiera::ui {

using ValueConvert::toQString;

FileImpactModel::FileImpactModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void FileImpactModel::setReport(FileImpactReportPtr report)
{
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

int FileImpactModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_report ? 0 : static_cast<int>(m_report->impact.keys.size());
}

int FileImpactModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FileImpactModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_report)
        return {};
    const hiera::KeyImpact& k = m_report->impact.keys[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case KeyColumn:
            return toQString(k.key);
        case RoleColumn:
            if (role == Qt::ToolTipRole)
                return k.role == hiera::KeyImpact::Role::Winner
                    ? tr("The answer's highest-priority leaf is written in this file")
                    : tr("This file contributes to a merge that another file wins");
            return k.role == hiera::KeyImpact::Role::Winner ? tr("winner") : tr("merged");
        case NodesColumn: {
            if (role == Qt::DisplayRole)
                return k.nodes.size() == 1 ? toQString(k.nodes.front()) : tr("%n nodes", nullptr, int(k.nodes.size()));
            QStringList names;
            for (std::size_t i = 0; i < k.nodes.size() && i < 50; ++i)
                names << toQString(k.nodes[i]);
            if (k.nodes.size() > 50)
                names << tr("and %n more", nullptr, int(k.nodes.size() - 50));
            return names.join(QLatin1Char('\n'));
        }
        }
        return {};
    case KeyRole:
        return toQString(k.key);
    case NodesRole: {
        QStringList names;
        names.reserve(static_cast<qsizetype>(k.nodes.size()));
        for (const std::string& n : k.nodes)
            names << toQString(n);
        return names;
    }
    }
    return {};
}

QVariant FileImpactModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case RoleColumn:
        return tr("Role");
    case NodesColumn:
        return tr("Nodes");
    }
    return {};
}

} // namespace hiera::ui
