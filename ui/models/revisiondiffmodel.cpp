#include "models/revisiondiffmodel.h"

#include "models/valueconvert.h"

#include <hiera/valueformat.h>

#include <QBrush>
#include <QColor>
#include <QPalette>

#include <algorithm>

namespace hiera::ui {

using ValueConvert::toQString;

RevisionDiffModel::RevisionDiffModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void RevisionDiffModel::setReport(RevisionDiffReportPtr report, bool revealSecrets)
{
    beginResetModel();
    m_report = std::move(report);
    m_reveal = revealSecrets;
    m_baseDirectory = m_report ? toQString(m_report->root) : QString();
    rebuildRows();
    endResetModel();
}

void RevisionDiffModel::setRevealSecrets(bool reveal)
{
    if (reveal == m_reveal)
        return;
    m_reveal = reveal;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, ChangeColumn), index(rowCount() - 1, AfterColumn));
}

void RevisionDiffModel::setKeyPrefix(const QString& prefix)
{
    if (prefix == m_prefix)
        return;
    beginResetModel();
    m_prefix = prefix;
    rebuildRows();
    endResetModel();
}

void RevisionDiffModel::setNodeNames(NodeNames names)
{
    if (names == m_nodeNames)
        return;
    beginResetModel();
    m_nodeNames = std::move(names);
    rebuildRows();
    endResetModel();
}

void RevisionDiffModel::rebuildRows()
{
    m_rows.clear();
    if (!m_report)
        return;
    const std::string prefix = ValueConvert::toStd(m_prefix);
    const auto& changes = m_report->diff.changes;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        if (!changes[i].key.starts_with(prefix))
            continue;
        Row row{i, {}};
        if (m_nodeNames) {
            for (const std::string& node : changes[i].nodes)
                if (m_nodeNames->count(node))
                    row.nodes.push_back(node);
            if (row.nodes.empty())
                continue;
        }
        m_rows.push_back(std::move(row));
    }
}

const std::vector<std::string>& RevisionDiffModel::nodesOf(const Row& row) const
{
    return m_nodeNames ? row.nodes : m_report->diff.changes[row.change].nodes;
}

hiera::RevisionDiff RevisionDiffModel::shownDiff() const
{
    if (!m_report)
        return {};
    hiera::RevisionDiff d = m_report->diff;
    d.changes.clear();
    for (const Row& row : m_rows) {
        hiera::RevisionChange c = m_report->diff.changes[row.change];
        c.nodes = nodesOf(row);
        d.changes.push_back(std::move(c));
    }
    return d;
}

std::size_t RevisionDiffModel::shownAnswers() const
{
    std::size_t n = 0;
    for (const Row& row : m_rows)
        n += nodesOf(row).size();
    return n;
}

int RevisionDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RevisionDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RevisionDiffModel::answerText(const hiera::KeyDifference::Side& side, bool secretDiffers) const
{
    if (secretDiffers)
        return tr("differs (secret)");
    switch (side.status) {
    case hiera::LookupResult::Status::Found:
        return ValueConvert::compactJson(side.value, m_reveal);
    case hiera::LookupResult::Status::NotFound:
        return tr("(not found)");
    case hiera::LookupResult::Status::Error:
        return tr("error: %1").arg(toQString(side.error));
    }
    return {};
}

QString RevisionDiffModel::sourcesText(const std::vector<std::string>& sources, const QString& separator) const
{
    QStringList out;
    for (const std::string& s : sources) {
        QString text = toQString(s);
        if (!m_baseDirectory.isEmpty() && text.startsWith(m_baseDirectory + QLatin1Char('/')))
            text = text.mid(m_baseDirectory.size() + 1);
        out << text;
    }
    return out.join(separator);
}

QString RevisionDiffModel::changeText(const hiera::RevisionChange& c, bool secretDiffers) const
{
    using Status = hiera::LookupResult::Status;
    if (secretDiffers)
        return tr("differs (secret)");
    if (c.before.status == Status::Error || c.after.status == Status::Error) {
        if (c.before.status != Status::Error)
            return tr("now fails");
        return c.after.status == Status::Error ? tr("another error") : tr("no longer fails");
    }
    if (!c.before.found())
        return tr("added");
    if (!c.after.found())
        return tr("removed");
    const hiera::Value& x = c.before.value;
    const hiera::Value& y = c.after.value;
    const auto json = [&](const hiera::Value& v) { return ValueConvert::compactJson(v, m_reveal); };
    // At most a few of each, the rest counted: the cell is a summary, the Before and After cells the values.
    const auto listed = [&](const QString& mark, const QStringList& items) {
        QStringList shown;
        for (qsizetype i = 0; i < items.size() && i < 3; ++i)
            shown << mark + items[i];
        if (items.size() > 3)
            shown << mark + tr("%n more", nullptr, int(items.size() - 3));
        return shown;
    };
    if (x.isArray() && y.isArray()) {
        const hiera::Array& a = x.asArray();
        const hiera::Array& b = y.asArray();
        if (a.size() * b.size() > 1'000'000)
            return tr("%1 → %2 elements").arg(a.size()).arg(b.size());
        QStringList gained, lost;
        for (const hiera::Value& e : b)
            if (std::find(a.begin(), a.end(), e) == a.end())
                gained << json(e);
        for (const hiera::Value& e : a)
            if (std::find(b.begin(), b.end(), e) == b.end())
                lost << json(e);
        if (gained.isEmpty() && lost.isEmpty())
            return a.size() == b.size() ? tr("reordered") : tr("%1 → %2 elements").arg(a.size()).arg(b.size());
        return (listed(QStringLiteral("+ "), gained) + listed(QStringLiteral("− "), lost)).join(QStringLiteral(", "));
    }
    if (x.isHash() && y.isHash()) {
        QStringList gained, lost, changed;
        for (const auto& e : y.asHash()) {
            const hiera::Value* before = x.asHash().find(e.key);
            if (!before)
                gained << toQString(hiera::cellText(e.key));
            else if (!(*before == e.value))
                changed << toQString(hiera::cellText(e.key));
        }
        for (const auto& e : x.asHash())
            if (!y.asHash().find(e.key))
                lost << toQString(hiera::cellText(e.key));
        return (listed(QStringLiteral("~ "), changed) + listed(QStringLiteral("+ "), gained)
                + listed(QStringLiteral("− "), lost))
            .join(QStringLiteral(", "));
    }
    return tr("%1 → %2").arg(json(x), json(y));
}

QVariant RevisionDiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_report)
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const hiera::RevisionChange& c = m_report->diff.changes[row.change];
    const std::vector<std::string>& nodes = nodesOf(row);
    // Two found answers where either is a secret: that they differ is all that is shown (even a masked
    // value would tell its length).
    const bool secretDiffers = !m_reveal && c.before.found() && c.after.found()
        && (hiera::containsSecret(c.before.value) || hiera::containsSecret(c.after.value));
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case KeyColumn:
            return toQString(c.key);
        case ChangeColumn:
            return changeText(c, secretDiffers);
        case BeforeColumn:
            return answerText(c.before, secretDiffers);
        case AfterColumn:
            return answerText(c.after, secretDiffers);
        case NodesColumn: {
            if (role == Qt::DisplayRole)
                return nodes.size() == 1 ? toQString(nodes.front()) : tr("%n nodes", nullptr, int(nodes.size()));
            QStringList names;
            for (std::size_t i = 0; i < nodes.size() && i < 50; ++i)
                names << toQString(nodes[i]);
            if (nodes.size() > 50)
                names << tr("and %n more", nullptr, int(nodes.size() - 50));
            return names.join(QLatin1Char('\n'));
        }
        case SourcesColumn: {
            const QString separator = role == Qt::ToolTipRole ? QStringLiteral("\n") : QStringLiteral(", ");
            const QString before = sourcesText(c.sourcesBefore, separator);
            const QString after = sourcesText(c.sourcesAfter, separator);
            return before == after
                ? after
                : tr("%1 → %2").arg(before.isEmpty() ? tr("none") : before, after.isEmpty() ? tr("none") : after);
        }
        }
        return {};
    case Qt::ForegroundRole: {
        const hiera::KeyDifference::Side* side = index.column() == BeforeColumn ? &c.before
            : index.column() == AfterColumn                                     ? &c.after
                                                                                : nullptr;
        if (side && (secretDiffers || !side->found()))
            return QBrush(side->status == hiera::LookupResult::Status::Error
                              ? QColor(Qt::darkRed)
                              : QPalette().color(QPalette::PlaceholderText));
        return {};
    }
    case KeyRole:
        return toQString(c.key);
    case NodesRole: {
        QStringList names;
        names.reserve(static_cast<qsizetype>(nodes.size()));
        for (const std::string& n : nodes)
            names << toQString(n);
        return names;
    }
    }
    return {};
}

QVariant RevisionDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ChangeColumn:
        return tip ? tr("What changed: + an element or key gained, − one lost, ~ a key whose value changed")
                   : tr("Change");
    case BeforeColumn:
        return m_report && tip ? toQString(m_report->fromName) : tr("Before");
    case AfterColumn:
        return m_report && tip ? toQString(m_report->toName) : tr("After");
    case NodesColumn:
        return tr("Nodes");
    case SourcesColumn:
        return tip ? tr("The file:line behind each side (before → after when they differ)") : tr("Sources");
    }
    return {};
}

} // namespace hiera::ui
