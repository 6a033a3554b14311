#include "panels/overridespanel.h"

#include "jobs/lookuprunner.h"
#include "models/overridesmodel.h"
#include "widgets/pathdelegate.h"
#include "widgets/treeviews.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace hiera::ui {

OverridesPanel::OverridesPanel(LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_model(new OverridesModel(this))
    , m_view(new QTreeView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view->setModel(m_model);
    PathDelegate::install(m_view, {OverridesModel::FileColumn});
    m_view->setUniformRowHeights(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    TreeViews::limitContentSizing(m_view->header());
    layout->addWidget(m_view);

    connect(runner, &LookupRunner::lookupFinished, this, [this](const LookupOutcomePtr& outcome) {
        m_outcome = outcome;
        m_runner->findOverrides(outcome);
    });
    connect(runner, &LookupRunner::overridesFound, this, &OverridesPanel::show);
    connect(m_view, &QTreeView::activated, this, &OverridesPanel::sourceRequested);
    connect(m_view, &QTreeView::clicked, this, &OverridesPanel::sourceRequested);
}

void OverridesPanel::show(const OverrideChainPtr& result)
{
    // A result for a key the answer no longer shows (the runner keeps only the newest, but an answer
    // can arrive in between) waits for its own.
    if (!m_outcome || result->key != m_outcome->request.key)
        return;
    m_model->setResult(result, m_runner->revealSecrets(), QFileInfo(m_runner->hieraYaml()).absolutePath());
    m_view->expandAll();
    for (int column = 0; column < OverridesModel::ColumnCount; ++column)
        m_view->resizeColumnToContents(column);
    // Level descriptions are long ("Profile defaults (Module "profile" Data Provider …)"): the values
    // and the files beside them stay in sight, the description elided at its end.
    const int widest = std::max(220, m_view->viewport()->width() * 2 / 5);
    for (int column : {int(OverridesModel::WhereColumn), int(OverridesModel::ValueColumn)})
        m_view->setColumnWidth(column, std::min(m_view->columnWidth(column), widest));
    Q_EMIT overridesShown();
}

} // namespace hiera::ui
