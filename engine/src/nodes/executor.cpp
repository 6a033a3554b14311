#include <hiera/executor.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace hiera {

void InlineExecutor::forEach(std::size_t count, const std::function<void(std::size_t)>& item,
                             std::stop_token stop) const
{
    for (std::size_t i = 0; i < count && !stop.stop_requested(); ++i)
        item(i);
}

void ThreadExecutor::forEach(std::size_t count, const std::function<void(std::size_t)>& item,
                             std::stop_token stop) const
{
    unsigned threads = m_threads != 0 ? m_threads : std::max(1u, std::thread::hardware_concurrency());
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

} // namespace hiera
