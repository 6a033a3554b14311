#pragma once

// LookupRun's fold: the values a lookup found, combined in priority order.

#include "lookup/lookuprun.h"

#include <hiera/merge.h>

namespace hiera::detail {

// Folds found values in priority order (docs/hiera-reference.md §4.4): the first is taken as is, each further one is
// combined as mergeStep combines them (MergeFold: in time that grows with the values, not with their number
// times the accumulated size).
class LookupRun::Fold
{
public:
    explicit Fold(const MergeSpec& spec) : m_fold(spec) { }
    // A single found value passes through untouched (no merge step, no type check); only when a
    // second one arrives is the first normalised (unique: flattened) and merged with it.
    void add(Value v) { m_fold.add(std::move(v)); }
    bool have() const { return m_fold.count() > 0; }
    std::size_t count() const { return m_fold.count(); }
    const Value& value() const { return m_fold.value(); }
    // The value, for handing a finished fold to the next one.
    Value take() { return m_fold.value(); }
    // The final result of a lookup: unique always returns a flat array, even for one found value.
    Value result() && { return m_fold.result(); }

private:
    MergeFold m_fold;
};

} // namespace hiera::detail
