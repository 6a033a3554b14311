#pragma once

// JobChannel<Result> — one kind of background job of a runner (hotspot's JobTracker habit, made
// generic): a generation counter, the lane of the explorer's one pool the work runs on (jobs/workpool.h),
// delivery on the GUI thread through the event loop, and dropping of stale results. A new kind of job is
// one member declaration:
//
//     JobChannel<LoadResult> m_loads { *this, JobChannelBase::Policy::Supersede,
//                                      [this](LoadResult& result) { ... announce it ... } };
//     m_loads.submit([file] { return LoadResult { ... }; });   // work: runs on a worker, gets copies
//
// Results whose request is no longer the newest (the user typed on, another file was opened, the
// engine was replaced: invalidate()) are counted as dropped and never announced.

#include "jobs/workpool.h"

#include <QObject>
#include <QtGlobal>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace hiera::ui {

// What a channel needs of its owner (the LookupRunner).
class JobHost
{
public:
    virtual QObject* jobContext() = 0; // results are delivered on this object's thread
    virtual WorkPool& jobPool() { return WorkPool::shared(); }
    virtual JobTracker& jobTracker() = 0; // the host waits for its jobs when it goes
    virtual void jobStateChanged() = 0; // a job started or finished: busy may have changed
    virtual void jobDropped() = 0; // a finished job's result was stale
    // Frees `data` on a worker (a result of hundreds of MB freed on the GUI thread stalls it).
    virtual void releaseLater(std::shared_ptr<const void> data)
    {
        if (data)
            jobPool().start(WorkPool::Lane::Interactive, [data = std::move(data)]() mutable { data.reset(); });
    }

protected:
    ~JobHost() = default;
};

class JobChannelBase
{
public:
    enum class Policy {
        // One job at a time; while it runs only the newest request waits behind it (typing fast on a
        // large hierarchy does not pile up stale lookups).
        Coalesce,
        // Every request starts at once (a superseded facts read may still be parsing a large file: the
        // next must not wait for it); only the newest result is announced.
        Supersede,
    };

    // A job runs or waits to run.
    bool isBusy() const { return m_running > 0 || m_hasQueued; }
    // The newest request has not been announced yet (superseded jobs still running do not count).
    bool awaitsResult() const { return m_awaiting; }
    quint64 generation() const { return m_generation; }
    // Whatever runs or waits now will not be announced (the engine it ran against was replaced).
    void invalidate()
    {
        ++m_generation;
        m_awaiting = false;
        dropQueued();
    }

protected:
    JobChannelBase(JobHost& host, Policy policy, WorkPool::Lane lane) : m_host(host), m_policy(policy), m_lane(lane) { }
    ~JobChannelBase() = default;
    virtual void dropQueued() = 0;

    JobHost& m_host;
    const Policy m_policy;
    const WorkPool::Lane m_lane;
    quint64 m_generation = 0;
    int m_running = 0;
    bool m_hasQueued = false;
    bool m_awaiting = false;
};

template <typename Result>
class JobChannel final : public JobChannelBase
{
public:
    using Work = std::function<Result()>;
    using Announce = std::function<void(Result&)>;

    JobChannel(JobHost& host, Policy policy, Announce announce, WorkPool::Lane lane = WorkPool::Lane::Interactive)
        : JobChannelBase(host, policy, lane)
        , m_announce(std::move(announce))
    {
    }

    // Runs `work` on a worker; it must hold copies of everything it reads.
    void submit(Work work)
    {
        const quint64 generation = ++m_generation;
        m_awaiting = true;
        if (m_policy == Policy::Coalesce && m_running > 0) {
            m_queued = Queued{std::move(work), generation};
            m_hasQueued = true;
            return;
        }
        start(std::move(work), generation);
    }

private:
    struct Queued
    {
        Work work;
        quint64 generation;
    };

    void dropQueued() override
    {
        m_queued.reset();
        m_hasQueued = false;
    }

    void start(Work work, quint64 generation)
    {
        ++m_running;
        m_host.jobStateChanged();
        // The result is posted to the host from the worker. That is safe because the host waits for
        // its jobs before it goes (JobTracker), and a posted event to an object deleted later is
        // discarded. (Not a QFuture continuation: Qt 6.4's QPromise frees a context continuation that is
        // still queued when the promise goes, and the GUI thread then ran freed memory.)
        QObject* context = m_host.jobContext();
        m_host.jobPool().start(m_lane, m_host.jobTracker().track([this, context, generation, work = std::move(work)] {
            std::optional<Result> result;
            try {
                result.emplace(work());
            } catch (const std::exception& e) {
                qWarning("A background job failed: %s", e.what());
            } catch (...) {
                qWarning("A background job failed");
            }
            // Always through the event loop, so that no signal fires from inside submit() and callers
            // see one order.
            QMetaObject::invokeMethod(
                context,
                [this, generation, result = std::move(result)]() mutable {
                    if (result)
                        finish(generation, *result);
                    else
                        abandon();
                },
                Qt::QueuedConnection);
        }));
    }

    // A job threw: nothing to announce (the newest request stays unanswered until the next).
    void abandon()
    {
        --m_running;
        m_host.jobDropped();
        m_host.jobStateChanged();
    }

    void finish(quint64 generation, Result& result)
    {
        --m_running;
        // The job queued behind this one starts before the result is announced, so that a slot asking
        // for more work queues behind it.
        if (m_queued) {
            Queued next = std::move(*m_queued);
            dropQueued();
            start(std::move(next.work), next.generation);
        }
        if (generation == m_generation && m_awaiting) {
            m_awaiting = false;
            m_announce(result);
        } else {
            m_host.jobDropped();
        }
        // A large result (a facts tree, a trace) took the GUI thread tens of ms to free: what nobody
        // kept goes to a worker.
        if constexpr (std::is_convertible_v<Result, std::shared_ptr<const void>>)
            m_host.releaseLater(std::exchange(result, nullptr));
        m_host.jobStateChanged();
    }

    Announce m_announce;
    std::optional<Queued> m_queued;
};

} // namespace hiera::ui
