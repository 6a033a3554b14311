#include "models/contributionmodel.h"

#include "models/columnheaders.h"

#include "models/explanationmodel.h"
#include "models/modelroles.h"
#include "models/statusicons.h"
#include "models/valueconvert.h"

#include <hiera/lookupkey.h>
#include <hiera/merge.h>

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPalette>

namespace hiera::ui {

using hiera::TraceNode;
using ValueConvert::toQString;

ContributionModel::ContributionModel(QObject* parent) : QAbstractTableModel(parent)
{
}

std::vector<ContributionModel::Row> ContributionModel::collect(const TraceNode& root)
{
    return rowsOf(hiera::sourceContributions(root));
}

std::vector<ContributionModel::Row>
ContributionModel::rowsOf(const std::vector<hiera::SourceContribution>& contributions)
{
    std::vector<Row> rows;
    rows.reserve(contributions.size());
    for (const hiera::SourceContribution& s : contributions) {
        Row row;
        row.level = toQString(s.level);
        row.path = toQString(s.path);
        row.originalPath = toQString(s.originalPath);
        row.outcome = s.outcome;
        row.value = s.value; // a Value copy shares its storage
        row.location = s.shownAt; // a dotted key's contributing source: the leaf the dig picked
        row.message = toQString(s.message);
        row.leaves = s.leaves;
        rows.push_back(std::move(row));
    }
    return rows;
}

void ContributionModel::setTrace(const hiera::TracePtr& trace, const QString& baseDirectory)
{
    setContributions(trace, trace ? hiera::sourceContributions(*trace) : std::vector<hiera::SourceContribution>(),
                     baseDirectory);
}

void ContributionModel::setContributions(const hiera::TracePtr& trace,
                                         const std::vector<hiera::SourceContribution>& contributions,
                                         const QString& baseDirectory)
{
    beginResetModel();
    m_baseDirectory = baseDirectory;
    m_rows = rowsOf(contributions);
    m_rootKey.clear();
    if (trace) {
        if (const auto key = hiera::LookupKey::tryParse(trace->key))
            m_rootKey = toQString(key->root());
    }
    endResetModel();
}

QString ContributionModel::outcomeText(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Won:
        return tr("won");
    case Outcome::Merged:
        return tr("merged");
    case Outcome::Shadowed:
        return tr("shadowed");
    case Outcome::Overridden:
        return tr("overridden");
    case Outcome::Removed:
        return tr("knocked out");
    case Outcome::RootOnly:
        return tr("root key only");
    case Outcome::NotFound:
        return tr("no key");
    case Outcome::Missing:
        return tr("missing");
    case Outcome::Failed:
        return tr("failed");
    case Outcome::NoFiles:
        return tr("no files");
    }
    return {};
}

int ContributionModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ContributionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ContributionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical && role == Qt::DisplayRole)
        return section + 1; // the order in which the levels were read
    return ColumnHeaders::label(m_headerLabels, section, orientation, role);
}

QVariant ContributionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const bool contributed = row.outcome == Outcome::Won || row.outcome == Outcome::Merged;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LevelColumn:
            return row.level;
        case FileColumn:
            return row.path.isEmpty() ? row.originalPath : ValueConvert::shortPath(row.path, m_baseDirectory);
        case OutcomeColumn:
            return row.message.isEmpty() ? outcomeText(row.outcome)
                                         : QStringLiteral("%1: %2").arg(outcomeText(row.outcome), row.message);
        case ValueColumn:
            return row.value ? ExplanationModel::valueText(*row.value) : QString();
        case OriginColumn:
            return ValueConvert::locationText(row.location, m_baseDirectory);
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == FileColumn)
            return row.originalPath.isEmpty() ? row.path : tr("%1\nas written: %2").arg(row.path, row.originalPath);
        if (index.column() == OutcomeColumn && !row.message.isEmpty())
            return row.message;
        if (index.column() == ValueColumn && row.value) {
            if (row.value->isStillEncrypted()) // the ENC[...] as written
                return ExplanationModel::valueText(*row.value) + QLatin1Char('\n')
                    + ValueConvert::cellShown(ValueConvert::displayText(*row.value));
            return ExplanationModel::valueText(*row.value);
        }
        break;
    case Qt::ForegroundRole:
        switch (row.outcome) {
        case Outcome::Won:
        case Outcome::Merged:
            return QBrush(QColor(0x26, 0x8a, 0x3e));
        case Outcome::Failed:
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        case Outcome::Shadowed:
        case Outcome::Overridden:
        case Outcome::Removed:
            return QBrush(QColor(0xb3, 0x5c, 0x00));
        default:
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        }
    case Qt::FontRole:
        if (contributed || (index.column() == OriginColumn && row.location.isValid())) {
            QFont font;
            font.setBold(contributed);
            font.setUnderline(index.column() == OriginColumn && row.location.isValid());
            return font;
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == ValueColumn && row.value && (row.value->isSecret() || row.value->isStillEncrypted()))
            return StatusIcons::icon(StatusIcons::Kind::Locked);
        if (index.column() != OutcomeColumn)
            break;
        if (row.outcome == Outcome::Won)
            return StatusIcons::icon(StatusIcons::Kind::Found);
        if (row.outcome == Outcome::Merged)
            return StatusIcons::icon(StatusIcons::Kind::Merged);
        if (row.outcome == Outcome::Failed)
            return StatusIcons::icon(StatusIcons::Kind::Failed);
        break;
    case HieraRoles::SourceFileRole:
        return row.location.isValid() ? ValueConvert::toQString(row.location.file) : row.path;
    case HieraRoles::SourceLineRole:
        return row.location.line;
    case HieraRoles::SourceColumnRole:
        return row.location.column;
    case HieraRoles::SourceKeyRole:
        return m_rootKey;
    case HieraRoles::OutcomeRole:
        return static_cast<int>(row.outcome);
    case HieraRoles::SecretRole:
        return row.value && row.value->isSecret();
    }
    return {};
}

} // namespace hiera::ui
