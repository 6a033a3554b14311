#pragma once

// ExplanationModel — the explain trace (hiera::TraceNode tree) as a read-only tree: one row per node
// with its step ("Hierarchy entry \"nodes\"", "Path \"nodes/web01.yaml\""), outcome, value and the
// file:line of a found value. Rows are coloured by event (found green, merged result blue, missing
// grey, failed red) and a level row takes the colour of what happened below it, so the winning path
// shows at a glance. Reset per result over an immutable snapshot (heaptrack's resetData habit).

#include <hiera/trace.h>

#include "models/treemodel.h"

#include <memory>
#include <vector>

namespace hiera::ui {

struct ExplanationNode;

class ExplanationModel : public TreeModel<ExplanationNode>
{
    Q_OBJECT
public:
    enum Column { StepColumn, OutcomeColumn, ValueColumn, OriginColumn, ColumnCount };

    explicit ExplanationModel(QObject* parent = nullptr);
    ~ExplanationModel() override;
    Q_DISABLE_COPY_MOVE(ExplanationModel)

    void setTrace(hiera::TracePtr trace, const QString& baseDirectory = {});
    hiera::TracePtr trace() const { return m_trace; }

    // Texts shared with the contributions table.
    static QString stepText(const hiera::TraceNode& node, const QString& baseDirectory);
    static QString eventText(const hiera::TraceNode& node);
    // One line for a value: compact JSON, cut at a few hundred characters.
    static QString valueText(const hiera::Value& value);

protected:
    QVariant rowData(const ExplanationNode& item, int column, int role) const override;

private:
    hiera::TracePtr m_trace; // the nodes point into it; its root node is the one top-level row
    QString m_baseDirectory;
};

} // namespace hiera::ui
