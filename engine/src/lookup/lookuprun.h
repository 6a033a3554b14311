#pragma once

// One top-level lookup (semantics §4.1) over a NodeSnapshot: lookup_options selection, the fold over
// layers, levels and locations, interpolation of found values, the dig and convert_to; with the name
// stack against recursion, the warnings and the trace.

#include "explain/tracecursor.h"
#include "interpolate/interpolation.h"
#include "lookup/nodesnapshot.h"

#include <hiera/engine.h>
#include <hiera/lookupkey.h>

namespace hiera::detail {

// Which layers a search covers (layers.md §2-4).
struct LayerSelection
{
    enum class Mode {
        Data,            // global and environment layers, and the module layer of `module` if any
        ModuleOnly,      // only the module layer of `module` (its lookup_options)
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

class LookupRun : public InterpolationHost
{
public:
    LookupRun(const Engine& engine, const Scope& scope, const NodeSnapshot& snapshot, bool explain);

    LookupResult run(std::string_view key, const LookupRequest& request);
    // Merges lookup_options for the snapshot (used while building it). Throws hiera::Error.
    Value mergeLookupOptions(TraceCursor trace, std::vector<std::shared_ptr<const DataFile>>& sources,
                             bool& interpolated, LayerSelection layers = {});

    // InterpolationHost
    const Scope& scope() const override { return m_scope; }
    std::optional<Value> subLookup(const std::string& key, TraceCursor trace) override;
    bool pushName(const std::string& name) override;
    void popName() override { m_names.pop_back(); }
    std::string nameChain(const std::string& last) const override;
    std::size_t maxDepth() const override;
    std::size_t maxBytes() const override;
    void warn(const std::string& message) override;

private:
    struct Outcome
    {
        bool found = false;
        Value value;
        bool rootFound = false;
        Value rootValue;
    };
    class Fold;

    // `used`, for the top-level lookup only: receives the merge chosen (LookupResult::merge).
    Outcome lookupKey(const LookupKey& key, const std::optional<MergeSpec>& callerMerge, TraceCursor parent,
                      std::optional<MergeUsed>* used = nullptr);
    const LookupOptionsTable& lookupOptions(TraceCursor trace, std::string_view module);
    std::optional<Value> lookupRoot(const std::string& root, const MergeSpec& merge, TraceCursor trace,
                                    bool lookupOptionsMeta, LayerSelection layers);
    // A module's default_hierarchy, with its own lookup_options, once no layer found the key.
    std::optional<Value> lookupDefaultHierarchy(const LookupKey& key, std::string_view module,
                                                const std::optional<MergeSpec>& callerMerge, TraceCursor trace,
                                                std::shared_ptr<const LookupOptionsEntry>& entry);
    void lookupLevel(const LevelState& level, const Hash::PreparedKey& root, const std::string& rootKey,
                     const MergeSpec& merge, TraceCursor levelTrace, Fold& inLayer, bool lookupOptionsMeta);
    // A level whose function cannot be run: fails when consulted, or is skipped with a warning.
    void consultUnrunnable(const LevelState& level, const Error& why, TraceCursor levelTrace);

    const Engine& m_engine;
    const Scope& m_scope;
    const NodeSnapshot& m_snapshot;
    bool m_explain;
    bool m_computingLookupOptions = false;
    std::vector<std::shared_ptr<const DataFile>>* m_lookupOptionsSources = nullptr;
    bool m_lookupOptionsInterpolated = false;
    std::vector<std::string_view> m_names; // keys and scope:names being looked up (owned by callers)
    std::vector<std::string> m_warnings;
};

} // namespace hiera::detail
