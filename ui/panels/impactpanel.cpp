#include "panels/impactpanel.h"

#include "jobs/fleetrunner.h"
#include "jobs/impactrunner.h"
#include "jobs/lookuprunner.h"
#include "jobs/repositoryoptions.h"
#include "models/fileimpactmodel.h"
#include "models/revisiondiffmodel.h"
#include "models/valueconvert.h"
#include "widgets/treeviews.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace hiera::ui {

using ValueConvert::toQString;

ImpactPanel::ImpactPanel(ImpactRunner* impacts, FleetRunner* fleet, LookupRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_impacts(impacts)
    , m_fleet(fleet)
    , m_runner(runner)
    , m_model(new FileImpactModel(this))
    , m_editModel(new RevisionDiffModel(this))
{
    setObjectName(QStringLiteral("impactPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* pick = new QHBoxLayout;
    m_file = new QLineEdit(this);
    m_file->setObjectName(QStringLiteral("impactFileEdit"));
    m_file->setPlaceholderText(tr("A data file: Impact in the Hierarchy panel or the Source pane, or typed"));
    m_file->setClearButtonEnabled(true);
    auto* fileLabel = new QLabel(tr("Data fi&le:"), this);
    fileLabel->setBuddy(m_file);
    m_choose = new QToolButton(this);
    m_choose->setText(tr("Choose…"));
    m_run = new QPushButton(tr("Show Impact"), this);
    m_run->setObjectName(QStringLiteral("impactRunButton"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop (Escape)"));
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    pick->addWidget(fileLabel);
    pick->addWidget(m_file, 1);
    pick->addWidget(m_choose);
    pick->addWidget(m_run);
    pick->addWidget(m_cancel);
    pick->addWidget(m_progress);
    layout->addLayout(pick);

    // The unsaved edit's impact, shown only while there is one.
    m_editBox = new QWidget(this);
    m_editBox->setObjectName(QStringLiteral("editImpactBox"));
    auto* editLayout = new QVBoxLayout(m_editBox);
    editLayout->setContentsMargins(0, 0, 0, 0);
    m_editSummary = new QLabel(m_editBox);
    m_editSummary->setObjectName(QStringLiteral("editImpactSummary"));
    m_editSummary->setWordWrap(true);
    m_editSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_editSummary->setTextFormat(Qt::PlainText);
    editLayout->addWidget(m_editSummary);
    m_editView = TreeViews::makeTable(m_editBox, QStringLiteral("editImpactView"), m_editModel);
    TreeViews::setColumnWidths(m_editView->horizontalHeader(), {220, 160, 140, 140, 200});
    editLayout->addWidget(m_editView, 1);
    m_editBox->setVisible(false);
    layout->addWidget(m_editBox, 1);
    connect(m_editView, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QStringList nodes = index.data(RevisionDiffModel::NodesRole).toStringList();
        if (!nodes.isEmpty())
            Q_EMIT nodeAnswerRequested(nodes.first(), index.data(RevisionDiffModel::KeyRole).toString());
    });

    auto* status = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("impactSummaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setTextFormat(Qt::PlainText);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export…"));
    m_export->setToolTip(tr("Save the impact as Markdown or JSON (the documents of hiera-lookup --impact)"));
    status->addWidget(m_summary, 1);
    status->addWidget(m_export);
    layout->addLayout(status);

    m_view = TreeViews::makeTable(this, QStringLiteral("impactView"), m_model);
    TreeViews::setColumnWidths(m_view->horizontalHeader(), {320, 80});
    layout->addWidget(m_view, 1);

    connect(m_file, &QLineEdit::returnPressed, this, &ImpactPanel::run);
    connect(m_run, &QPushButton::clicked, this, &ImpactPanel::run);
    connect(m_cancel, &QPushButton::clicked, m_impacts, &ImpactRunner::cancel);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, m_impacts, &ImpactRunner::cancel);
    connect(m_choose, &QToolButton::clicked, this, [this] {
        const QString root = RepositoryOptions::rootOf(m_runner->hieraYaml());
        const QString path = QFileDialog::getOpenFileName(
            this, tr("The data file whose impact to show"), m_file->text().isEmpty() ? root : m_file->text(),
            tr("Data files (*.yaml *.yml *.json *.eyaml);;All files (*)"));
        if (!path.isEmpty())
            showImpactOf(path);
    });
    connect(m_export, &QToolButton::clicked, this, [this] {
        const FileImpactReportPtr r = m_model->report();
        const QString name = r ? QFileInfo(r->file).completeBaseName() + QStringLiteral("-impact") : QString();
        ReportExport::chooseAndSave(this, tr("Export the file's impact"), exportFormats(), m_summary, name);
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QStringList nodes = index.data(FileImpactModel::NodesRole).toStringList();
        if (!nodes.isEmpty())
            Q_EMIT nodeAnswerRequested(nodes.first(), index.data(FileImpactModel::KeyRole).toString());
    });
    connect(m_impacts, &ImpactRunner::impactFinished, this, &ImpactPanel::show);
    connect(m_impacts, &ImpactRunner::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        if (busy)
            m_progress->setRange(0, 0);
        updateButtons();
    });
    connect(m_impacts, &ImpactRunner::progress, this, [this](qulonglong done, qulonglong total) {
        if (total == 0)
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(done * 1000 / total));
        m_progress->setFormat(tr("%1 of %2 nodes").arg(done).arg(total));
    });
    connect(m_fleet, &FleetRunner::libraryLoaded, this, &ImpactPanel::updateButtons);
    connect(m_runner, &LookupRunner::engineLoaded, this, &ImpactPanel::updateButtons);
    m_summary->setText(tr("Which nodes read a data file, and which keys it decides for them: pick a file."));
    updateButtons();
}

QString ImpactPanel::summaryText() const
{
    return m_summary->text();
}

void ImpactPanel::showImpactOf(const QString& path)
{
    m_file->setText(QDir::toNativeSeparators(path));
    run();
}

void ImpactPanel::refresh()
{
    // The file of the impact shown, not whatever has been typed since.
    if (const FileImpactReportPtr r = m_model->report())
        m_impacts->run(m_runner->engine(), m_fleet->library(), r->file, toQString(r->root));
}

void ImpactPanel::run()
{
    QString path = QDir::fromNativeSeparators(m_file->text().trimmed());
    if (path.isEmpty())
        return;
    if (!m_fleet->library()) {
        m_summary->setText(tr("Open a node library in the Nodes panel first: the impact is over its nodes."));
        return;
    }
    if (!m_runner->engine()) {
        m_summary->setText(tr("Open a hierarchy first."));
        return;
    }
    // A path typed from the repository's root, as hiera-lookup --impact takes it.
    const QString root = RepositoryOptions::rootOf(m_runner->hieraYaml());
    if (QFileInfo(path).isRelative())
        path = QDir(root).absoluteFilePath(path);
    m_summary->setText(tr("Reading %1 against every node…").arg(QDir(root).relativeFilePath(path)));
    m_impacts->run(m_runner->engine(), m_fleet->library(), QDir::cleanPath(path), root);
}

void ImpactPanel::show(const FileImpactReportPtr& report)
{
    m_model->setReport(report);
    const hiera::FileImpact& i = report->impact;
    const QString file = QDir(toQString(report->root)).relativeFilePath(report->file);
    // The engine's words, as hiera-lookup --impact writes them.
    QString text =
        tr("%1: %2 (%3 ms).").arg(file, toQString(hiera::fileImpactSummary(i))).arg(qRound(report->elapsedMs));
    if (!i.error.empty())
        text += tr(" It does not parse: %1").arg(toQString(i.error));
    m_summary->setText(text);
    updateButtons();
    Q_EMIT impactShown();
}

void ImpactPanel::updateButtons()
{
    const bool running = m_impacts->isRunning();
    m_run->setEnabled(!running && m_fleet->library() && m_runner->engine());
    m_cancel->setEnabled(running);
    m_export->setEnabled(m_model->report() != nullptr);
}

QList<ReportExport::Format> ImpactPanel::exportFormats() const
{
    const FileImpactReportPtr r = m_model->report();
    if (!r)
        return {};
    hiera::FileImpactExportOptions options;
    options.relativeTo = r->root;
    return {
        {tr("Markdown"), QStringLiteral("md"), [r, options] { return hiera::fileImpactMarkdown(r->impact, options); }},
        {tr("JSON"), QStringLiteral("json"), [r, options] { return hiera::fileImpactJson(r->impact, options); }}};
}

bool ImpactPanel::exportTo(const QString& path, QString* error) const
{
    return ReportExport::save(path, exportFormats(), error);
}

void ImpactPanel::showEditImpact(const RevisionDiffReportPtr& report, const QString& file)
{
    if (!report)
        return;
    m_editModel->setReport(report, m_runner->revealSecrets());
    const hiera::RevisionDiff& diff = report->diff;
    std::set<std::string> nodes, keys;
    for (const hiera::RevisionChange& change : diff.changes) {
        keys.insert(change.key);
        nodes.insert(change.nodes.begin(), change.nodes.end());
    }
    const QString root = RepositoryOptions::rootOf(m_runner->hieraYaml());
    const QString shown =
        !root.isEmpty() && file.startsWith(root + QLatin1Char('/')) ? file.mid(root.size() + 1) : file;
    QString text;
    if (keys.empty())
        text = tr("Unsaved edit of %1: no node's answer changes (%2 ms)").arg(shown).arg(qRound(report->elapsedMs));
    else
        text = tr("Unsaved edit of %1: %2 on %3 change, before -> after (%4 ms)")
                   .arg(shown, keys.size() == 1 ? tr("1 key") : tr("%1 keys").arg(keys.size()),
                        nodes.size() == 1 ? tr("1 node") : tr("%1 nodes").arg(nodes.size()))
                   .arg(qRound(report->elapsedMs));
    m_editSummary->setText(text);
    m_editBox->setVisible(true);
    Q_EMIT editImpactShown();
}

void ImpactPanel::clearEditImpact()
{
    m_editModel->setReport(nullptr, false);
    m_editSummary->clear();
    m_editBox->setVisible(false);
}

QString ImpactPanel::editSummaryText() const
{
    return m_editSummary->text();
}

} // namespace hiera::ui
