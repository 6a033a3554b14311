#pragma once

// What the many-node jobs share: running `count` independent items on a few threads (each takes the
// next item; the calling thread works too), stopping early when a cancel flag is set, and the hash mixer
// their structural value hashes are built from.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace hiera::detail {

// Calls item(i) for every i < count, on `threads` threads (0: every core), until `cancel` (may be null)
// becomes true; then each thread stops before its next item. Returns when every thread has stopped.
template <typename Item>
void parallelItems(std::size_t count, unsigned threads, const std::atomic<bool>* cancel, Item item)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, count)));
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            if (cancel && cancel->load(std::memory_order_relaxed))
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

// splitmix64's finaliser over a running combination: cheap, and spreads every input bit.
inline std::uint64_t hashMix(std::uint64_t h, std::uint64_t v)
{
    std::uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

} // namespace hiera::detail
