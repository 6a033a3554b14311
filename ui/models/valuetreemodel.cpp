#include "models/valuetreemodel.h"

#include "models/modelroles.h"
#include "models/secretmask.h"
#include "models/statusicons.h"
#include "models/treemodel_impl.h"
#include "models/valueconvert.h"

#include <hiera/valueformat.h>

#include <QBrush>
#include <QStringList>

#include <QFont>
#include <QPalette>
#include <algorithm>
#include <iterator>
#include <vector>

namespace hiera::ui {

using hiera::Value;

struct ValueNode : TreeNode<ValueNode>
{
    QString key; // hash key, "[i]" for array elements, the label for the top row
    QString rawKey; // the key to highlight in the source viewer
    Value value;
    // Where the row comes from. A leaf: where it is written. A merged array or hash keeps the mark of
    // one of the values it was merged from, which need not hold any of what it now contains (an array
    // from common.yaml whose items were all knocked out by a higher level): it shows where its first
    // item is written instead, unless it is itself written in a file one of its items comes from.
    hiera::SourceMark origin;
    std::vector<std::uint32_t> files; // the files its leaves (or it, when empty) come from, sorted
    int picked = 0; // 1: on a dotted key's path; 2: the row it picks

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
        findOrigin();
    }
    void findOrigin()
    {
        origin = value.mark();
        if (children.empty()) {
            if (origin.isValid())
                files.push_back(origin.file);
            return;
        }
        // The children's files, sorted and once each: gathered, then sorted (a union per child was
        // quadratic in a merge of thousands of files; docs/performance.md, "Cost that grows with the input").
        for (const auto& child : children)
            files.insert(files.end(), child->files.begin(), child->files.end());
        std::sort(files.begin(), files.end());
        files.erase(std::unique(files.begin(), files.end()), files.end());
        if (files.empty() || std::binary_search(files.begin(), files.end(), origin.file))
            return;
        for (const auto& child : children) {
            if (!child->files.empty()) {
                origin = child->origin;
                return;
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

ValueTreeModel::ValueTreeModel(QObject* parent) : TreeModel({tr("Key"), tr("Value"), tr("Type"), tr("Origin")}, parent)
{
}

ValueTreeModel::~ValueTreeModel() = default;

void ValueTreeModel::setValue(const Value& value, const QString& label, const QString& baseDirectory)
{
    m_baseDirectory = baseDirectory;
    m_unverified = false;
    auto invisible = std::make_unique<ValueNode>();
    // The root key of a dotted lookup ("a.b.c" -> "a") is what appears in the data file.
    invisible->add(label, label.section(QLatin1Char('.'), -1), value);
    resetRoot(std::move(invisible));
}

bool ValueTreeModel::markPicked(const std::vector<hiera::KeySegment>& segments)
{
    ValueNode* node = root()->children.empty() ? nullptr : root()->children.front().get();
    std::vector<ValueNode*> path;
    for (const hiera::KeySegment& segment : segments) {
        if (!node)
            break;
        const QString text = ValueConvert::toQString(segment.text);
        const QString wanted = node->value.isArray() ? QStringLiteral("[%1]").arg(text) : text;
        ValueNode* next = nullptr;
        for (const auto& child : node->children)
            if (child->key == wanted)
                next = child.get();
        node = next;
        if (node)
            path.push_back(node);
    }
    if (!node || path.size() != segments.size())
        return false;
    for (ValueNode* n : path)
        n->picked = n == path.back() ? 2 : 1;
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    return true;
}

void ValueTreeModel::clear()
{
    m_unverified = false;
    resetRoot(std::make_unique<ValueNode>());
}

void ValueTreeModel::setUnverified(bool unverified)
{
    if (m_unverified == unverified)
        return;
    m_unverified = unverified;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole});
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
            return ValueConvert::cellShown(ValueConvert::displayText(node->value));
        case TypeColumn:
            return ValueConvert::typeName(node->value.type());
        case OriginColumn: {
            QString text = ValueConvert::originText(node->origin, m_baseDirectory);
            const int others = static_cast<int>(node->files.size()) - (node->origin.isValid() ? 1 : 0);
            if (others > 0)
                text += others == 1 ? tr(" + 1 more file") : tr(" + %1 more files").arg(others);
            return text;
        }
        }
        break;
    case Qt::ToolTipRole:
        if (column == OriginColumn) {
            QStringList lines{ValueConvert::originText(node->origin)};
            if (node->files.size() > 1) {
                lines = {tr("Merged from:")};
                for (std::uint32_t file : node->files)
                    lines << ValueConvert::toQString(hiera::SourceFiles::name(file));
            }
            return lines.join(QLatin1Char('\n'));
        }
        if (column == ValueColumn && node->value.isStillEncrypted())
            return tr("Left encrypted: no key here decrypts it. As written:\n%1")
                .arg(ValueConvert::cellShown(ValueConvert::displayText(node->value)));
        if (column == ValueColumn && node->value.isSecret())
            return SecretMask::isMasked(node->value)
                ? tr("Decrypted from eyaml, hidden: Repository ▸ Reveal Secrets shows it.")
                : tr("Decrypted from eyaml:\n%1").arg(ValueConvert::cellShown(ValueConvert::displayText(node->value)));
        if (column == ValueColumn && node->value.isScalar())
            return ValueConvert::cellShown(ValueConvert::displayText(node->value));
        break;
    case Qt::DecorationRole:
        if (column == ValueColumn && (node->value.isSecret() || node->value.isStillEncrypted()))
            return StatusIcons::icon(StatusIcons::Kind::Locked);
        break;
    case HieraRoles::SecretRole:
        return node->value.isSecret();
    case Qt::ForegroundRole:
        if (m_unverified)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        if (column == OriginColumn)
            return QBrush(QPalette().color(QPalette::Link));
        if (column == TypeColumn
            || (column == ValueColumn
                && (!node->value.isScalar() || node->value.isNull() || node->value.isStillEncrypted())))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        break;
    case Qt::FontRole:
        if ((column == OriginColumn && node->origin.isValid()) || node->picked) {
            QFont font;
            font.setUnderline(column == OriginColumn && node->origin.isValid());
            font.setBold(node->picked != 0);
            return font;
        }
        break;
    case Qt::BackgroundRole:
        if (node->picked == 2)
            return QBrush(QPalette().color(QPalette::Highlight).lighter(170));
        break;
    case HieraRoles::PickedRole:
        return node->picked != 0;
    case HieraRoles::SourceFileRole:
        return node->origin.isValid() ? ValueConvert::toQString(hiera::SourceFiles::name(node->origin.file))
                                      : QString();
    case HieraRoles::SourceLineRole:
        return static_cast<int>(node->origin.line);
    case HieraRoles::SourceColumnRole:
        return static_cast<int>(node->origin.column);
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

} // namespace hiera::ui
