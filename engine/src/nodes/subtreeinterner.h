#pragma once

// Hash-consing of fact subtrees: most of a fleet's facts are the same from node to node (the os hash,
// processor lists, mount options, the lo interface), and a Value shares its array or hash storage on
// copy, so each distinct subtree needs to be stored only once.

#include <hiera/value.h>

#include <cstdint>
#include <memory>

namespace hiera::detail {

class SubtreeInterner
{
public:
    SubtreeInterner();
    ~SubtreeInterner();
    SubtreeInterner(const SubtreeInterner&) = delete;
    SubtreeInterner& operator=(const SubtreeInterner&) = delete;

    // `root` (moved from: a fresh parse is rewritten in place, not copied) with each array and hash
    // below it replaced by the canonical (first seen) one of equal content, and every container's
    // growth slack given back. Equality here is strict: key order, types and the bits of floats all
    // count; marks do not. Each replaced subtree keeps the mark `root` had at that place; marks inside
    // it are the first node's. `root` itself is not interned (a node's whole facts are rarely anyone
    // else's). Thread-safe.
    Value intern(Value root);

    std::size_t distinctSubtrees() const;

private:
    struct Table;
    Value canonical(Value&& v, std::uint64_t& hash, bool isRoot);
    std::unique_ptr<Table> m_table;
};

} // namespace hiera::detail
