#include "valuetreemodel.h"

#include "modelroles.h"
#include "secretmask.h"
#include "statusicons.h"
#include "treemodel_impl.h"
#include "valueconvert.h"

#include <hiera/valueformat.h>

#include <QBrush>
#include <QFont>
#include <QPalette>

using hiera::Value;

struct ValueNode : TreeNode<ValueNode> {
    QString key; // hash key, "[i]" for array elements, the label for the top row
    QString rawKey; // the key to highlight in the source viewer
    Value value;

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
        auto child = std::make_unique<ValueNode>();
        child->key = k;
        child->rawKey = raw;
        child->value = v;
        append(std::move(child))->build();
    }
};

template class TreeModel<ValueNode>;

ValueTreeModel::ValueTreeModel(QObject* parent)
    : TreeModel(ColumnCount, parent)
{
}

ValueTreeModel::~ValueTreeModel() = default;

void ValueTreeModel::setValue(const Value& value, const QString& label, const QString& baseDirectory)
{
    m_baseDirectory = baseDirectory;
    auto invisible = std::make_unique<ValueNode>();
    // The root key of a dotted lookup ("a.b.c" -> "a") is what appears in the data file.
    invisible->add(label, label.section(QLatin1Char('.'), -1), value);
    resetRoot(std::move(invisible));
}

void ValueTreeModel::clear()
{
    resetRoot(std::make_unique<ValueNode>());
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

QVariant ValueTreeModel::rowData(const ValueNode& row, int column, int role) const
{
    const ValueNode* node = &row;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case KeyColumn:
            return node->key;
        case ValueColumn:
            if (node->value.isStillEncrypted())
                return SecretMask::stillEncryptedText(node->value);
            return ValueConvert::displayText(node->value);
        case TypeColumn:
            return ValueConvert::typeName(node->value.type());
        case OriginColumn:
            return ValueConvert::originText(node->value.mark(), m_baseDirectory);
        }
        break;
    case Qt::ToolTipRole:
        if (column == OriginColumn)
            return ValueConvert::originText(node->value.mark());
        if (column == ValueColumn && node->value.isStillEncrypted())
            return tr("Left encrypted: no key here decrypts it. As written:\n%1").arg(ValueConvert::displayText(node->value));
        if (column == ValueColumn && node->value.isSecret())
            return SecretMask::isMasked(node->value)
                ? tr("Decrypted from eyaml, hidden: View ▸ Reveal Secrets shows it.")
                : tr("Decrypted from eyaml:\n%1").arg(ValueConvert::displayText(node->value));
        if (column == ValueColumn && node->value.isScalar())
            return ValueConvert::displayText(node->value);
        break;
    case Qt::DecorationRole:
        if (column == ValueColumn && (node->value.isSecret() || node->value.isStillEncrypted()))
            return StatusIcons::icon(StatusIcons::Kind::Locked);
        break;
    case HieraRoles::SecretRole:
        return node->value.isSecret();
    case Qt::ForegroundRole:
        if (column == OriginColumn)
            return QBrush(QPalette().color(QPalette::Link));
        if (column == TypeColumn
            || (column == ValueColumn
                && (!node->value.isScalar() || node->value.isNull() || node->value.isStillEncrypted())))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        break;
    case Qt::FontRole:
        if (column == OriginColumn && node->value.mark().isValid()) {
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
