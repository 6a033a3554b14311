#include "jobs/lookuprunner.h"

#include "facts/puppetdbnode.h"
#include "jobs/memoryrelease.h"
#include "jobs/workpool.h"
#include "models/secretmask.h"

#include <hiera/environment.h>
#include <hiera/gitrevision.h>
#include <hiera/nodescope.h>
#include <hiera/openrepository.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QThread>

#include <algorithm>
#include <exception>
#include <utility>

namespace hiera::ui {

namespace {
double elapsedMs(const QElapsedTimer& timer)
{
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

// The engine as the window holds it: when its last holder lets go (the hierarchy was replaced or
// reloaded; snapshots and answers hold it too), the memory of its parsed files goes back to the
// system instead of staying with the allocator. Engine never hands out shared_from_this(), so this
// holder's count is the engine's.
EnginePtr releasingMemoryWhenFreed(std::shared_ptr<const hiera::Engine> engine)
{
    const hiera::Engine* raw = engine.get();
    return EnginePtr(raw, [owner = std::move(engine)](const hiera::Engine*) mutable {
        owner.reset();
        QCoreApplication* app = QCoreApplication::instance();
        if (app && QThread::currentThread() == app->thread())
            WorkPool::shared().start(WorkPool::Lane::Background, &MemoryRelease::release); // not on the GUI thread
        else
            MemoryRelease::release();
    });
}

// Reading a file that is then refused (too large, not YAML, a special file read up to the limit)
// allocates as much as the limits allow and frees it at once: hand that back after such a job.
bool metUnusableFiles(const ScopeSnapshot& snapshot)
{
    if (!snapshot.error.empty())
        return true;
    for (const hiera::ResolvedLevel& level : snapshot.levels) {
        for (const hiera::ResolvedLocation& location : level.locations) {
            if (location.status == hiera::ResolvedLocation::Status::Failed)
                return true;
        }
    }
    return false;
}
} // namespace

LookupRunner::LookupRunner(QObject* parent)
    : QObject(parent)
    , m_loads(*this, JobChannelBase::Policy::Supersede,
              [this](LoadResult& result) {
                  if (result.engine) {
                      setEngine(result.engine, result.hieraYaml);
                      m_environmentName = result.environmentName;
                      m_discoveryWarnings = result.warnings;
                      m_discoveryNotices = result.notices;
                      m_revisionText.clear();
                      readRevision();
                      Q_EMIT engineLoaded(result.hieraYaml, m_engine);
                  } else {
                      Q_EMIT loadFailed(result.hieraYaml, result.error);
                  }
              })
    , m_scopes(*this, JobChannelBase::Policy::Coalesce,
               [this](ScopeSnapshotPtr& snapshot) { Q_EMIT scopeResolved(snapshot); })
    , m_lookups(*this, JobChannelBase::Policy::Coalesce,
                [this](LookupOutcomePtr& outcome) {
                    releaseLater(std::exchange(m_secretOutcome, outcome->masked ? outcome : nullptr));
                    Q_EMIT lookupFinished(shown(outcome));
                })
    , m_facts(*this, JobChannelBase::Policy::Supersede,
              [this](std::shared_ptr<FactsFile::Contents>& facts) {
                  if (facts->error.isEmpty())
                      Q_EMIT factsRead(facts->path, facts);
                  else
                      Q_EMIT factsReadFailed(facts->path, facts->error);
              })
    , m_autosaves(*this, JobChannelBase::Policy::Supersede,
                  [this](AutosaveResult& result) { Q_EMIT autosaveRead(result.hieraYaml, result.entry); })
    , m_overrides(*this, JobChannelBase::Policy::Coalesce,
                  [this](OverrideChainPtr& result) { Q_EMIT overridesFound(result); })
    , m_revisions(*this, JobChannelBase::Policy::Coalesce, [this](QString& text) {
        m_revisionText = text;
        Q_EMIT revisionRead(text);
    })
{
}

LookupRunner::~LookupRunner() = default;

hiera::EngineOptions LookupRunner::engineOptions()
{
    hiera::EngineOptions options;
    options.revalidateInterval = std::chrono::milliseconds(1000);
    // Show what the rest of the hierarchy answers when one file is broken; the skipped file is named
    // in the answer's warning banner and marked failed in the hierarchy view.
    options.skipBrokenFiles = true;
    return options;
}

hiera::EngineOptions LookupRunner::engineOptions(const RepositoryOptions& repository)
{
    hiera::EngineOptions options = engineOptions();
    options.skipUnsupportedLevels = repository.skipUnsupportedLevels;
    options.eyamlPrivateKey = repository.eyamlPrivateKey.toStdString();
    return options;
}

bool LookupRunner::isBusy() const
{
    return std::any_of(m_channels.begin(), m_channels.end(), [](const JobChannelBase* c) { return c->isBusy(); });
}

void LookupRunner::load(const QString& path, std::optional<RepositoryOptions> options)
{
    if (options)
        m_options = std::move(*options);
    const QString hieraYaml = RepositoryOptions::hieraYamlFor(path);
    // The repository's root when a directory was named (or its hiera.yaml, remembered from a directory,
    // does not exist): discover() accepts a root without a hiera.yaml of its own (module data only) and
    // says so in a warning, where a named file must exist.
    const QString discoverFrom =
        QFileInfo(path).isDir() || !QFileInfo::exists(hieraYaml) ? RepositoryOptions::rootOf(hieraYaml) : hieraYaml;
    m_loads.submit([hieraYaml, discoverFrom, repository = m_options]() -> LoadResult {
        LoadResult result{hieraYaml, {}, {}, repository.environment, {}, {}};
        try {
            hiera::OpenedRepository opened = hiera::openRepository(
                discoverFrom.toStdString(), repository.environmentOptions(), engineOptions(repository));
            result.environmentName = QString::fromStdString(opened.name);
            for (const std::string& warning : opened.warnings)
                result.warnings << QString::fromStdString(warning);
            for (const std::string& notice : opened.notices)
                result.notices << QString::fromStdString(notice);
            result.engine = releasingMemoryWhenFreed(std::move(opened.engine));
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        // Whatever the failed load built is freed by now: nothing of it is kept (the window keeps the
        // previous engine, if any, on purpose), and the allocator gives the pages back.
        if (!result.engine)
            MemoryRelease::release();
        return result;
    });
}

void LookupRunner::readRevision()
{
    if (m_hieraYaml.isEmpty())
        return;
    // git status walks the work tree: never on the GUI thread.
    m_revisions.submit([root = QFileInfo(m_hieraYaml).absolutePath().toStdString()] {
        const std::optional<hiera::GitRevision> revision = hiera::gitRevision(root);
        return revision ? QString::fromStdString(hiera::describe(*revision)) : QString();
    });
}

QString LookupRunner::loadFailureText(const QString& hieraYaml, const QString& error) const
{
    const QString file = QDir::toNativeSeparators(hieraYaml);
    if (!m_engine)
        return tr("Cannot open %1: %2").arg(file, error);
    if (hieraYaml == m_hieraYaml)
        return tr("Cannot reload %1 (still showing the previous version): %2").arg(file, error);
    return tr("Cannot open %1 (still showing %2): %3").arg(file, QDir::toNativeSeparators(m_hieraYaml), error);
}

void LookupRunner::setEngine(EnginePtr engine, const QString& hieraYaml)
{
    m_engine = std::move(engine);
    m_hieraYaml = hieraYaml;
    releaseLater(std::exchange(m_secretOutcome, nullptr));
    // Whatever is in flight was computed against the previous engine.
    m_scopes.invalidate();
    m_lookups.invalidate();
    m_overrides.invalidate();
    jobStateChanged();
}

void LookupRunner::resolveScope(const hiera::Value& scope)
{
    if (!m_engine) {
        m_scopes.invalidate();
        return;
    }
    m_scopes.submit(
        [engine = m_engine, scopeValue = scope, environment = m_environmentName.toStdString()]() -> ScopeSnapshotPtr {
            QElapsedTimer timer;
            timer.start();
            auto snapshot = std::make_shared<ScopeSnapshot>();
            snapshot->engine = engine;
            snapshot->scope = scopeValue;
            snapshot->environment = environment;
            try {
                const hiera::NodeScope scope = hiera::NodeScope::ofTree(scopeValue, environment);
                snapshot->levels = engine->resolveHierarchy(scope);
                snapshot->candidateFiles = engine->candidateFiles(scope);
                snapshot->keys = engine->keyInventory(scope);
                snapshot->keyList.reserve(static_cast<qsizetype>(snapshot->keys.size()));
                for (const std::string& key : snapshot->keys)
                    snapshot->keyList << QString::fromStdString(key);
            } catch (const std::exception& e) {
                snapshot->error = e.what();
            }
            snapshot->elapsedMs = elapsedMs(timer);
            if (metUnusableFiles(*snapshot))
                MemoryRelease::release();
            return snapshot;
        });
}

void LookupRunner::lookup(const hiera::Value& scope, AnswerRequest request)
{
    if (!m_engine) {
        m_lookups.invalidate();
        return;
    }
    m_lookups.submit([engine = m_engine, scopeValue = scope, request = std::move(request),
                      environment = m_environmentName.toStdString()]() -> LookupOutcomePtr {
        QElapsedTimer timer;
        timer.start();
        auto outcome = std::make_shared<LookupOutcome>();
        outcome->engine = engine;
        outcome->request = request;
        outcome->scope = scopeValue;
        const hiera::NodeScope scope = hiera::NodeScope::ofTree(scopeValue, environment);
        hiera::LookupRequest options;
        options.merge = request.merge;
        options.explain = true; // the answer view is built from the trace
        try {
            outcome->result = engine->lookup(scope, request.key, options);
        } catch (const std::exception& e) {
            // lookup() promises not to throw; if it does, the user sees it rather than a dead window.
            outcome->result.status = hiera::LookupResult::Status::Error;
            outcome->result.error = hiera::Error(hiera::ErrorCode::Io, std::string("internal error: ") + e.what());
        }
        if (outcome->result.trace)
            outcome->contributions = hiera::sourceContributions(*outcome->result.trace);
        outcome->elapsedMs = elapsedMs(timer);
        // Made here, not on the GUI thread, whether or not the user reveals secrets now: toggling
        // Reveal Secrets then only swaps which of the two is shown.
        if (SecretMask::containsSecret(outcome->result))
            outcome->masked = SecretMask::masked(*outcome);
        // Skipped files (warnings) or a failed lookup: see metUnusableFiles.
        if (!outcome->result.warnings.empty() || outcome->result.status == hiera::LookupResult::Status::Error)
            MemoryRelease::release();
        return outcome;
    });
}

void LookupRunner::findOverrides(const LookupOutcomePtr& outcome)
{
    if (!outcome || !outcome->engine)
        return;
    m_overrides.submit([outcome, environment = m_environmentName.toStdString()]() -> OverrideChainPtr {
        const hiera::NodeScope scope = hiera::NodeScope::ofTree(outcome->scope, environment);
        return std::make_shared<const hiera::OverrideChain>(
            hiera::overrideChain(*outcome->engine, scope, outcome->request.key, outcome->request.merge));
    });
}

void LookupRunner::setRevealSecrets(bool reveal)
{
    if (reveal == m_revealSecrets)
        return;
    m_revealSecrets = reveal;
    // A lookup on its way is announced the new way anyway; otherwise the answer on screen changes now.
    if (m_secretOutcome && !m_lookups.awaitsResult())
        Q_EMIT lookupFinished(shown(m_secretOutcome));
}

LookupOutcomePtr LookupRunner::shown(const LookupOutcomePtr& outcome) const
{
    return outcome->masked && !m_revealSecrets ? outcome->masked : outcome;
}

void LookupRunner::readFacts(const QString& path, const QString& node)
{
    // Superseded reads are not cancelled (the parser takes no stop token): they finish on a worker and
    // their result is dropped on arrival, never applied.
    m_facts.submit([path, node] {
        return std::make_shared<FactsFile::Contents>(node.isEmpty() ? FactsFile::read(path)
                                                                    : PuppetDBNode::read(path, node));
    });
}

void LookupRunner::readAutosave(const QString& hieraYaml)
{
    m_autosaves.submit([hieraYaml]() -> AutosaveResult {
        auto entry = FactsAutosave::read(hieraYaml);
        if (!entry || !FactsAutosave::isNewerThanLastSave(*entry))
            return {hieraYaml, nullptr};
        return {hieraYaml, std::make_shared<const FactsAutosave::Entry>(std::move(*entry))};
    });
}

void LookupRunner::releaseLater(std::shared_ptr<const void> data)
{
    if (!data || data.use_count() > 1)
        return; // someone else still holds it: nothing is freed here
    jobPool().start(WorkPool::Lane::Interactive, [data = std::move(data)]() mutable { data.reset(); });
}

void LookupRunner::jobStateChanged()
{
    const bool busy = isBusy();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}

} // namespace hiera::ui
