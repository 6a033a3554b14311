#include "panels/fleetpanel.h"

#include "jobs/lookuprunner.h"
#include "models/fleetmodel.h"
#include "models/valueconvert.h"
#include "panels/shownrefresh.h"
#include "widgets/pathdelegate.h"
#include "widgets/reportexport.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace hiera::ui {

namespace {

constexpr std::size_t maxGroupsShownOpen = 50;
constexpr std::size_t maxNodesShownOpen = 500;

} // namespace

FleetPanel::FleetPanel(FleetRunner* fleet, LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_fleet(fleet)
    , m_runner(runner)
    , m_model(new FleetModel(this))
    , m_refresh(new ShownRefresh(this, [this] { runNow(); }))
    , m_selectionDelay(new QTimer(this))
{
    m_selectionDelay->setSingleShot(true);
    m_selectionDelay->setInterval(300);
    connect(m_selectionDelay, &QTimer::timeout, this, [this] {
        // Not when a run has used these nodes already (a library read runs the key by itself).
        const NodeSelection now = effectiveSelection();
        if (now.nodes != m_runSelection.nodes || now.library != m_runSelection.library)
            m_refresh->request();
    });
    setObjectName(QStringLiteral("fleetPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("fleetSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long summary (a long key, a cancelled run) wraps: it never pushes the buttons out of the panel.
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_summary, 1);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("fleetProgress"));
    m_progress->setMinimumWidth(160);
    m_progress->setMaximumWidth(260);
    m_progress->setFormat(QStringLiteral("%v/%m"));
    m_progress->hide();
    row->addWidget(m_progress);
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName(QStringLiteral("fleetRun"));
    m_run->setToolTip(tr("Look the key up on every node again (after a Cancel, or facts changed on disk)"));
    row->addWidget(m_run);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("fleetCancel"));
    m_cancel->setEnabled(false);
    row->addWidget(m_cancel);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save this key across the nodes as CSV, JSON or Markdown"));
    m_export->setEnabled(false);
    row->addWidget(m_export);
    layout->addLayout(row);
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("fleetView"));
    m_view->setModel(m_model);
    PathDelegate::install(m_view, {FleetModel::FileColumn});
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);

    connect(m_cancel, &QPushButton::clicked, fleet, &FleetRunner::cancel);
    // Escape stops a run, as in a progress dialog, wherever the focus is in this panel.
    m_cancel->setToolTip(tr("Stop reading the library or looking the key up (Esc); the nodes done so far stay"));
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, [this] {
        if (m_cancel->isEnabled())
            m_cancel->click();
    });
    connect(m_run, &QPushButton::clicked, this, &FleetPanel::runNow);
    connect(m_export, &QToolButton::clicked, this, &FleetPanel::chooseExport);
    connect(fleet, &FleetRunner::progress, this, [this](const QString& what, qulonglong done, qulonglong total) {
        // What runs goes in the summary, where there is room for a long key; the bar counts.
        m_summary->setText(what + QStringLiteral("…"));
        m_progress->setToolTip(what);
        m_progress->setMaximum(total > 0 ? static_cast<int>(total) : 0); // 0: busy, total not known yet
        m_progress->setValue(static_cast<int>(done));
    });
    connect(fleet, &FleetRunner::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        updateButtons();
        if (!busy)
            m_summary->setText(summaryText()); // a load that failed or was cancelled leaves no result
    });
    connect(fleet, &FleetRunner::fleetFinished, this, &FleetPanel::show);
    // The panel follows the key bar: each answered key (or merge) runs across the library too.
    connect(runner, &LookupRunner::lookupFinished, this, [this](const LookupOutcomePtr& outcome) {
        // The same key again (Return in the key field, a fact edit) keeps a finished result: the fleet
        // does not change with the current node. A cancelled one runs again.
        if (outcome->request.key == m_key && outcome->request.merge == m_request.merge && m_model->result()
            && !m_model->result()->cancelled && effectiveSelection().nodes == m_shownSelection.nodes)
            return;
        m_key = outcome->request.key;
        m_request = hiera::LookupRequest();
        m_request.merge = outcome->request.merge;
        m_refresh->request();
    });
    connect(runner, &LookupRunner::engineLoaded, this, [this] { m_model->setResult(nullptr, {}, false); });
    connect(fleet, &FleetRunner::libraryLoaded, m_refresh, &ShownRefresh::request);
    connect(fleet, &FleetRunner::libraryLoaded, this, &FleetPanel::updateButtons);
    // Another library is read: the previous one's answers leave the screen (the same one read again,
    // after a save, keeps them until its new answers arrive).
    connect(fleet, &FleetRunner::libraryLoading, this, [this](const QString& path) {
        if (path == m_fleet->libraryPath() || !m_model->result())
            return;
        const FleetResultPtr previous = m_model->result();
        m_model->setResult(nullptr, {}, false);
        m_runner->releaseLater(previous);
        updateButtons();
    });
    connect(runner, &LookupRunner::engineLoaded, this, &FleetPanel::updateButtons);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString name = index.data(FleetModel::NodeNameRole).toString();
        if (!name.isEmpty())
            Q_EMIT nodeChosen(name);
    });
    m_summary->setText(summaryText());
    updateButtons();
}

void FleetPanel::updateButtons()
{
    const bool busy = m_fleet->isBusy();
    m_cancel->setEnabled(busy);
    // Run needs a library and a hierarchy; Export a result, and none while another run replaces it.
    m_run->setEnabled(!busy && m_fleet->library() && m_runner->engine());
    m_export->setEnabled(!busy && m_model->result());
}

void FleetPanel::setNodeSelection(const NodeSelection& selection)
{
    const bool changed = selection.nodes != m_selection.nodes || selection.library != m_selection.library;
    m_selection = selection;
    if (changed && m_model->result())
        m_selectionDelay->start();
}

void FleetPanel::setMissingFacts(const QStringList& facts)
{
    m_missingFacts = facts;
    if (!m_fleet->isBusy())
        m_summary->setText(summaryText());
}

NodeSelection FleetPanel::effectiveSelection() const
{
    if (m_selection.nodes && m_selection.library == m_fleet->library())
        return m_selection;
    return {m_fleet->library(), nullptr, QString()};
}

void FleetPanel::runNow()
{
    if (m_key.empty() || !m_fleet->library() || !m_runner->engine())
        return;
    m_runSelection = effectiveSelection();
    m_fleet->run(m_runner->engine(), m_key, m_request, m_runSelection.nodes);
}

void FleetPanel::show(const FleetResultPtr& result)
{
    const FleetResultPtr previous = m_model->result();
    m_shownSelection = m_runSelection;
    m_model->setResult(result, QFileInfo(m_runner->hieraYaml()).absolutePath(), m_runner->revealSecrets());
    // Groups are shown open when that stays readable, to show who gets what at a glance. A large fleet
    // opened is thousands of rows to scroll past to see the groups (and a key with a value per node
    // made 20,000 one-node groups, laid out open: 150 ms on the GUI thread).
    if (result->groups.size() <= maxGroupsShownOpen && result->nodes.size() <= maxNodesShownOpen)
        m_view->expandToDepth(0);
    // Wide enough for most values, never so wide that a long hash pushes the counts and files away.
    m_view->resizeColumnToContents(FleetModel::WhatColumn);
    m_view->setColumnWidth(FleetModel::WhatColumn,
                           std::min(m_view->columnWidth(FleetModel::WhatColumn), m_view->viewport()->width() / 2));
    m_view->resizeColumnToContents(FleetModel::LevelColumn); // level names are short: shown whole
    updateButtons();
    m_summary->setText(summaryText());
    m_runner->releaseLater(previous);
    Q_EMIT fleetShown();
}

QString FleetPanel::summaryText() const
{
    const FleetResultPtr r = m_model->result();
    if (!m_fleet->library())
        return tr("Open a node library (Nodes panel) to see the key on every node.");
    if (!r)
        return tr("%1 nodes in the library: type a key.").arg(m_fleet->library()->size());
    // A run on the Nodes filter's nodes says so: "on 2 of 4 nodes (the Nodes filter role=web)".
    const std::size_t librarySize = m_shownSelection.library ? m_shownSelection.library->size() : r->total;
    const QString nodes = !m_shownSelection.nodes
        ? (r->nodes.size() == 1 ? tr("1 node") : tr("%1 nodes").arg(r->nodes.size()))
        : tr("%1 of %2 nodes (the Nodes filter %3)").arg(r->nodes.size()).arg(librarySize).arg(m_shownSelection.filter);
    QString text = tr("%1 on %2: %3, %4 found, %5 not found, %6 errors")
                       .arg(ValueConvert::toQString(r->key))
                       .arg(nodes)
                       .arg(r->groups.size() == 1 ? tr("1 answer") : tr("%1 distinct answers").arg(r->groups.size()))
                       .arg(r->count(hiera::LookupResult::Status::Found))
                       .arg(r->count(hiera::LookupResult::Status::NotFound))
                       .arg(r->count(hiera::LookupResult::Status::Error));
    if (r->cancelled)
        text += tr(" (cancelled after %1 of %2 nodes)").arg(r->nodes.size()).arg(r->total);
    if (!m_missingFacts.isEmpty())
        text += tr(". No node has %1: the paths that use it matched no file (see Nodes).")
                    .arg(m_missingFacts.join(QStringLiteral(", ")));
    return text;
}

QList<ReportExport::Format> FleetPanel::exportFormats() const
{
    const FleetResultPtr r = m_model->result();
    if (!r)
        return {};
    hiera::FleetExportOptions options;
    options.revealSecrets = m_runner->revealSecrets();
    options.relativeTo = ValueConvert::toStd(QFileInfo(m_runner->hieraYaml()).absolutePath());
    if (m_shownSelection.nodes)
        options.nodeFilter = ValueConvert::toStd(m_shownSelection.filter);
    return {{tr("CSV"), QStringLiteral("csv"), [r, options] { return hiera::fleetCsv(*r, options); }},
            {tr("JSON"), QStringLiteral("json"), [r, options] { return hiera::fleetJson(*r, options); }},
            {tr("Markdown"), QStringLiteral("md"), [r, options] { return hiera::fleetMarkdown(*r, options); }}};
}

bool FleetPanel::exportTo(const QString& path, QString* error) const
{
    return ReportExport::save(path, exportFormats(), error);
}

void FleetPanel::chooseExport()
{
    const FleetResultPtr r = m_model->result();
    const QString key = r ? ValueConvert::toQString(r->key) : QString();
    ReportExport::chooseAndSave(this, tr("Export the key across the nodes"), exportFormats(), m_summary,
                                key + QStringLiteral("-nodes"));
}

} // namespace hiera::ui
