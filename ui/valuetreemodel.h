#pragma once

// ValueTreeModel — a looked-up value as a tree, every row with the origin its SourceMark records
// (file:line), so that each leaf of a merged hash says which data file gave it.
// Columns Key | Value | Type | Origin; one top-level row for the value itself. Read-only.

#include <hiera/value.h>

#include <QAbstractItemModel>

#include <memory>
#include <vector>

class ValueTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, TypeColumn, OriginColumn, ColumnCount };

    explicit ValueTreeModel(QObject* parent = nullptr);
    ~ValueTreeModel() override;
    Q_DISABLE_COPY_MOVE(ValueTreeModel)

    // `label` names the top-level row (the looked-up key). Origins are shown relative to `baseDirectory`.
    void setValue(const hiera::Value& value, const QString& label, const QString& baseDirectory = {});
    void clear();
    bool hasValue() const { return m_root != nullptr; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node;
    Node* nodeFor(const QModelIndex& index) const;

    std::unique_ptr<Node> m_root; // the value's own row (the invisible root is "no node")
    QString m_baseDirectory;
};
