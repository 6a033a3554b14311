#pragma once

// LookupRunner — runs the engine off the GUI thread (hotspot's JobTracker habit).
//
// Every job gets copies of what it needs (a shared_ptr<const Engine>, the scope Value snapshot, the
// request), runs on the runner's own QThreadPool through QtConcurrent::run, and hands its result back
// on the GUI thread through QFuture::then(this, ...). Not the global pool: Qt 6.4's raster engine
// splits large fills over QThreadPool::globalInstance() and the GUI thread waits for them, so an
// engine job holding the global pool's threads (loading a large hierarchy) froze every repaint. Each kind of job has a generation counter: a result
// whose generation is no longer the latest (the user typed on, edited another fact, loaded another
// hierarchy) is dropped, never shown. Jobs of one kind are also coalesced: while one runs, only the
// newest request waits behind it, so fast typing on a large hierarchy does not pile up stale work.

#include "factsautosave.h"
#include "factsfile.h"
#include "snapshots.h"

#include <hiera/value.h>

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <optional>

class LookupRunner : public QObject {
    Q_OBJECT
public:
    explicit LookupRunner(QObject* parent = nullptr);
    ~LookupRunner() override;

    // Loads a hiera.yaml in the background; engineLoaded or loadFailed follows.
    void load(const QString& hieraYaml);
    // Uses an engine loaded elsewhere (tests); drops results of the previous one.
    void setEngine(EnginePtr engine, const QString& hieraYaml = {});
    EnginePtr engine() const { return m_engine; }
    QString hieraYaml() const { return m_hieraYaml; }

    void resolveScope(const hiera::Value& scope);
    void lookup(const hiera::Value& scope, LookupRequest request);

    // Reads a facts file into a scope in the background (FactsFile::read); factsRead or factsReadFailed
    // follows. A later call supersedes one still running: only the newest read is announced, whatever
    // order they finish in. The GUI thread never parses a facts file.
    void readFacts(const QString& path);
    // True from readFacts() until its result is announced (not while only superseded reads still run).
    bool isReadingFacts() const { return m_readingFacts; }
    // Reads the autosave of a hierarchy in the background; autosaveRead follows, with the entry if it
    // holds edits newer than its facts file (FactsAutosave::isNewerThanLastSave), else null.
    void readAutosave(const QString& hieraYaml);
    bool isReadingAutosave() const { return m_readingAutosave; }

    bool isBusy() const
    {
        return m_loading || m_scopeRunning || m_lookupRunning || m_factsJobs > 0 || m_autosaveJobs > 0;
    }
    // Drops a result the GUI thread no longer needs on a worker: freeing the key inventory and trace
    // of a large hierarchy (a hundred thousand strings) took the GUI thread tens of ms.
    void releaseLater(std::shared_ptr<const void> data);

    // How many finished results were dropped as stale (for tests and the curious).
    int droppedResults() const { return m_dropped; }
    quint64 lookupGeneration() const { return m_lookupGeneration; }

    // The options hierarchies are loaded with: files are also re-checked on disk every second, a safety
    // net under the QFileSystemWatcher that normally drives Engine::invalidate().
    static hiera::EngineOptions engineOptions();

Q_SIGNALS:
    void engineLoaded(const QString& hieraYaml, EnginePtr engine);
    void loadFailed(const QString& hieraYaml, const QString& message);
    void scopeResolved(ScopeSnapshotPtr snapshot);
    void lookupFinished(LookupOutcomePtr outcome);
    // `facts` is the runner's: a slot may take its scope and tree (the runner frees what is left on a worker).
    void factsRead(const QString& path, const std::shared_ptr<FactsFile::Scope>& facts);
    void factsReadFailed(const QString& path, const QString& message);
    void autosaveRead(const QString& hieraYaml, std::shared_ptr<const FactsAutosave::Entry> entry);
    void busyChanged(bool busy);

private:
    struct PendingScope {
        hiera::Value scope;
        quint64 generation;
    };
    struct PendingLookup {
        hiera::Value scope;
        LookupRequest request;
        quint64 generation;
    };
    void startScope(PendingScope job);
    void startLookup(PendingLookup job);
    void deliver(std::function<void()> handler);
    // A job has finished: starts the one queued behind it (before the result is announced, so that a
    // slot asking for more work queues behind that one) and counts the result as dropped unless it is
    // `current`. Returns `current`.
    template <typename Job>
    bool finishJob(bool& running, std::optional<Job>& pending, void (LookupRunner::*start)(Job), bool current);
    void updateBusy();

    EnginePtr m_engine;
    QString m_hieraYaml;
    quint64 m_loadGeneration = 0;
    quint64 m_scopeGeneration = 0;
    quint64 m_lookupGeneration = 0;
    bool m_loading = false;
    bool m_scopeRunning = false;
    bool m_lookupRunning = false;
    bool m_wasBusy = false;
    quint64 m_factsGeneration = 0;
    int m_factsJobs = 0; // facts reads still running, superseded ones included
    bool m_readingFacts = false;
    quint64 m_autosaveGeneration = 0;
    int m_autosaveJobs = 0;
    bool m_readingAutosave = false;
    std::optional<PendingScope> m_pendingScope;
    std::optional<PendingLookup> m_pendingLookup;
    int m_dropped = 0;
    QThreadPool m_pool; // last member: destroyed first, it waits for the jobs still running
};
