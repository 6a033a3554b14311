#include "nodes/subtreeinterner.h"
#include "nodes/parallel.h"

#include <array>
#include <bit>
#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_map>
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
    // Sharded so that the loader's threads rarely wait for each other.
    struct Shard
    {
        std::mutex mutex;
        std::unordered_multimap<std::uint64_t, Value> subtrees;
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
        for (auto [it, end] = shard.subtrees.equal_range(hash); it != end; ++it)
            if (it->second.isArray() && sameArray(it->second.asArray(), items))
                return it->second.withMark(mark);
        shard.subtrees.emplace(hash, v);
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
        for (auto [it, end] = shard.subtrees.equal_range(hash); it != end; ++it)
            if (it->second.isHash() && sameEntries(it->second.asHash().entries(), entries.entries()))
                return it->second.withMark(mark);
        shard.subtrees.emplace(hash, v);
        return std::move(v);
    }
    hash = scalarHash(v);
    return std::move(v);
}

} // namespace hiera::detail
