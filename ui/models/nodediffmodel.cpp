#include "models/nodediffmodel.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <QBrush>
#include <QPalette>
#include <QStringList>

NodeDiffModel::NodeDiffModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void NodeDiffModel::setReport(NodeDiffReportPtr report, const QString& baseDirectory, bool revealSecrets)
{
    beginResetModel();
    m_report = std::move(report);
    m_baseDirectory = baseDirectory;
    m_reveal = revealSecrets;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void NodeDiffModel::setRevealSecrets(bool reveal)
{
    if (reveal == m_reveal)
        return;
    m_reveal = reveal;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, ValueAColumn), index(rowCount() - 1, ValueBColumn));
}

int NodeDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_report ? 0 : static_cast<int>(m_report->diff.keys.size());
}

int NodeDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString NodeDiffModel::answerText(const hiera::KeyDifference::Side& side) const
{
    switch (side.status) {
    case hiera::LookupResult::Status::Found:
        return ValueConvert::cellShown(ValueConvert::compactJson(side.value, m_reveal));
    case hiera::LookupResult::Status::NotFound:
        return tr("(not found)");
    case hiera::LookupResult::Status::Error:
        break;
    }
    return tr("error: %1").arg(ValueConvert::toQString(side.error));
}

QString NodeDiffModel::filesText(const hiera::KeyDifference::Side& side, const QString& separator) const
{
    QStringList files;
    for (const std::string& file : side.files)
        files << ValueConvert::shortPath(ValueConvert::toQString(file), m_baseDirectory);
    return files.join(separator);
}

QVariant NodeDiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_report)
        return {};
    const hiera::KeyDifference& d = m_report->diff.keys[static_cast<std::size_t>(index.row())];
    const hiera::KeyDifference::Side& side =
        index.column() == ValueAColumn || index.column() == FilesAColumn ? d.a : d.b;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return ValueConvert::toQString(d.key);
        case ValueAColumn:
        case ValueBColumn:
            return answerText(side);
        case FilesAColumn:
        case FilesBColumn:
            return filesText(side, QStringLiteral(", "));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == ValueAColumn || index.column() == ValueBColumn)
            return answerText(side);
        if (index.column() == FilesAColumn || index.column() == FilesBColumn)
            return filesText(side, QStringLiteral("\n"));
        return {};
    case Qt::ForegroundRole:
        if ((index.column() == ValueAColumn || index.column() == ValueBColumn) && !side.found())
            return QBrush(side.status == hiera::LookupResult::Status::Error
                              ? QColor(Qt::darkRed)
                              : QPalette().color(QPalette::PlaceholderText));
        return {};
    case KeyRole:
        return ValueConvert::toQString(d.key);
    case HieraRoles::SourceFileRole:
        // The highest-priority file that contributed on that side: where to start reading.
        if ((index.column() == FilesAColumn || index.column() == FilesBColumn) && !side.files.empty())
            return ValueConvert::toQString(side.files.front());
        return {};
    case HieraRoles::SourceKeyRole:
        return ValueConvert::toQString(d.key);
    default:
        return {};
    }
}

namespace {

// Where a name's host starts and ends: inside a closing "(…)" when the name ends with one.
std::pair<qsizetype, qsizetype> hostSpan(const QString& name)
{
    if (name.endsWith(QLatin1Char(')'))) {
        const qsizetype open = name.lastIndexOf(QLatin1Char('('));
        if (open >= 0)
            return {open + 1, name.size() - 1};
    }
    return {0, name.size()};
}

QStringList hostLabels(const QString& name)
{
    const auto [begin, end] = hostSpan(name);
    return name.mid(begin, end - begin).split(QLatin1Char('.'));
}

// The name without the host's last `labels` labels (and their dots).
QString withoutLastLabels(const QString& name, const QStringList& labels, qsizetype count)
{
    qsizetype length = count; // the dots before them
    for (qsizetype i = labels.size() - count; i < labels.size(); ++i)
        length += labels[i].size();
    const qsizetype end = hostSpan(name).second;
    return name.left(end - length) + name.mid(end);
}

} // namespace

std::pair<QString, QString> NodeDiffModel::shortNames(const QString& a, const QString& b)
{
    // The longest run of trailing labels both hosts share (".example.com" of web01.dc1.example.com and
    // db01.dc2.example.com), leaving each at least one label of its own.
    const QStringList labelsA = hostLabels(a);
    const QStringList labelsB = hostLabels(b);
    qsizetype shared = 0;
    while (shared + 1 < labelsA.size() && shared + 1 < labelsB.size() && !labelsA[labelsA.size() - 1 - shared].isEmpty()
           && labelsA[labelsA.size() - 1 - shared].compare(labelsB[labelsB.size() - 1 - shared], Qt::CaseInsensitive)
               == 0)
        ++shared;
    if (shared == 0)
        return {a, b};
    QString shortA = withoutLastLabels(a, labelsA, shared);
    QString shortB = withoutLastLabels(b, labelsB, shared);
    if (shortA == shortB || labelsA[labelsA.size() - 1 - shared].isEmpty()
        || labelsB[labelsB.size() - 1 - shared].isEmpty())
        return {a, b};
    return {shortA, shortB};
}

QVariant NodeDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const QString fullA = m_report ? m_report->nameA : tr("A");
    const QString fullB = m_report ? m_report->nameB : tr("B");
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ValueAColumn:
            return tr("The answer for %1").arg(fullA);
        case ValueBColumn:
            return tr("The answer for %1").arg(fullB);
        case FilesAColumn:
            return tr("The files that gave %1 its answer").arg(fullA);
        case FilesBColumn:
            return tr("The files that gave %1 its answer").arg(fullB);
        default:
            return {};
        }
    }
    const auto [a, b] = shortNames(fullA, fullB);
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueAColumn:
        return a;
    case ValueBColumn:
        return b;
    case FilesAColumn:
        return tr("Files (%1)").arg(a);
    case FilesBColumn:
        return tr("Files (%1)").arg(b);
    default:
        return {};
    }
}
