#pragma once

// JobChannel<Result> — one kind of background job of the LookupRunner (hotspot's JobTracker habit,
// made generic): a generation counter, the pool the work runs on, delivery on the GUI thread through
// the event loop, and dropping of stale results. A new kind of job is one member declaration:
//
//     JobChannel<LoadResult> m_loads { *this, JobChannelBase::Policy::Supersede,
//                                      [this](LoadResult& result) { ... announce it ... } };
//     m_loads.submit([file] { return LoadResult { ... }; });   // work: runs on a worker, gets copies
//
// Results whose request is no longer the newest (the user typed on, another file was opened, the
// engine was replaced: invalidate()) are counted as dropped and never announced.

#include <QFuture>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

// What a channel needs of its owner (the LookupRunner).
class JobHost
{
public:
    virtual QObject* jobContext() = 0; // results are delivered on this object's thread
    virtual QThreadPool* jobPool() = 0;
    virtual void jobStateChanged() = 0; // a job started or finished: busy may have changed
    virtual void jobDropped() = 0; // a finished job's result was stale
    virtual void releaseLater(std::shared_ptr<const void> data) = 0; // frees `data` on a worker

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
    JobChannelBase(JobHost& host, Policy policy) : m_host(host), m_policy(policy) { }
    ~JobChannelBase() = default;
    virtual void dropQueued() = 0;

    JobHost& m_host;
    const Policy m_policy;
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

    JobChannel(JobHost& host, Policy policy, Announce announce)
        : JobChannelBase(host, policy)
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
        QtConcurrent::run(m_host.jobPool(), std::move(work))
            .then(m_host.jobContext(), [this, generation](QFuture<Result> future) {
                // then(context) calls this directly when the job was done before then() was attached (a
                // small hierarchy loads that fast): results always come through the event loop
                // instead, so that no signal fires from inside submit() and callers see one order.
                // Taken out of the future, so that the result is freed where finish() says.
                QMetaObject::invokeMethod(
                    m_host.jobContext(),
                    [this, generation, result = future.takeResult()]() mutable { finish(generation, result); },
                    Qt::QueuedConnection);
            });
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
