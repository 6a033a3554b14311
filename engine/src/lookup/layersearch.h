#pragma once

// The search of one key through a node's layers (Puppet's lookup_adapter.rb and its data providers):
// the lookup_options that apply to a key's module, each layer's levels and their files in priority
// order folded with the merge (hiera::MergeFold, docs/hiera-reference.md §4.4), a module's
// default_hierarchy, levels that cannot run. It reads the snapshot only; what it meets is reported to
// the invocation (warnings), and interpolation inside the values it finds goes to the host (the
// sub-lookups of the same lookup).

#include "interpolate/interpolation.h"
#include "lookup/invocation.h"
#include "lookup/keypresence.h"
#include "lookup/nodesnapshot.h"
#include "trace/tracecursor.h"

#include <hiera/lookupkey.h>
#include <hiera/mergespec.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {
class MergeFold;
}

namespace hiera::detail {

// Which layers a search covers (docs/layers.md §2-4).
struct LayerSelection
{
    enum class Mode {
        Data, // global and environment layers, and the module layer of `module` if any
        ModuleOnly, // only the module layer of `module` (its lookup_options)
        DefaultHierarchy // only the default_hierarchy of `module`'s layer
    };
    Mode mode = Mode::Data;
    std::string_view module; // empty: no module layer (Data), keys without a module prefix

    bool covers(const Layer& layer) const
    {
        if (layer.kind != Layer::Kind::Module)
            return mode == Mode::Data;
        return !module.empty() && layer.module == module;
    }
};

// The module a key belongs to: what precedes its first "::" (`ntp::servers` → `ntp`), or empty.
std::string_view moduleOfKey(std::string_view root);

class LayerSearch
{
public:
    LayerSearch(Invocation& invocation, const NodeSnapshot& snapshot, InterpolationHost& host)
        : m_invocation(invocation)
        , m_snapshot(snapshot)
        , m_host(host)
    {
    }
    LayerSearch(const LayerSearch&) = delete;
    LayerSearch& operator=(const LayerSearch&) = delete;

    // With a KeyPresence, data_hash levels skip the files that lack the key.
    void setKeyPresence(const KeyPresence* presence) { m_presence = presence; }

    // The lookup_options table that applies to keys of `module` (the global and environment ones when
    // empty or without options of its own). Throws when they could not be had; optionsFailed() then says
    // so. Empty while lookup_options themselves are being merged, and while ignoring them.
    const LookupOptionsTable& lookupOptions(TraceCursor trace, std::string_view module);
    bool optionsFailed() const { return m_optionsFailed; }
    // Look as if no lookup_options were written (the failed lookup's LookupResult::unverifiedValue).
    void setIgnoreOptions(bool ignore) { m_ignoreOptions = ignore; }

    // `root` in the selected layers, folded with `merge`; nullopt when no file holds it.
    std::optional<Value> search(const std::string& root, const MergeSpec& merge, TraceCursor trace,
                                LayerSelection selection)
    {
        return searchLayers(root, merge, trace, /*lookupOptionsMeta=*/false, selection);
    }
    // A module's default_hierarchy, once no layer found the key, under its own lookup_options only;
    // `entry` receives the entry of those that applies.
    std::optional<Value> searchDefaultHierarchy(const LookupKey& key, std::string_view module,
                                                const std::optional<MergeSpec>& callerMerge, TraceCursor trace,
                                                std::shared_ptr<const LookupOptionsEntry>& entry);
    // Merges lookup_options for the snapshot (used while building it): `sources` receives the files
    // they came from, `interpolated` whether any depends on the node. Throws hiera::Error.
    Value mergeLookupOptions(TraceCursor trace, std::vector<std::shared_ptr<const DataFile>>& sources,
                             bool& interpolated, LayerSelection layers);

private:
    std::optional<Value> searchLayers(const std::string& root, const MergeSpec& merge, TraceCursor trace,
                                      bool lookupOptionsMeta, LayerSelection selection);
    // `holders`: with a KeyPresence, the files that hold the root key (data_hash levels skip the
    // others); null: ask every file.
    void searchLevel(const LevelState& level, const Hash::PreparedKey& root, const std::string& rootKey,
                     const MergeSpec& merge, TraceCursor levelTrace, MergeFold& inLayer, bool lookupOptionsMeta,
                     const KeyPresence::Holders* holders);
    // A level whose function cannot be run: fails when consulted, or is skipped with a warning.
    void consultUnrunnable(const LevelState& level, const Error& why, TraceCursor levelTrace);

    Invocation& m_invocation;
    const NodeSnapshot& m_snapshot;
    InterpolationHost& m_host;
    const KeyPresence* m_presence = nullptr;
    bool m_computingLookupOptions = false;
    // lookup_options could not be had (a file that must be read for them does not parse, a bad entry):
    // the lookup fails; LookupRun then looks again with them left out, for LookupResult::unverifiedValue.
    bool m_optionsFailed = false;
    bool m_ignoreOptions = false;
    std::vector<std::shared_ptr<const DataFile>>* m_lookupOptionsSources = nullptr;
    bool m_lookupOptionsInterpolated = false;
};

} // namespace hiera::detail
