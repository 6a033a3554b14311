#include "jobs/poolexecutor.h"

#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace {

void runOnPool(QThreadPool* pool, std::size_t count, const hiera::Executor::Item& item, const std::stop_token& stop)
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
    const std::size_t wanted = std::min<std::size_t>(static_cast<std::size_t>(std::max(0, pool->maxThreadCount() - 1)),
                                                     count > 0 ? count - 1 : 0);
    for (std::size_t h = 0; h < wanted; ++h) {
        {
            const std::lock_guard lock(shared->mutex);
            ++shared->running;
        }
        const bool started = pool->tryStart([work, shared] {
            work();
            {
                const std::lock_guard lock(shared->mutex);
                --shared->running;
            }
            shared->finished.notify_all();
        });
        if (!started) {
            const std::lock_guard lock(shared->mutex);
            --shared->running;
            break; // the pool is full: the calling thread does the rest
        }
    }
    work();
    std::unique_lock lock(shared->mutex);
    shared->finished.wait(lock, [&] { return shared->running == 0; });
}

} // namespace

PoolExecutor::PoolExecutor(QThreadPool* pool)
    : Executor(
        [pool](std::size_t count, const Item& item, std::stop_token stop) { runOnPool(pool, count, item, stop); })
{
}
