#include "jobs/workpool.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>
#include <atomic>

namespace hiera::ui {

WorkPool& WorkPool::shared()
{
    static WorkPool pool;
    // The last jobs (freeing a window's results) finish while the application still exists, not during
    // the destruction of statics they may use.
    static const bool waitsAtExit = [] {
        qAddPostRoutine([] { shared().waitForDone(); });
        return true;
    }();
    (void)waitsAtExit;
    return pool;
}

WorkPool::WorkPool(int cores)
    : m_backgroundLimit(cores > 0 ? cores : std::max(1, QThread::idealThreadCount()))
    , m_executor([this](std::size_t count, const hiera::Executor::Item& item, std::stop_token stop) {
        forEach(count, item, stop);
    })
{
    m_pool.setMaxThreadCount(m_backgroundLimit + 2);
    m_pool.setObjectName(QStringLiteral("hiera-work"));
}

WorkPool::~WorkPool()
{
    waitForDone();
}

void WorkPool::waitForDone()
{
    // A background job that ends starts the next waiting one: wait until none runs nor waits.
    for (;;) {
        m_pool.waitForDone();
        const std::lock_guard lock(m_mutex);
        if (m_background == 0 && m_waiting.empty())
            return;
    }
}

int WorkPool::backgroundRunning() const
{
    const std::lock_guard lock(m_mutex);
    return m_background;
}

void WorkPool::start(Lane lane, Task task)
{
    if (lane == Lane::Interactive) {
        m_pool.start(std::move(task), 1); // ahead of anything queued
        return;
    }
    {
        const std::lock_guard lock(m_mutex);
        if (m_background >= m_backgroundLimit) {
            m_waiting.push_back(std::move(task));
            return;
        }
        ++m_background;
    }
    startBackground(std::move(task));
}

void WorkPool::startBackground(Task task)
{
    m_pool.start([this, task = std::move(task)] {
        task();
        Task next;
        {
            const std::lock_guard lock(m_mutex);
            if (m_waiting.empty()) {
                --m_background;
                return;
            }
            next = std::move(m_waiting.front());
            m_waiting.pop_front();
        }
        startBackground(std::move(next)); // the slot passes on
    });
}

bool WorkPool::tryStartBackground(Task task, Task done)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_background >= m_backgroundLimit || !m_waiting.empty())
            return false; // a waiting job comes first
        ++m_background;
    }
    const bool started = m_pool.tryStart([this, task = std::move(task), done = std::move(done)] {
        task();
        // The slot is given back (or passed to a job waiting for one) before `done` says the helper is
        // over, so that whoever waits for it sees the lane as it now is.
        Task next;
        {
            const std::lock_guard lock(m_mutex);
            if (m_waiting.empty()) {
                --m_background;
            } else {
                next = std::move(m_waiting.front());
                m_waiting.pop_front();
            }
        }
        if (next)
            startBackground(std::move(next));
        done();
    });
    if (!started) {
        const std::lock_guard lock(m_mutex);
        --m_background;
    }
    return started;
}

void WorkPool::forEach(std::size_t count, const hiera::Executor::Item& item, const std::stop_token& stop)
{
    struct Shared
    {
        std::atomic<std::size_t> next{0};
        std::mutex mutex;
        std::condition_variable finished;
        int running = 0; // helpers started and not yet done
    };
    const auto shared = std::make_shared<Shared>();
    // `item` and `stop` outlive every helper: forEach returns only once none is running.
    auto work = [&item, &stop, count, shared] {
        for (std::size_t i = shared->next++; i < count; i = shared->next++) {
            if (stop.stop_requested())
                return;
            item(i);
        }
    };
    const std::size_t wanted =
        count > 0 ? std::min<std::size_t>(static_cast<std::size_t>(m_backgroundLimit), count - 1) : 0;
    for (std::size_t h = 0; h < wanted; ++h) {
        {
            const std::lock_guard lock(shared->mutex);
            ++shared->running;
        }
        const bool started = tryStartBackground(work, [shared] {
            {
                const std::lock_guard lock(shared->mutex);
                --shared->running;
            }
            shared->finished.notify_all();
        });
        if (!started) {
            const std::lock_guard lock(shared->mutex);
            --shared->running;
            break; // no free slot: the calling thread does the rest
        }
    }
    work();
    std::unique_lock lock(shared->mutex);
    shared->finished.wait(lock, [&] { return shared->running == 0; });
}

WorkPool::Task JobTracker::track(WorkPool::Task task)
{
    {
        const std::lock_guard lock(m_state->mutex);
        ++m_state->running;
    }
    return [state = m_state, task = std::move(task)] {
        // Counted off even if the task throws (a JobChannel's never does: it hands the exception on).
        struct Done
        {
            State& state;
            ~Done()
            {
                {
                    const std::lock_guard lock(state.mutex);
                    --state.running;
                }
                state.idle.notify_all();
            }
        } done{*state};
        task();
    };
}

void JobTracker::waitForIdle()
{
    std::unique_lock lock(m_state->mutex);
    m_state->idle.wait(lock, [&] { return m_state->running == 0; });
}

} // namespace hiera::ui
