#pragma once

// LookupRun's fold: the values a lookup found, combined in priority order.

#include "lookup/lookuprun.h"

#include <hiera/merge.h>

namespace hiera::detail {

// Folds found values in priority order (docs/hiera-reference.md §4.4): the first is taken as is, each further one is
// combined with mergeStep.
class LookupRun::Fold
{
public:
    explicit Fold(const MergeSpec& spec) : m_spec(spec) { }
    // A single found value passes through untouched (no merge step, no type check); only when a
    // second one arrives is the first normalised (unique: flattened) and merged with it.
    void add(Value v)
    {
        if (m_count++ == 0) {
            m_value = std::move(v);
            return;
        }
        if (m_count == 2)
            m_value = normalizeFirst(m_spec, m_value);
        m_value = mergeStep(m_spec, m_value, v);
    }
    bool have() const { return m_count > 0; }
    std::size_t count() const { return m_count; }
    const Value& value() const { return m_value; }
    // The value, moved out: for handing a finished fold to the next one.
    Value take() { return std::move(m_value); }
    // The final result of a lookup: unique always returns a flat array, even for one found value.
    Value result() &&
    {
        if (m_count == 1 && m_spec.strategy == MergeStrategy::Unique)
            return normalizeFirst(m_spec, m_value);
        return std::move(m_value);
    }

private:
    const MergeSpec& m_spec;
    std::size_t m_count = 0;
    Value m_value;
};

} // namespace hiera::detail
