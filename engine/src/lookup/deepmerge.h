#pragma once

// Puppet's deep merge (docs/hiera-reference.md §4.8), done by one of two mergers that give the same
// results: deepMergeValues on plain values, shared where they can be (deepmerge.cpp), when there is no
// knockout_prefix; deepMergeGem, the port of the deep_merge gem with Ruby's object identity
// (deepmergegem.cpp), when there is one. tst_merge runs the gem's cases through both, and fuzz_merge
// compares them.

#include <hiera/merge.h>
#include <hiera/value.h>

#include <vector>

namespace hiera::detail {

Value deepMergeValues(const MergeSpec& spec, const Value& higher, const Value& lower);
Value deepMergeGem(const MergeSpec& spec, const Value& higher, const Value& lower);

// The fold of deepMergeValues over `found` (priority order), in time linear in their total size rather
// than in their number times the accumulated size; only where deepMergeAllApplies (deepmerge.cpp says
// why).
bool deepMergeAllApplies(const MergeSpec& spec);
Value deepMergeAll(const MergeSpec& spec, const std::vector<Value>& found);

// What both share: Ruby's truthiness (merge_hash_arrays and friends take options as Ruby values),
// Ruby's <=> for sort_merged_arrays (a failing comparison is a MergeType error), and that sort.
bool truthy(const Value& v);
int rubyCompare(const Value& x, const Value& y);
void sortRubyValues(Array& a);

} // namespace hiera::detail
