#include "valuetreemodel.h"

#include "modelroles.h"
#include "valueconvert.h"

#include <hiera/valueformat.h>

#include <QBrush>
#include <QFont>
#include <QPalette>

using hiera::Value;

struct ValueTreeModel::Node {
    QString key; // hash key, "[i]" for array elements, the label for the top row
    QString rawKey; // the key to highlight in the source viewer
    Value value;
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;

    void build()
    {
        if (value.isArray()) {
            const auto& array = value.asArray();
            for (std::size_t i = 0; i < array.size(); ++i)
                add(QStringLiteral("[%1]").arg(i), rawKey, array[i]);
        } else if (value.isHash()) {
            for (const auto& entry : value.asHash()) {
                const QString k = ValueConvert::keyText(entry.key);
                add(k, k, entry.value);
            }
        }
    }
    void add(const QString& k, const QString& raw, const Value& v)
    {
        auto child = std::make_unique<Node>();
        child->key = k;
        child->rawKey = raw;
        child->value = v;
        child->parent = this;
        child->row = static_cast<int>(children.size());
        child->build();
        children.push_back(std::move(child));
    }
};

ValueTreeModel::ValueTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

ValueTreeModel::~ValueTreeModel() = default;

void ValueTreeModel::setValue(const Value& value, const QString& label, const QString& baseDirectory)
{
    beginResetModel();
    m_baseDirectory = baseDirectory;
    m_root = std::make_unique<Node>();
    m_root->key = label;
    // The root key of a dotted lookup ("a.b.c" -> "a") is what appears in the data file.
    m_root->rawKey = label.section(QLatin1Char('.'), -1);
    m_root->value = value;
    m_root->build();
    endResetModel();
}

void ValueTreeModel::clear()
{
    beginResetModel();
    m_root.reset();
    endResetModel();
}

ValueTreeModel::Node* ValueTreeModel::nodeFor(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : nullptr;
}

QModelIndex ValueTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, m_root.get());
    return createIndex(row, column, nodeFor(parent)->children[static_cast<std::size_t>(row)].get());
}

QModelIndex ValueTreeModel::parent(const QModelIndex& index) const
{
    const Node* node = nodeFor(index);
    if (!node || !node->parent)
        return {};
    return createIndex(node->parent->row, 0, node->parent);
}

int ValueTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return m_root ? 1 : 0;
    return static_cast<int>(nodeFor(parent)->children.size());
}

int ValueTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ValueTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    case TypeColumn:
        return tr("Type");
    case OriginColumn:
        return tr("Origin");
    }
    return {};
}

QVariant ValueTreeModel::data(const QModelIndex& index, int role) const
{
    const Node* node = nodeFor(index);
    if (!node)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return node->key;
        case ValueColumn:
            return ValueConvert::displayText(node->value);
        case TypeColumn:
            return ValueConvert::typeName(node->value.type());
        case OriginColumn:
            return ValueConvert::originText(node->value.mark(), m_baseDirectory);
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == OriginColumn)
            return ValueConvert::originText(node->value.mark());
        if (index.column() == ValueColumn && node->value.isScalar())
            return ValueConvert::displayText(node->value);
        break;
    case Qt::ForegroundRole:
        if (index.column() == OriginColumn)
            return QBrush(QPalette().color(QPalette::Link));
        if (index.column() == TypeColumn
            || (index.column() == ValueColumn && (!node->value.isScalar() || node->value.isNull())))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        break;
    case Qt::FontRole:
        if (index.column() == OriginColumn && node->value.mark().isValid()) {
            QFont font;
            font.setUnderline(true);
            return font;
        }
        break;
    case HieraRoles::SourceFileRole:
        return node->value.mark().isValid() ? ValueConvert::toQString(hiera::SourceFiles::name(node->value.mark().file))
                                            : QString();
    case HieraRoles::SourceLineRole:
        return static_cast<int>(node->value.mark().line);
    case HieraRoles::SourceColumnRole:
        return static_cast<int>(node->value.mark().column);
    case HieraRoles::SourceKeyRole:
        return node->rawKey;
    case HieraRoles::ValueTypeRole:
        return static_cast<int>(node->value.type());
    case HieraRoles::YamlRole:
        try {
            return ValueConvert::toQString(hiera::toYaml(node->value));
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    }
    return {};
}
