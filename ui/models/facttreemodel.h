#pragma once

// FactTreeModel — the editable scope (facts, trusted, top-scope variables) as a tree, in the style of
// Qt's editabletreemodel example: a plain node class owning its children, columns Key | Value | Type.
//
// The model owns the scope the lookups run against: toValue() builds the hiera::Value snapshot handed
// to a hiera::MapScope on a worker thread. Every change goes through a handful of primitive,
// path-addressed operations (setNodeValue, setNodeKey, insertNode, removeNode) so that the undo
// commands (factcommands.h) can replay them; setData() and the add/remove helpers push those commands
// onto the undo stack when one is set.
//
// A fact is edited in one place. Puppet makes every fact a top-scope variable as well ($os next to
// $facts['os']); those copies are derived rows: marked, read-only, kept after the genuine top-level
// rows (facts, trusted, environment, custom variables) in the order of the facts, and rebuilt by every
// primitive operation that touches a fact. Their place follows from the facts alone, so the row paths
// the undo commands remember stay right whatever order edits are undone in.

#include <hiera/value.h>

#include "models/treemodel.h"
#include <QList>

#include <functional>
#include <memory>
#include <vector>

namespace hiera::ui {

struct FactEdits;
struct FactNode;

class FactTreeModel : public TreeModel<FactNode>
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, TypeColumn, ColumnCount };
    // Rows are addressed by their chain of row numbers from the top: stable across undo/redo, unlike
    // QModelIndex or item pointers.
    using Path = QList<int>;

    explicit FactTreeModel(QObject* parent = nullptr);
    ~FactTreeModel() override;
    Q_DISABLE_COPY_MOVE(FactTreeModel)

    // Replaces the whole scope (a Hash; anything else gives an empty scope). Does not touch the undo stack.
    void setScope(const hiera::Value& scope);
    // The scope as a Value: the snapshot the engine looks up against.
    hiera::Value toValue() const;
    // A scope's tree built ahead, on any thread (LookupRunner::readFacts builds it on a worker): filling
    // the tree of a large facts file took the GUI thread hundreds of milliseconds.
    struct Prepared;
    static std::shared_ptr<Prepared> prepare(const hiera::Value& scope);
    // Replaces the whole scope with a prepared tree, as setScope() does. `prepared` gets the previous
    // tree, for the caller to free where it costs nothing (LookupRunner::releaseLater).
    void setPrepared(Prepared& prepared);

    // Where the user-level edits below go (null: straight onto the primitives). The model itself knows
    // no undo command: FactsDocument hands it document/factcommands.h's UndoableFactEdits, as Qt's undo
    // framework example makes its commands outside the document.
    void setEdits(FactEdits* edits) { m_edits = edits; }
    FactEdits* edits() const { return m_edits; }

    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Key column: rename (hash members only; duplicate names are refused). Value column: text parsed
    // as the row's type. Type column: a type name; the value is converted.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // User-level edits (through edits(), so undoable when that records them). Return the new row's index, or an invalid
    // one. addChild appends to a hash or an array; on a scalar row it adds a sibling after it.
    QModelIndex addChild(const QModelIndex& parent, const QString& key = {},
                         const hiera::Value& value = hiera::Value(std::string()));
    bool removeNodeAt(const QModelIndex& index);
    // Sets the value at a dotted key path ("facts.os.family"), creating hashes on the way. Undoable.
    bool setValueAtPath(const QString& dottedPath, const hiera::Value& value);
    QModelIndex indexForKeyPath(const QString& dottedPath) const;

    // Primitive operations (what undo commands replay). No undo stack involvement.
    Path pathFor(const QModelIndex& index) const;
    QModelIndex indexFor(const Path& path, int column = 0) const;
    hiera::Value nodeValue(const QModelIndex& index) const;
    hiera::Value nodeKey(const QModelIndex& index) const;
    void setNodeValue(const QModelIndex& index, const hiera::Value& value);
    void setNodeKey(const QModelIndex& index, const hiera::Value& key);
    QModelIndex insertNode(const QModelIndex& parent, int row, const hiera::Value& key, const hiera::Value& value);
    void removeNode(const QModelIndex& index);

    bool isArrayElement(const QModelIndex& index) const;
    // A top-scope copy of a fact (or a row inside one): read-only, it follows the fact.
    bool isDerived(const QModelIndex& index) const;
    bool hasSiblingKey(const QModelIndex& parent, const QString& key, const QModelIndex& except = {}) const;
    QString uniqueKey(const QModelIndex& parent, const QString& base) const;

Q_SIGNALS:
    // After every change of the scope (edit, undo, redo, setScope).
    void factsChanged();

protected:
    QVariant rowData(const FactNode& node, int column, int role) const override;

private:
    using Node = FactNode;
    QModelIndex childByKey(const QModelIndex& parent, const QString& key) const;
    static void fill(Node* node, const hiera::Value& value);
    static hiera::Value build(const Node* node);
    QString keyPath(const Node* node) const;
    void renumberArray(const QModelIndex& parent, int fromRow);
    // setNodeValue without the signals and the derived rows' update.
    void replaceValue(const QModelIndex& index, const hiera::Value& value);
    // Derived rows: marks and orders them in a freshly filled tree; brings them in line with the facts
    // after an edit (of the fact `name` only, or of all when `name` is null).
    static void arrangeDerived(Node* root);
    void syncDerived(const hiera::Value& name);
    // The fact a row belongs to (the key of its facts.<name> ancestor); null outside `facts`.
    hiera::Value factNameOf(const QModelIndex& index) const;
    bool isFactsRow(const QModelIndex& index) const;
    int genuineTopLevelRows() const;

    // The user-level edits, through m_edits when set, else applied at once.
    void editValue(const Path& path, const hiera::Value& oldValue, const hiera::Value& newValue);
    void editKey(const Path& path, const hiera::Value& oldKey, const hiera::Value& newKey);
    void editInsert(const Path& parentPath, int row, const hiera::Value& key, const hiera::Value& value);
    void editRemove(const Path& path);

    FactEdits* m_edits = nullptr;
};

// The user-level edits of a FactTreeModel, as they are made: each names its rows by path, with the values
// before and after, so that a recorder can replay them (undo) through the model's primitives.
// beginGroup/endGroup bracket edits that are one step for the user (setValueAtPath). Callbacks rather
// than virtual functions: the recorder (document/factcommands.h) fills them in, and no function of the
// room above is named, or called, from here. An unset one leaves the model to apply that edit itself.
struct FactEdits
{
    using Path = FactTreeModel::Path;
    std::function<void(FactTreeModel&, const Path&, const hiera::Value& oldValue, const hiera::Value& newValue)>
        setValue;
    std::function<void(FactTreeModel&, const Path&, const hiera::Value& oldKey, const hiera::Value& newKey)> rename;
    std::function<void(FactTreeModel&, const Path& parentPath, int row, const hiera::Value& key,
                       const hiera::Value& value)>
        insert;
    std::function<void(FactTreeModel&, const Path&)> remove;
    std::function<void(const QString& text)> beginGroup;
    std::function<void()> endGroup;
};

} // namespace hiera::ui
