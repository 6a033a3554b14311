#pragma once

// WorkPool — the explorer's one thread pool: every runner's jobs, the engine's many-node work
// (through executor()) and the freeing of large results run here (docs/architecture.md, "The engine
// starts no threads"). Not Qt's global pool: the raster engine uses that one for large fills and the
// GUI thread waits for them.
//
// Two lanes, so that one pool serves both without a long job starving a short one:
//   Interactive  what the user waits for while typing (a load, a scope, a lookup, a facts read, a file
//                scan): started at once, ahead of anything queued.
//   Background   long work over many nodes (reading a node library, a fleet run, all keys, a node
//                comparison) and its helpers: at most backgroundLimit() at a time (one per core), so
//                that at least two threads are always left for interactive jobs.
//
// JobTracker counts one owner's jobs so that the owner can wait for them when it goes (a runner's
// jobs hold copies of what they read, but finish by posting to their runner).

#include <hiera/nodes/executor.h>

#include <QThreadPool>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace hiera::ui {

class WorkPool
{
public:
    enum class Lane { Interactive, Background };
    using Task = std::function<void()>;

    // The process's pool: made on first use, waited for at exit (or by waitForDone()).
    static WorkPool& shared();

    // `cores`: how many background jobs may run at once (0: one per core). The pool has two threads
    // more, for the interactive lane.
    explicit WorkPool(int cores = 0);
    ~WorkPool();
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;

    void start(Lane lane, Task task);
    // The engine's many-node work: the calling thread works, and helpers start as background jobs
    // only while a background slot is free at that moment, so a busy pool means fewer helpers, never
    // a job waiting for a helper that cannot start.
    const hiera::Executor& executor() const { return m_executor; }

    int backgroundLimit() const { return m_backgroundLimit; }
    int threadCount() const { return m_pool.maxThreadCount(); }
    // Background jobs running now (waiting ones not counted); for tests.
    int backgroundRunning() const;
    void waitForDone();

private:
    void startBackground(Task task); // a slot is taken: runs it, then the next waiting one
    // `task` in a background slot free now (false: none); `done` runs once the slot is given back.
    bool tryStartBackground(Task task, Task done);
    void forEach(std::size_t count, const hiera::Executor::Item& item, const std::stop_token& stop);

    QThreadPool m_pool;
    const int m_backgroundLimit;
    mutable std::mutex m_mutex;
    int m_background = 0; // background jobs running
    std::deque<Task> m_waiting; // background jobs waiting for a slot
    hiera::Executor m_executor;
};

class JobTracker
{
public:
    JobTracker() = default;
    ~JobTracker() { waitForIdle(); }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // `task` counted until it returns.
    WorkPool::Task track(WorkPool::Task task);
    void waitForIdle();

private:
    struct State
    {
        std::mutex mutex;
        std::condition_variable idle;
        int running = 0;
    };
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

} // namespace hiera::ui
