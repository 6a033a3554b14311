#pragma once

// FleetRunner — the explorer's many-node work off the GUI thread: reading a node library
// (hiera::NodeLibrary) and looking one key up across it (hiera::lookupAcross). The node list and the
// fleet panel subscribe to it, as the one-node panels subscribe to the LookupRunner.
//
// Both jobs report progress (polled from the workers' counter a few times a second, so that 20,000
// nodes do not post 20,000 events) and can be cancelled. A fleet run keeps one hiera::Context per node
// (FleetContexts) between keys, so that the second key across 20,000 nodes costs tens of ms.

#include "jobs/jobchannel.h"
#include "models/nodereports.h"
#include "models/snapshots.h"

#include <hiera/nodes/fleet.h>
#include <hiera/nodes/nodelibrary.h>

#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <mutex>
#include <stop_token>

namespace hiera::ui {

class FleetRunner : public QObject, private JobHost
{
    Q_OBJECT
public:
    explicit FleetRunner(QObject* parent = nullptr);
    ~FleetRunner() override;

    // Reads a folder of fact files or a PuppetDB export; libraryLoaded or libraryFailed follows. A
    // later call supersedes one still reading.
    void loadLibrary(const QString& path);
    NodeLibraryPtr library() const { return m_library; }
    QString libraryPath() const { return m_libraryPath; }
    // Reads the library again when `file` is one of its files (a facts file in its folder, or the export
    // it is), so that what a save wrote is what the fleet answers with. False when it is not.
    bool reloadIfHolds(const QString& file);

    // Looks `key` up on every node of the library with `engine` (or only on `nodes`, indices into the
    // library's nodes); fleetFinished follows (cancelled runs too, with what they did). A run waits for
    // the one before; only the newest is announced.
    void run(EnginePtr engine, const std::string& key, const hiera::LookupRequest& request = {},
             std::shared_ptr<const std::vector<std::size_t>> nodes = nullptr);
    // Stops what runs now (a load or a fleet run): it returns soon with what it has.
    void cancel();
    bool isBusy() const { return m_loads.isBusy() || m_runs.isBusy(); }
    // Frees what a view let go of (a library, a result: hundreds of MB on a large fleet) on a worker.
    void release(std::shared_ptr<const void> data) { releaseLater(std::move(data)); }

Q_SIGNALS:
    // Reading `path` begins (libraryLoaded, libraryFailed or libraryCancelled follows).
    void libraryLoading(const QString& path);
    void libraryLoaded(NodeLibraryPtr library);
    void libraryFailed(const QString& path, const QString& message);
    // Reading `path` was cancelled (Cancel): the library before, if any, stays.
    void libraryCancelled(const QString& path);
    void fleetFinished(FleetResultPtr result);
    // What runs, and how far it is: `what` says it in a few words ("Reading facts", "Looking up X").
    void progress(const QString& what, qulonglong done, qulonglong total);
    void busyChanged(bool busy);

private:
    struct LibraryResult
    {
        QString path;
        NodeLibraryPtr library;
        QString error;
        bool cancelled = false;
    };
    // The worker's counters and stop, shared with the GUI thread's poll.
    struct Progress
    {
        std::stop_source stop;
        std::atomic<std::size_t> done{0};
        std::atomic<std::size_t> total{0};
        QString what;
    };

    QObject* jobContext() override { return this; }
    JobTracker& jobTracker() override { return m_jobs; }
    void jobStateChanged() override;
    void jobDropped() override { }
    void track(std::shared_ptr<Progress> progress);
    void poll();

    NodeLibraryPtr m_library;
    QString m_libraryPath;
    // Contexts of the current engine and library, made on a worker by the first run that needs them
    // and reused by the next runs.
    struct ContextsSlot
    {
        explicit ContextsSlot(EnginePtr e) : engine(std::move(e)) { }
        std::shared_ptr<const hiera::FleetContexts> contextsFor(const hiera::NodeLibrary& library);

        const EnginePtr engine;
        std::mutex mutex;
        std::shared_ptr<const hiera::FleetContexts> contexts;
    };
    std::shared_ptr<ContextsSlot> m_contexts;
    std::shared_ptr<Progress> m_progress;
    QTimer m_poll;
    bool m_wasBusy = false;
    JobChannel<LibraryResult> m_loads;
    JobChannel<FleetResultPtr> m_runs;
    JobTracker m_jobs; // last member: destroyed first, it waits for the jobs still running
};

} // namespace hiera::ui
