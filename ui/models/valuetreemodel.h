#pragma once

// ValueTreeModel — a looked-up value as a tree, every row with the origin its SourceMark records
// (file:line), so that each leaf of a merged hash says which data file gave it.
// Columns Key | Value | Type | Origin; one top-level row for the value itself. Read-only.

#include <hiera/lookupkey.h>
#include <hiera/value.h>

#include "models/treemodel.h"

#include <memory>
#include <vector>

namespace hiera::ui {

struct ValueNode;

class ValueTreeModel : public TreeModel<ValueNode>
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, TypeColumn, OriginColumn, ColumnCount };

    explicit ValueTreeModel(QObject* parent = nullptr);
    ~ValueTreeModel() override;
    Q_DISABLE_COPY_MOVE(ValueTreeModel)

    // `label` names the top-level row (the looked-up key). Origins are shown relative to `baseDirectory`.
    void setValue(const hiera::Value& value, const QString& label, const QString& baseDirectory = {});
    void clear();
    // Marks the rows a dotted key's segments dig to (PickedRole, bold; the last one highlighted): the Root
    // value tab shows which element the answer is. Returns false when the path is not in the value.
    bool markPicked(const std::vector<hiera::KeySegment>& segments);
    bool hasValue() const { return rowCount() > 0; }
    // A value shown for reference only, never as the answer (LookupResult::unverifiedValue beside a
    // lookup that failed): every cell greyed. setValue and clear reset it.
    void setUnverified(bool unverified);
    bool isUnverified() const { return m_unverified; }

protected:
    QVariant rowData(const ValueNode& node, int column, int role) const override;

private:
    QString m_baseDirectory;
    bool m_unverified = false;
};

} // namespace hiera::ui
