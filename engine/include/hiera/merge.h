#pragma once

// Merge strategies (Puppet's merge_strategy.rb + the deep_merge gem), folding the values found at
// each level in priority order: first, unique, hash, deep (with knockout_prefix, sort_merged_arrays,
// merge_hash_arrays). See docs/engine-semantics.md for the exact order of results.

#include <hiera/value.h>

#include <optional>
#include <string>
#include <string_view>

namespace hiera {

enum class MergeStrategy { First, Unique, Hash, Deep };
inline constexpr MergeStrategy kMergeStrategies[] = {MergeStrategy::First, MergeStrategy::Unique, MergeStrategy::Hash,
                                                     MergeStrategy::Deep};
const char* mergeStrategyName(MergeStrategy s); // "first", "unique", "hash", "deep"
// The one reading of a strategy name, shared by lookup_options, hiera-lookup's --merge and the explorer.
// Puppet's hidden names (default, reverse_deep, unconstrained_deep) are refused: nullopt.
std::optional<MergeStrategy> mergeStrategyFromName(std::string_view name);

struct MergeSpec
{
    MergeStrategy strategy = MergeStrategy::First;
    std::optional<std::string> knockoutPrefix; // deep only
    bool sortMergedArrays = false; // deep only
    bool mergeHashArrays = false; // deep only

    // Parses a `merge` value from lookup_options: a strategy name or {strategy: NAME, ...options}.
    // null or {} means first. Throws hiera::Error(MergeOptions) with Puppet's wording.
    static MergeSpec fromValue(const Value& v);
    // {strategy: ..., options...} as Puppet's explain prints it.
    Value toValue() const;
    bool operator==(const MergeSpec&) const = default;
};

// One fold step: combine the accumulated value (higher priority) with the next found value (lower
// priority). Throws hiera::Error(MergeType) for type mismatches, with Puppet's "first/second element"
// wording. The first found value is taken as is; call normalizeFirst for it.
Value mergeStep(const MergeSpec& spec, const Value& higher, const Value& lower);
// What the accumulator starts as, given the first found value (unique flattens it; others keep it).
Value normalizeFirst(const MergeSpec& spec, const Value& first);

} // namespace hiera
