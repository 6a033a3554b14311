#include "models/overridesmodel.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <hiera/valueformat.h>

#include <QBrush>
#include <QDir>
#include <QPalette>

#include <algorithm>
#include <string>
#include <unordered_map>

namespace hiera::ui {

namespace {
using Outcome = hiera::SourceContribution::Outcome;

// Why a level gave the answer nothing, in the words of the Sources tab.
QString outcomeNote(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Removed:
        return OverridesModel::tr("knocked out: a knockout above removed all of it");
    case Outcome::RootOnly:
        return OverridesModel::tr("root key only: nothing at the dotted path");
    case Outcome::Shadowed:
        return OverridesModel::tr("shadowed: a level above was found first");
    default:
        return OverridesModel::tr("overridden: the answer uses none of this");
    }
}
} // namespace

OverridesModel::OverridesModel(QObject* parent) : QAbstractItemModel(parent)
{
}

int OverridesModel::add(Kind kind, int parent, std::size_t item, std::size_t part)
{
    const int position = static_cast<int>(m_rows.size());
    const int rowInParent =
        parent < 0 ? position : static_cast<int>(m_rows[static_cast<std::size_t>(parent)].children.size());
    m_rows.push_back({kind, parent, rowInParent, item, part, {}});
    if (parent >= 0)
        m_rows[static_cast<std::size_t>(parent)].children.push_back(position);
    return position;
}

void OverridesModel::setResult(const OverrideChainPtr& result, bool reveal, const QString& baseDirectory)
{
    beginResetModel();
    m_result = result;
    m_reveal = reveal;
    m_base = baseDirectory;
    m_rows.clear();
    // With one layer (a lone hiera.yaml) its name says nothing; with several, each level names its own.
    m_oneLayer = result
        && std::all_of(result->levels.begin(), result->levels.end(),
                       [&](const hiera::OverrideLevel& l) { return l.layer == result->levels.front().layer; });
    if (result) {
        const int levels = add(Kind::LevelsGroup, -1);
        const int leaves = add(Kind::LeavesGroup, -1);
        for (std::size_t i = 0; i < result->levels.size(); ++i)
            add(Kind::Level, levels, i);
        // What knockouts removed, by the leaf path they belong to (a table: one pass, not one per leaf).
        std::unordered_map<std::string, std::vector<std::size_t>> removedAt;
        for (std::size_t i = 0; i < result->removed.size(); ++i)
            removedAt[result->removed[i].path].push_back(i);
        for (std::size_t i = 0; i < result->leaves.size(); ++i) {
            const hiera::OverrideLeaf& leaf = result->leaves[i];
            const int row = add(Kind::Leaf, leaves, i);
            // A merged array: every element under it with the level it came from, when they differ.
            const bool severalFiles = std::any_of(leaf.elements.begin(), leaf.elements.end(),
                                                  [&](const auto& e) { return e.origin.file != leaf.origin.file; });
            if (severalFiles)
                for (std::size_t e = 0; e < leaf.elements.size(); ++e)
                    add(Kind::Element, row, i, e);
            for (std::size_t o = 0; o < leaf.overrode.size(); ++o)
                add(Kind::Overrode, row, i, o);
            if (const auto it = removedAt.find(leaf.path); it != removedAt.end())
                for (const std::size_t r : it->second)
                    add(Kind::Removed, row, r);
        }
    }
    endResetModel();
}

const hiera::Value* OverridesModel::valueOf(const Row& row) const
{
    switch (row.kind) {
    case Kind::Level:
        return &m_result->levels[row.item].value;
    case Kind::Leaf:
        return &m_result->leaves[row.item].value;
    case Kind::Element:
        return &m_result->leaves[row.item].elements[row.part].value;
    case Kind::Overrode:
        return &m_result->leaves[row.item].overrode[row.part].value;
    case Kind::Removed:
        return &m_result->removed[row.item].value;
    default:
        return nullptr;
    }
}

hiera::SourceLocation OverridesModel::locationOf(const Row& row) const
{
    switch (row.kind) {
    case Kind::Level:
        return m_result->levels[row.item].location;
    case Kind::Leaf:
        return m_result->leaves[row.item].origin;
    case Kind::Element:
        return m_result->leaves[row.item].elements[row.part].origin;
    case Kind::Overrode:
        return m_result->leaves[row.item].overrode[row.part].location;
    case Kind::Removed:
        return m_result->removed[row.item].location;
    default:
        return {};
    }
}

bool OverridesModel::greyed(const Row& row) const
{
    return (row.kind == Kind::Level && !m_result->levels[row.item].contributed) || row.kind == Kind::Overrode
        || row.kind == Kind::Removed;
}

QString OverridesModel::whereText(const Row& row) const
{
    const auto qs = [](const std::string& s) { return QString::fromStdString(s); };
    switch (row.kind) {
    case Kind::LevelsGroup:
        return tr("Every level holding %1").arg(qs(m_result->key));
    case Kind::LeavesGroup:
        return tr("Each leaf of the answer: where it came from, what it overrode");
    case Kind::Level: {
        const hiera::OverrideLevel& level = m_result->levels[row.item];
        return level.layer.empty() || m_oneLayer ? qs(level.level)
                                                 : QStringLiteral("%1 (%2)").arg(qs(level.level), qs(level.layer));
    }
    case Kind::Leaf: {
        const hiera::OverrideLeaf& leaf = m_result->leaves[row.item];
        return leaf.path.empty() ? qs(m_result->key) : qs(leaf.path);
    }
    case Kind::Element: {
        const hiera::OverrideElement& e = m_result->leaves[row.item].elements[row.part];
        return tr("[%1] from %2").arg(e.index).arg(qs(e.level));
    }
    case Kind::Overrode:
        return tr("overrode %1").arg(qs(m_result->leaves[row.item].overrode[row.part].level));
    case Kind::Removed: {
        const hiera::RemovedValue& removed = m_result->removed[row.item];
        return tr("removed from %1 by %2 (%3)")
            .arg(qs(removed.level), qs(removed.removedByLevel), ValueConvert::locationText(removed.removedBy, m_base));
    }
    }
    return {};
}

QString OverridesModel::toolTip(const Row& row) const
{
    const QString at = QDir::toNativeSeparators(QString::fromStdString(locationOf(row).toString()));
    if (row.kind == Kind::Level && !m_result->levels[row.item].contributed)
        return outcomeNote(m_result->levels[row.item].outcome);
    if (row.kind == Kind::Removed)
        return tr("Knocked out by %1")
            .arg(QDir::toNativeSeparators(QString::fromStdString(m_result->removed[row.item].removedBy.toString())));
    return at;
}

QVariant OverridesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.internalId() >= m_rows.size())
        return {};
    const Row& row = m_rows[index.internalId()];
    const bool group = row.kind == Kind::LevelsGroup || row.kind == Kind::LeavesGroup;
    if (group)
        return role == Qt::DisplayRole && index.column() == WhereColumn ? QVariant(whereText(row)) : QVariant();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case WhereColumn:
            return whereText(row);
        case ValueColumn: {
            const hiera::Value& value = *valueOf(row);
            const hiera::Value shown = m_reveal ? value : hiera::redactSecrets(value);
            return ValueConvert::cellShown(QString::fromStdString(hiera::cellText(shown)));
        }
        default:
            // From the repository's root, as every view names files (common.yaml alone is ambiguous with modules).
            return ValueConvert::locationText(locationOf(row), m_base);
        }
    case Qt::ToolTipRole:
        return index.column() == WhereColumn
            ? toolTip(row)
            : QDir::toNativeSeparators(QString::fromStdString(locationOf(row).toString()));
    case Qt::ForegroundRole:
        return greyed(row) ? QVariant(QPalette().brush(QPalette::Disabled, QPalette::Text)) : QVariant();
    case HieraRoles::SourceFileRole:
        return QString::fromStdString(locationOf(row).file);
    case HieraRoles::SourceLineRole:
        return locationOf(row).line;
    case HieraRoles::SourceColumnRole:
        return locationOf(row).column;
    case OverriddenRole:
        return greyed(row);
    default:
        return {};
    }
}

QModelIndex OverridesModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < 2 && static_cast<std::size_t>(row) < m_rows.size() ? createIndex(row, column, quintptr(row))
                                                                        : QModelIndex();
    if (parent.internalId() >= m_rows.size())
        return {};
    const std::vector<int>& children = m_rows[parent.internalId()].children;
    if (static_cast<std::size_t>(row) >= children.size())
        return {};
    return createIndex(row, column, quintptr(children[static_cast<std::size_t>(row)]));
}

QModelIndex OverridesModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() >= m_rows.size())
        return {};
    const int parent = m_rows[child.internalId()].parent;
    if (parent < 0)
        return {};
    return createIndex(m_rows[static_cast<std::size_t>(parent)].rowInParent, 0, quintptr(parent));
}

int OverridesModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return m_rows.empty() ? 0 : 2;
    if (parent.column() > 0 || parent.internalId() >= m_rows.size())
        return 0;
    return static_cast<int>(m_rows[parent.internalId()].children.size());
}

int OverridesModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant OverridesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhereColumn:
        return tr("Where");
    case ValueColumn:
        return tr("Value");
    case FileColumn:
        return tr("File");
    default:
        return {};
    }
}

Qt::ItemFlags OverridesModel::flags(const QModelIndex& index) const
{
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

} // namespace hiera::ui
