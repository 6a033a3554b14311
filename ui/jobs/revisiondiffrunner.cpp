#include "jobs/revisiondiffrunner.h"

#include "jobs/lookuprunner.h"

#include "models/toolname.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/error.h>
#include <hiera/explanationreport.h>
#include <hiera/gitrevisiontree.h>
#include <hiera/lookupkey.h>
#include <hiera/openrepository.h>
#include <hiera/overridechain.h>
#include <hiera/sourcetree.h>

#include <QDateTime>
#include <QElapsedTimer>

namespace hiera::ui {

namespace {

// The revision `name` of the repository at `root` (empty: the working tree).
std::shared_ptr<const hiera::SourceTree> treeOf(const std::string& root, const QString& name)
{
    return name.isEmpty() ? nullptr : hiera::openRevision(root, name.toStdString());
}

// An engine on `tree` (null: the working tree) as the window opens the repository at `root`, saying
// which side's hierarchy cannot be read.
std::shared_ptr<const hiera::Engine> engineOn(const std::string& root, const RepositoryOptions& repository,
                                              const std::shared_ptr<const hiera::SourceTree>& tree,
                                              const std::shared_ptr<hiera::ContentParseCache>& parses,
                                              std::string* environmentRoot = nullptr)
{
    hiera::EngineOptions options = LookupRunner::engineOptions(repository);
    options.contentParses = parses;
    hiera::OpenedRepository opened =
        hiera::openRepository(root, repository.environmentOptions(), std::move(options), tree, /*nameTheTree=*/true);
    if (environmentRoot)
        *environmentRoot = opened.root;
    return opened.engine;
}

// The explanation report of `node`'s answer to `key` on one side, as HTML.
QString explainedOn(const hiera::Engine& engine, const hiera::SourceTree& tree, const hiera::Node& node,
                    const std::string& key, const QString& hieraYaml, bool revealSecrets)
{
    hiera::LookupRequest request;
    request.explain = true;
    const hiera::LookupResult result = engine.lookup(*node.scope, key, request);
    const hiera::OverrideChain chain = hiera::overrideChain(engine, *node.scope, key, {});
    hiera::ExplanationReport report;
    report.engine = &engine;
    report.key = key;
    report.result = &result;
    report.scope = node.scope.get();
    report.overrides = &chain;
    report.hieraYaml = hieraYaml.toStdString();
    report.factsFile = node.sourceFile;
    report.revision = tree.describe();
    report.tool = ToolName::text().toStdString();
    const QDateTime now = QDateTime::currentDateTime();
    report.time = QStringLiteral("%1 (%2)")
                      .arg(now.toOffsetFromUtc(now.offsetFromUtc()).toString(Qt::ISODate), now.timeZoneAbbreviation())
                      .toStdString();
    report.revealSecrets = revealSecrets;
    return QString::fromStdString(hiera::explanationHtml(report));
}

} // namespace

RevisionDiffRunner::RevisionDiffRunner(QObject* parent)
    : QObject(parent)
    , m_lists(*this, JobChannelBase::Policy::Coalesce, [this](RevisionListPtr& list) { Q_EMIT revisionsListed(list); })
    , m_diffs(
          *this, JobChannelBase::Policy::Supersede,
          [this](RevisionDiffReportPtr& report) { Q_EMIT diffFinished(report); }, WorkPool::Lane::Background)
    , m_answers(*this, JobChannelBase::Policy::Coalesce,
                [this](RevisionAnswerPtr& answer) { Q_EMIT answerExplained(answer); })
{
    connect(&m_progress, &JobProgress::progress, this, &RevisionDiffRunner::progress);
}

RevisionDiffRunner::~RevisionDiffRunner()
{
    cancel();
    m_jobs.waitForIdle();
}

void RevisionDiffRunner::listRevisions(const QString& hieraYaml)
{
    m_lists.submit([hieraYaml] {
        auto list = std::make_shared<RevisionList>();
        list->hieraYaml = hieraYaml;
        try {
            list->revisions = hiera::listRevisions(RepositoryOptions::rootOf(hieraYaml).toStdString());
        } catch (const std::exception& e) {
            list->error = QString::fromUtf8(e.what());
        }
        return RevisionListPtr(std::move(list));
    });
}

void RevisionDiffRunner::run(const QString& hieraYaml, const RepositoryOptions& repository, const QString& from,
                             const QString& to, NodeLibraryPtr library, const std::string& prefix)
{
    m_diffs.submit([hieraYaml, repository, from, to, library = std::move(library), prefix,
                    progress = m_progress.start(), executor = &jobPool().executor()] {
        QElapsedTimer timer;
        timer.start();
        auto report = std::make_shared<RevisionDiffReport>();
        report->hieraYaml = hieraYaml;
        report->from = from;
        report->to = to;
        try {
            const std::string root = RepositoryOptions::rootOf(hieraYaml).toStdString();
            const auto fromTree = hiera::openRevision(root, from.toStdString());
            const auto toTree = treeOf(root, to);
            report->fromName = fromTree->describe();
            report->toName = toTree ? toTree->describe() : hiera::SourceTree::workingTree()->describe();
            report->library = library;
            // Both engines as the window opens the repository, each on its tree; a blob both
            // revisions hold is parsed once.
            const auto parses = hiera::makeContentParseCache();
            const auto before = engineOn(root, repository, fromTree, parses, &report->root);
            const auto after = engineOn(root, repository, toTree, parses);
            hiera::RevisionDiffOptions options;
            options.prefix = prefix;
            options.executor = executor;
            options.stop = progress->stop.get_token();
            options.progress = progress->reporter();
            if (library)
                report->diff = hiera::diffRevisions(*before, *after, *library, options);
        } catch (const std::exception& e) {
            report->error = QString::fromUtf8(e.what());
        }
        report->elapsedMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        return RevisionDiffReportPtr(std::move(report));
    });
}

void RevisionDiffRunner::explainAnswer(const RevisionDiffReportPtr& report, const RepositoryOptions& repository,
                                       const QString& node, const QString& key, bool revealSecrets)
{
    if (!report)
        return;
    m_answers.submit([report, repository, node, key, revealSecrets] {
        auto answer = std::make_shared<RevisionAnswer>();
        answer->node = node;
        answer->key = key;
        try {
            const hiera::Node* found = nullptr;
            if (report->library)
                for (const hiera::Node& n : report->library->nodes())
                    if (n.name == node.toStdString())
                        found = &n;
            if (!found) {
                answer->error = RevisionDiffRunner::tr("%1 is no longer in the node library").arg(node);
                return RevisionAnswerPtr(std::move(answer));
            }
            const std::string root = RepositoryOptions::rootOf(report->hieraYaml).toStdString();
            const std::string lookupKey = hiera::LookupKey::forRoot(key.toStdString());
            const auto parses = hiera::makeContentParseCache();
            for (const auto& [name, html] :
                 {std::pair{report->from, &answer->beforeHtml}, {report->to, &answer->afterHtml}}) {
                const auto tree = treeOf(root, name);
                const auto engine = engineOn(root, repository, tree, parses);
                *html = explainedOn(*engine, tree ? *tree : *hiera::SourceTree::workingTree(), *found, lookupKey,
                                    report->hieraYaml, revealSecrets);
            }
        } catch (const std::exception& e) {
            answer->error = QString::fromUtf8(e.what());
        }
        return RevisionAnswerPtr(std::move(answer));
    });
}

void RevisionDiffRunner::cancel()
{
    m_progress.cancel();
}

void RevisionDiffRunner::jobStateChanged()
{
    const bool busy = m_diffs.isBusy();
    if (!busy)
        m_progress.stopPolling();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}

} // namespace hiera::ui
