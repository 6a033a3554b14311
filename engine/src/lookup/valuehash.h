#pragma once

// Membership tests in linear time for the merges (docs/performance.md, "Cost that grows with the input"). The unique
// merge, both deep mergers' array union (Ruby's Array#|) and the override chain asked "is an equal element already in
// the array?" by a linear search per element, so merging two 50,000-element arrays took 67 s (unique) and 34 s (deep),
// where Ruby's uniq and | hash the elements and are linear. Here a structural hash keeps the answer (and the order of
// the result: it is still built by push_back in the same order) and makes each test constant time on average.
//
// valueHash is consistent with Value::operator== (equal values hash equal; marks are ignored): floats
// fold -0.0 into 0.0 and every NaN into one, Integer 1 and Float 1.0 differ by type, arrays hash their
// elements in order, hashes sum their entries, which ignores order as Hash::operator== does. The
// combining steps are public so that the deep_merge gem's port can hash its own nodes exactly as the
// values they convert to (rubyEql is Value::operator== on those values). Strings are hashed with a
// per-process seed, so that strings chosen offline to collide cannot make the sets quadratic again;
// the seed decides no result.

#include <hiera/value.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

namespace hiera::detail {

// The splitmix64 finaliser: every input bit reaches every output bit.
inline std::uint64_t hashMix(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

inline std::uint64_t stringHash(std::string_view s)
{
    static const std::uint64_t seed = [] {
        std::random_device rd;
        return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    }();
    return hashMix(std::hash<std::string_view>{}(s) ^ seed);
}

// A scalar's hash (not an array or hash).
inline std::uint64_t scalarHash(const Value& v)
{
    switch (v.type()) {
    case Value::Type::String:
        return stringHash(v.asString());
    case Value::Type::Integer:
        return hashMix(static_cast<std::uint64_t>(v.asInteger()) ^ 0x9e3779b97f4a7c15ull);
    case Value::Type::Float: {
        double d = v.asFloat();
        if (d == 0.0)
            d = 0.0;
        else if (std::isnan(d))
            d = std::numeric_limits<double>::quiet_NaN();
        return hashMix(std::bit_cast<std::uint64_t>(d) ^ 0x7f4a7c159e3779b9ull);
    }
    case Value::Type::Boolean:
        return hashMix(v.asBoolean() ? 3 : 5);
    default:
        return hashMix(7);
    }
}

// An array: start, then one step per element in order. A hash: the sum of its entries, then finish.
inline std::uint64_t arrayHashStart(std::size_t size)
{
    return hashMix(size ^ 0xa0761d6478bd642full);
}
inline std::uint64_t arrayHashStep(std::uint64_t h, std::uint64_t element)
{
    return hashMix(h + element);
}
inline std::uint64_t hashEntryHash(std::uint64_t key, std::uint64_t value)
{
    return hashMix(key * 31 + value);
}
inline std::uint64_t hashHashFinish(std::uint64_t sum, std::size_t size)
{
    return hashMix(sum ^ (size * 0xe7037ed1a0b428dbull) ^ 0x2545f4914f6cdd1dull);
}

// Linear in the value's size, as comparing it is.
inline std::uint64_t valueHash(const Value& v)
{
    if (v.isArray()) {
        std::uint64_t h = arrayHashStart(v.asArray().size());
        for (const Value& e : v.asArray())
            h = arrayHashStep(h, valueHash(e));
        return h;
    }
    if (v.isHash()) {
        std::uint64_t sum = 0;
        for (const auto& e : v.asHash())
            sum += hashEntryHash(valueHash(e.key), valueHash(e.value));
        return hashHashFinish(sum, v.asHash().size());
    }
    return scalarHash(v);
}

// "Is an element equal to x in `items` already?" for a vector that only grows by push_back, as the
// merges build their results. Small vectors and the first few tests are searched linearly, as before:
// a merge step that adds one or two elements to a long accumulated array (a lookup folding thousands
// of files) would pay more to hash the array than to scan it. Past that the elements are hashed once
// each, and every later test is a probe. `hash` must be consistent with `equal`.
template <class T, class HashFn, class EqualFn>
class MembershipIndex
{
public:
    MembershipIndex(const std::vector<T>& items, HashFn hash, EqualFn equal)
        : m_items(items)
        , m_hash(std::move(hash))
        , m_equal(std::move(equal))
    {
    }

    bool contains(const T& x) { return find(x).has_value(); }

    // The first position that holds an element equal to x.
    std::optional<std::size_t> find(const T& x)
    {
        if (!m_indexing && (m_items.size() <= kScanSize || m_scans < kScans)) {
            ++m_scans;
            for (std::size_t i = 0; i < m_items.size(); ++i)
                if (m_equal(m_items[i], x))
                    return i;
            return std::nullopt;
        }
        m_indexing = true;
        for (; m_indexed < m_items.size(); ++m_indexed)
            insert(m_hash(m_items[m_indexed]), m_indexed);
        // The whole probe run is looked at: the first position wins whatever the slots' order.
        const std::uint64_t h = m_hash(x);
        const std::size_t mask = m_slots.size() - 1;
        std::optional<std::size_t> first;
        for (std::size_t slot = h & mask; m_slots[slot].position != 0; slot = (slot + 1) & mask) {
            const std::size_t position = m_slots[slot].position - 1;
            if (m_slots[slot].hash == h && (!first || position < *first) && m_equal(m_items[position], x))
                first = position;
        }
        return first;
    }

private:
    static constexpr std::size_t kScanSize = 16;
    static constexpr std::size_t kScans = 8;

    const std::vector<T>& m_items;
    HashFn m_hash;
    EqualFn m_equal;
    std::size_t m_scans = 0;
    bool m_indexing = false;
    std::size_t m_indexed = 0; // items before this position are in m_slots

    // Open addressing with linear probing, at most half full: one allocation, not one per element.
    struct Slot
    {
        std::uint64_t hash = 0;
        std::size_t position = 0; // in items, plus one; 0: empty
    };
    std::vector<Slot> m_slots;

    void insert(std::uint64_t h, std::size_t position)
    {
        if ((m_indexed + 1) * 2 > m_slots.size()) {
            std::vector<Slot> old = std::move(m_slots);
            m_slots.assign(std::max<std::size_t>(64, std::bit_ceil(m_items.size() * 2 + 2)), Slot{});
            for (const Slot& s : old)
                if (s.position != 0)
                    place(s);
        }
        place(Slot{h, position + 1});
    }
    void place(const Slot& s)
    {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t slot = s.hash & mask;
        while (m_slots[slot].position != 0)
            slot = (slot + 1) & mask;
        m_slots[slot] = s;
    }
};

// The membership index of an array of plain values, with Value::operator==.
inline auto valueMembership(const Array& items)
{
    return MembershipIndex(
        items, [](const Value& v) { return valueHash(v); }, [](const Value& a, const Value& b) { return a == b; });
}

} // namespace hiera::detail
