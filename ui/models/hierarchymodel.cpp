#include "models/hierarchymodel.h"

#include "models/columnheaders.h"

#include "models/modelroles.h"
#include "models/statusicons.h"
#include "models/valueconvert.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QIcon>
#include <QPalette>

#include <algorithm>

namespace hiera::ui {

using hiera::ResolvedLocation;
using ValueConvert::toQString;

namespace {
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

HierarchyModel::HierarchyModel(QObject* parent) : QAbstractItemModel(parent)
{
}

void HierarchyModel::setSnapshot(ScopeSnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_groups.clear();
    m_levelRows.clear();
    if (m_snapshot) {
        const std::vector<hiera::Layer> noLayers;
        const auto& layers = m_snapshot->engine ? m_snapshot->engine->layers() : noLayers;
        const bool grouped = layers.size() > 1
            || std::any_of(layers.begin(), layers.end(), [](const hiera::Layer& l) { return l.error.has_value(); });
        if (grouped) {
            for (const hiera::Layer& layer : layers)
                m_groups.push_back({&layer, {}});
        }
        m_levelRows.reserve(m_snapshot->levels.size());
        for (std::size_t i = 0; i < m_snapshot->levels.size(); ++i) {
            auto group = std::find_if(m_groups.begin(), m_groups.end(),
                                      [&](const Group& g) { return g.layer == m_snapshot->levels[i].layer; });
            if (grouped && group == m_groups.end()) // not expected: a level of no known layer
                group = m_groups.insert(m_groups.end(), Group{m_snapshot->levels[i].layer, {}});
            if (group == m_groups.end()) {
                m_levelRows.emplace_back(0, static_cast<int>(i));
            } else {
                m_levelRows.emplace_back(static_cast<std::size_t>(group - m_groups.begin()),
                                         static_cast<int>(group->levels.size()));
                group->levels.push_back(i);
            }
        }
    }
    endResetModel();
}

HierarchyModel::RowKind HierarchyModel::rowKind(const QModelIndex& index) const
{
    const quintptr id = index.internalId();
    if (isGrouped() && id == 0)
        return RowKind::Layer;
    if (id <= m_groups.size())
        return RowKind::Level;
    return RowKind::Location;
}

std::size_t HierarchyModel::levelOf(const QModelIndex& levelRow) const
{
    if (!isGrouped())
        return static_cast<std::size_t>(levelRow.row());
    return m_groups[levelRow.internalId() - 1].levels[static_cast<std::size_t>(levelRow.row())];
}

QModelIndex HierarchyModel::levelIndex(std::size_t level, int column) const
{
    if (level >= m_levelRows.size())
        return {};
    const auto [group, row] = m_levelRows[level];
    return createIndex(row, column, isGrouped() ? static_cast<quintptr>(group) + 1 : 0);
}

QModelIndex HierarchyModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    if (rowKind(parent) == RowKind::Layer)
        return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
    return createIndex(row, column, static_cast<quintptr>(1 + m_groups.size() + levelOf(parent)));
}

QModelIndex HierarchyModel::parent(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    switch (rowKind(index)) {
    case RowKind::Layer:
        return {};
    case RowKind::Level:
        return isGrouped() ? createIndex(static_cast<int>(index.internalId() - 1), 0, quintptr(0)) : QModelIndex();
    case RowKind::Location:
        return levelIndex(index.internalId() - 1 - m_groups.size());
    }
    return {};
}

int HierarchyModel::rowCount(const QModelIndex& parent) const
{
    if (!m_snapshot || parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return isGrouped() ? static_cast<int>(m_groups.size()) : static_cast<int>(m_snapshot->levels.size());
    switch (rowKind(parent)) {
    case RowKind::Layer:
        return static_cast<int>(m_groups[static_cast<std::size_t>(parent.row())].levels.size());
    case RowKind::Level:
        return static_cast<int>(m_snapshot->levels[levelOf(parent)].locations.size());
    case RowKind::Location:
        return 0;
    }
    return 0;
}

int HierarchyModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant HierarchyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return ColumnHeaders::label(m_headerLabels, section, orientation, role);
}

QVariant HierarchyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_snapshot)
        return {};
    const RowKind kind = rowKind(index);
    if (role == HieraRoles::HierarchyRowRole)
        return static_cast<int>(kind);
    switch (kind) {
    case RowKind::Layer:
        return layerData(m_groups[static_cast<std::size_t>(index.row())], index.column(), role);
    case RowKind::Level:
        return levelData(m_snapshot->levels[levelOf(index)], index.column(), role);
    case RowKind::Location: {
        const auto& level = m_snapshot->levels[index.internalId() - 1 - m_groups.size()];
        return locationData(level.locations[static_cast<std::size_t>(index.row())], index.column(), role);
    }
    }
    return {};
}

QVariant HierarchyModel::layerData(const Group& group, int column, int role) const
{
    const hiera::Layer* layer = group.layer;
    if (!layer)
        return {};
    const QString error = layer->error ? QString::fromUtf8(layer->error->what()) : QString();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return tr("%1 layer").arg(toQString(layer->displayName()));
        case DeclaredColumn:
            return ValueConvert::shortPath(toQString(layer->config.path), m_baseDirectory);
        case StatusColumn:
            if (!error.isEmpty())
                return tr("failed: %1").arg(error);
            return group.levels.size() == 1 ? tr("1 level") : tr("%1 levels").arg(group.levels.size());
        }
        break;
    case Qt::ToolTipRole: {
        QStringList lines{toQString(layer->providerTitle()), toQString(layer->config.path)};
        if (layer->kind == hiera::Layer::Kind::Module)
            lines << tr("Answers only keys in its namespace (%1::…).").arg(toQString(layer->module));
        if (!error.isEmpty())
            lines << tr("Lookups of its keys fail with: %1").arg(error);
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::FontRole:
        if (column == NameColumn) {
            QFont font;
            font.setBold(true);
            return font;
        }
        break;
    case Qt::ForegroundRole:
        if (column == StatusColumn && !error.isEmpty())
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        break;
    case Qt::DecorationRole:
        if (column == StatusColumn && !error.isEmpty())
            return StatusIcons::icon(StatusIcons::Kind::Failed);
        break;
    case HieraRoles::SourceFileRole:
        return toQString(layer->config.path);
    case HieraRoles::SourceLineRole:
        return layer->error ? layer->error->location().line : 1;
    case HieraRoles::SourceColumnRole:
        return layer->error ? layer->error->location().column : 0;
    case HieraRoles::LayerKindRole:
        return static_cast<int>(layer->kind);
    case HieraRoles::LocationStatusRole:
        return -1;
    case HieraRoles::SuspiciousRole:
        return false;
    }
    return {};
}

QVariant HierarchyModel::levelData(const hiera::ResolvedLevel& level, int column, int role) const
{
    const hiera::Level* declared = level.level;
    int present = 0;
    for (const auto& location : level.locations)
        present += location.status == ResolvedLocation::Status::Present;
    const QString unsupported = toQString(level.unsupported);
    const bool skipped =
        !unsupported.isEmpty() && m_snapshot->engine && m_snapshot->engine->options().skipUnsupportedLevels;
    const bool notRun = level.error.empty() && !unsupported.isEmpty();

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            if (!declared)
                return QString();
            return level.defaultHierarchy ? tr("%1 (default_hierarchy)").arg(toQString(declared->name))
                                          : toQString(declared->name);
        case BackendColumn:
            return declared ? QStringLiteral("%1 (%2)").arg(toQString(declared->function),
                                                            QString::fromLatin1(hiera::backendKindName(declared->kind)))
                            : QString();
        case DeclaredColumn:
            return declared ? QStringLiteral("datadir: %1").arg(toQString(declared->datadir)) : QString();
        case InterpolatedColumn:
            return ValueConvert::shortPath(toQString(level.datadir), m_baseDirectory);
        case StatusColumn:
            if (!level.error.empty())
                return toQString(level.error);
            if (notRun)
                return skipped ? tr("not run: %1 (skipped)").arg(unsupported) : tr("not run: %1").arg(unsupported);
            return tr("%1 of %2 present").arg(present).arg(level.locations.size());
        }
        break;
    case Qt::ToolTipRole:
        if (column == BackendColumn && declared && declared->backendInherited)
            return tr("Backend inherited from defaults");
        if (column == StatusColumn && notRun) {
            return skipped ? tr("This engine cannot run this level: %1\nLookups skip it with a warning "
                                "(Skip Levels This Engine Cannot Run is on).")
                                 .arg(unsupported)
                           : tr("This engine cannot run this level: %1\nA lookup that consults it fails, as "
                                "Puppet does without the function; levels above it still answer.")
                                 .arg(unsupported);
        }
        if (column == NameColumn) {
            QString text = tr("Layer: %1").arg(toQString(level.layer ? level.layer->displayName() : std::string()));
            if (level.defaultHierarchy)
                text += QLatin1Char('\n')
                    + tr("A level of the module's default_hierarchy: searched only when no layer's hierarchy "
                         "has the key.");
            return text;
        }
        if (column == InterpolatedColumn)
            return toQString(level.datadir);
        if (column == StatusColumn && !level.error.empty())
            return toQString(level.error);
        break;
    case Qt::FontRole:
        if (column == NameColumn) {
            QFont font;
            font.setBold(true);
            font.setItalic(level.defaultHierarchy);
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
        if (column == StatusColumn && notRun)
            return QBrush(StatusIcons::warningColour());
        break;
    case Qt::DecorationRole:
        if (column == StatusColumn && !level.error.empty())
            return StatusIcons::icon(StatusIcons::Kind::Failed);
        if (column == StatusColumn && notRun)
            return StatusIcons::icon(StatusIcons::Kind::Warning);
        break;
    case HieraRoles::UnsupportedRole:
        return unsupported;
    case HieraRoles::DefaultHierarchyRole:
        return level.defaultHierarchy;
    case HieraRoles::LayerKindRole:
        return level.layer ? static_cast<int>(level.layer->kind) : -1;
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
                status = location.outsideRepository ? tr("outside the repository") : tr("missing");
                break;
            case ResolvedLocation::Status::Failed:
                status = tr("failed: %1").arg(toQString(location.error));
                break;
            }
            if (location.suspicious)
                status +=
                    undefinedList.isEmpty() ? tr(" (empty path component)") : tr(" (empty: %1)").arg(undefinedList);
            return status;
        }
        }
        break;
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << toQString(location.path);
        if (!location.deployedPath.empty())
            lines << tr("Written as %1, where Puppet deploys this environment: read from the repository.")
                         .arg(toQString(location.deployedPath));
        if (location.outsideRepository)
            lines << tr("In Puppet's codedir but outside this environment: the repository does not hold it.");
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

} // namespace hiera::ui
