#pragma once

// Merge strategies (Puppet's merge_strategy.rb + the deep_merge gem), folding the values found at
// each level in priority order: first, unique, hash, deep (with knockout_prefix, sort_merged_arrays,
// merge_hash_arrays). See docs/engine-semantics.md for the exact order of results.

#include <hiera/mergespec.h>
#include <hiera/value.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

// One fold step: combine the accumulated value (higher priority) with the next found value (lower
// priority). Throws hiera::Error(MergeType) for type mismatches, with Puppet's "first/second element"
// wording. The first found value is taken as is; call normalizeFirst for it.
Value mergeStep(const MergeSpec& spec, const Value& higher, const Value& lower);
// What the accumulator starts as, given the first found value (unique flattens it; others keep it).
Value normalizeFirst(const MergeSpec& spec, const Value& first);

// The fold of a lookup's found values in priority order: the first taken as is, each further one
// combined with mergeStep. value() is exactly what that fold gives, marks included, and add() throws
// the error mergeStep would, at the value that causes it; but the cost grows with the values' total
// size, not with their number times the accumulated size: folding 5,000 files with mergeStep took
// seconds (docs/performance.md, "Cost that grows with the input"). Unique appends to one array with one membership
// index; hash and deep (without knockout_prefix, sort_merged_arrays and merge_hash_arrays) keep the values and merge
// them all at once when the result is asked for; the rest folds step by step.
class MergeFold
{
public:
    explicit MergeFold(const MergeSpec& spec);
    ~MergeFold();
    MergeFold(MergeFold&&) noexcept;
    MergeFold& operator=(MergeFold&&) noexcept;

    void add(Value lower);
    std::size_t count() const;
    // The fold so far; a single value as it was found (count() > 0).
    const Value& value() const;
    // The answer: as value(), but unique flattens a single value too.
    Value result() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace hiera
