#pragma once

// One top-level lookup (docs/hiera-reference.md §4.1) over a NodeSnapshot, split as Puppet's
// pops/lookup/ splits it:
// - the invocation (invocation.h: the name stack, the limits, the warnings),
// - the search through the layers (layersearch.h, folding found values with hiera::MergeFold),
// - the sub-lookups of lookup(), hiera() and alias() in data (sublookup.h),
// - and this class, the lookup of a key itself: the lookup_options entry that applies, the merge
//   chosen, the search, the dig into the found value, convert_to, the result.
// KeyPresence, which lets hosts skip files, is in keypresence.h.

#include "lookup/invocation.h"
#include "lookup/keypresence.h"
#include "lookup/layersearch.h"
#include "lookup/nodesnapshot.h"
#include "lookup/sublookup.h"
#include "trace/tracecursor.h"

#include <hiera/engine.h>
#include <hiera/lookupkey.h>

#include <optional>
#include <string>

namespace hiera::detail {

class LookupRun final : private NestedLookups
{
public:
    LookupRun(const Engine& engine, const Scope& scope, const NodeSnapshot& snapshot, bool explain);
    LookupRun(const LookupRun&) = delete;
    LookupRun& operator=(const LookupRun&) = delete;

    // Not with explain: a trace shows every sub-lookup.
    void setSubLookupMemo(SubLookupMemo* memo) { m_subLookups.setMemo(m_invocation.explain() ? nullptr : memo); }
    void setKeyPresence(const KeyPresence* presence)
    {
        m_search.setKeyPresence(m_invocation.explain() ? nullptr : presence);
    }

    LookupResult run(std::string_view key, const LookupRequest& request);
    // Merges lookup_options for the snapshot (used while building it). Throws hiera::Error.
    Value mergeLookupOptions(TraceCursor trace, std::vector<std::shared_ptr<const DataFile>>& sources,
                             bool& interpolated, LayerSelection layers = {})
    {
        return m_search.mergeLookupOptions(trace, sources, interpolated, layers);
    }

private:
    struct Outcome
    {
        bool found = false;
        Value value;
        bool rootFound = false;
        Value rootValue;
    };

    // `used`, for the top-level lookup only: receives the merge chosen (LookupResult::merge).
    Outcome lookupKey(const LookupKey& key, const std::optional<MergeSpec>& callerMerge, TraceCursor parent,
                      std::optional<MergeUsed>* used = nullptr);
    // NestedLookups: a sub-lookup's key.
    std::optional<Value> lookupNested(const LookupKey& key, TraceCursor trace) override;
    // Fails a lookup that Puppet would fail for a file skipped under skipBrokenFiles.
    void failForBrokenFile(std::string_view key, LookupResult& result, TraceCursor root) const;
    // The key's value with every lookup_options left out (the failed lookup's unverifiedValue).
    std::optional<Value> lookWithoutOptions(std::string_view key, const LookupRequest& request);

    const NodeSnapshot& m_snapshot;
    Invocation m_invocation;
    SubLookup m_subLookups;
    LayerSearch m_search;
};

} // namespace hiera::detail
