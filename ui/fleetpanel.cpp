#include "fleetpanel.h"

#include "fleetmodel.h"
#include "lookuprunner.h"
#include "reportexport.h"
#include "shownrefresh.h"
#include "valueconvert.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace {

constexpr std::size_t maxGroupsShownOpen = 50;

} // namespace

FleetPanel::FleetPanel(FleetRunner* fleet, LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_fleet(fleet)
    , m_runner(runner)
    , m_model(new FleetModel(this))
    , m_refresh(new ShownRefresh(this, [this] { runNow(); }))
{
    setObjectName(QStringLiteral("fleetPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("fleetSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_summary, 1);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("fleetProgress"));
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    row->addWidget(m_progress);
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
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);

    connect(m_cancel, &QPushButton::clicked, fleet, &FleetRunner::cancel);
    connect(m_export, &QToolButton::clicked, this, &FleetPanel::chooseExport);
    connect(fleet, &FleetRunner::progress, this, [this](const QString& what, qulonglong done, qulonglong total) {
        m_progress->setFormat(QStringLiteral("%1: %v/%m").arg(what));
        m_progress->setMaximum(total > 0 ? static_cast<int>(total) : 0); // 0: busy, total not known yet
        m_progress->setValue(static_cast<int>(done));
    });
    connect(fleet, &FleetRunner::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_cancel->setEnabled(busy);
    });
    connect(fleet, &FleetRunner::fleetFinished, this, &FleetPanel::show);
    // The panel follows the key bar: each answered key (or merge) runs across the library too.
    connect(runner, &LookupRunner::lookupFinished, this, [this](const LookupOutcomePtr& outcome) {
        if (outcome->request.key == m_key && outcome->request.merge == m_request.merge && m_model->result())
            return;
        m_key = outcome->request.key;
        m_request = hiera::LookupRequest();
        m_request.merge = outcome->request.merge;
        m_refresh->request();
    });
    connect(runner, &LookupRunner::engineLoaded, this, [this] { m_model->setResult(nullptr, {}, false); });
    connect(fleet, &FleetRunner::libraryLoaded, m_refresh, &ShownRefresh::request);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString name = index.data(FleetModel::NodeNameRole).toString();
        if (!name.isEmpty())
            Q_EMIT nodeChosen(name);
    });
    m_summary->setText(summaryText());
}

void FleetPanel::runNow()
{
    if (m_key.empty() || !m_fleet->library() || !m_runner->engine())
        return;
    m_fleet->run(m_runner->engine(), m_key, m_request);
}

void FleetPanel::show(const FleetResultPtr& result)
{
    const FleetResultPtr previous = m_model->result();
    m_model->setResult(result, QFileInfo(m_runner->hieraYaml()).absolutePath(), m_runner->revealSecrets());
    // Few groups open, to show who gets what at a glance. A key with a value per node (a hostname, a
    // motd) makes thousands of one-node groups: opening them all laid out tens of thousands of rows on
    // the GUI thread (150 ms on 20,000 nodes) for a list nobody reads opened.
    if (result->groups.size() <= maxGroupsShownOpen)
        m_view->expandToDepth(0);
    m_view->resizeColumnToContents(FleetModel::WhatColumn);
    m_export->setEnabled(true);
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
    QString text = tr("%1 on %2 nodes: %3 distinct answers, %4 found, %5 not found, %6 errors")
                       .arg(ValueConvert::toQString(r->key))
                       .arg(r->nodes.size())
                       .arg(r->groups.size())
                       .arg(r->count(hiera::LookupResult::Status::Found))
                       .arg(r->count(hiera::LookupResult::Status::NotFound))
                       .arg(r->count(hiera::LookupResult::Status::Error));
    if (r->cancelled)
        text += tr(" (cancelled after %1 of %2 nodes)").arg(r->nodes.size()).arg(r->total);
    return text;
}

QList<ReportExport::Format> FleetPanel::exportFormats() const
{
    const FleetResultPtr r = m_model->result();
    if (!r)
        return {};
    const bool reveal = m_runner->revealSecrets();
    return { { tr("CSV"), QStringLiteral("csv"), [r, reveal] { return hiera::fleetCsv(*r, reveal); } },
        { tr("JSON"), QStringLiteral("json"), [r, reveal] { return hiera::fleetJson(*r, reveal); } },
        { tr("Markdown"), QStringLiteral("md"), [r, reveal] { return hiera::fleetMarkdown(*r, reveal); } } };
}

bool FleetPanel::exportTo(const QString& path, QString* error) const
{
    return ReportExport::save(path, exportFormats(), error);
}

void FleetPanel::chooseExport()
{
    ReportExport::chooseAndSave(this, tr("Export the key across the nodes"), exportFormats(), m_summary);
}
