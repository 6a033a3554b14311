#include <hiera/nodes/executor.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace hiera {

namespace {

void runInline(std::size_t count, const Executor::Item& item, const std::stop_token& stop)
{
    for (std::size_t i = 0; i < count && !stop.stop_requested(); ++i)
        item(i);
}

void runOnThreads(unsigned threads, std::size_t count, const Executor::Item& item, const std::stop_token& stop)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, count)));
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            if (stop.stop_requested())
                return;
            item(i);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace

InlineExecutor::InlineExecutor()
    : Executor([](std::size_t count, const Item& item, std::stop_token stop) { runInline(count, item, stop); })
{
}

ThreadExecutor::ThreadExecutor(unsigned threads)
    : Executor([threads](std::size_t count, const Item& item, std::stop_token stop) {
        runOnThreads(threads, count, item, stop);
    })
    , m_threads(threads)
{
}

} // namespace hiera
