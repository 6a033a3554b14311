#include "models/facttreemodel.h"

#include "models/modelroles.h"
#include "models/treemodel_impl.h"
#include "models/valueconvert.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

#include <algorithm>
#include <optional>

namespace hiera::ui {

using hiera::Value;

struct FactNode : TreeNode<FactNode>
{
    Value key; // a hash member's key; null for array elements and for the root
    Value scalar; // the value of a scalar row (containers keep theirs in `children`)
    Value::Type type = Value::Type::Hash;
    // What an array element shows as its key ("[2]"). Kept here rather than computed from row() so that
    // a row's data changes only when dataChanged says so: inserting or removing an element renumbers
    // the later rows after the structural change (renumberArray), as QAbstractItemModelTester expects.
    int arrayIndex = 0;
    bool derived = false; // a top-level row copying facts.<key> (FactTreeModel's header)

    bool isContainer() const { return type == Value::Type::Array || type == Value::Type::Hash; }
};

template class TreeModel<FactNode>;

namespace {
// "[3 items]", "{1 key}", as ValueConvert::displayText says it of the same value.
QString containerText(std::size_t count, bool array)
{
    if (array)
        return count == 1 ? QStringLiteral("[1 item]") : QStringLiteral("[%1 items]").arg(count);
    return count == 1 ? QStringLiteral("{1 key}") : QStringLiteral("{%1 keys}").arg(count);
}

bool isStringKey(const Value& key, std::string_view name)
{
    return key.isString() && key.asString() == name;
}

// The top-level rows that are not fact copies, whatever they hold.
// Top-scope names a fact never gets a copy under: `facts` and `trusted` are the scope's own, and
// $environment is the environment's name, never a fact called environment (hiera/nodescope.h).
bool isReservedName(const Value& key)
{
    return isStringKey(key, "facts") || isStringKey(key, "trusted") || isStringKey(key, "environment");
}

} // namespace

FactTreeModel::FactTreeModel(QObject* parent) : TreeModel({tr("Key"), tr("Value"), tr("Type")}, parent)
{
}

FactTreeModel::~FactTreeModel() = default;

void FactTreeModel::fill(Node* node, const Value& value)
{
    node->type = value.type();
    node->children.clear();
    node->scalar = Value();
    if (value.isArray()) {
        node->children.reserve(value.asArray().size());
        for (const Value& element : value.asArray()) {
            auto child = std::make_unique<Node>();
            child->arrayIndex = static_cast<int>(node->children.size());
            fill(node->append(std::move(child)), element);
        }
    } else if (value.isHash()) {
        node->children.reserve(value.asHash().size());
        for (const auto& entry : value.asHash()) {
            auto child = std::make_unique<Node>();
            child->key = entry.key;
            fill(node->append(std::move(child)), entry.value);
        }
    } else {
        node->scalar = value;
    }
}

Value FactTreeModel::build(const Node* node)
{
    if (node->type == Value::Type::Array) {
        hiera::Array array;
        array.reserve(node->children.size());
        for (const auto& child : node->children)
            array.push_back(build(child.get()));
        return Value(std::move(array));
    }
    if (node->type == Value::Type::Hash) {
        hiera::Hash hash;
        hash.reserve(node->children.size());
        for (const auto& child : node->children)
            hash.set(child->key, build(child.get()));
        return Value(std::move(hash));
    }
    return node->scalar;
}

void FactTreeModel::arrangeDerived(Node* root)
{
    const Node* facts = nullptr;
    for (const auto& child : root->children) {
        if (isStringKey(child->key, "facts") && child->type == Value::Type::Hash)
            facts = child.get();
    }
    if (!facts)
        return;
    // A top-level row equal to its fact is that fact's copy (scopeFromFacts made it, hiera/nodescope.h); one that
    // differs is a variable of its own (a saved scope may set one), which Puppet's top scope would also win.
    // Every "which row has this key" below is a table (a hiera::Hash from key to position, with the keys'
    // own equality): searches made 40,000 facts take 11 s to arrange, quadratic in the facts.
    const auto positionIn = [](const hiera::Hash& index, const Value& key) -> std::optional<std::size_t> {
        const Value* at = index.find(key);
        return at ? std::optional<std::size_t>(static_cast<std::size_t>(at->asInteger())) : std::nullopt;
    };
    const auto note = [](hiera::Hash& index, const Value& key, std::size_t position) {
        if (!index.find(key)) // the first row with the key, as a search would find
            index.set(key, Value(static_cast<std::int64_t>(position)));
    };
    hiera::Hash factAt;
    for (std::size_t i = 0; i < facts->children.size(); ++i)
        note(factAt, facts->children[i]->key, i);
    std::vector<std::unique_ptr<Node>> genuine;
    std::vector<std::unique_ptr<Node>> copies;
    hiera::Hash genuineAt, copyAt;
    for (auto& child : root->children) {
        const Node* fact = nullptr;
        if (!isReservedName(child->key))
            if (const auto at = positionIn(factAt, child->key))
                fact = facts->children[*at].get();
        if (fact && build(fact) == build(child.get())) {
            note(copyAt, child->key, copies.size());
            copies.push_back(std::move(child));
        } else {
            note(genuineAt, child->key, genuine.size());
            genuine.push_back(std::move(child));
        }
    }
    // Every fact without a variable of its own has its copy, in the order of the facts.
    std::vector<std::unique_ptr<Node>> ordered;
    for (const auto& f : facts->children) {
        if (isReservedName(f->key))
            continue;
        if (genuineAt.find(f->key))
            continue; // overridden
        const auto copy = positionIn(copyAt, f->key);
        std::unique_ptr<Node> node;
        if (copy && copies[*copy]) {
            node = std::move(copies[*copy]);
        } else {
            node = std::make_unique<Node>();
            node->key = f->key;
            fill(node.get(), build(f.get()));
        }
        node->derived = true;
        ordered.push_back(std::move(node));
    }
    root->children.clear();
    for (auto* list : {&genuine, &ordered}) {
        for (auto& node : *list)
            root->append(std::move(node));
    }
}

int FactTreeModel::genuineTopLevelRows() const
{
    const auto& children = root()->children;
    return static_cast<int>(std::find_if(children.begin(), children.end(), [](const auto& c) { return c->derived; })
                            - children.begin());
}

bool FactTreeModel::isFactsRow(const QModelIndex& index) const
{
    return index.isValid() && !index.parent().isValid() && isStringKey(nodeFor(index)->key, "facts");
}

Value FactTreeModel::factNameOf(const QModelIndex& index) const
{
    const Node* node = index.isValid() ? nodeFor(index) : nullptr;
    for (; node && node->parent && node->parent->parent; node = node->parent) {
        if (node->parent->parent == root() && isStringKey(node->parent->key, "facts"))
            return node->key;
    }
    return {};
}

bool FactTreeModel::isDerived(const QModelIndex& index) const
{
    const Node* node = index.isValid() ? nodeFor(index) : nullptr;
    while (node && node->parent && node->parent != root())
        node = node->parent;
    return node && node->derived;
}

void FactTreeModel::syncDerived(const Value& name)
{
    Node* top = root();
    const Node* facts = nullptr;
    for (const auto& child : top->children) {
        if (isStringKey(child->key, "facts") && child->type == Value::Type::Hash)
            facts = child.get();
    }
    // What the derived block must be: the facts (in their order) that no genuine variable overrides.
    const int genuine = genuineTopLevelRows();
    std::vector<const Node*> wanted;
    if (facts) {
        for (const auto& f : facts->children) {
            if (isReservedName(f->key))
                continue;
            const bool overridden = std::any_of(top->children.begin(), top->children.begin() + genuine,
                                                [&](const auto& g) { return g->key == f->key; });
            if (!overridden)
                wanted.push_back(f.get());
        }
    }
    // One pass over both lists: an edit adds, removes or renames one fact, so rows move only there.
    std::size_t i = 0;
    while (true) {
        const int row = genuine + static_cast<int>(i);
        const bool haveRow = row < static_cast<int>(top->children.size());
        if (i >= wanted.size() && !haveRow)
            break;
        if (haveRow && (i >= wanted.size() || !(top->children[static_cast<std::size_t>(row)]->key == wanted[i]->key))) {
            // Not wanted here: gone (or renamed) unless a later wanted fact has this name.
            const Value key = top->children[static_cast<std::size_t>(row)]->key;
            const bool later = std::any_of(wanted.begin() + static_cast<std::ptrdiff_t>(std::min(i, wanted.size())),
                                           wanted.end(), [&](const Node* f) { return f->key == key; });
            if (!later || i >= wanted.size()) {
                beginRemoveRows({}, row, row);
                top->children.erase(top->children.begin() + row);
                endRemoveRows();
                continue;
            }
        }
        if (!haveRow || !(top->children[static_cast<std::size_t>(row)]->key == wanted[i]->key)) {
            beginInsertRows({}, row, row);
            auto node = std::make_unique<Node>();
            node->parent = top;
            node->key = wanted[i]->key;
            node->derived = true;
            fill(node.get(), build(wanted[i]));
            top->children.insert(top->children.begin() + row, std::move(node));
            endInsertRows();
        } else if (name.isNull() || wanted[i]->key == name) {
            const Value value = build(wanted[i]);
            const QModelIndex copy = index(row, 0);
            if (!(nodeValue(copy) == value) || nodeFor(copy)->type != value.type()) {
                replaceValue(copy, value);
                Q_EMIT dataChanged(copy, copy.siblingAtColumn(TypeColumn));
            }
        }
        ++i;
    }
}

void FactTreeModel::setScope(const Value& scope)
{
    auto newRoot = std::make_unique<Node>();
    fill(newRoot.get(), scope.isHash() ? scope : Value(hiera::Hash()));
    newRoot->type = Value::Type::Hash;
    arrangeDerived(newRoot.get());
    resetRoot(std::move(newRoot));
    Q_EMIT factsChanged();
}

struct FactTreeModel::Prepared
{
    std::unique_ptr<Node> root;
};

std::shared_ptr<FactTreeModel::Prepared> FactTreeModel::prepare(const Value& scope)
{
    auto prepared = std::make_shared<Prepared>();
    prepared->root = std::make_unique<Node>();
    fill(prepared->root.get(), scope.isHash() ? scope : Value(hiera::Hash()));
    prepared->root->type = Value::Type::Hash;
    arrangeDerived(prepared->root.get());
    return prepared;
}

void FactTreeModel::setPrepared(Prepared& prepared)
{
    if (!prepared.root)
        return;
    prepared.root = resetRoot(std::move(prepared.root));
    Q_EMIT factsChanged();
}

Value FactTreeModel::toValue() const
{
    return build(root());
}

QString FactTreeModel::keyPath(const Node* node) const
{
    QStringList parts;
    for (const Node* n = node; n && n != root(); n = n->parent) {
        const QString key = n->parent && n->parent->type == Value::Type::Array ? QString::number(n->row())
                                                                               : ValueConvert::keyText(n->key);
        // Quote segments the dotted syntax would split, as the engine's key parser expects.
        parts.prepend(key.contains(QLatin1Char('.')) ? QLatin1Char('"') + key + QLatin1Char('"') : key);
    }
    return parts.join(QLatin1Char('.'));
}

QVariant FactTreeModel::rowData(const FactNode& row, int column, int role) const
{
    const Node* node = &row;
    const bool arrayElement = node->parent && node->parent->type == Value::Type::Array;
    const Node* top = node;
    while (top->parent && top->parent != root())
        top = top->parent;
    const bool derived = top->derived;

    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (column) {
        case KeyColumn:
            if (arrayElement)
                return role == Qt::DisplayRole ? QStringLiteral("[%1]").arg(node->arrayIndex) : QVariant();
            return ValueConvert::keyText(node->key);
        case ValueColumn:
            if (node->isContainer())
                return role == Qt::DisplayRole ? containerText(node->children.size(), node->type == Value::Type::Array)
                                               : QVariant();
            return role == Qt::DisplayRole ? ValueConvert::cellShown(ValueConvert::displayText(node->scalar))
                                           : ValueConvert::editText(node->scalar);
        case TypeColumn:
            return ValueConvert::typeName(node->type);
        }
        break;
    case Qt::ToolTipRole:
        if (derived)
            return tr("Top-scope copy of facts.%1: it follows the fact; edit it under facts").arg(keyPath(node));
        if (column == KeyColumn && keyPath(node) == QLatin1String("facts.environment"))
            return tr("facts.environment: only %{facts.environment} reads this fact. %{environment} and "
                      "%{::environment} are the environment's name, as in Puppet, unless a top-level "
                      "environment row sets them");
        if (column == KeyColumn && node->parent == root() && isStringKey(node->key, "environment"))
            return tr("environment: set here, this row is what %{environment} and %{::environment} read "
                      "instead of the environment's name");
        if (column == KeyColumn)
            return keyPath(node);
        break;
    case Qt::ForegroundRole:
        if (derived)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        if (column == ValueColumn && (node->isContainer() || node->type == Value::Type::Null))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        if (column == TypeColumn)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        break;
    case Qt::FontRole:
        if (derived && column == KeyColumn && node == top) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        if (column == ValueColumn && node->type == Value::Type::Null) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        break;
    case HieraRoles::ValueTypeRole:
        return static_cast<int>(node->type);
    case HieraRoles::KeyPathRole:
        return keyPath(node);
    case HieraRoles::DerivedRole:
        return derived;
    }
    return {};
}

Qt::ItemFlags FactTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (isDerived(index))
        return f; // edited through its fact
    const Node* node = nodeFor(index);
    switch (index.column()) {
    case KeyColumn:
        if (!isArrayElement(index))
            f |= Qt::ItemIsEditable;
        break;
    case ValueColumn:
        if (!node->isContainer() && node->type != Value::Type::Null)
            f |= Qt::ItemIsEditable;
        break;
    case TypeColumn:
        f |= Qt::ItemIsEditable;
        break;
    }
    return f;
}

bool FactTreeModel::isArrayElement(const QModelIndex& index) const
{
    const Node* node = nodeFor(index);
    return index.isValid() && node->parent && node->parent->type == Value::Type::Array;
}

bool FactTreeModel::hasSiblingKey(const QModelIndex& parent, const QString& key, const QModelIndex& except) const
{
    const Node* parentNode = nodeFor(parent);
    const Node* exceptNode = except.isValid() ? nodeFor(except) : nullptr;
    return std::any_of(parentNode->children.begin(), parentNode->children.end(), [&](const std::unique_ptr<Node>& c) {
        return c.get() != exceptNode && ValueConvert::keyText(c->key) == key;
    });
}

QString FactTreeModel::uniqueKey(const QModelIndex& parent, const QString& base) const
{
    if (!hasSiblingKey(parent, base))
        return base;
    for (int i = 2;; ++i) {
        const QString candidate = QStringLiteral("%1_%2").arg(base).arg(i);
        if (!hasSiblingKey(parent, candidate))
            return candidate;
    }
}

bool FactTreeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable))
        return false;
    const Node* node = nodeFor(index);
    const QModelIndex first = index.siblingAtColumn(KeyColumn);

    switch (index.column()) {
    case KeyColumn: {
        const QString key = value.toString();
        if (key == ValueConvert::keyText(node->key))
            return true;
        if (hasSiblingKey(first.parent(), key, first))
            return false; // two members with one name would silently merge on toValue()
        editKey(pathFor(first), node->key, Value(ValueConvert::toStd(key)));
        return true;
    }
    case ValueColumn: {
        const QString text = value.typeId() == QMetaType::Bool
            ? (value.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
            : value.toString();
        const auto parsed = ValueConvert::parseScalar(text, node->type);
        if (!parsed)
            return false;
        if (*parsed == node->scalar)
            return true;
        editValue(pathFor(first), node->scalar, *parsed);
        return true;
    }
    case TypeColumn: {
        const auto type = ValueConvert::typeFromName(value.toString());
        if (!type)
            return false;
        if (*type == node->type)
            return true;
        const Value old = nodeValue(first);
        editValue(pathFor(first), old, ValueConvert::convertValue(old, *type));
        return true;
    }
    }
    return false;
}

FactTreeModel::Path FactTreeModel::pathFor(const QModelIndex& index) const
{
    Path path;
    for (const Node* n = nodeFor(index); n && n != root(); n = n->parent)
        path.prepend(n->row());
    return path;
}

QModelIndex FactTreeModel::indexFor(const Path& path, int column) const
{
    QModelIndex current;
    for (int i = 0; i < path.size(); ++i)
        current = index(path[i], i + 1 == path.size() ? column : 0, current);
    return current;
}

Value FactTreeModel::nodeValue(const QModelIndex& index) const
{
    return build(nodeFor(index));
}

Value FactTreeModel::nodeKey(const QModelIndex& index) const
{
    return index.isValid() ? nodeFor(index)->key : Value();
}

void FactTreeModel::setNodeValue(const QModelIndex& idx, const Value& value)
{
    const QModelIndex index = idx.siblingAtColumn(KeyColumn);
    if (!index.isValid())
        return;
    const bool wholeFacts = isFactsRow(index);
    const Value fact = factNameOf(index);
    replaceValue(index, value);
    Q_EMIT dataChanged(index, index.siblingAtColumn(TypeColumn));
    if (wholeFacts || !fact.isNull())
        syncDerived(fact);
    Q_EMIT factsChanged();
}

void FactTreeModel::replaceValue(const QModelIndex& index, const Value& value)
{
    Node* node = nodeFor(index);
    if (!node->children.empty()) {
        beginRemoveRows(index, 0, static_cast<int>(node->children.size()) - 1);
        node->children.clear();
        endRemoveRows();
    }
    const std::size_t newChildren = value.isArray() ? value.asArray().size()
        : value.isHash()                            ? value.asHash().size()
                                                    : 0;
    if (newChildren > 0) {
        beginInsertRows(index, 0, static_cast<int>(newChildren) - 1);
        fill(node, value);
        endInsertRows();
    } else {
        fill(node, value);
    }
}

void FactTreeModel::setNodeKey(const QModelIndex& index, const Value& key)
{
    if (!index.isValid())
        return;
    const Value oldKey = nodeFor(index)->key;
    const bool topLevel = !index.parent().isValid();
    nodeFor(index)->key = key;
    const QModelIndex keyIndex = index.siblingAtColumn(KeyColumn);
    Q_EMIT dataChanged(keyIndex, keyIndex);
    // A renamed fact moves its copy; a renamed top-level row may start or stop overriding one.
    if (topLevel || isFactsRow(index.parent()))
        syncDerived(Value());
    else if (const Value fact = factNameOf(index); !fact.isNull())
        syncDerived(fact);
    Q_EMIT factsChanged();
}

QModelIndex FactTreeModel::insertNode(const QModelIndex& parentIdx, int row, const Value& key, const Value& value)
{
    const QModelIndex parent = parentIdx.isValid() ? parentIdx.siblingAtColumn(KeyColumn) : QModelIndex();
    Node* parentNode = nodeFor(parent);
    if (!parentNode->isContainer())
        return {};
    // The derived copies stay after the genuine top-level rows (see the header).
    row = std::clamp(row, 0, parent.isValid() ? static_cast<int>(parentNode->children.size()) : genuineTopLevelRows());
    beginInsertRows(parent, row, row);
    auto child = std::make_unique<Node>();
    child->parent = parentNode;
    child->key = parentNode->type == Value::Type::Hash ? key : Value();
    child->arrayIndex = row;
    fill(child.get(), value);
    parentNode->children.insert(parentNode->children.begin() + row, std::move(child));
    endInsertRows();
    if (parentNode->type == Value::Type::Array)
        renumberArray(parent, row + 1);
    if (parent.isValid())
        Q_EMIT dataChanged(parent.siblingAtColumn(ValueColumn), parent.siblingAtColumn(ValueColumn));
    if (!parent.isValid() || isFactsRow(parent))
        syncDerived(Value()); // a new fact, or a variable that now overrides one
    else if (const Value fact = factNameOf(parent); !fact.isNull())
        syncDerived(fact);
    Q_EMIT factsChanged();
    return index(row, 0, parent);
}

void FactTreeModel::removeNode(const QModelIndex& idx)
{
    if (!idx.isValid())
        return;
    const QModelIndex index = idx.siblingAtColumn(KeyColumn);
    const QModelIndex parent = index.parent();
    Node* parentNode = nodeFor(parent);
    const int row = index.row();
    const bool structural = !parent.isValid() || isFactsRow(parent);
    const Value fact = structural ? Value() : factNameOf(parent);
    beginRemoveRows(parent, row, row);
    parentNode->children.erase(parentNode->children.begin() + row);
    endRemoveRows();
    if (parentNode->type == Value::Type::Array)
        renumberArray(parent, row);
    if (parent.isValid())
        Q_EMIT dataChanged(parent.siblingAtColumn(ValueColumn), parent.siblingAtColumn(ValueColumn));
    if (structural || !fact.isNull())
        syncDerived(fact);
    Q_EMIT factsChanged();
}

void FactTreeModel::renumberArray(const QModelIndex& parent, int fromRow)
{
    // Array elements show their index as the key: every row after an insert or removal moved.
    Node* parentNode = nodeFor(parent);
    const int rows = rowCount(parent);
    for (int row = fromRow; row < rows; ++row)
        parentNode->children[static_cast<std::size_t>(row)]->arrayIndex = row;
    if (fromRow < rows)
        Q_EMIT dataChanged(index(fromRow, KeyColumn, parent), index(rows - 1, KeyColumn, parent));
}

QModelIndex FactTreeModel::addChild(const QModelIndex& parentIdx, const QString& key, const Value& value)
{
    QModelIndex parent = parentIdx.isValid() ? parentIdx.siblingAtColumn(KeyColumn) : QModelIndex();
    if (isDerived(parent)) // a copy is edited through its fact
        parent = indexForKeyPath(QStringLiteral("facts.") + keyPath(nodeFor(parent)));
    int row = -1;
    if (!nodeFor(parent)->isContainer()) {
        // A scalar cannot have children: add a sibling right after it.
        row = parent.row() + 1;
        parent = parent.parent();
    }
    Node* parentNode = nodeFor(parent);
    if (row < 0)
        row = parent.isValid() ? static_cast<int>(parentNode->children.size()) : genuineTopLevelRows();
    if (!parent.isValid())
        row = std::min(row, genuineTopLevelRows());
    Value keyValue;
    if (parentNode->type == Value::Type::Hash)
        keyValue = Value(ValueConvert::toStd(uniqueKey(parent, key.isEmpty() ? QStringLiteral("new_fact") : key)));
    Path parentPath = pathFor(parent);
    editInsert(parentPath, row, keyValue, value);
    parentPath << row;
    return indexFor(parentPath);
}

bool FactTreeModel::removeNodeAt(const QModelIndex& index)
{
    if (!index.isValid() || isDerived(index))
        return false;
    editRemove(pathFor(index.siblingAtColumn(KeyColumn)));
    return true;
}

namespace {
QStringList splitKeyPath(const QString& dotted)
{
    // Dotted paths with "quoted.segments", as keyPath() writes them.
    QStringList parts;
    QString current;
    bool quoted = false;
    for (const QChar c : dotted) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
        } else if (c == QLatin1Char('.') && !quoted) {
            parts << current;
            current.clear();
        } else {
            current += c;
        }
    }
    parts << current;
    return parts;
}
} // namespace

QModelIndex FactTreeModel::childByKey(const QModelIndex& parent, const QString& key) const
{
    const Node* node = nodeFor(parent);
    for (int row = 0; row < static_cast<int>(node->children.size()); ++row) {
        const Node* child = node->children[static_cast<std::size_t>(row)].get();
        const QString childKey =
            node->type == Value::Type::Array ? QString::number(row) : ValueConvert::keyText(child->key);
        if (childKey == key)
            return index(row, 0, parent);
    }
    return {};
}

QModelIndex FactTreeModel::indexForKeyPath(const QString& dottedPath) const
{
    QModelIndex current;
    for (const QString& part : splitKeyPath(dottedPath)) {
        current = childByKey(current, part);
        if (!current.isValid())
            return {};
    }
    return current;
}

bool FactTreeModel::setValueAtPath(const QString& dottedPath, const Value& value)
{
    QStringList parts = splitKeyPath(dottedPath);
    if (parts.isEmpty() || parts.contains(QString()))
        return false;
    if (isDerived(childByKey({}, parts.first())))
        parts.prepend(QStringLiteral("facts")); // a copy is set through its fact
    // Validate the walk first so that a failed call leaves no half-made macro on the stack.
    QModelIndex current;
    int existing = 0;
    for (const QString& part : parts) {
        const QModelIndex next = childByKey(current, part);
        if (!next.isValid())
            break;
        current = next;
        ++existing;
    }
    if (existing < parts.size() && nodeFor(current)->type != Value::Type::Hash)
        return false;

    if (m_edits && m_edits->beginGroup)
        m_edits->beginGroup(tr("Set %1").arg(dottedPath));
    if (existing == parts.size()) {
        editValue(pathFor(current), nodeValue(current), value);
    } else {
        // Build the missing tail as one nested value and insert it with a single command.
        Value tail = value;
        for (int i = static_cast<int>(parts.size()) - 1; i > existing; --i) {
            hiera::Hash h;
            h.set(Value(ValueConvert::toStd(parts[i])), tail);
            tail = Value(std::move(h));
        }
        const int row = current.isValid() ? rowCount(current) : genuineTopLevelRows();
        editInsert(pathFor(current), row, Value(ValueConvert::toStd(parts[existing])), tail);
    }
    if (m_edits && m_edits->endGroup)
        m_edits->endGroup();
    return true;
}

void FactTreeModel::editValue(const Path& path, const Value& oldValue, const Value& newValue)
{
    if (m_edits && m_edits->setValue)
        m_edits->setValue(*this, path, oldValue, newValue);
    else
        setNodeValue(indexFor(path), newValue);
}

void FactTreeModel::editKey(const Path& path, const Value& oldKey, const Value& newKey)
{
    if (m_edits && m_edits->rename)
        m_edits->rename(*this, path, oldKey, newKey);
    else
        setNodeKey(indexFor(path), newKey);
}

void FactTreeModel::editInsert(const Path& parentPath, int row, const Value& key, const Value& value)
{
    if (m_edits && m_edits->insert)
        m_edits->insert(*this, parentPath, row, key, value);
    else
        insertNode(indexFor(parentPath), row, key, value);
}

void FactTreeModel::editRemove(const Path& path)
{
    if (m_edits && m_edits->remove)
        m_edits->remove(*this, path);
    else
        removeNode(indexFor(path));
}

} // namespace hiera::ui
