#include <hiera/value.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace hiera {

namespace {
const Array& emptyArray()
{
    static const Array a;
    return a;
}
const Hash& emptyHash()
{
    static const Hash h;
    return h;
}
} // namespace

Value::Value(Array a) : m_data(std::make_shared<Array>(std::move(a)))
{
}
Value::Value(Hash h) : m_data(std::make_shared<Hash>(std::move(h)))
{
}

const Array& Value::asArray() const
{
    const auto& p = std::get<std::shared_ptr<Array>>(m_data);
    return p ? *p : emptyArray();
}

const Hash& Value::asHash() const
{
    const auto& p = std::get<std::shared_ptr<Hash>>(m_data);
    return p ? *p : emptyHash();
}

Array& Value::mutableArray()
{
    auto& p = std::get<std::shared_ptr<Array>>(m_data);
    if (!p)
        p = std::make_shared<Array>();
    else if (p.use_count() > 1)
        p = std::make_shared<Array>(*p);
    return *p;
}

Hash& Value::mutableHash()
{
    auto& p = std::get<std::shared_ptr<Hash>>(m_data);
    if (!p)
        p = std::make_shared<Hash>();
    else if (p.use_count() > 1)
        p = std::make_shared<Hash>(*p);
    return *p;
}

bool Value::operator==(const Value& other) const
{
    if (type() != other.type())
        return false;
    switch (type()) {
    case Type::Null:
        return true;
    case Type::Boolean:
        return asBoolean() == other.asBoolean();
    case Type::Integer:
        return asInteger() == other.asInteger();
    case Type::Float: {
        const double a = asFloat(), b = other.asFloat();
        return a == b || (std::isnan(a) && std::isnan(b));
    }
    case Type::String:
        return asString() == other.asString();
    case Type::Array: {
        const auto& pa = std::get<std::shared_ptr<Array>>(m_data);
        const auto& pb = std::get<std::shared_ptr<Array>>(other.m_data);
        return pa == pb || asArray() == other.asArray();
    }
    case Type::Hash: {
        const auto& pa = std::get<std::shared_ptr<Hash>>(m_data);
        const auto& pb = std::get<std::shared_ptr<Hash>>(other.m_data);
        return pa == pb || asHash() == other.asHash();
    }
    }
    return false;
}

std::size_t Value::nodeCount() const
{
    std::size_t n = 1;
    if (isArray())
        for (const auto& v : asArray())
            n += v.nodeCount();
    else if (isHash())
        for (const auto& e : asHash())
            n += e.value.nodeCount();
    return n;
}

const char* Value::typeName(Type t)
{
    switch (t) {
    case Type::Null:
        return "Undef";
    case Type::Boolean:
        return "Boolean";
    case Type::Integer:
        return "Integer";
    case Type::Float:
        return "Float";
    case Type::String:
        return "String";
    case Type::Array:
        return "Array";
    case Type::Hash:
        return "Hash";
    }
    return "?";
}

// ---- Hash -------------------------------------------------------------------------------------------

namespace {
constexpr std::size_t kIndexThreshold = 12;

// The splitmix64 finaliser: every input bit reaches every output bit. The probe uses the low bits for
// the slot and the high half as the tag, so a hash that passes bits through (std::hash of an integer
// is the identity) put keys differing only above bit 32 in one slot: 40,000 of them took 1.6 s.
std::uint64_t mix(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// std::hash of a string (libstdc++: a Murmur-style hash with a fixed seed) is the same in every
// process, so strings whose hashes share the low bits that pick a slot can be found offline by brute
// force and written into a data or facts file. Mixing in a per-process random seed makes the slot
// unpredictable. (Strings whose whole 64-bit hashes collide would still collide; a keyed hash such as
// SipHash would close that too.) Insertion order, not the hash, decides every output, so the seed
// changes no result.
std::size_t hashString(std::string_view s)
{
    static const std::uint64_t seed = [] {
        std::random_device rd;
        return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    }();
    return mix(std::hash<std::string_view>{}(s) ^ seed);
}

// Consistent with Value::operator==: equal values hash equal. So floats fold -0.0 into 0.0 and every
// NaN into one, arrays hash their elements in order, and hashes combine their entries with a sum, which
// ignores order as Hash::operator== does. Collections used to hash to one constant, which made 40,000
// array keys take 9 s. Hashing a collection is linear in its expanded size, as comparing it is; the
// loaders' node limit counts keys too, so a document cannot make this unbounded.
std::size_t hashKey(const Value& key)
{
    switch (key.type()) {
    case Value::Type::String:
        // PreparedKey and indexOfString use the same function: string keys are found by either path.
        return hashString(key.asString());
    case Value::Type::Integer:
        return mix(static_cast<std::uint64_t>(key.asInteger()) ^ 0x9e3779b97f4a7c15ull);
    case Value::Type::Float: {
        double d = key.asFloat();
        if (d == 0.0)
            d = 0.0;
        else if (std::isnan(d))
            d = std::numeric_limits<double>::quiet_NaN();
        return mix(std::bit_cast<std::uint64_t>(d) ^ 0x7f4a7c159e3779b9ull);
    }
    case Value::Type::Boolean:
        return mix(key.asBoolean() ? 3 : 5);
    case Value::Type::Null:
        return mix(7);
    case Value::Type::Array: {
        const Array& a = key.asArray();
        std::uint64_t h = mix(a.size() ^ 0xa0761d6478bd642full);
        for (const Value& v : a)
            h = mix(h + hashKey(v));
        return h;
    }
    case Value::Type::Hash: {
        const Hash& hash = key.asHash();
        std::uint64_t sum = 0;
        for (const auto& e : hash)
            sum += mix(hashKey(e.key) * 31 + hashKey(e.value));
        return mix(sum ^ (hash.size() * 0xe7037ed1a0b428dbull));
    }
    }
    return 0;
}
} // namespace

Hash::Hash(std::initializer_list<std::pair<std::string, Value>> init)
{
    m_entries.reserve(init.size());
    for (const auto& [k, v] : init)
        set(Value(k), v);
}

Hash::PreparedKey::PreparedKey(std::string_view text) : m_text(text), m_hash(hashString(text))
{
}

namespace {
std::uint32_t tagOf(std::size_t hash)
{
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(hash) >> 32);
}
} // namespace

void Hash::rebuildIndex()
{
    std::size_t cap = 16;
    while (cap < m_entries.size() * 2)
        cap <<= 1;
    m_index.assign(cap, Slot{});
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        indexInsert(i);
}

void Hash::indexInsert(std::size_t entry)
{
    indexInsert(entry, hashKey(m_entries[entry].key));
}

void Hash::indexInsert(std::size_t entry, std::size_t h)
{
    const std::size_t mask = m_index.size() - 1;
    std::size_t slot = h & mask;
    while (m_index[slot].entry != 0)
        slot = (slot + 1) & mask;
    m_index[slot] = {static_cast<std::uint32_t>(entry + 1), tagOf(h)};
}

// Small hashes are scanned in order; larger ones probe the index, where a slot's tag must match
// `hash` before its entry's key is compared.
template <typename Matches>
std::optional<std::size_t> Hash::probe(std::size_t hash, Matches matches) const
{
    if (m_index.empty()) {
        for (std::size_t i = 0; i < m_entries.size(); ++i)
            if (matches(m_entries[i].key))
                return i;
        return std::nullopt;
    }
    const std::size_t mask = m_index.size() - 1;
    const std::uint32_t tag = tagOf(hash);
    for (std::size_t slot = hash & mask; m_index[slot].entry != 0; slot = (slot + 1) & mask) {
        const std::size_t i = m_index[slot].entry - 1;
        if (m_index[slot].tag == tag && matches(m_entries[i].key))
            return i;
    }
    return std::nullopt;
}

std::optional<std::size_t> Hash::indexOf(const Value& key) const
{
    return probe(m_index.empty() ? 0 : hashKey(key), [&](const Value& k) { return k == key; });
}

std::optional<std::size_t> Hash::indexOfString(std::string_view key, std::size_t hash) const
{
    return probe(hash, [&](const Value& k) { return k.isString() && k.asString() == key; });
}

std::optional<std::size_t> Hash::indexOfString(std::string_view key) const
{
    // Small hashes are scanned: no hash to compute.
    return indexOfString(key, m_index.empty() ? 0 : hashString(key));
}

const Value* Hash::find(std::string_view key) const
{
    auto i = indexOfString(key);
    return i ? &m_entries[*i].value : nullptr;
}

const Hash::Entry* Hash::findEntry(std::string_view key) const
{
    auto i = indexOfString(key);
    return i ? &m_entries[*i] : nullptr;
}

const Hash::Entry* Hash::findEntry(const PreparedKey& key) const
{
    auto i = indexOfString(key.text(), key.hash());
    return i ? &m_entries[*i] : nullptr;
}

const Value* Hash::find(const Value& key) const
{
    auto i = key.isString() ? indexOfString(key.asString()) : indexOf(key);
    return i ? &m_entries[*i].value : nullptr;
}

Value* Hash::findMutable(const Value& key)
{
    auto i = key.isString() ? indexOfString(key.asString()) : indexOf(key);
    return i ? &m_entries[*i].value : nullptr;
}

void Hash::set(Value key, Value value)
{
    // The key is hashed once, for the probe and for its slot (parsers build every hash through here).
    const std::size_t hash = m_index.empty() ? 0 : hashKey(key);
    const auto i =
        key.isString() ? indexOfString(key.asString(), hash) : probe(hash, [&](const Value& k) { return k == key; });
    if (i) {
        m_entries[*i].value = std::move(value);
        return;
    }
    m_entries.push_back({std::move(key), std::move(value)});
    if (m_entries.size() < kIndexThreshold)
        return;
    if (!m_index.empty() && m_entries.size() * 2 <= m_index.size())
        indexInsert(m_entries.size() - 1, hash);
    else
        rebuildIndex(); // doubles the table: amortised O(1) a key
}

bool Hash::remove(const Value& key)
{
    auto i = key.isString() ? indexOfString(key.asString()) : indexOf(key);
    if (!i)
        return false;
    m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(*i));
    if (m_entries.size() < kIndexThreshold)
        m_index.clear();
    else
        rebuildIndex(); // positions after *i moved up
    return true;
}

bool Hash::operator==(const Hash& other) const
{
    if (size() != other.size())
        return false;
    // Order-insensitive, like Ruby's Hash#==.
    for (const auto& e : m_entries) {
        const Value* o = other.find(e.key);
        if (!o || !(*o == e.value))
            return false;
    }
    return true;
}

Value makeArray(std::initializer_list<Value> items)
{
    return Value(Array(items));
}

Value makeHash(std::initializer_list<std::pair<std::string, Value>> items)
{
    return Value(Hash(items));
}

bool containsSecret(const Value& v)
{
    if (v.isSecret())
        return true;
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            if (containsSecret(e))
                return true;
    } else if (v.isHash()) {
        for (const auto& e : v.asHash())
            if (containsSecret(e.value) || containsSecret(e.key))
                return true;
    }
    return false;
}

Value redactSecrets(const Value& v, std::string_view replacement)
{
    if (v.isSecret())
        return Value(replacement).withMark(v.mark());
    if (!containsSecret(v))
        return v; // shares the storage: most values have no secret
    Value out = v;
    if (v.isArray()) {
        for (Value& e : out.mutableArray())
            e = redactSecrets(e, replacement);
    } else if (v.isHash()) {
        Hash h;
        std::size_t secretKeys = 0;
        for (const auto& e : v.asHash()) {
            // Secret keys stay distinct ("<sensitive> 2"), so that redacting never merges entries.
            Value key = e.key.isSecret() && secretKeys++ > 0
                ? Value(std::string(replacement) + " " + std::to_string(secretKeys)).withMark(e.key.mark())
                : redactSecrets(e.key, replacement);
            h.set(std::move(key), redactSecrets(e.value, replacement));
        }
        out = Value(std::move(h)).withMark(v.mark());
    }
    return out;
}

} // namespace hiera
