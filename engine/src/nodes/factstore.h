#pragma once

// The facts of a node library, stored compactly: every value is an 8-byte cell, strings are stored
// once, and equal arrays and hashes (the os hash, a processor list, mount options) are stored once for
// the whole fleet. A hiera::Value costs 56 bytes (112 a hash entry) before its strings and its
// storage's allocation; a 20,000-node library held as Values took 4.4x its files' bytes (494 MiB for
// 113 MiB), held here 0.85x (97 MiB).
//
// Why by hand: what is needed is an immutable tree, hash-consed across thousands of documents, whose
// hashes keep insertion order, that answers a dotted dig without decoding and decodes to hiera::Value on
// demand. Serialisation formats (MessagePack, FlatBuffers, CBOR) encode one document at a time and
// share nothing between documents; a general-purpose interner of Values keeps the 56-byte Values.
//
// Adding is thread-safe (the library's loader threads add nodes at once); reading is thread-safe once
// adding is over, and must never overlap an add (readers take no lock, and an add may grow the
// tables they read). Nothing is ever removed: a store lives as long as the library that made it.

#include <hiera/lookupkey.h>
#include <hiera/value.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace hiera::detail {

class FactStore
{
public:
    // A stored value: null, booleans and integers of up to 61 bits in the cell itself; strings, other
    // numbers, arrays and hashes as a number in the store's tables.
    using Cell = std::uint64_t;

    FactStore();
    ~FactStore();
    FactStore(const FactStore&) = delete;
    FactStore& operator=(const FactStore&) = delete;

    // Stores `v`. Values of the same exact form give the same cell: types, key order and the bits of
    // floats count (-0.0 is not 0.0, NaNs differ by payload), so this is stricter than Value's ==
    // (equal values may get different cells, different ones never share). Marks are not stored.
    Cell add(const Value& v);
    // Drops what only adding needs (the indexes of values and containers). Adding after this still
    // works (never while reading) but no longer shares with what came before.
    void finishBuilding();

    Value::Type type(Cell c) const;
    // The value of string key `key` in hash `c` (Hash::find's rule: string keys only); nullopt when `c`
    // is not a hash or has no such key.
    std::optional<Cell> find(Cell hash, std::string_view key) const;
    // hiera::dig (lookupkey.cpp) over cells: a hash by string key, then by integer key for an
    // all-digit segment; an array by index; a scalar in the way is not found.
    std::optional<Cell> dig(Cell root, const std::vector<KeySegment>& segments) const;
    // `c` as a Value, every part of it (keys included) marked `mark`. A container that recurs (a YAML
    // alias) is decoded once and shared, so decoding costs what the stored form does, not its expansion.
    Value value(Cell c, SourceMark mark = {}) const;

    // Memory the store holds, and how many distinct arrays and hashes it has.
    std::size_t bytes() const;
    std::size_t containers() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace hiera::detail
