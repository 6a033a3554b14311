#include "models/nodelistmodel.h"

#include "models/valueconvert.h"

#include <hiera/engine.h>

#include <QRegularExpression>

#include <algorithm>

namespace hiera::ui {

NodeListModel::NodeListModel(QObject* parent) : QAbstractTableModel(parent)
{
}

QStringList NodeListModel::hierarchyFacts(const hiera::Engine& engine)
{
    // A plain variable reference: %{name} or %{::name}, not a function call (lookup(), alias()...).
    static const QRegularExpression reference(QStringLiteral("%\\{\\s*(?:::)?([A-Za-z0-9_.:]+)\\s*\\}"));
    QStringList out;
    for (const hiera::Layer& layer : engine.layers()) {
        for (const hiera::Level& level : layer.config.hierarchy) {
            for (const hiera::LocationSpec& location : level.locations) {
                const QString loopVariable = ValueConvert::toQString(location.loopVariable);
                for (auto it = reference.globalMatch(ValueConvert::toQString(location.pattern)); it.hasNext();) {
                    QString name = it.next().captured(1);
                    if (!loopVariable.isEmpty() && name == loopVariable)
                        name = ValueConvert::toQString(location.scopeKey);
                    if (!out.contains(name))
                        out << name;
                }
            }
        }
    }
    return out;
}

void NodeListModel::setLibrary(NodeLibraryPtr library)
{
    beginResetModel();
    m_library = std::move(library);
    rebuild();
    endResetModel();
}

void NodeListModel::setHierarchy(const EnginePtr& engine)
{
    const QStringList columns = engine ? hierarchyFacts(*engine) : QStringList();
    if (columns == m_columns)
        return;
    beginResetModel();
    m_columns = columns;
    rebuild();
    endResetModel();
}

void NodeListModel::rebuild()
{
    m_cells.assign(m_library ? m_library->size() : 0, std::nullopt);
}

const NodeListModel::RowCells& NodeListModel::cells(int row) const
{
    std::optional<RowCells>& cached = m_cells[static_cast<std::size_t>(row)];
    if (!cached) {
        const hiera::Node& node = m_library->nodes()[static_cast<std::size_t>(row)];
        RowCells cells;
        for (const QString& column : std::as_const(m_columns)) {
            const std::optional<hiera::Value> v = node.scope->lookup(ValueConvert::toStd(column));
            cells.text << (v ? ValueConvert::cellShown(ValueConvert::displayText(*v)) : QString());
            QStringList items;
            if (v && v->isArray())
                for (const hiera::Value& item : v->asArray())
                    items << ValueConvert::displayText(item);
            cells.items.push_back(std::move(items));
        }
        cached = std::move(cells);
    }
    return *cached;
}

bool NodeListModel::factEquals(int row, const std::string& reference, const QString& text) const
{
    const hiera::Node& node = m_library->nodes()[static_cast<std::size_t>(row)];
    const std::optional<hiera::Value> v = node.scope->lookup(reference);
    if (!v)
        return false;
    if (v->isArray())
        return std::any_of(v->asArray().begin(), v->asArray().end(), [&](const hiera::Value& item) {
            return ValueConvert::displayText(item).compare(text, Qt::CaseInsensitive) == 0;
        });
    return ValueConvert::displayText(*v).compare(text, Qt::CaseInsensitive) == 0;
}

QStringList NodeListModel::columnsNoNodeHas() const
{
    QStringList missing;
    if (!m_library || m_library->empty())
        return missing;
    for (const QString& column : m_columns) {
        const std::string ref = ValueConvert::toStd(column);
        const auto& nodes = m_library->nodes();
        if (std::none_of(nodes.begin(), nodes.end(),
                         [&](const hiera::Node& n) { return n.scope->lookup(ref).has_value(); }))
            missing << column;
    }
    return missing;
}

int NodeListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_library ? 0 : static_cast<int>(m_library->size());
}

int NodeListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1 + static_cast<int>(m_columns.size());
}

QVariant NodeListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const hiera::Node& node = m_library->nodes()[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        if (index.column() == 0)
            return ValueConvert::toQString(node.name);
        return cells(index.row()).text.value(index.column() - 1);
    }
    if (role == ItemsRole && index.column() > 0)
        return cells(index.row()).items[static_cast<std::size_t>(index.column() - 1)];
    if (role == Qt::ToolTipRole && index.column() == 0)
        return tr("%1\nfrom %2 (%3)")
            .arg(ValueConvert::toQString(node.name), ValueConvert::toQString(node.sourceFile),
                 QString::fromLatin1(hiera::factsFormatName(node.format)));
    if (role == Qt::ToolTipRole) // a long value is elided in its cell
        return cells(index.row()).text.value(index.column() - 1);
    return {};
}

QVariant NodeListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    return section == 0 ? tr("Node") : m_columns.value(section - 1);
}

} // namespace hiera::ui
