#include "panels/revisiondiffpanel.h"

#include "jobs/lookuprunner.h"
#include "models/revisiondiffmodel.h"
#include "models/valueconvert.h"
#include "panels/revisionanswerdialog.h"
#include "widgets/treeviews.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace hiera::ui {

using ValueConvert::toQString;

namespace {

QString kindText(hiera::RevisionChoice::Kind kind)
{
    switch (kind) {
    case hiera::RevisionChoice::Kind::Head:
        return RevisionDiffPanel::tr("current commit");
    case hiera::RevisionChoice::Kind::Branch:
        return RevisionDiffPanel::tr("branch");
    case hiera::RevisionChoice::Kind::RemoteBranch:
        return RevisionDiffPanel::tr("remote branch");
    case hiera::RevisionChoice::Kind::Tag:
        return RevisionDiffPanel::tr("tag");
    case hiera::RevisionChoice::Kind::Commit:
        return RevisionDiffPanel::tr("commit");
    }
    return {};
}

} // namespace

RevisionDiffPanel::RevisionDiffPanel(RevisionDiffRunner* diffs, FleetRunner* fleet, LookupRunner* runner,
                                     QWidget* parent)
    : QWidget(parent)
    , m_diffs(diffs)
    , m_fleet(fleet)
    , m_runner(runner)
    , m_model(new RevisionDiffModel(this))
{
    setObjectName(QStringLiteral("revisionDiffPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* pick = new QHBoxLayout;
    m_from = new QComboBox(this);
    m_from->setObjectName(QStringLiteral("revisionFromBox"));
    m_from->setEditable(true); // any revision git takes: HEAD~3, a commit id
    m_from->setMinimumContentsLength(24);
    m_to = new QComboBox(this);
    m_to->setObjectName(QStringLiteral("revisionToBox"));
    m_to->setEditable(true);
    m_to->setMinimumContentsLength(24);
    auto* fromLabel = new QLabel(tr("&Base revision:"), this);
    fromLabel->setBuddy(m_from);
    auto* toLabel = new QLabel(tr("Ne&wer side:"), this);
    toLabel->setBuddy(m_to);
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setObjectName(QStringLiteral("revisionCompareButton"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("revisionCancelButton"));
    m_cancel->setToolTip(tr("Stop the comparison (Escape)"));
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    pick->addWidget(fromLabel);
    pick->addWidget(m_from, 1);
    pick->addWidget(toLabel);
    pick->addWidget(m_to, 1);
    pick->addWidget(m_compare);
    pick->addWidget(m_cancel);
    pick->addWidget(m_progress);
    layout->addLayout(pick);

    auto* filter = new QHBoxLayout;
    m_prefix = new QLineEdit(this);
    m_prefix->setObjectName(QStringLiteral("revisionPrefixEdit"));
    m_prefix->setPlaceholderText(tr("Key prefix (profile::)"));
    m_prefix->setClearButtonEnabled(true);
    m_prefix->setMaximumWidth(260);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("revisionSummaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export…"));
    m_export->setToolTip(tr("Save the changes shown as Markdown (a merge-request comment), HTML or JSON"));
    filter->addWidget(m_prefix);
    filter->addWidget(m_summary, 1);
    filter->addWidget(m_export);
    layout->addLayout(filter);

    m_view = TreeViews::makeTable(this, QStringLiteral("revisionDiffView"), m_model);
    TreeViews::setColumnWidths(m_view->horizontalHeader(), {240, 200, 200, 140});
    layout->addWidget(m_view, 1);

    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::activated, this, &RevisionDiffPanel::explainRow);
    connect(m_view, &QTableView::customContextMenuRequested, this, &RevisionDiffPanel::showContextMenu);

    connect(m_compare, &QPushButton::clicked, this, [this] { compare(revisionOf(m_from), revisionOf(m_to)); });
    connect(m_cancel, &QPushButton::clicked, m_diffs, &RevisionDiffRunner::cancel);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, m_diffs, &RevisionDiffRunner::cancel);
    connect(m_prefix, &QLineEdit::textChanged, this, [this](const QString& prefix) {
        m_model->setKeyPrefix(prefix);
        updateSummary();
    });
    connect(m_export, &QToolButton::clicked, this, [this] {
        const RevisionDiffReportPtr r = m_model->report();
        const QString name = r ? r->from + QStringLiteral("-to-") + (r->to.isEmpty() ? tr("working-tree") : r->to)
                               : QStringLiteral("revisions");
        ReportExport::chooseAndSave(this, tr("Export the revision diff"), exportFormats(), m_summary, name);
    });
    connect(m_diffs, &RevisionDiffRunner::revisionsListed, this, &RevisionDiffPanel::listed);
    connect(m_diffs, &RevisionDiffRunner::diffFinished, this, &RevisionDiffPanel::show);
    connect(m_diffs, &RevisionDiffRunner::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        if (busy)
            m_progress->setRange(0, 0);
        updateButtons();
    });
    connect(m_diffs, &RevisionDiffRunner::progress, this, [this](qulonglong done, qulonglong total) {
        if (total == 0)
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(done * 1000 / total));
        m_progress->setFormat(tr("%1 of %2 nodes").arg(done).arg(total));
    });
    connect(m_runner, &LookupRunner::engineLoaded, this, [this] { m_diffs->listRevisions(m_runner->hieraYaml()); });
    connect(m_runner, &LookupRunner::lookupFinished, this,
            [this] { m_model->setRevealSecrets(m_runner->revealSecrets()); });
    connect(m_fleet, &FleetRunner::libraryLoaded, this, &RevisionDiffPanel::updateButtons);
    m_summary->setText(tr("Pick two revisions and Compare: every node of the library (the Nodes panel's) is "
                          "resolved on both."));
    updateButtons();
}

QString RevisionDiffPanel::summaryText() const
{
    return m_summary->text();
}

QString RevisionDiffPanel::revisionOf(const QComboBox* box) const
{
    // A picked entry carries its revision; typed text is taken as it is.
    const int at = box->findText(box->currentText());
    if (at >= 0)
        return box->itemData(at).toString();
    return box->currentText().trimmed();
}

void RevisionDiffPanel::listed(const RevisionListPtr& list)
{
    const QString from = m_from->currentText(), to = m_to->currentText();
    m_from->clear();
    m_to->clear();
    m_to->addItem(tr("Working tree (uncommitted edits included)"), QString());
    if (!list->error.isEmpty()) {
        m_summary->setText(list->error);
    } else {
        for (const hiera::RevisionChoice& c : list->revisions) {
            const QString label = c.kind == hiera::RevisionChoice::Kind::Commit
                ? QStringLiteral("%1 %2").arg(toQString(c.name), toQString(c.summary))
                : QStringLiteral("%1 (%2) %3").arg(toQString(c.name), kindText(c.kind), toQString(c.summary));
            const QString tip =
                tr("%1\n%2, %3\n%4")
                    .arg(toQString(c.commit), toQString(c.author),
                         QLocale().toString(QDateTime::fromSecsSinceEpoch(c.time), QLocale::ShortFormat),
                         toQString(c.summary));
            for (QComboBox* box : {m_from, m_to}) {
                box->addItem(label, toQString(c.name));
                box->setItemData(box->count() - 1, tip, Qt::ToolTipRole);
            }
        }
    }
    // What was picked before stays picked when the list has it.
    if (const int at = m_from->findText(from); !from.isEmpty() && at >= 0)
        m_from->setCurrentIndex(at);
    if (const int at = m_to->findText(to); !to.isEmpty() && at >= 0)
        m_to->setCurrentIndex(at);
    else
        m_to->setCurrentIndex(0);
    updateButtons();
    Q_EMIT revisionsShown();
}

void RevisionDiffPanel::compare(const QString& from, const QString& to)
{
    if (from.isEmpty())
        return;
    if (!m_fleet->library()) {
        m_summary->setText(tr("Open a node library in the Nodes panel first: the diff resolves every node of it."));
        return;
    }
    m_summary->setText(tr("Comparing %1 with %2…").arg(from, to.isEmpty() ? tr("the working tree") : to));
    m_diffs->run(m_runner->hieraYaml(), m_runner->repositoryOptions(), from, to, m_fleet->library());
}

void RevisionDiffPanel::show(const RevisionDiffReportPtr& report)
{
    if (!report->error.isEmpty()) {
        m_summary->setText(report->error);
        Q_EMIT diffShown();
        return;
    }
    m_model->setReport(report, m_runner->revealSecrets());
    updateSummary();
    updateButtons();
    Q_EMIT diffShown();
}

void RevisionDiffPanel::setNodeSelection(const NodeSelection& selection)
{
    // Names, not indices: the diff's nodes are named, and a library read again keeps its names.
    RevisionDiffModel::NodeNames names;
    if (selection.nodes && selection.library) {
        auto set = std::make_shared<std::unordered_set<std::string>>();
        set->reserve(selection.nodes->size());
        for (std::size_t i : *selection.nodes)
            if (i < selection.library->size())
                set->insert(selection.library->nodes()[i].name);
        names = std::move(set);
    }
    m_nodeFilter = names ? selection.filter : QString();
    m_model->setNodeNames(std::move(names));
    updateSummary();
}

void RevisionDiffPanel::updateSummary()
{
    const RevisionDiffReportPtr report = m_model->report();
    if (!report)
        return;
    const hiera::RevisionDiff& d = report->diff;
    std::size_t answers = 0;
    for (const hiera::RevisionChange& c : d.changes)
        answers += c.nodes.size();
    QString text = d.changes.empty() ? tr("No answer changes on any of %n nodes", nullptr, int(d.nodes))
                                     : tr("%n changes (%1 node answers)", nullptr, int(d.changes.size())).arg(answers);
    text += tr(" from %1 to %2; %3 keys recomputed on %4 of %5 nodes: %6")
                .arg(toQString(report->fromName), toQString(report->toName))
                .arg(d.keysRecomputed)
                .arg(d.nodesRecomputed)
                .arg(d.nodes)
                .arg(toQString(d.reason));
    if (d.cancelled)
        text += tr(" (cancelled: the nodes done so far)");
    if (!d.changes.empty() && (m_model->narrowedToNodes() || !m_model->keyPrefix().isEmpty())) {
        const QString by = m_model->narrowedToNodes() && !m_model->keyPrefix().isEmpty()
            ? tr("the Nodes filter %1 and the prefix %2").arg(m_nodeFilter, m_model->keyPrefix())
            : m_model->narrowedToNodes() ? tr("the Nodes filter %1").arg(m_nodeFilter)
                                         : tr("the prefix %1").arg(m_model->keyPrefix());
        text += tr(". Shown: %n changes (%1 node answers), narrowed by %2", nullptr, m_model->rowCount())
                    .arg(m_model->shownAnswers())
                    .arg(by);
    }
    m_summary->setText(text);
}

RevisionAnswerDialog* RevisionDiffPanel::explainRow(const QModelIndex& index)
{
    const RevisionDiffReportPtr report = m_model->report();
    const QString key = index.data(RevisionDiffModel::KeyRole).toString();
    const QStringList nodes = index.data(RevisionDiffModel::NodesRole).toStringList();
    if (!report || key.isEmpty() || nodes.isEmpty())
        return nullptr;
    auto* dialog = new RevisionAnswerDialog(m_diffs, report, m_runner->repositoryOptions(), key, nodes,
                                            m_runner->revealSecrets(), this);
    dialog->show();
    return dialog;
}

void RevisionDiffPanel::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_view->indexAt(position);
    const RevisionDiffReportPtr report = m_model->report();
    if (!index.isValid() || !report)
        return;
    const QString key = index.data(RevisionDiffModel::KeyRole).toString();
    const QStringList nodes = index.data(RevisionDiffModel::NodesRole).toStringList();
    if (nodes.isEmpty())
        return;
    const QString node = fontMetrics().elidedText(nodes.first(), Qt::ElideMiddle, 300);
    QMenu menu(this);
    menu.addAction(tr("Explain %1's answer on both revisions…").arg(node), this, [this, index] { explainRow(index); });
    // The window looks up in the working tree: only that side can be opened there.
    if (report->to.isEmpty())
        menu.addAction(tr("Open %1 and this key in the window (the working tree)").arg(node), this,
                       [this, first = nodes.first(), key] { Q_EMIT nodeAnswerRequested(first, key); });
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

void RevisionDiffPanel::updateButtons()
{
    const bool running = m_diffs->isRunning();
    m_compare->setEnabled(!running && m_from->count() > 0);
    m_cancel->setEnabled(running);
    m_export->setEnabled(m_model->report() != nullptr);
}

QList<ReportExport::Format> RevisionDiffPanel::exportFormats() const
{
    const RevisionDiffReportPtr r = m_model->report();
    if (!r)
        return {};
    hiera::RevisionDiffExportOptions options;
    options.from = r->fromName;
    options.to = r->toName;
    options.revealSecrets = m_runner->revealSecrets();
    options.relativeTo = r->root;
    options.nodeFilter = ValueConvert::toStd(m_nodeFilter);
    // What is shown is what is written: the key prefix narrows it as the command line's --prefix does.
    auto shown = std::make_shared<const hiera::RevisionDiff>(m_model->shownDiff());
    return {
        {tr("Markdown"), QStringLiteral("md"),
         [shown, options] { return hiera::revisionDiffMarkdown(*shown, options); }},
        {tr("HTML"), QStringLiteral("html"), [shown, options] { return hiera::revisionDiffHtml(*shown, options); }},
        {tr("JSON"), QStringLiteral("json"), [shown, options] { return hiera::revisionDiffJson(*shown, options); }}};
}

bool RevisionDiffPanel::exportTo(const QString& path, QString* error) const
{
    return ReportExport::save(path, exportFormats(), error);
}

} // namespace hiera::ui
