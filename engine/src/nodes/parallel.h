#pragma once

// What the many-node jobs share: running `count` independent items on the host's executor (hiera/nodes/executor.h),
// stopping early when asked, and the hash mixer their structural value hashes are built from.

#include <hiera/nodes/executor.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <utility>

namespace hiera::detail {

// Calls item(i) for every i < count on `executor` (null: the calling thread), until `stop` is requested.
template <typename Item>
void parallelItems(std::size_t count, const Executor* executor, std::stop_token stop, Item item)
{
    const Executor::Item call = std::ref(item);
    if (executor)
        executor->forEach(count, call, std::move(stop));
    else
        InlineExecutor().forEach(count, call, std::move(stop));
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
