#include "hierarchymodel.h"

#include "modelroles.h"
#include "statusicons.h"
#include "valueconvert.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QIcon>
#include <QPalette>

using hiera::ResolvedLocation;
using ValueConvert::toQString;

namespace {
// Location rows carry their level's row + 1 as internal id; level rows carry 0.
constexpr quintptr levelRowId = 0;

QString kindName(hiera::LocationSpec::Kind kind)
{
    switch (kind) {
    case hiera::LocationSpec::Kind::Path:
        return QStringLiteral("path");
    case hiera::LocationSpec::Kind::Glob:
        return QStringLiteral("glob");
    case hiera::LocationSpec::Kind::MappedPaths:
        return QStringLiteral("mapped_paths");
    }
    return {};
}

QIcon statusIcon(ResolvedLocation::Status status, bool suspicious)
{
    if (status == ResolvedLocation::Status::Failed)
        return StatusIcons::icon(StatusIcons::Kind::Failed);
    if (suspicious)
        return StatusIcons::icon(StatusIcons::Kind::Warning);
    if (status == ResolvedLocation::Status::Present)
        return StatusIcons::icon(StatusIcons::Kind::Found);
    return {};
}
} // namespace

HierarchyModel::HierarchyModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void HierarchyModel::setSnapshot(ScopeSnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    endResetModel();
}

QModelIndex HierarchyModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, levelRowId);
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex HierarchyModel::parent(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == levelRowId)
        return {};
    return createIndex(static_cast<int>(index.internalId() - 1), 0, levelRowId);
}

int HierarchyModel::rowCount(const QModelIndex& parent) const
{
    if (!m_snapshot || parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_snapshot->levels.size());
    if (parent.internalId() == levelRowId)
        return static_cast<int>(m_snapshot->levels[static_cast<std::size_t>(parent.row())].locations.size());
    return 0;
}

int HierarchyModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant HierarchyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Level / location");
    case BackendColumn:
        return tr("Backend");
    case DeclaredColumn:
        return tr("As written");
    case InterpolatedColumn:
        return tr("Interpolated");
    case StatusColumn:
        return tr("Status");
    }
    return {};
}

QVariant HierarchyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_snapshot)
        return {};
    if (index.internalId() == levelRowId)
        return levelData(m_snapshot->levels[static_cast<std::size_t>(index.row())], index.column(), role);
    const auto& level = m_snapshot->levels[static_cast<std::size_t>(index.internalId() - 1)];
    return locationData(level.locations[static_cast<std::size_t>(index.row())], index.column(), role);
}

QVariant HierarchyModel::levelData(const hiera::ResolvedLevel& level, int column, int role) const
{
    const hiera::Level* declared = level.level;
    int present = 0;
    for (const auto& location : level.locations)
        present += location.status == ResolvedLocation::Status::Present;

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return declared ? toQString(declared->name) : QString();
        case BackendColumn:
            return declared ? QStringLiteral("%1 (%2)").arg(
                       toQString(declared->function), QString::fromLatin1(hiera::backendKindName(declared->kind)))
                            : QString();
        case DeclaredColumn:
            return declared ? QStringLiteral("datadir: %1").arg(toQString(declared->datadir)) : QString();
        case InterpolatedColumn:
            return ValueConvert::shortPath(toQString(level.datadir), m_baseDirectory);
        case StatusColumn:
            if (!level.error.empty())
                return toQString(level.error);
            return tr("%1 of %2 present").arg(present).arg(level.locations.size());
        }
        break;
    case Qt::ToolTipRole:
        if (column == BackendColumn && declared && declared->backendInherited)
            return tr("Backend inherited from defaults");
        if (column == NameColumn)
            return tr("Layer: %1").arg(toQString(level.layer ? level.layer->displayName() : std::string()));
        if (column == InterpolatedColumn)
            return toQString(level.datadir);
        if (column == StatusColumn && !level.error.empty())
            return toQString(level.error);
        break;
    case Qt::FontRole:
        if (column == NameColumn) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (column == BackendColumn && declared && declared->backendInherited) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        break;
    case Qt::ForegroundRole:
        if (column == StatusColumn && !level.error.empty())
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        break;
    case Qt::DecorationRole:
        if (column == StatusColumn && !level.error.empty())
            return StatusIcons::icon(StatusIcons::Kind::Failed);
        break;
    case HieraRoles::SourceFileRole:
        return declared ? toQString(declared->location.file) : QString();
    case HieraRoles::SourceLineRole:
        return declared ? declared->location.line : 0;
    case HieraRoles::SourceColumnRole:
        return declared ? declared->location.column : 0;
    case HieraRoles::SourceKeyRole:
        return declared ? toQString(declared->name) : QString();
    case HieraRoles::LocationStatusRole:
        return -1;
    case HieraRoles::SuspiciousRole:
        return false;
    }
    return {};
}

QVariant HierarchyModel::locationData(const ResolvedLocation& location, int column, int role) const
{
    const QString undefinedList = [&] {
        QStringList names;
        for (const auto& name : location.undefinedVariables)
            names << toQString(name);
        return names.join(QStringLiteral(", "));
    }();

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return kindName(location.kind);
        case DeclaredColumn:
            return toQString(location.declared);
        case InterpolatedColumn:
            return toQString(location.interpolated);
        case StatusColumn: {
            QString status;
            switch (location.status) {
            case ResolvedLocation::Status::Present:
                status = tr("present");
                break;
            case ResolvedLocation::Status::Missing:
                status = tr("missing");
                break;
            case ResolvedLocation::Status::Failed:
                status = tr("failed: %1").arg(toQString(location.error));
                break;
            }
            if (location.suspicious)
                status
                    += undefinedList.isEmpty() ? tr(" (empty path component)") : tr(" (empty: %1)").arg(undefinedList);
            return status;
        }
        }
        break;
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << toQString(location.path);
        if (!location.error.empty())
            lines << toQString(location.error);
        if (location.suspicious)
            lines << (undefinedList.isEmpty()
                    ? tr("The path has an empty component: a variable interpolated to nothing.")
                    : tr("These variables are undefined or empty in the current scope: %1").arg(undefinedList));
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole:
        if (location.status == ResolvedLocation::Status::Failed)
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        if (location.suspicious)
            return QBrush(QColor(0xb3, 0x5c, 0x00));
        if (location.status == ResolvedLocation::Status::Missing)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        break;
    case Qt::DecorationRole:
        if (column == StatusColumn)
            return statusIcon(location.status, location.suspicious);
        break;
    case HieraRoles::SourceFileRole:
        return toQString(location.path);
    case HieraRoles::SourceLineRole:
        return location.status == ResolvedLocation::Status::Present ? 1 : 0;
    case HieraRoles::SourceColumnRole:
        return 0;
    case HieraRoles::LocationStatusRole:
        return static_cast<int>(location.status);
    case HieraRoles::SuspiciousRole:
        return location.suspicious;
    }
    return {};
}
