#include "models/keywarningsmodel.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

namespace hiera::ui {

KeyWarningsModel::KeyWarningsModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void KeyWarningsModel::setWarnings(std::vector<hiera::NodeWarning> warnings, const QString& baseDirectory)
{
    beginResetModel();
    m_warnings = std::move(warnings);
    m_baseDirectory = baseDirectory;
    endResetModel();
}

int KeyWarningsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_warnings.size());
}

int KeyWarningsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString KeyWarningsModel::whatOf(const hiera::NodeWarning& warning)
{
    // The message starts with the place when it has one: "<file:line:col>: <what>".
    const std::string place = warning.location.isValid() ? warning.location.toString() + ": " : std::string();
    const std::string_view message = warning.message;
    const std::string_view what =
        !place.empty() && message.substr(0, place.size()) == place ? message.substr(place.size()) : message;
    return ValueConvert::toQString(std::string(what));
}

QVariant KeyWarningsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const hiera::NodeWarning& w = m_warnings[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return ValueConvert::toQString(w.key);
        case WhereColumn:
            return w.location.isValid() ? ValueConvert::locationText(w.location, m_baseDirectory) : QString();
        case WarningColumn:
            return ValueConvert::cellShown(whatOf(w));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return ValueConvert::toQString(w.message); // whole, with the absolute path
    case KeyRole:
        return ValueConvert::toQString(w.key);
    case HieraRoles::SourceFileRole:
        return ValueConvert::toQString(w.location.file);
    case HieraRoles::SourceLineRole:
        return w.location.line;
    case HieraRoles::SourceColumnRole:
        return w.location.column;
    default:
        return {};
    }
}

QVariant KeyWarningsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < m_headerLabels.size())
        return m_headerLabels.at(section);
    return {};
}

} // namespace hiera::ui
