#pragma once

// Two values compared leaf by leaf: every place where they differ, as a dotted path from the root
// ("os.family", "servers.1", "'a.b'.c" for a key holding a dot), with each side's value there. A hash
// is walked key by key and an array element by element; anything else (or a change of type) is one
// difference at its place. What a report lists for edited facts, and what Compare nodes lists inside a
// hash.

#include <hiera/value.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct LeafDifference
{
    std::string path; // empty: the roots themselves differ
    std::optional<Value> before; // unset: absent on that side
    std::optional<Value> after;
};

// How arrays are walked: element by element always, or only when both have the same length (an
// element inserted at the front would otherwise make every later one a difference).
enum class ArrayWalk { Always, SameLength };

// At most `limit` differences, in the order of `after`'s keys then `before`'s removed ones.
std::vector<LeafDifference> leafDifferences(const Value& before, const Value& after, std::size_t limit = 10000,
                                            ArrayWalk arrays = ArrayWalk::Always);

// A path segment as a dotted key writes it: quoted when it holds a dot, a quote or a blank.
std::string keySegment(const Value& key);

} // namespace hiera
