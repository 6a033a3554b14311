#include "panels/nodediffpanel.h"

#include "jobs/lookuprunner.h"
#include "models/nodediffmodel.h"
#include "models/valueconvert.h"
#include "panels/shownrefresh.h"
#include "widgets/pathdelegate.h"
#include "widgets/reportexport.h"
#include "widgets/treeviews.h"

#include <QComboBox>
#include <QCompleter>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStringListModel>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace hiera::ui {

namespace {

// An editable picker: thousands of nodes are found by typing part of a name.
QComboBox* makeNodePicker(QWidget* parent, const QString& objectName)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    box->setMinimumContentsLength(16); // the list shows names whole; the box must not widen the window
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->completer()->setCompletionMode(QCompleter::PopupCompletion);
    box->completer()->setFilterMode(Qt::MatchContains);
    box->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    return box;
}

} // namespace

NodeDiffPanel::NodeDiffPanel(NodeReportRunner* reports, FleetRunner* fleet, LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_reports(reports)
    , m_fleet(fleet)
    , m_runner(runner)
    , m_model(new NodeDiffModel(this))
    , m_names(new QStringListModel(this))
    , m_prefixDelay(new QTimer(this))
    , m_refresh(new ShownRefresh(this, [this] { refresh(); }))
{
    setObjectName(QStringLiteral("nodeDiffPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    m_nodeA = makeNodePicker(this, QStringLiteral("diffNodeA"));
    m_nodeB = makeNodePicker(this, QStringLiteral("diffNodeB"));
    auto* withLabel = new QLabel(tr("against"), this);
    row->addWidget(m_nodeA);
    row->addWidget(withLabel);
    row->addWidget(m_nodeB);
    m_prefix = new QLineEdit(this);
    m_prefix->setObjectName(QStringLiteral("diffPrefix"));
    m_prefix->setPlaceholderText(tr("Key prefix (profile::)"));
    m_prefix->setClearButtonEnabled(true);
    m_prefix->setMaximumWidth(220);
    row->addWidget(m_prefix);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save the differences as Markdown, JSON or CSV"));
    m_export->setEnabled(false);
    row->addStretch(1);
    row->addWidget(m_export);
    layout->addLayout(row);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_view = TreeViews::makeTable(this, QStringLiteral("diffView"), m_model);
    PathDelegate::install(m_view, {NodeDiffModel::FilesAColumn, NodeDiffModel::FilesBColumn});
    TreeViews::setColumnWidths(m_view->horizontalHeader(), {240, 220, 220, 220});
    layout->addWidget(m_view, 1);

    m_names->setStringList({currentFactsName()});
    m_nodeA->setModel(m_names);
    m_nodeB->setModel(m_names);
    m_prefixDelay->setSingleShot(true);
    m_prefixDelay->setInterval(250); // typing a prefix runs one comparison, not one per letter

    for (QComboBox* box : {m_nodeA, m_nodeB}) {
        connect(box, &QComboBox::currentIndexChanged, m_refresh, &ShownRefresh::request);
        // A name typed and confirmed without picking it from the list: the combo would keep the text
        // and compare the previous node; find the node it names, or say that there is none.
        connect(box->lineEdit(), &QLineEdit::editingFinished, this, [this, box] { acceptTypedName(box); });
    }
    connect(m_prefix, &QLineEdit::textChanged, m_prefixDelay, qOverload<>(&QTimer::start));
    connect(m_prefixDelay, &QTimer::timeout, m_refresh, &ShownRefresh::request);
    connect(m_export, &QToolButton::clicked, this, &NodeDiffPanel::chooseExport);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == NodeDiffModel::FilesAColumn || index.column() == NodeDiffModel::FilesBColumn)
            Q_EMIT sourceRequested(index);
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QString key = index.data(NodeDiffModel::KeyRole).toString();
        if (key.isEmpty())
            return;
        const QComboBox* side = index.data(NodeDiffModel::SideRole).toInt() == 1 ? m_nodeB : m_nodeA;
        Q_EMIT nodeAnswerRequested(side->currentText(), key);
    });
    connect(runner, &LookupRunner::scopeResolved, this, [this](const ScopeSnapshotPtr& snapshot) {
        const bool engineChanged = !m_snapshot || m_snapshot->engine != snapshot->engine;
        m_snapshot = snapshot;
        // A library node's answers change only with the hierarchy; the current facts' with every edit.
        if (engineChanged || m_nodeA->currentText() == currentFactsName()
            || m_nodeB->currentText() == currentFactsName())
            m_refresh->request();
    });
    connect(runner, &LookupRunner::lookupFinished, this,
            [this] { m_model->setRevealSecrets(m_runner->revealSecrets()); });
    connect(fleet, &FleetRunner::libraryLoaded, this, &NodeDiffPanel::libraryChanged);
    connect(reports, &NodeReportRunner::nodesCompared, this, &NodeDiffPanel::show);
    m_summary->setText(summaryText());
}

QString NodeDiffPanel::currentFactsName()
{
    return tr("Current facts");
}

QString NodeDiffPanel::currentCertname() const
{
    if (!m_snapshot)
        return {};
    const std::optional<hiera::Value> certname = m_snapshot->topScope()->lookup("trusted.certname");
    return certname && certname->isString() ? ValueConvert::toQString(certname->asString()) : QString();
}

void NodeDiffPanel::libraryChanged(const NodeLibraryPtr& library)
{
    QStringList names{currentFactsName()};
    names.reserve(static_cast<qsizetype>(library->size()) + 1);
    for (const hiera::Node& node : library->nodes())
        names << ValueConvert::toQString(node.name);
    // Keep the sides the user picked when the new library still has them; else current facts against
    // the first node that is not the current one (comparing a node with itself says nothing).
    const QString a = m_nodeA->currentText();
    const QString b = m_nodeB->currentText();
    {
        // One list model behind both pickers: filling each combo item by item took 40 ms per 20,000
        // nodes on the GUI thread.
        const QSignalBlocker blockA(m_nodeA);
        const QSignalBlocker blockB(m_nodeB);
        m_names->setStringList(names);
    }
    const int ia = m_nodeA->findText(a);
    const int ib = m_nodeB->findText(b);
    m_nodeA->setCurrentIndex(ia >= 0 ? ia : 0);
    int other = names.size() > 1 ? 1 : 0;
    if (const QString current = currentCertname(); other == 1 && names.size() > 2 && names[1] == current)
        other = 2;
    m_nodeB->setCurrentIndex(ib > 0 ? ib : other);
    m_refresh->request();
}

void NodeDiffPanel::compare(const QString& a, const QString& b)
{
    const int ia = m_nodeA->findText(a);
    const int ib = m_nodeB->findText(b);
    if (ia >= 0)
        m_nodeA->setCurrentIndex(ia);
    if (ib >= 0)
        m_nodeB->setCurrentIndex(ib);
    m_refresh->request();
}

void NodeDiffPanel::acceptTypedName(QComboBox* box)
{
    const QString typed = box->currentText().trimmed();
    if (box->currentIndex() >= 0 && box->itemText(box->currentIndex()) == typed)
        return;
    int match = box->findText(typed, Qt::MatchFixedString); // whole name, any case
    if (match < 0) {
        // Part of one name only ("web01" for web01.example.com).
        const QModelIndexList hits = m_names->match(m_names->index(0), Qt::DisplayRole, typed, 2, Qt::MatchContains);
        if (hits.size() == 1)
            match = hits.front().row();
        else {
            m_model->setReport(nullptr, {}, false);
            m_export->setEnabled(false);
            m_summary->setText(hits.isEmpty() ? tr("No node of the library is named %1.").arg(typed)
                                              : tr("Several nodes match %1: pick one from the list.").arg(typed));
            return;
        }
    }
    if (match == box->currentIndex())
        box->setEditText(box->itemText(match));
    else
        box->setCurrentIndex(match);
}

NodeSide NodeDiffPanel::side(const QString& name) const
{
    if (name == currentFactsName()) {
        if (!m_snapshot)
            return {name, nullptr};
        // Named with the node the facts are for, so that a report (and its export) says which.
        const QString certname = currentCertname();
        return {certname.isEmpty() ? name : tr("%1 (%2)").arg(name, certname), m_snapshot->topScope()};
    }
    const NodeLibraryPtr library = m_fleet->library();
    const hiera::Node* node = library ? library->find(ValueConvert::toStd(name)) : nullptr;
    return {name, node ? node->scope : nullptr};
}

void NodeDiffPanel::refresh()
{
    const EnginePtr engine = m_runner->engine();
    NodeSide a = side(m_nodeA->currentText());
    NodeSide b = side(m_nodeB->currentText());
    if (!engine || !a.scope || !b.scope || a.name == b.name) {
        m_model->setReport(nullptr, {}, false); // no table that answers another question
        m_export->setEnabled(false);
        m_summary->setText(summaryText());
        return;
    }
    m_reports->compare(engine, std::move(a), std::move(b), ValueConvert::toStd(m_prefix->text().trimmed()));
    m_summary->setText(tr("Comparing %1 with %2…").arg(m_nodeA->currentText(), m_nodeB->currentText()));
}

void NodeDiffPanel::show(const NodeDiffReportPtr& report)
{
    const NodeDiffReportPtr previous = m_model->report();
    m_model->setReport(report, QFileInfo(m_runner->hieraYaml()).absolutePath(), m_runner->revealSecrets());
    m_export->setEnabled(true);
    m_summary->setText(summaryText());
    QStringList details;
    for (const auto& [key, error] : report->diff.failedOnBoth)
        details << tr("%1 fails on both: %2").arg(ValueConvert::toQString(key), ValueConvert::toQString(error));
    for (const std::string& w : report->diff.warnings)
        details << ValueConvert::toQString(w);
    m_summary->setToolTip(details.join(QLatin1Char('\n')));
    m_runner->releaseLater(previous);
    Q_EMIT diffShown();
}

QString NodeDiffPanel::summaryText() const
{
    if (!m_runner->engine())
        return tr("Open a hierarchy to compare nodes.");
    if (!m_fleet->library())
        return tr("Open a node library (Nodes panel) to compare the current facts with its nodes.");
    if (m_nodeA->currentText() == m_nodeB->currentText())
        return tr("Pick two different nodes.");
    const NodeDiffReportPtr r = m_model->report();
    if (!r)
        return tr("Pick two nodes to compare.");
    const hiera::NodeDiff& d = r->diff;
    QString text = tr("%1 against %2: %3 of %4 differ")
                       .arg(r->nameA, r->nameB)
                       .arg(d.keys.size())
                       .arg(d.keysCompared == 1 ? tr("1 key") : tr("%1 keys").arg(d.keysCompared));
    if (!r->prefix.empty())
        text += tr(" (keys starting with %1)").arg(ValueConvert::toQString(r->prefix));
    if (!d.failedOnBoth.empty())
        text += d.failedOnBoth.size() == 1 ? tr("; 1 key fails on both")
                                           : tr("; %1 keys fail on both").arg(d.failedOnBoth.size());
    if (!d.warnings.empty())
        text += d.warnings.size() == 1 ? tr("; 1 warning") : tr("; %1 warnings").arg(d.warnings.size());
    if (d.cancelled)
        text += tr(" (stopped early)");
    text += r->elapsedMs < 1 ? tr(" — under 1 ms") : tr(" — %1 ms").arg(r->elapsedMs, 0, 'f', 0);
    return text;
}

QList<ReportExport::Format> NodeDiffPanel::exportFormats() const
{
    const NodeDiffReportPtr r = m_model->report();
    if (!r)
        return {};
    hiera::DiffExportOptions options;
    options.nameA = ValueConvert::toStd(r->nameA);
    options.nameB = ValueConvert::toStd(r->nameB);
    options.revealSecrets = m_runner->revealSecrets();
    options.relativeTo = ValueConvert::toStd(QFileInfo(m_runner->hieraYaml()).absolutePath());
    return {{tr("Markdown"), QStringLiteral("md"), [r, options] { return hiera::nodeDiffMarkdown(r->diff, options); }},
            {tr("JSON"), QStringLiteral("json"), [r, options] { return hiera::nodeDiffJson(r->diff, options); }},
            {tr("CSV"), QStringLiteral("csv"), [r, options] { return hiera::nodeDiffCsv(r->diff, options); }}};
}

bool NodeDiffPanel::exportTo(const QString& path, QString* error) const
{
    return ReportExport::save(path, exportFormats(), error);
}

void NodeDiffPanel::chooseExport()
{
    const NodeDiffReportPtr r = m_model->report();
    const QString name = r ? r->nameA + QStringLiteral("-vs-") + r->nameB : QStringLiteral("nodes");
    ReportExport::chooseAndSave(this, tr("Export the node comparison"), exportFormats(), m_summary, name);
}

} // namespace hiera::ui
