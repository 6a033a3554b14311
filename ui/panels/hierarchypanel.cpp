#include "panels/hierarchypanel.h"

#include "jobs/lookuprunner.h"
#include "models/hierarchymodel.h"
#include "models/modelroles.h"
#include "models/valueconvert.h"
#include "widgets/messagebanner.h"
#include "widgets/pathdelegate.h"
#include "widgets/treeviews.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QVBoxLayout>

#include <algorithm>

namespace hiera::ui {

HierarchyPanel::HierarchyPanel(LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_model(new HierarchyModel(this))
{
    setObjectName(QStringLiteral("hierarchyPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_banner = new MessageBanner(this);
    m_banner->setObjectName(QStringLiteral("hierarchyBanner"));
    layout->addWidget(m_banner);
    m_view = TreeViews::make(this, QStringLiteral("hierarchyView"), m_model);
    PathDelegate::install(m_view, {HierarchyModel::DeclaredColumn, HierarchyModel::InterpolatedColumn});
    // The status ("missing (empty interpolation)") next to the level it is about, always in sight;
    // the paths after it, the last one taking the rest of the width.
    m_view->header()->moveSection(HierarchyModel::StatusColumn, HierarchyModel::DeclaredColumn);
    layout->addWidget(m_view, 1);
    TreeViews::connectSourceClicks(m_view, HierarchyModel::InterpolatedColumn, this, &HierarchyPanel::sourceRequested);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &HierarchyPanel::showContextMenu);

    connect(runner, &LookupRunner::engineLoaded, this, [this](const QString& hieraYaml) {
        m_loadFailure.clear();
        m_model->setBaseDirectory(QFileInfo(hieraYaml).absolutePath());
        showDiscoveryWarnings(hieraYaml);
    });
    connect(runner, &LookupRunner::loadFailed, this, [this](const QString& hieraYaml, const QString& message) {
        // The one place a failed load is told (it is about the hierarchy); it stays until a load works.
        m_loadFailure = m_runner->loadFailureText(hieraYaml, message);
        m_banner->showMessage(MessageBanner::Kind::Error, m_loadFailure);
    });
    connect(runner, &LookupRunner::scopeResolved, this, &HierarchyPanel::show);
}

void HierarchyPanel::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_view->indexAt(position);
    const QString file = index.data(HieraRoles::SourceFileRole).toString();
    if (file.isEmpty())
        return;
    QMenu menu(this);
    menu.addAction(tr("Show in the Source Pane"), this, [this, index] { Q_EMIT sourceRequested(index); });
    menu.addAction(tr("What This File Decides (Impact)"), this, [this, file] { Q_EMIT impactRequested(file); });
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

void HierarchyPanel::fitColumns()
{
    // Every column as wide as its contents but the paths: the last shown (Interpolated) takes what is
    // left and the declared one no more than half of it, both elided in the middle (PathDelegate).
    for (int column : {int(HierarchyModel::NameColumn), int(HierarchyModel::BackendColumn),
                       int(HierarchyModel::StatusColumn), int(HierarchyModel::DeclaredColumn)})
        m_view->resizeColumnToContents(column);
    const int used = m_view->columnWidth(HierarchyModel::NameColumn)
        + m_view->columnWidth(HierarchyModel::BackendColumn) + m_view->columnWidth(HierarchyModel::StatusColumn);
    const int room = std::max(160, (m_view->viewport()->width() - used) / 2);
    m_view->setColumnWidth(HierarchyModel::DeclaredColumn,
                           std::min(m_view->columnWidth(HierarchyModel::DeclaredColumn), room));
}

void HierarchyPanel::show(const ScopeSnapshotPtr& snapshot)
{
    ScopeSnapshotPtr previous = m_model->snapshot();
    m_model->setSnapshot(snapshot);
    m_view->expandAll();
    fitColumns();
    // A failed load stays told until a load works (the levels shown are the previous version's); an
    // error of this scope's levels goes once the scope resolves; discovery warnings stay until closed.
    if (!m_loadFailure.isEmpty())
        m_banner->showMessage(MessageBanner::Kind::Error, m_loadFailure);
    else if (!snapshot->error.empty())
        m_banner->showMessage(MessageBanner::Kind::Error, ValueConvert::toQString(snapshot->error));
    else if (m_banner->kind() == MessageBanner::Kind::Error)
        m_banner->clearMessage();
    m_runner->releaseLater(std::move(previous));
    Q_EMIT hierarchyShown();
}

void HierarchyPanel::showDiscoveryWarnings(const QString& hieraYaml)
{
    // Once per repository and set of warnings: a reload after an edit on disk does not bring back
    // warnings the user has closed.
    // Notices first: how the repository is read (absolute datadirs of the deployment mapped onto it).
    const QStringList warnings = m_runner->discoveryNotices() + m_runner->discoveryWarnings();
    const bool seen = hieraYaml == m_warnedRepository && warnings == m_shownWarnings;
    m_warnedRepository = hieraYaml;
    m_shownWarnings = warnings;
    if (warnings.isEmpty())
        m_banner->clearMessage();
    else if (!seen)
        m_banner->showMessage(m_runner->discoveryWarnings().isEmpty() ? MessageBanner::Kind::Information
                                                                      : MessageBanner::Kind::Warning,
                              warnings.join(QLatin1Char('\n')));
    else if (m_banner->kind() == MessageBanner::Kind::Error)
        m_banner->clearMessage();
}

} // namespace hiera::ui
