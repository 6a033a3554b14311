#include "models/nodediffmodel.h"

#include "models/modelroles.h"
#include "models/valueconvert.h"

#include <hiera/valuediff.h>

#include <QBrush>
#include <QPalette>
#include <QStringList>

namespace hiera::ui {

NodeDiffModel::NodeDiffModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void NodeDiffModel::setReport(NodeDiffReportPtr report, const QString& baseDirectory, bool revealSecrets)
{
    beginResetModel();
    m_report = std::move(report);
    m_baseDirectory = baseDirectory;
    m_reveal = revealSecrets;
    m_rows.clear();
    if (m_report) {
        const std::vector<hiera::KeyDifference>& keys = m_report->diff.keys;
        for (std::size_t k = 0; k < keys.size(); ++k) {
            if (keys[k].leaves.empty())
                m_rows.push_back({k, -1});
            for (std::size_t l = 0; l < keys[k].leaves.size(); ++l)
                m_rows.push_back({k, static_cast<std::ptrdiff_t>(l)});
        }
    }
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
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
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

QString NodeDiffModel::leafText(const std::optional<hiera::Value>& value, bool secretDiffers) const
{
    if (secretDiffers)
        return tr("differs (secret)");
    if (!value)
        return tr("(absent)");
    return ValueConvert::cellShown(ValueConvert::compactJson(*value, m_reveal));
}

QString NodeDiffModel::keyText(const hiera::KeyDifference& d, const hiera::LeafDifference* leaf)
{
    const QString root = ValueConvert::toQString(hiera::keySegment(hiera::Value(d.key)));
    return leaf && !leaf->path.empty() ? root + QLatin1Char('.') + ValueConvert::toQString(leaf->path) : root;
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
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const hiera::KeyDifference& d = m_report->diff.keys[row.key];
    const hiera::LeafDifference* leaf = row.leaf < 0 ? nullptr : &d.leaves[static_cast<std::size_t>(row.leaf)];
    const bool sideB = index.column() == ValueBColumn || index.column() == FilesBColumn;
    const hiera::KeyDifference::Side& side = sideB ? d.b : d.a;
    // A leaf's value and file on this side; its secret, when either side's is one, is not shown.
    const std::optional<hiera::Value>* leafValue = leaf ? (sideB ? &leaf->after : &leaf->before) : nullptr;
    // Two answers (or leaves) that differ where either is a secret say so without showing either: even
    // a masked value would tell its length.
    const bool secretDiffers = !m_reveal
        && (leaf
                ? (leaf->before && hiera::containsSecret(*leaf->before))
                    || (leaf->after && hiera::containsSecret(*leaf->after))
                : d.a.found() && d.b.found() && (hiera::containsSecret(d.a.value) || hiera::containsSecret(d.b.value)));
    const hiera::SourceLocation leafAt =
        leafValue && *leafValue ? hiera::SourceFiles::locate((*leafValue)->mark()) : hiera::SourceLocation{};
    const bool valueColumn = index.column() == ValueAColumn || index.column() == ValueBColumn;
    const bool filesColumn = index.column() == FilesAColumn || index.column() == FilesBColumn;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        if (index.column() == KeyColumn)
            return keyText(d, leaf);
        if (valueColumn)
            return leaf ? leafText(*leafValue, secretDiffers)
                        : (secretDiffers ? tr("differs (secret)") : answerText(side));
        if (filesColumn) {
            if (leaf)
                return leafAt.isValid() ? ValueConvert::locationText(leafAt, m_baseDirectory) : QString();
            return filesText(side, role == Qt::ToolTipRole ? QStringLiteral("\n") : QStringLiteral(", "));
        }
        return {};
    case Qt::ForegroundRole:
        if (valueColumn && (secretDiffers || (leaf ? !*leafValue : !side.found())))
            return QBrush(!leaf && side.status == hiera::LookupResult::Status::Error
                              ? QColor(Qt::darkRed)
                              : QPalette().color(QPalette::PlaceholderText));
        return {};
    case KeyRole:
        return keyText(d, leaf);
    case SideRole:
        return sideB ? 1 : 0;
    case HieraRoles::SourceFileRole:
        if (!filesColumn)
            return {};
        if (leaf)
            return leafAt.isValid() ? ValueConvert::toQString(leafAt.file) : QVariant();
        // The highest-priority file that contributed on that side: where to start reading.
        return side.files.empty() ? QVariant() : ValueConvert::toQString(side.files.front());
    case HieraRoles::SourceLineRole:
        return filesColumn && leaf ? leafAt.line : 0;
    case HieraRoles::SourceColumnRole:
        return filesColumn && leaf ? leafAt.column : 0;
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

} // namespace hiera::ui
