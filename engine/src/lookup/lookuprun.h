#pragma once

// One top-level lookup (docs/hiera-reference.md §4.1) over a NodeSnapshot, in one file per concept as
// Puppet splits it: the invocation (lookuprun.cpp: lookup_options selection, the merge chosen, the dig,
// convert_to, the result), the search through the layers (layersearch.cpp, folding with fold.h), and
// the interpolation host (sublookup.cpp: sub-lookups, the name stack against recursion, the limits).
// KeyPresence, which lets hosts skip files, is in keypresence.h.

#include "interpolate/interpolation.h"
#include "lookup/keypresence.h"
#include "lookup/nodesnapshot.h"
#include "trace/tracecursor.h"

#include <hiera/engine.h>
#include <hiera/lookupkey.h>

#include <optional>
#include <string>
#include <unordered_map>

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

// Answers of sub-lookups (lookup(), hiera() and alias() in data) by key, kept across the lookups of
// one node by hosts that look up many of its keys (the all-keys view, the node diff). Only answers
// that completed are kept: an answer does not depend on which lookup asked for it (a recursion
// through the key would fail it everywhere, so it is never kept), except for the nesting limit
// (EngineOptions::maxInterpolationDepth), which a kept answer no longer meets deeper down. The
// warnings of a kept answer come with the lookup that made it only. Not thread-safe: one per thread.
using SubLookupMemo = std::unordered_map<std::string, std::optional<Value>>;

class LookupRun : public InterpolationHost
{
public:
    LookupRun(const Engine& engine, const Scope& scope, const NodeSnapshot& snapshot, bool explain);
    // Not with explain: a trace shows every sub-lookup.
    void setSubLookupMemo(SubLookupMemo* memo) { m_subLookupMemo = m_explain ? nullptr : memo; }
    void setKeyPresence(const KeyPresence* presence) { m_presence = m_explain ? nullptr : presence; }

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
    // Fails a lookup that Puppet would fail for a file skipped under skipBrokenFiles.
    void failForBrokenFile(std::string_view key, LookupResult& result, TraceCursor root) const;
    // The key's value with every lookup_options left out (the failed lookup's unverifiedValue).
    std::optional<Value> lookWithoutOptions(std::string_view key, const LookupRequest& request);
    std::optional<Value> lookupRoot(const std::string& root, const MergeSpec& merge, TraceCursor trace,
                                    bool lookupOptionsMeta, LayerSelection layers);
    // A module's default_hierarchy, with its own lookup_options, once no layer found the key.
    std::optional<Value> lookupDefaultHierarchy(const LookupKey& key, std::string_view module,
                                                const std::optional<MergeSpec>& callerMerge, TraceCursor trace,
                                                std::shared_ptr<const LookupOptionsEntry>& entry);
    // `holders`: with a KeyPresence, the files that hold the root key (data_hash levels skip the
    // others); null: ask every file.
    void lookupLevel(const LevelState& level, const Hash::PreparedKey& root, const std::string& rootKey,
                     const MergeSpec& merge, TraceCursor levelTrace, Fold& inLayer, bool lookupOptionsMeta,
                     const KeyPresence::Holders* holders);
    // A level whose function cannot be run: fails when consulted, or is skipped with a warning.
    void consultUnrunnable(const LevelState& level, const Error& why, TraceCursor levelTrace);

    const Engine& m_engine;
    const Scope& m_scope;
    const NodeSnapshot& m_snapshot;
    bool m_explain;
    bool m_computingLookupOptions = false;
    // lookup_options could not be had (a file that must be read for them does not parse, a bad entry):
    // the lookup fails; run() then looks again with them left out, for LookupResult::unverifiedValue.
    bool m_optionsFailed = false;
    bool m_ignoreOptions = false;
    std::vector<std::shared_ptr<const DataFile>>* m_lookupOptionsSources = nullptr;
    bool m_lookupOptionsInterpolated = false;
    std::vector<std::string_view> m_names; // keys and scope:names being looked up (owned by callers)
    std::vector<std::string> m_warnings;
    SubLookupMemo* m_subLookupMemo = nullptr;
    const KeyPresence* m_presence = nullptr;
};

} // namespace hiera::detail
