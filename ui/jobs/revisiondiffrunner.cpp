#include "jobs/revisiondiffrunner.h"

#include "jobs/lookuprunner.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/error.h>
#include <hiera/gitrevisiontree.h>
#include <hiera/sourcetree.h>

#include <QElapsedTimer>

RevisionDiffRunner::RevisionDiffRunner(QObject* parent)
    : QObject(parent)
    , m_lists(*this, JobChannelBase::Policy::Coalesce, [this](RevisionListPtr& list) { Q_EMIT revisionsListed(list); })
    , m_diffs(
          *this, JobChannelBase::Policy::Supersede,
          [this](RevisionDiffReportPtr& report) { Q_EMIT diffFinished(report); }, WorkPool::Lane::Background)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_progress)
            Q_EMIT progress(m_progress->done.load(), m_progress->total.load());
    });
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
    cancel();
    m_progress = std::make_shared<Progress>();
    m_diffs.submit([hieraYaml, repository, from, to, library = std::move(library), prefix, progress = m_progress,
                    executor = &jobPool().executor()] {
        QElapsedTimer timer;
        timer.start();
        auto report = std::make_shared<RevisionDiffReport>();
        report->hieraYaml = hieraYaml;
        report->from = from;
        report->to = to;
        try {
            const std::string root = RepositoryOptions::rootOf(hieraYaml).toStdString();
            const auto fromTree = hiera::openRevision(root, from.toStdString());
            const auto toTree = to.isEmpty() ? nullptr : hiera::openRevision(root, to.toStdString());
            report->fromName = fromTree->describe();
            report->toName = toTree ? toTree->describe() : hiera::SourceTree::workingTree()->describe();
            // Both engines as the window opens the repository, each on its tree; a blob both
            // revisions hold is parsed once.
            const auto parses = hiera::makeContentParseCache();
            const auto engineOn = [&](const std::shared_ptr<const hiera::SourceTree>& tree) {
                hiera::EnvironmentOptions environmentOptions = repository.environmentOptions();
                environmentOptions.tree = tree;
                hiera::Environment environment = [&] {
                    try {
                        return hiera::Environment::discover(root, environmentOptions);
                    } catch (const hiera::Error& e) { // which side's hierarchy cannot be read
                        throw hiera::Error(
                            e.code(), (tree ? tree->describe() : std::string("the working tree")) + ": " + e.what());
                    }
                }();
                report->root = environment.root;
                hiera::EngineOptions options = LookupRunner::engineOptions(repository);
                options.tree = tree;
                options.contentParses = parses;
                return hiera::Engine::fromLayers(std::move(environment.layers), options);
            };
            const auto before = engineOn(fromTree);
            const auto after = engineOn(toTree);
            hiera::RevisionDiffOptions options;
            options.prefix = prefix;
            options.executor = executor;
            options.stop = progress->stop.get_token();
            options.progress = [progress](std::size_t done, std::size_t total) {
                progress->total = total;
                progress->done = done;
            };
            if (library)
                report->diff = hiera::diffRevisions(*before, *after, *library, options);
        } catch (const std::exception& e) {
            report->error = QString::fromUtf8(e.what());
        }
        report->elapsedMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        return RevisionDiffReportPtr(std::move(report));
    });
    m_poll.start();
}

void RevisionDiffRunner::cancel()
{
    if (m_progress)
        m_progress->stop.request_stop();
}

void RevisionDiffRunner::jobStateChanged()
{
    const bool busy = m_diffs.isBusy();
    if (!busy)
        m_poll.stop();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}

void RevisionDiffRunner::releaseLater(std::shared_ptr<const void> data)
{
    if (data)
        jobPool().start(WorkPool::Lane::Interactive, [data = std::move(data)]() mutable { data.reset(); });
}
