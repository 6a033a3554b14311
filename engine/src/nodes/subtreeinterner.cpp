#include "nodes/subtreeinterner.h"
#include "nodes/parallel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <mutex>
#include <string_view>
#include <vector>

namespace hiera::detail {

namespace {

using detail::hashMix;

std::uint64_t scalarHash(const Value& v)
{
    const auto type = static_cast<std::uint64_t>(v.type());
    switch (v.type()) {
    case Value::Type::Null:
        return hashMix(type, 0);
    case Value::Type::Boolean:
        return hashMix(type, v.asBoolean() ? 1 : 0);
    case Value::Type::Integer:
        return hashMix(type, static_cast<std::uint64_t>(v.asInteger()));
    case Value::Type::Float:
        return hashMix(type, std::bit_cast<std::uint64_t>(v.asFloat()));
    case Value::Type::String:
        return hashMix(type, std::hash<std::string_view>{}(v.asString()));
    case Value::Type::Array:
    case Value::Type::Hash:
        break;
    }
    return 0;
}

// Children are canonical already, so two containers are equal when their scalars are equal (strictly:
// -0.0 is not 0.0, since it prints differently) and their containers are the same storage.
bool sameChild(const Value& a, const Value& b)
{
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case Value::Type::Null:
        return true;
    case Value::Type::Boolean:
        return a.asBoolean() == b.asBoolean();
    case Value::Type::Integer:
        return a.asInteger() == b.asInteger();
    case Value::Type::Float:
        return std::bit_cast<std::uint64_t>(a.asFloat()) == std::bit_cast<std::uint64_t>(b.asFloat());
    case Value::Type::String:
        return a.asString() == b.asString();
    case Value::Type::Array:
        return &a.asArray() == &b.asArray();
    case Value::Type::Hash:
        return &a.asHash() == &b.asHash();
    }
    return false;
}

bool sameArray(const Array& a, const Array& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!sameChild(a[i], b[i]))
            return false;
    return true;
}

bool sameEntries(const std::vector<Hash::Entry>& a, const std::vector<Hash::Entry>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!sameChild(a[i].key, b[i].key) || !sameChild(a[i].value, b[i].value))
            return false;
    return true;
}

} // namespace

struct SubtreeInterner::Table
{
    // Sharded so that the loader's threads rarely wait for each other. Each shard is an open-addressing
    // table over a dense list of the canonical subtrees: a probe reads one slot (the subtree's position
    // and the upper half of its hash) and touches a subtree only when that half matches. A node-based
    // multimap here cost three cache misses a probe, for every container of every node (perf: 8 % of the
    // cold fleet-library run's samples on the large fixture, and its destruction another 1.5 %).
    struct Shard
    {
        std::mutex mutex;
        std::vector<Value> subtrees;
        std::vector<std::uint64_t> hashes;  // of subtrees, for growing the table
        std::vector<std::uint64_t> slots;   // (upper half of the hash << 32) | (position + 1); 0 = empty

        template <typename Same>
        const Value* find(std::uint64_t hash, Same same) const
        {
            if (slots.empty())
                return nullptr;
            const std::size_t mask = slots.size() - 1;
            const std::uint64_t tag = hash >> 32;
            for (std::size_t i = hash & mask; slots[i] != 0; i = (i + 1) & mask)
                if ((slots[i] >> 32) == tag && same(subtrees[(slots[i] & 0xFFFFFFFFu) - 1]))
                    return &subtrees[(slots[i] & 0xFFFFFFFFu) - 1];
            return nullptr;
        }

        void insert(std::uint64_t hash, const Value& v)
        {
            subtrees.push_back(v);
            hashes.push_back(hash);
            if (subtrees.size() * 2 > slots.size()) {
                slots.assign(std::max<std::size_t>(64, slots.size() * 2), 0);
                for (std::size_t k = 0; k < subtrees.size(); ++k)
                    place(hashes[k], k);
            } else {
                place(hash, subtrees.size() - 1);
            }
        }

        void place(std::uint64_t hash, std::size_t position)
        {
            const std::size_t mask = slots.size() - 1;
            std::size_t i = hash & mask;
            while (slots[i] != 0)
                i = (i + 1) & mask;
            slots[i] = ((hash >> 32) << 32) | (position + 1);
        }
    };
    static constexpr std::size_t kShards = 64;
    std::array<Shard, kShards> shards;

    Shard& shardFor(std::uint64_t hash) { return shards[(hash >> 40) % kShards]; }
};

SubtreeInterner::SubtreeInterner() : m_table(std::make_unique<Table>()) { }
SubtreeInterner::~SubtreeInterner() = default;

std::size_t SubtreeInterner::distinctSubtrees() const
{
    std::size_t n = 0;
    for (auto& shard : m_table->shards) {
        std::lock_guard lock(shard.mutex);
        n += shard.subtrees.size();
    }
    return n;
}

Value SubtreeInterner::intern(Value root)
{
    std::uint64_t hash = 0;
    return canonical(std::move(root), hash, true);
}

Value SubtreeInterner::canonical(Value&& v, std::uint64_t& hash, bool isRoot)
{
    // Children are made canonical in place: mutableArray()/mutableHash() take the storage as it is when
    // this is its only owner (a fresh parse), so nothing is copied, no key is hashed into a new index,
    // and only the growth slack is given back. A container equal to one seen before is dropped for it.
    const SourceMark mark = v.mark();
    if (v.isArray()) {
        Array& items = v.mutableArray();
        hash = hashMix(static_cast<std::uint64_t>(Value::Type::Array), items.size());
        for (Value& item : items) {
            std::uint64_t h = 0;
            item = canonical(std::move(item), h, false);
            hash = hashMix(hash, h);
        }
        items.shrink_to_fit();
        if (isRoot)
            return std::move(v);
        auto& shard = m_table->shardFor(hash);
        std::lock_guard lock(shard.mutex);
        if (const Value* seen = shard.find(hash, [&](const Value& c) { return c.isArray() && sameArray(c.asArray(), items); }))
            return seen->withMark(mark);
        shard.insert(hash, v);
        return std::move(v);
    }
    if (v.isHash()) {
        Hash& entries = v.mutableHash();
        hash = hashMix(static_cast<std::uint64_t>(Value::Type::Hash), entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i) {
            std::uint64_t h = 0;
            Value& value = entries.valueAt(i);
            value = canonical(std::move(value), h, false);
            hash = hashMix(hashMix(hash, scalarHash(entries.entries()[i].key)), h);
        }
        entries.shrinkToFit();
        if (isRoot)
            return std::move(v);
        auto& shard = m_table->shardFor(hash);
        std::lock_guard lock(shard.mutex);
        if (const Value* seen = shard.find(hash, [&](const Value& c) {
                return c.isHash() && sameEntries(c.asHash().entries(), entries.entries());
            }))
            return seen->withMark(mark);
        shard.insert(hash, v);
        return std::move(v);
    }
    hash = scalarHash(v);
    return std::move(v);
}

} // namespace hiera::detail
