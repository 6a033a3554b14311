#pragma once

// hiera::Executor — where the many-node jobs (NodeLibrary::load, lookupAcross) run their items. The
// host supplies it: the explorer its own thread pool, hiera-lookup and the benchmarks a ThreadExecutor,
// an embedding host whatever it runs work on. Without one a job runs on the calling thread: the engine
// starts no threads of its own.
//
// An executor is a value holding the host's function (not a class to override): the engine calls
// forEach, defined here, and never a function of the host's by name.

#include <cstddef>
#include <functional>
#include <stop_token>
#include <utility>

namespace hiera {

class Executor
{
public:
    using Item = std::function<void(std::size_t)>;
    // Calls item(i) for every i < count, each thread taking the next i, and returns when every call
    // made has returned. Once `stop` is requested no further item starts (the ones running finish).
    // item may be called from several threads at once; the calling thread may be one of them.
    using Run = std::function<void(std::size_t count, const Item& item, std::stop_token stop)>;

    explicit Executor(Run run) : m_run(std::move(run)) { }
    void forEach(std::size_t count, const Item& item, std::stop_token stop) const
    {
        m_run(count, item, std::move(stop));
    }

private:
    Run m_run;
};

// Every item on the calling thread, in order.
class InlineExecutor final : public Executor
{
public:
    InlineExecutor();
};

// The items on `threads` threads (0: one per core) started for each call, the calling thread among
// them: for hosts without a pool of their own.
class ThreadExecutor final : public Executor
{
public:
    explicit ThreadExecutor(unsigned threads = 0);
    unsigned threads() const { return m_threads; }

private:
    unsigned m_threads;
};

} // namespace hiera
