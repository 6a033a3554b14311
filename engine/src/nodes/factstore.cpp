#include "nodes/factstore.h"
#include "nodes/parallel.h"

#include <hiera/error.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace hiera::detail {

namespace {

// A cell: a tag in the low three bits, its payload above.
enum Tag : std::uint64_t {
    kNull = 0,
    kBool = 1,
    kInt = 2, // a signed integer of up to 61 bits
    kString = 3, // an id in the strings pool
    kArray = 4, // a container id
    kHash = 5, // a container id
    kBoxed = 6, // a container id: a number that does not fit a cell (a Float, a large Integer)
};
constexpr unsigned kTagBits = 3;

FactStore::Cell makeCell(Tag tag, std::uint64_t payload)
{
    return (payload << kTagBits) | tag;
}
Tag tagOf(FactStore::Cell c)
{
    return static_cast<Tag>(c & 7);
}
std::uint64_t payloadOf(FactStore::Cell c)
{
    return c >> kTagBits;
}

// A container is a run of 64-bit words: a header (its kind in the low two bits, its count above), then
//   array: the items' cells;
//   hash:  the values' cells, the keys' ids (32 bits each, two a word), and for a hash of more than
//          kLinearKeys keys the entry positions sorted by key id (32 bits each), for a binary search;
//   boxed number: its 64 bits.
enum Kind : std::uint64_t { kArrayKind = 0, kHashKind = 1, kIntKind = 2, kFloatKind = 3 };
constexpr std::size_t kLinearKeys = 16;
// A key id with this bit names a key that is not a string (YAML's `1:`, `true:`, a hash as a key),
// stored as a cell of its own.
constexpr std::uint32_t kOtherKey = 0x80000000u;

std::uint64_t header(Kind kind, std::size_t count)
{
    return (static_cast<std::uint64_t>(count) << 2) | kind;
}
Kind kindOf(const std::uint64_t* c)
{
    return static_cast<Kind>(c[0] & 3);
}
std::size_t countOf(const std::uint64_t* c)
{
    return static_cast<std::size_t>(c[0] >> 2);
}
std::size_t halfWords(std::size_t n)
{
    return (n + 1) / 2;
}
std::size_t containerWords(const std::uint64_t* c)
{
    const std::size_t n = countOf(c);
    switch (kindOf(c)) {
    case kArrayKind:
        return 1 + n;
    case kHashKind:
        return 1 + n + halfWords(n) + (n > kLinearKeys ? halfWords(n) : 0);
    case kIntKind:
    case kFloatKind:
        return 2;
    }
    return 1;
}

// 32-bit fields packed into words, read and written through bytes (no type punning).
std::uint32_t halfAt(const std::uint64_t* base, std::size_t i)
{
    std::uint32_t v;
    std::memcpy(&v, reinterpret_cast<const char*>(base) + 4 * i, 4);
    return v;
}
void setHalf(std::uint64_t* base, std::size_t i, std::uint32_t v)
{
    std::memcpy(reinterpret_cast<char*>(base) + 4 * i, &v, 4);
}

std::uint64_t hashWords(const std::uint64_t* w, std::size_t n)
{
    std::uint64_t h = n;
    for (std::size_t i = 0; i < n; ++i)
        h = hashMix(h, w[i]);
    return h;
}

[[noreturn]] void tooMany(const char* what)
{
    throw Error(ErrorCode::DataLimit, std::string("too many distinct ") + what + " in the node library", {});
}

// Storage handed out in chunks that never move, so that ids can point into it while more is added.
template <typename T>
class Arena
{
public:
    T* allocate(std::size_t n)
    {
        if (n > kChunk / 4) { // a large item gets its own allocation rather than wasting a chunk's tail
            m_bytes += n * sizeof(T);
            return m_chunks.emplace_back(std::make_unique_for_overwrite<T[]>(n)).get();
        }
        if (m_current == nullptr || m_used + n > kChunk) {
            m_current = m_chunks.emplace_back(std::make_unique_for_overwrite<T[]>(kChunk)).get();
            m_used = 0;
            m_bytes += kChunk * sizeof(T);
        }
        T* p = m_current + m_used;
        m_used += n;
        return p;
    }
    std::size_t bytes() const { return m_bytes + m_chunks.capacity() * sizeof(m_chunks[0]); }

private:
    static constexpr std::size_t kChunk = 64 * 1024;
    std::vector<std::unique_ptr<T[]>> m_chunks;
    T* m_current = nullptr;
    std::size_t m_used = 0;
    std::size_t m_bytes = 0;
};

// Distinct strings, each stored once (a 32-bit length, then its bytes), numbered in order of arrival.
class StringPool
{
public:
    std::uint32_t intern(std::string_view s)
    {
        const std::size_t hash = std::hash<std::string_view>{}(s);
        if (m_indexed)
            if (const std::uint32_t* slot = probe(s, hash); *slot != 0)
                return *slot - 1;
        if (s.size() > UINT32_MAX || m_starts.size() >= kOtherKey - 1)
            tooMany("strings");
        // The index grows first: a failure (out of memory) then leaves no string without its slot.
        if (m_indexed && (m_starts.size() + 1) * 2 > m_slots.size())
            rebuildIndex();
        char* p = m_chars.allocate(4 + s.size());
        const auto length = static_cast<std::uint32_t>(s.size());
        std::memcpy(p, &length, 4);
        std::memcpy(p + 4, s.data(), s.size());
        m_starts.push_back(p);
        const auto id = static_cast<std::uint32_t>(m_starts.size() - 1);
        if (m_indexed)
            *const_cast<std::uint32_t*>(probe(s, hash)) = id + 1;
        return id;
    }

    std::optional<std::uint32_t> find(std::string_view s) const
    {
        if (!m_indexed || m_slots.empty())
            return std::nullopt;
        const std::uint32_t slot = *probe(s, std::hash<std::string_view>{}(s));
        return slot == 0 ? std::nullopt : std::optional<std::uint32_t>(slot - 1);
    }

    std::string_view text(std::uint32_t id) const
    {
        const char* p = m_starts[id];
        std::uint32_t length;
        std::memcpy(&length, p, 4);
        return {p + 4, length};
    }

    void dropIndex()
    {
        m_indexed = false;
        std::vector<std::uint32_t>().swap(m_slots);
    }
    void shrink() { m_starts.shrink_to_fit(); }
    std::size_t bytes() const
    {
        return m_chars.bytes() + m_starts.capacity() * sizeof(const char*) + m_slots.capacity() * sizeof(std::uint32_t);
    }

private:
    // The slot holding `s`, or the empty slot where it would go. Open addressing, linear probing, the
    // table at most half full.
    const std::uint32_t* probe(std::string_view s, std::size_t hash) const
    {
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash & mask;; i = (i + 1) & mask)
            if (m_slots[i] == 0 || text(m_slots[i] - 1) == s)
                return &m_slots[i];
    }
    void rebuildIndex()
    {
        std::vector<std::uint32_t> bigger(std::max<std::size_t>(1024, m_slots.size() * 2), 0);
        m_slots.swap(bigger);
        for (std::size_t id = 0; id < m_starts.size(); ++id) {
            const std::string_view s = text(static_cast<std::uint32_t>(id));
            *const_cast<std::uint32_t*>(probe(s, std::hash<std::string_view>{}(s))) =
                static_cast<std::uint32_t>(id + 1);
        }
    }

    Arena<char> m_chars;
    std::vector<const char*> m_starts;
    std::vector<std::uint32_t> m_slots = std::vector<std::uint32_t>(1024, 0); // id + 1; 0 = empty
    bool m_indexed = true;
};

} // namespace

struct FactStore::Impl
{
    std::mutex mutex; // held while adding
    StringPool keys; // hash keys; its index stays, find() needs it
    StringPool strings; // string values; its index is dropped when building ends
    std::vector<Cell> otherKeys; // by key id without kOtherKey
    std::unordered_map<Cell, std::uint32_t> otherKeyIds; // while building
    Arena<std::uint64_t> words;
    std::vector<const std::uint64_t*> containers;
    std::vector<std::uint32_t> containerSlots = std::vector<std::uint32_t>(1024, 0); // id + 1; 0 = empty
    bool building = true;

    Cell add(const Value& v, std::unordered_map<const void*, Cell>& seen);
    Cell addContainer(Tag tag, const std::vector<std::uint64_t>& content);
    std::uint32_t keyId(const Value& key, std::unordered_map<const void*, Cell>& seen);
    std::uint32_t* containerSlot(const std::uint64_t* content, std::size_t n, std::uint64_t hash);
    void rebuildContainerIndex();

    const std::uint64_t* container(Cell c) const { return containers[payloadOf(c)]; }
    std::optional<Cell> findKey(const std::uint64_t* hash, std::uint32_t key) const;
    std::optional<Cell> findIntegerKey(const std::uint64_t* hash, long long key) const;
    Value decode(Cell c, SourceMark mark, std::unordered_map<Cell, Value>& decoded) const;
};

std::uint32_t FactStore::Impl::keyId(const Value& key, std::unordered_map<const void*, Cell>& seen)
{
    if (key.isString())
        return keys.intern(key.asString());
    const Cell cell = add(key, seen);
    if (building)
        if (auto it = otherKeyIds.find(cell); it != otherKeyIds.end())
            return it->second;
    if (otherKeys.size() >= kOtherKey - 1)
        tooMany("keys");
    otherKeys.push_back(cell);
    const std::uint32_t id = kOtherKey | static_cast<std::uint32_t>(otherKeys.size() - 1);
    if (building)
        otherKeyIds.emplace(cell, id);
    return id;
}

std::uint32_t* FactStore::Impl::containerSlot(const std::uint64_t* content, std::size_t n, std::uint64_t hash)
{
    const std::size_t mask = containerSlots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t slot = containerSlots[i];
        if (slot == 0)
            return &containerSlots[i];
        const std::uint64_t* other = containers[slot - 1];
        if (containerWords(other) == n && std::equal(content, content + n, other))
            return &containerSlots[i];
    }
}

void FactStore::Impl::rebuildContainerIndex()
{
    std::vector<std::uint32_t> bigger(std::max<std::size_t>(1024, containerSlots.size() * 2), 0);
    containerSlots.swap(bigger);
    for (std::size_t id = 0; id < containers.size(); ++id) {
        const std::size_t n = containerWords(containers[id]);
        *containerSlot(containers[id], n, hashWords(containers[id], n)) = static_cast<std::uint32_t>(id + 1);
    }
}

FactStore::Cell FactStore::Impl::addContainer(Tag tag, const std::vector<std::uint64_t>& content)
{
    const std::size_t n = content.size();
    const std::uint64_t hash = hashWords(content.data(), n);
    if (building)
        if (const std::uint32_t* slot = containerSlot(content.data(), n, hash); *slot != 0)
            return makeCell(tag, *slot - 1);
    if (containers.size() >= UINT32_MAX - 1)
        tooMany("arrays and hashes");
    if (building && (containers.size() + 1) * 2 > containerSlots.size())
        rebuildContainerIndex(); // first: a failure then leaves no container without its slot
    std::uint64_t* stored = words.allocate(n);
    std::copy(content.begin(), content.end(), stored);
    containers.push_back(stored);
    const auto id = static_cast<std::uint32_t>(containers.size() - 1);
    if (building)
        *containerSlot(stored, n, hash) = id + 1;
    return makeCell(tag, id);
}

FactStore::Cell FactStore::Impl::add(const Value& v, std::unordered_map<const void*, Cell>& seen)
{
    switch (v.type()) {
    case Value::Type::Null:
        return makeCell(kNull, 0);
    case Value::Type::Boolean:
        return makeCell(kBool, v.asBoolean() ? 1 : 0);
    case Value::Type::Integer: {
        const std::int64_t i = v.asInteger();
        if ((static_cast<std::int64_t>(static_cast<std::uint64_t>(i) << kTagBits) >> kTagBits) == i)
            return makeCell(kInt, static_cast<std::uint64_t>(i) & (~std::uint64_t(0) >> kTagBits));
        return addContainer(kBoxed, {header(kIntKind, 1), static_cast<std::uint64_t>(i)});
    }
    case Value::Type::Float:
        return addContainer(kBoxed, {header(kFloatKind, 1), std::bit_cast<std::uint64_t>(v.asFloat())});
    case Value::Type::String:
        return makeCell(kString, strings.intern(v.asString()));
    case Value::Type::Array:
    case Value::Type::Hash:
        break;
    }
    // A container shared within this document (a YAML alias) is walked once, however often it recurs:
    // an alias bomb stays as cheap as its text.
    const void* storage = v.isArray() ? static_cast<const void*>(&v.asArray()) : static_cast<const void*>(&v.asHash());
    if (auto it = seen.find(storage); it != seen.end())
        return it->second;
    std::vector<std::uint64_t> content;
    Cell cell;
    if (v.isArray()) {
        const Array& items = v.asArray();
        content.reserve(1 + items.size());
        content.push_back(header(kArrayKind, items.size()));
        for (const Value& item : items)
            content.push_back(add(item, seen));
        cell = addContainer(kArray, content);
    } else {
        const Hash& hash = v.asHash();
        const std::size_t n = hash.size();
        const std::size_t keysAt = 1 + n;
        content.assign(1 + n + halfWords(n) + (n > kLinearKeys ? halfWords(n) : 0), 0);
        content[0] = header(kHashKind, n);
        std::size_t i = 0;
        for (const Hash::Entry& e : hash) {
            content[1 + i] = add(e.value, seen);
            setHalf(content.data() + keysAt, i, keyId(e.key, seen));
            ++i;
        }
        if (n > kLinearKeys) {
            std::vector<std::uint32_t> order(n);
            for (std::uint32_t k = 0; k < n; ++k)
                order[k] = k;
            const std::uint64_t* keyIds = content.data() + keysAt;
            std::sort(order.begin(), order.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return halfAt(keyIds, a) < halfAt(keyIds, b); });
            for (std::size_t k = 0; k < n; ++k)
                setHalf(content.data() + keysAt + halfWords(n), k, order[k]);
        }
        cell = addContainer(kHash, content);
    }
    seen.emplace(storage, cell);
    return cell;
}

std::optional<FactStore::Cell> FactStore::Impl::findKey(const std::uint64_t* hash, std::uint32_t key) const
{
    const std::size_t n = countOf(hash);
    const std::uint64_t* keyIds = hash + 1 + n;
    if (n <= kLinearKeys) {
        for (std::size_t i = 0; i < n; ++i)
            if (halfAt(keyIds, i) == key)
                return hash[1 + i];
        return std::nullopt;
    }
    const std::uint64_t* order = keyIds + halfWords(n);
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const std::uint32_t position = halfAt(order, mid);
        const std::uint32_t k = halfAt(keyIds, position);
        if (k == key)
            return hash[1 + position];
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return std::nullopt;
}

std::optional<FactStore::Cell> FactStore::Impl::findIntegerKey(const std::uint64_t* hash, long long key) const
{
    const std::size_t n = countOf(hash);
    const std::uint64_t* keyIds = hash + 1 + n;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t id = halfAt(keyIds, i);
        if ((id & kOtherKey) != 0) {
            const Cell k = otherKeys[id & ~kOtherKey];
            const bool inlined = tagOf(k) == kInt && (static_cast<std::int64_t>(k) >> kTagBits) == key;
            const bool boxed = tagOf(k) == kBoxed && kindOf(container(k)) == kIntKind
                && static_cast<std::int64_t>(container(k)[1]) == key;
            if (inlined || boxed)
                return hash[1 + i];
        }
    }
    return std::nullopt;
}

FactStore::FactStore() : m(std::make_unique<Impl>())
{
}
FactStore::~FactStore() = default;

FactStore::Cell FactStore::add(const Value& v)
{
    std::lock_guard lock(m->mutex);
    std::unordered_map<const void*, Cell> seen;
    return m->add(v, seen);
}

void FactStore::finishBuilding()
{
    std::lock_guard lock(m->mutex);
    m->building = false;
    m->strings.dropIndex();
    m->strings.shrink();
    m->keys.shrink();
    std::vector<std::uint32_t>().swap(m->containerSlots);
    m->containers.shrink_to_fit();
    m->otherKeys.shrink_to_fit();
    std::unordered_map<Cell, std::uint32_t>().swap(m->otherKeyIds);
}

Value::Type FactStore::type(Cell c) const
{
    switch (tagOf(c)) {
    case kNull:
        return Value::Type::Null;
    case kBool:
        return Value::Type::Boolean;
    case kInt:
        return Value::Type::Integer;
    case kString:
        return Value::Type::String;
    case kArray:
        return Value::Type::Array;
    case kHash:
        return Value::Type::Hash;
    case kBoxed:
        return kindOf(m->container(c)) == kIntKind ? Value::Type::Integer : Value::Type::Float;
    }
    return Value::Type::Null;
}

std::optional<FactStore::Cell> FactStore::find(Cell hash, std::string_view key) const
{
    if (tagOf(hash) != kHash)
        return std::nullopt;
    const std::optional<std::uint32_t> id = m->keys.find(key);
    if (!id)
        return std::nullopt; // no hash anywhere in the store has this key
    return m->findKey(m->container(hash), *id);
}

std::optional<FactStore::Cell> FactStore::dig(Cell root, const std::vector<KeySegment>& segments) const
{
    Cell c = root;
    for (const KeySegment& seg : segments) {
        std::optional<Cell> next;
        if (tagOf(c) == kHash) {
            next = find(c, seg.text);
            if (!next && seg.index)
                next = m->findIntegerKey(m->container(c), *seg.index); // YAML integer keys (`1:`)
        } else if (tagOf(c) == kArray) {
            if (!seg.index || seg.quoted)
                return std::nullopt;
            const std::uint64_t* items = m->container(c);
            if (*seg.index < 0 || static_cast<std::size_t>(*seg.index) >= countOf(items))
                return std::nullopt;
            next = items[1 + static_cast<std::size_t>(*seg.index)];
        }
        if (!next)
            return std::nullopt; // a scalar or null in the way: not found, never an error
        c = *next;
    }
    return c;
}

Value FactStore::Impl::decode(Cell c, SourceMark mark, std::unordered_map<Cell, Value>& decoded) const
{
    Value v;
    switch (tagOf(c)) {
    case kNull:
        break;
    case kBool:
        v = Value(payloadOf(c) != 0);
        break;
    case kInt:
        v = Value(static_cast<std::int64_t>(c) >> kTagBits);
        break;
    case kString:
        v = Value(strings.text(static_cast<std::uint32_t>(payloadOf(c))));
        break;
    case kBoxed: {
        const std::uint64_t* box = container(c);
        if (kindOf(box) == kIntKind)
            v = Value(static_cast<std::int64_t>(box[1]));
        else
            v = Value(std::bit_cast<double>(box[1]));
        break;
    }
    case kArray:
    case kHash: {
        // Equal containers are one cell: decoded once, then shared (a Value copy is a reference count).
        if (auto it = decoded.find(c); it != decoded.end())
            return it->second;
        const std::uint64_t* items = container(c);
        const std::size_t n = countOf(items);
        if (tagOf(c) == kArray) {
            Array out;
            out.reserve(n);
            for (std::size_t i = 0; i < n; ++i)
                out.push_back(decode(items[1 + i], mark, decoded));
            v = Value(std::move(out));
        } else {
            Hash out;
            out.reserve(n);
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint32_t id = halfAt(items + 1 + n, i);
                Value key =
                    (id & kOtherKey) != 0 ? decode(otherKeys[id & ~kOtherKey], mark, decoded) : Value(keys.text(id));
                key.setMark(mark);
                out.set(std::move(key), decode(items[1 + i], mark, decoded));
            }
            v = Value(std::move(out));
        }
        v.setMark(mark);
        decoded.emplace(c, v);
        return v;
    }
    }
    v.setMark(mark);
    return v;
}

Value FactStore::value(Cell c, SourceMark mark) const
{
    std::unordered_map<Cell, Value> decoded;
    return m->decode(c, mark, decoded);
}

std::size_t FactStore::bytes() const
{
    return m->keys.bytes() + m->strings.bytes() + m->words.bytes() + m->containers.capacity() * sizeof(void*)
        + m->containerSlots.capacity() * sizeof(std::uint32_t) + m->otherKeys.capacity() * sizeof(Cell);
}

std::size_t FactStore::containers() const
{
    return m->containers.size();
}

} // namespace hiera::detail
