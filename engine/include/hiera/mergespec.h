#pragma once

// What a merge is asked to do: its strategy and the deep merge's options, as lookup_options, the
// command line and the explorer name them, and as the explain trace records them. The merges
// themselves are in hiera/merge.h; this is below them, so that the trace can name a merge without
// depending on the lookup.

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

} // namespace hiera
