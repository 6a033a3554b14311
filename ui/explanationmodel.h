#pragma once

// ExplanationModel — the explain trace (hiera::TraceNode tree) as a read-only tree: one row per node
// with its step ("Hierarchy entry \"nodes\"", "Path \"nodes/web01.yaml\""), outcome, value and the
// file:line of a found value. Rows are coloured by event (found green, merged result blue, missing
// grey, failed red) and a level row takes the colour of what happened below it, so the winning path
// shows at a glance. Reset per result over an immutable snapshot (heaptrack's resetData habit).

#include <hiera/trace.h>

#include <QAbstractItemModel>

#include <memory>
#include <vector>

class ExplanationModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { StepColumn, OutcomeColumn, ValueColumn, OriginColumn, ColumnCount };

    explicit ExplanationModel(QObject* parent = nullptr);
    ~ExplanationModel() override;
    Q_DISABLE_COPY_MOVE(ExplanationModel)

    void setTrace(hiera::TracePtr trace, const QString& baseDirectory = {});
    hiera::TracePtr trace() const { return m_trace; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Texts shared with the contributions table.
    static QString stepText(const hiera::TraceNode& node, const QString& baseDirectory);
    static QString eventText(const hiera::TraceNode& node);
    // One line for a value: compact JSON, cut at a few hundred characters.
    static QString valueText(const hiera::Value& value);

private:
    struct Item;
    Item* itemFor(const QModelIndex& index) const;

    hiera::TracePtr m_trace;
    std::unique_ptr<Item> m_root; // the invisible root; its one child is the trace's root node
    QString m_baseDirectory;
};
