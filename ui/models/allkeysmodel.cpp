#include "models/allkeysmodel.h"

#include "models/columnheaders.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <QBrush>
#include <QPalette>

namespace hiera::ui {

AllKeysModel::AllKeysModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void AllKeysModel::setReport(AllKeysReportPtr report, const QString& baseDirectory, bool revealSecrets)
{
    beginResetModel();
    m_report = std::move(report);
    m_baseDirectory = baseDirectory;
    m_reveal = revealSecrets;
    const std::size_t rows = m_report ? m_report->data.keys.size() : 0;
    m_valueTexts.assign(rows, QString());
    m_valueTextMade.assign(rows, false);
    endResetModel();
}

void AllKeysModel::setRevealSecrets(bool reveal)
{
    if (reveal == m_reveal)
        return;
    m_reveal = reveal;
    m_valueTextMade.assign(m_valueTextMade.size(), false);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, ValueColumn), index(rowCount() - 1, ValueColumn));
}

int AllKeysModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_report ? 0 : static_cast<int>(m_report->data.keys.size());
}

int AllKeysModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const QString& AllKeysModel::valueText(std::size_t row) const
{
    if (!m_valueTextMade[row]) {
        const hiera::ResolvedKey& k = m_report->data.keys[row];
        QString text;
        if (k.status == hiera::LookupResult::Status::Found) {
            text = ValueConvert::compactJson(k.value, m_reveal);
        } else if (k.status == hiera::LookupResult::Status::NotFound) {
            text = tr("(not found)");
        } else {
            text = tr("error: %1").arg(ValueConvert::toQString(k.error));
        }
        m_valueTexts[row] = std::move(text);
        m_valueTextMade[row] = true;
    }
    return m_valueTexts[row];
}

QVariant AllKeysModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_report)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const hiera::ResolvedKey& k = m_report->data.keys[row];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return ValueConvert::toQString(k.key);
        case ValueColumn:
            return ValueConvert::cellShown(valueText(row));
        case LevelColumn:
            return ValueConvert::toQString(k.level);
        case FileColumn:
            return k.location.file.empty() ? QString() : ValueConvert::locationText(k.location, m_baseDirectory);
        case MergeColumn:
            return k.merge ? ValueConvert::toQString(hiera::describeMerge(*k.merge)) : QString();
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == ValueColumn)
            return ValueConvert::cellShown(valueText(row));
        if (index.column() == LevelColumn && !k.layer.empty())
            return tr("%1 (%2 layer)").arg(ValueConvert::toQString(k.level), ValueConvert::toQString(k.layer));
        if (index.column() == FileColumn)
            return ValueConvert::toQString(k.location.file);
        return {};
    case Qt::ForegroundRole:
        if (index.column() == ValueColumn && k.status != hiera::LookupResult::Status::Found)
            return QBrush(k.status == hiera::LookupResult::Status::Error ? QColor(Qt::darkRed)
                                                                         : QPalette().color(QPalette::PlaceholderText));
        return {};
    case SearchRole:
        return ValueConvert::toQString(k.key) + QLatin1Char('\n') + valueText(row);
    case KeyRole:
        return ValueConvert::toQString(k.key);
    case HieraRoles::SourceFileRole:
        return ValueConvert::toQString(k.location.file);
    case HieraRoles::SourceLineRole:
        return static_cast<int>(k.location.line);
    case HieraRoles::SourceColumnRole:
        return static_cast<int>(k.location.column);
    case HieraRoles::SourceKeyRole:
        return ValueConvert::toQString(k.key);
    default:
        return {};
    }
}

QVariant AllKeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return ColumnHeaders::label(m_headerLabels, section, orientation, role);
}

} // namespace hiera::ui
