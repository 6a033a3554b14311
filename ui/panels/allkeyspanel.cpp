#include "panels/allkeyspanel.h"

#include "jobs/lookuprunner.h"
#include "models/allkeysmodel.h"
#include "models/keywarningsmodel.h"
#include "models/modelroles.h"
#include "models/valueconvert.h"
#include "panels/shownrefresh.h"
#include "widgets/pathdelegate.h"
#include "widgets/reportexport.h"
#include "widgets/treeviews.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace hiera::ui {

AllKeysPanel::AllKeysPanel(NodeReportRunner* reports, LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_reports(reports)
    , m_runner(runner)
    , m_model(new AllKeysModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_refresh(new ShownRefresh(this, [this] { refresh(); }))
{
    setObjectName(QStringLiteral("allKeysPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("allKeysSearch"));
    m_search->setPlaceholderText(tr("Search keys and values"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(320);
    row->addWidget(m_search);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("allKeysSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true); // never pushes Export out of the panel
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_summary, 1);
    m_warningsButton = new QToolButton(this);
    m_warningsButton->setObjectName(QStringLiteral("allKeysWarningsButton"));
    m_warningsButton->setCheckable(true);
    m_warningsButton->setChecked(true);
    m_warningsButton->setAutoRaise(true);
    m_warningsButton->setToolTip(tr("Show or hide the list of warnings: the key, where, and what"));
    m_warningsButton->hide();
    row->addWidget(m_warningsButton);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save this node's resolved data, every key whatever the search shows, as YAML or JSON, "
                            "or the table as CSV"));
    m_export->setEnabled(false);
    row->addWidget(m_export);
    layout->addLayout(row);

    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(AllKeysModel::SearchRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_view = TreeViews::makeTable(this, QStringLiteral("allKeysView"), m_proxy);
    PathDelegate::install(m_view, {AllKeysModel::FileColumn});
    m_view->setSortingEnabled(true);
    // The report comes sorted by key: the proxy keeps that order until a header is clicked (sorting
    // thousands of keys again on the GUI thread, fetching both cells per comparison, cost ~50 ms).
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    TreeViews::setColumnWidths(m_view->horizontalHeader(), {260, 300, 140, 260});
    layout->addWidget(m_view, 1);
    // The warnings where they can be read and followed: key, file:line, what (a click shows the place,
    // a double click looks the key up). A few rows high, under the table; a tooltip was too little.
    m_warningsModel = new KeyWarningsModel(this);
    m_warningsView = TreeViews::makeTable(this, QStringLiteral("allKeysWarnings"), m_warningsModel);
    TreeViews::setColumnWidths(m_warningsView->horizontalHeader(), {220, 260});
    m_warningsView->setTextElideMode(Qt::ElideMiddle);
    m_warningsView->setMaximumHeight(m_warningsView->verticalHeader()->defaultSectionSize() * 5
                                     + m_warningsView->horizontalHeader()->sizeHint().height() + 4);
    m_warningsView->hide();
    layout->addWidget(m_warningsView);
    connect(m_warningsButton, &QToolButton::toggled, this,
            [this](bool on) { m_warningsView->setVisible(on && m_warningsModel->rowCount() > 0); });
    connect(m_warningsView, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (!index.data(HieraRoles::SourceFileRole).toString().isEmpty())
            Q_EMIT sourceRequested(index);
    });
    connect(m_warningsView, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (const QString key = index.data(KeyWarningsModel::KeyRole).toString(); !key.isEmpty())
            Q_EMIT keyChosen(key);
    });

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        m_summary->setText(summaryText());
    });
    connect(m_export, &QToolButton::clicked, this, &AllKeysPanel::chooseExport);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == AllKeysModel::FileColumn)
            Q_EMIT sourceRequested(index);
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QString key = index.data(AllKeysModel::KeyRole).toString();
        if (!key.isEmpty())
            Q_EMIT keyChosen(key);
    });
    connect(runner, &LookupRunner::scopeResolved, this, &AllKeysPanel::scopeChanged);
    connect(runner, &LookupRunner::engineLoaded, this, [this] {
        m_model->setReport(nullptr, {}, false);
        showWarnings({});
        m_export->setEnabled(false);
        m_summary->setText(summaryText());
    });
    // Reveal Secrets announces the answer again: the table follows the toggle.
    connect(runner, &LookupRunner::lookupFinished, this,
            [this] { m_model->setRevealSecrets(m_runner->revealSecrets()); });
    connect(reports, &NodeReportRunner::allKeysResolved, this, &AllKeysPanel::show);
    m_summary->setText(summaryText());
}

void AllKeysPanel::scopeChanged(const ScopeSnapshotPtr& snapshot)
{
    m_snapshot = snapshot;
    m_refresh->request();
}

bool AllKeysPanel::isStale() const
{
    return m_refresh->isStale();
}

void AllKeysPanel::refresh()
{
    if (!m_snapshot || !m_snapshot->error.empty())
        return;
    m_reports->resolveAllKeys(m_snapshot->engine, m_snapshot->topScope());
    m_summary->setText(tr("Resolving every key…"));
}

void AllKeysPanel::show(const AllKeysReportPtr& report)
{
    const AllKeysReportPtr previous = m_model->report();
    m_model->setReport(report, QFileInfo(m_runner->hieraYaml()).absolutePath(), m_runner->revealSecrets());
    m_export->setEnabled(true);
    m_summary->setText(summaryText());
    showWarnings(report->data.warnings);
    m_runner->releaseLater(previous);
    Q_EMIT allKeysShown();
}

void AllKeysPanel::showWarnings(std::vector<hiera::NodeWarning> warnings)
{
    const std::size_t count = warnings.size();
    m_warningsModel->setWarnings(std::move(warnings), QFileInfo(m_runner->hieraYaml()).absolutePath());
    m_warningsButton->setText(count == 1 ? tr("1 warning") : tr("%1 warnings").arg(count));
    m_warningsButton->setVisible(count > 0);
    m_warningsView->setVisible(count > 0 && m_warningsButton->isChecked());
}

QString AllKeysPanel::summaryText() const
{
    const AllKeysReportPtr r = m_model->report();
    if (!r)
        return m_runner->engine() ? tr("Every key of this node appears here once the scope is resolved.")
                                  : tr("Open a hierarchy to see every key it defines for this node.");
    const std::size_t total = r->data.keys.size();
    const std::size_t errors = r->data.errorCount();
    QString text = total == 1 ? tr("1 key") : tr("%1 keys").arg(total);
    if (m_proxy->rowCount() != static_cast<int>(total))
        text = tr("%1 of %2 keys match").arg(m_proxy->rowCount()).arg(total);
    if (errors > 0)
        text += tr(", %1 with an error").arg(errors);
    // (The warnings are counted on their own button, beside this.)
    text +=
        r->elapsedMs < 1 ? tr(" (resolved in under 1 ms)") : tr(" (resolved in %1 ms)").arg(r->elapsedMs, 0, 'f', 0);
    return text;
}

QList<ReportExport::Format> AllKeysPanel::exportFormats() const
{
    const AllKeysReportPtr r = m_model->report();
    if (!r)
        return {};
    hiera::NodeExportOptions options;
    options.revealSecrets = m_runner->revealSecrets();
    options.relativeTo = ValueConvert::toStd(QFileInfo(m_runner->hieraYaml()).absolutePath());
    // YAML and JSON are the node's complete data; the CSV is the table, so while a search narrows it,
    // the rows it shows (in the data's order).
    auto table = std::make_shared<hiera::NodeData>();
    QString csvName = tr("CSV");
    if (m_proxy->rowCount() != m_model->rowCount()) {
        std::vector<std::size_t> rows;
        rows.reserve(static_cast<std::size_t>(m_proxy->rowCount()));
        for (int row = 0; row < m_proxy->rowCount(); ++row)
            rows.push_back(static_cast<std::size_t>(m_proxy->mapToSource(m_proxy->index(row, 0)).row()));
        std::sort(rows.begin(), rows.end());
        table->node = r->data.node;
        table->warnings = r->data.warnings;
        table->cancelled = r->data.cancelled;
        for (std::size_t row : rows)
            table->keys.push_back(r->data.keys[row]);
        csvName = tr("CSV, the %1 keys shown").arg(rows.size());
    } else {
        table.reset();
    }
    return {{tr("YAML"), QStringLiteral("yaml"), [r, options] { return hiera::nodeDataYaml(r->data, options); }},
            {tr("JSON"), QStringLiteral("json"), [r, options] { return hiera::nodeDataJson(r->data, options); }},
            {csvName, QStringLiteral("csv"),
             [r, table, options] { return hiera::nodeDataCsv(table ? *table : r->data, options); }}};
}

bool AllKeysPanel::exportTo(const QString& path, QString* error) const
{
    return ReportExport::save(path, exportFormats(), error);
}

void AllKeysPanel::chooseExport()
{
    const AllKeysReportPtr r = m_model->report();
    const QString node = r && !r->data.node.empty() ? ValueConvert::toQString(r->data.node) : tr("current-facts");
    ReportExport::chooseAndSave(this, tr("Export this node's data"), exportFormats(), m_summary,
                                node + QStringLiteral("-all-keys"));
}

} // namespace hiera::ui
