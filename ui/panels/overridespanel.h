#pragma once

// OverridesPanel — what every level holds for the current key and what each leaf of the answer
// overrode (OverridesModel). Asks the runner for them after each answer; the work is on a worker.

#include "models/snapshots.h"

#include <QWidget>

class QTreeView;

namespace hiera::ui {

class LookupRunner;
class OverridesModel;

class OverridesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit OverridesPanel(LookupRunner* runner, QWidget* parent = nullptr);

    OverridesModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }

Q_SIGNALS:
    void sourceRequested(const QModelIndex& index);
    void overridesShown();

private:
    void show(const OverrideChainPtr& result);

    LookupRunner* m_runner;
    LookupOutcomePtr m_outcome; // the answer the rows belong to
    OverridesModel* m_model;
    QTreeView* m_view;
};

} // namespace hiera::ui
