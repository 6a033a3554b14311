#include "lookuprunner.h"

#include "memoryrelease.h"

#include <hiera/scope.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFuture>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>
#include <utility>

namespace {
struct LoadResult {
    EnginePtr engine;
    QString error;
};

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
            QThreadPool::globalInstance()->start(&MemoryRelease::release); // brief: the global pool will do
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
{
    // A scope resolution and a lookup run side by side, a load or a facts read beside them (a superseded
    // facts read may still be parsing a large file: it must not hold back the answer).
    m_pool.setMaxThreadCount(std::max(3, QThread::idealThreadCount()));
    m_pool.setObjectName(QStringLiteral("hiera-engine"));
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

void LookupRunner::load(const QString& hieraYaml)
{
    const quint64 generation = ++m_loadGeneration;
    m_loading = true;
    updateBusy();
    const std::string file = hieraYaml.toStdString();
    QtConcurrent::run(&m_pool, [file]() -> LoadResult {
        LoadResult result;
        try {
            result.engine = releasingMemoryWhenFreed(hiera::Engine::load(file, engineOptions()));
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        // Whatever the failed load built is freed by now: nothing of it is kept (the window keeps the
        // previous engine, if any, on purpose), and the allocator gives the pages back.
        if (!result.engine)
            MemoryRelease::release();
        return result;
    }).then(this, [this, generation, hieraYaml](const LoadResult& result) {
        deliver([this, generation, hieraYaml, result] {
            if (generation != m_loadGeneration) {
                ++m_dropped;
                return;
            }
            m_loading = false;
            if (result.engine) {
                setEngine(result.engine, hieraYaml);
                Q_EMIT engineLoaded(hieraYaml, m_engine);
            } else {
                Q_EMIT loadFailed(hieraYaml, result.error);
            }
            updateBusy();
        });
    });
}

void LookupRunner::setEngine(EnginePtr engine, const QString& hieraYaml)
{
    m_engine = std::move(engine);
    m_hieraYaml = hieraYaml;
    // Whatever is in flight was computed against the previous engine.
    ++m_scopeGeneration;
    ++m_lookupGeneration;
    m_pendingScope.reset();
    m_pendingLookup.reset();
}

void LookupRunner::resolveScope(const hiera::Value& scope)
{
    const quint64 generation = ++m_scopeGeneration;
    if (!m_engine)
        return;
    PendingScope job { scope, generation };
    if (m_scopeRunning)
        m_pendingScope = std::move(job);
    else
        startScope(std::move(job));
}

template <typename Job>
bool LookupRunner::finishJob(bool& running, std::optional<Job>& pending, void (LookupRunner::*start)(Job), bool current)
{
    running = false;
    if (pending) {
        Job next = std::move(*pending);
        pending.reset();
        (this->*start)(std::move(next));
    }
    if (!current)
        ++m_dropped;
    return current;
}

void LookupRunner::startScope(PendingScope job)
{
    m_scopeRunning = true;
    updateBusy();
    const EnginePtr engine = m_engine;
    const quint64 generation = job.generation;
    QtConcurrent::run(&m_pool, [engine, scopeValue = std::move(job.scope)]() -> ScopeSnapshotPtr {
        QElapsedTimer timer;
        timer.start();
        auto snapshot = std::make_shared<ScopeSnapshot>();
        snapshot->engine = engine;
        try {
            const hiera::MapScope scope(scopeValue);
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
    }).then(this, [this, generation](const ScopeSnapshotPtr& snapshot) {
        deliver([this, generation, snapshot] {
            if (finishJob(m_scopeRunning, m_pendingScope, &LookupRunner::startScope,
                          generation == m_scopeGeneration && snapshot->engine == m_engine))
                Q_EMIT scopeResolved(snapshot);
            updateBusy();
        });
    });
}

void LookupRunner::lookup(const hiera::Value& scope, LookupRequest request)
{
    const quint64 generation = ++m_lookupGeneration;
    if (!m_engine)
        return;
    PendingLookup job { scope, std::move(request), generation };
    if (m_lookupRunning)
        m_pendingLookup = std::move(job);
    else
        startLookup(std::move(job));
}

void LookupRunner::startLookup(PendingLookup job)
{
    m_lookupRunning = true;
    updateBusy();
    const EnginePtr engine = m_engine;
    const quint64 generation = job.generation;
    QtConcurrent::run(&m_pool, [engine, scopeValue = std::move(job.scope),
                          request = std::move(job.request)]() -> LookupOutcomePtr {
        QElapsedTimer timer;
        timer.start();
        auto outcome = std::make_shared<LookupOutcome>();
        outcome->engine = engine;
        outcome->request = request;
        const hiera::MapScope scope(scopeValue);
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
        outcome->elapsedMs = elapsedMs(timer);
        // Skipped files (warnings) or a failed lookup: see metUnusableFiles.
        if (!outcome->result.warnings.empty() || outcome->result.status == hiera::LookupResult::Status::Error)
            MemoryRelease::release();
        return outcome;
    }).then(this, [this, generation](const LookupOutcomePtr& outcome) {
        deliver([this, generation, outcome] {
            if (finishJob(m_lookupRunning, m_pendingLookup, &LookupRunner::startLookup,
                          generation == m_lookupGeneration && outcome->engine == m_engine))
                Q_EMIT lookupFinished(outcome);
            updateBusy();
        });
    });
}

void LookupRunner::readFacts(const QString& path)
{
    const quint64 generation = ++m_factsGeneration;
    ++m_factsJobs;
    m_readingFacts = true;
    updateBusy();
    // Superseded reads are not cancelled (the parser takes no stop token): they finish on a worker and
    // their result is dropped on arrival, never applied.
    QtConcurrent::run(&m_pool, [path] {
        return std::make_shared<FactsFile::Scope>(FactsFile::read(path));
    }).then(this, [this, generation, path](QFuture<std::shared_ptr<FactsFile::Scope>> future) {
        // Taken out of the future, so that the facts are freed where this says (a large scope's tree
        // took the GUI thread tens of ms to free).
        deliver([this, generation, path, result = future.takeResult()]() mutable {
            --m_factsJobs;
            if (generation != m_factsGeneration) {
                ++m_dropped;
            } else {
                m_readingFacts = false;
                if (result->error.isEmpty())
                    Q_EMIT factsRead(path, result);
                else
                    Q_EMIT factsReadFailed(path, result->error);
            }
            releaseLater(std::exchange(result, nullptr)); // the stale facts, or the tree they replaced
            updateBusy();
        });
    });
}

void LookupRunner::readAutosave(const QString& hieraYaml)
{
    const quint64 generation = ++m_autosaveGeneration;
    ++m_autosaveJobs;
    m_readingAutosave = true;
    updateBusy();
    QtConcurrent::run(&m_pool, [hieraYaml]() -> std::shared_ptr<const FactsAutosave::Entry> {
        auto entry = FactsAutosave::read(hieraYaml);
        if (!entry || !FactsAutosave::isNewerThanLastSave(*entry))
            return nullptr;
        return std::make_shared<const FactsAutosave::Entry>(std::move(*entry));
    }).then(this, [this, generation, hieraYaml](const std::shared_ptr<const FactsAutosave::Entry>& entry) {
        deliver([this, generation, hieraYaml, entry] {
            --m_autosaveJobs;
            if (generation != m_autosaveGeneration) {
                ++m_dropped;
            } else {
                m_readingAutosave = false;
                Q_EMIT autosaveRead(hieraYaml, entry);
            }
            updateBusy();
        });
    });
}

void LookupRunner::releaseLater(std::shared_ptr<const void> data)
{
    if (!data || data.use_count() > 1)
        return; // someone else still holds it: nothing is freed here
    m_pool.start([data = std::move(data)]() mutable { data.reset(); });
}

void LookupRunner::deliver(std::function<void()> handler)
{
    // QFuture::then(context, ...) calls its continuation directly when the job is already done by the
    // time then() is attached (a small hierarchy loads that fast). Results always arrive through the
    // event loop instead, so that no signal fires from inside load()/lookup() and callers see one order.
    QMetaObject::invokeMethod(this, std::move(handler), Qt::QueuedConnection);
}

void LookupRunner::updateBusy()
{
    const bool busy = isBusy();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}
