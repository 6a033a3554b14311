#pragma once

// hiera::Value — the data model shared by the data files, the scope and the results.
//
// Mirrors what Puppet's lookup can return: undef (null), Boolean, Integer (64-bit here), Float, String,
// Array and Hash. Hashes keep insertion order, as Ruby's do, because Puppet's merge results and
// explain output depend on it. Arrays and hashes are shared, immutable-by-default storage with
// copy-on-write, so copying a Value (returning a found value, caching a parsed file, building a trace)
// costs a reference count, never a deep copy.
//
// Every Value carries a SourceMark: where it was written (file id, 1-based line and column). The mark
// travels with the value through interpolation and merging, so every leaf of a merged result still
// says which file and line it came from.

#include <hiera/sourcelocation.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace hiera {

class Value;
class Hash;
using Array = std::vector<Value>;

class Value
{
public:
    enum class Type : std::uint8_t { Null, Boolean, Integer, Float, String, Array, Hash };

    Value() = default;
    Value(std::nullptr_t) { }
    Value(bool b) : m_data(b) { }
    Value(int i) : m_data(static_cast<std::int64_t>(i)) { }
    Value(std::int64_t i) : m_data(i) { }
    Value(double d) : m_data(d) { }
    Value(std::string s) : m_data(std::move(s)) { }
    Value(std::string_view s) : m_data(std::string(s)) { }
    Value(const char* s) : m_data(std::string(s)) { }
    Value(Array a);
    Value(Hash h);

    Type type() const { return static_cast<Type>(m_data.index()); }
    bool isNull() const { return type() == Type::Null; }
    bool isBoolean() const { return type() == Type::Boolean; }
    bool isInteger() const { return type() == Type::Integer; }
    bool isFloat() const { return type() == Type::Float; }
    bool isNumber() const { return isInteger() || isFloat(); }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isHash() const { return type() == Type::Hash; }
    bool isScalar() const { return !isArray() && !isHash(); }

    // Accessors; calling one for the wrong type is a programming error (std::bad_variant_access).
    bool asBoolean() const { return std::get<bool>(m_data); }
    std::int64_t asInteger() const { return std::get<std::int64_t>(m_data); }
    double asFloat() const { return std::get<double>(m_data); }
    const std::string& asString() const { return std::get<std::string>(m_data); }
    const Array& asArray() const;
    const Hash& asHash() const;

    // Copy-on-write access for building values: clones the storage if it is shared.
    Array& mutableArray();
    Hash& mutableHash();

    const SourceMark& mark() const { return m_mark; }
    // Plaintext decrypted from eyaml (SourceMark::Decrypted): a secret, at this node.
    bool isSecret() const { return (m_mark.flags & SourceMark::Decrypted) != 0; }
    // An eyaml value left encrypted (no key, or a scheme this engine cannot decrypt).
    bool isStillEncrypted() const { return (m_mark.flags & SourceMark::StillEncrypted) != 0; }
    void setMark(SourceMark m) { m_mark = m; }
    Value withMark(SourceMark m) const
    {
        Value v = *this;
        v.m_mark = m;
        return v;
    }

    // Structural equality; marks are ignored. Integer 1 and Float 1.0 are different values (Puppet's
    // unique merge keeps both).
    bool operator==(const Value& other) const;
    bool operator!=(const Value& other) const { return !(*this == other); }

    // Deep count of nodes, used by limits against runaway expansion.
    std::size_t nodeCount() const;

    static const char* typeName(Type t);
    const char* typeName() const { return typeName(type()); }

private:
    std::variant<std::monostate, bool, std::int64_t, double, std::string, std::shared_ptr<Array>, std::shared_ptr<Hash>>
        m_data;
    SourceMark m_mark;
};

// An insertion-ordered hash. Keys are Values: almost always strings, but YAML allows integer and float
// keys (Puppet keeps `1:` as Integer 1), and interpolation of hash keys works on string keys only.
// Setting an existing key replaces its value and keeps the key's first position, as Ruby does.
class Hash
{
public:
    struct Entry
    {
        Value key;
        Value value;
    };

    Hash() = default;
    Hash(std::initializer_list<std::pair<std::string, Value>> init);

    std::size_t size() const { return m_entries.size(); }
    bool empty() const { return m_entries.empty(); }
    const std::vector<Entry>& entries() const { return m_entries; }
    auto begin() const { return m_entries.begin(); }
    auto end() const { return m_entries.end(); }

    // Lookup by key. find(string) matches string keys only; find(Value) matches keys of equal type and
    // value (Integer 1 matches the YAML key `1:`, not "1").
    const Value* find(std::string_view key) const;
    const Value* find(const char* key) const { return find(std::string_view(key)); }
    const Value* find(const std::string& key) const { return find(std::string_view(key)); }
    const Value* find(const Value& key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    // The whole entry (key with its source mark, and value) for a string key.
    const Entry* findEntry(std::string_view key) const;
    // A string key hashed once, for looking the same key up in many hashes (every level of a lookup).
    class PreparedKey
    {
    public:
        explicit PreparedKey(std::string_view text);
        std::string_view text() const { return m_text; }
        std::size_t hash() const { return m_hash; }

    private:
        std::string_view m_text;
        std::size_t m_hash;
    };
    const Entry* findEntry(const PreparedKey& key) const;
    Value* findMutable(const Value& key);
    // The value of the i-th entry (entries() order), for rewriting values in place without a key
    // lookup (keys, and so the index, stay as they are).
    Value& valueAt(std::size_t i) { return m_entries[i].value; }

    // Insert or replace (keeping the first position).
    void set(Value key, Value value);
    void set(std::string_view key, Value value) { set(Value(key), std::move(value)); }
    void set(const char* key, Value value) { set(Value(key), std::move(value)); }
    void set(const std::string& key, Value value) { set(Value(key), std::move(value)); }
    // Remove a key; later entries move up. Returns whether it was there.
    bool remove(const Value& key);
    void reserve(std::size_t n) { m_entries.reserve(n); }
    // Gives back the entries' growth slack (a hash that is complete and kept for long).
    void shrinkToFit() { m_entries.shrink_to_fit(); }

    bool operator==(const Hash& other) const;

private:
    // One slot of the index: the entry's position + 1 (0 = empty) and the upper half of its key's
    // hash, so that a probe past other keys rarely has to touch their entries (a cache miss each).
    struct Slot
    {
        std::uint32_t entry = 0;
        std::uint32_t tag = 0;
    };

    template <typename Matches>
    std::optional<std::size_t> probe(std::size_t hash, Matches matches) const;
    std::optional<std::size_t> indexOf(const Value& key) const;
    std::optional<std::size_t> indexOfString(std::string_view key, std::size_t hash) const;
    std::optional<std::size_t> indexOfString(std::string_view key) const;
    void rebuildIndex();
    void indexInsert(std::size_t entry);
    void indexInsert(std::size_t entry, std::size_t hash);

    std::vector<Entry> m_entries;
    // Open-addressing table, kept up to date by every change once a hash has a few entries, so that a
    // lookup in a large common.yaml stays O(1) and const lookups never write (hashes are shared
    // between threads).
    std::vector<Slot> m_index;
};

// Whether a secret (Value::isSecret) is anywhere in `v`.
bool containsSecret(const Value& v);
// `v` with every secret string replaced by `replacement` (for explanations, logs and reports).
Value redactSecrets(const Value& v, std::string_view replacement = "<sensitive>");

// Convenience builders for tests and hosts.
Value makeArray(std::initializer_list<Value> items);
Value makeHash(std::initializer_list<std::pair<std::string, Value>> items);

} // namespace hiera
