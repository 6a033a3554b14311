#pragma once

// One top-level lookup (docs/hiera-reference.md §4.1) over a NodeSnapshot: lookup_options selection, the fold over
// layers, levels and locations, interpolation of found values, the dig and convert_to; with the name
// stack against recursion, the warnings and the trace.

#include "interpolate/interpolation.h"
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

// Which of a snapshot's data files hold which root keys (string keys of their top-level hashes), for
// hosts that look up every key of a node: a lookup given one does not ask a data_hash level's
// provider about a file that lacks the root key, with the same answer (that file has nothing for it)
// at a fraction of the cost (a node of a large control repository: 17,000 keys, 37 files, most of
// them asked about a key they lack). A level none of whose files holds the key, and that would
// report nothing else (no error, no warning), is passed over whole: most keys are in one or two of a
// node's levels, and walking the others' files was a fifth of the all-keys view's instructions. Only for
// lookups without a trace.
class KeyPresence
{
public:
    // The files that hold a key. A key held by more than kMax files is not filtered (all == true):
    // skipping is only a shortcut, and a fixed size keeps the index to one allocation per key.
    struct Holders
    {
        static constexpr std::size_t kMax = 4;
        const DataFile* files[kMax] = {};
        std::uint8_t count = 0;
        bool all = false;
        // The levels (bits, see KeyPresence::skips) with a file that holds the key, however many files hold it.
        std::uint64_t levels = 0;

        bool holds(const DataFile* f) const
        {
            if (all)
                return true;
            for (std::uint8_t i = 0; i < count; ++i)
                if (files[i] == f)
                    return true;
            return false;
        }
    };

    explicit KeyPresence(const NodeSnapshot& snapshot);
    // The files holding `root` (none: an empty Holders).
    const Holders& filesWith(const Hash::PreparedKey& root) const;

    // The bit of the first level of `levels` (a LayerState's levels or defaultLevels); level lv of it
    // has bit first + lv. Levels past the 64th have none (-1 or beyond 63: never skipped).
    int firstLevelBit(const std::vector<LevelState>& levels) const;
    // Whether the level at `bit` can be passed over whole for a key held as `h`: none of its files holds
    // the key, and the level would say nothing else either (no error, runnable, a data_hash, no file
    // with an error or a warning). The lookup's answer, warnings and errors are the same without it.
    bool skips(const Holders& h, int bit) const
    {
        return bit >= 0 && bit < 64 && ((m_quietLevels >> bit) & 1) != 0 && ((h.levels >> bit) & 1) == 0;
    }

private:
    // An open-addressing table over the distinct keys (one per key, not a node each): the all-keys view
    // asks it once for every key and sub-lookup, and a node-based map's pointer chasing was a seventh
    // of that view's time.
    struct Keyed
    {
        std::string_view key; // a view into the file's key
        std::size_t hash; // Hash::PreparedKey's
        Holders holders;
    };
    std::vector<Keyed> m_keys;
    std::vector<std::uint32_t> m_slots; // index into m_keys + 1; 0 = empty; at most half full
    std::vector<std::pair<const std::vector<LevelState>*, int>> m_firstBits;
    std::uint64_t m_quietLevels = 0;
};

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
    std::vector<std::shared_ptr<const DataFile>>* m_lookupOptionsSources = nullptr;
    bool m_lookupOptionsInterpolated = false;
    std::vector<std::string_view> m_names; // keys and scope:names being looked up (owned by callers)
    std::vector<std::string> m_warnings;
    SubLookupMemo* m_subLookupMemo = nullptr;
    const KeyPresence* m_presence = nullptr;
};

} // namespace hiera::detail
