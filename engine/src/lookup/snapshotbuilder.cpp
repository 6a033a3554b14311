#include "lookup/snapshotbuilder.h"

#include "interpolate/interpolation.h"
#include "lookup/enginestate.h"
#include "lookup/lookuprun.h"

#include <hiera/merge.h>

#include <chrono>

namespace hiera::detail {

namespace {
long long nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

namespace {

LevelState resolveLevelState(const Engine& engine, const Layer& layer, const Level& level,
                             const LevelProvider* provider, const Scope& scope, NodeSnapshot& snap)
{
    const EngineState& state = engineState(engine);
    const ProviderEnvironment env{state.files, engine.options().limits};
    LevelState st;
    st.level = &level;
    st.provider = provider;
    // Locations are resolved even for a level that cannot be run, so that hosts can show them.
    try {
        st.options = containsInterpolation(level.options) ? interpolateOptions(level.options, scope) : level.options;
        LevelLocations locs = resolveLevel(layer.config, level, scope, state.globs);
        st.datadir = std::move(locs.datadir);
        if (level.locations.empty()) {
            // A lookup_key or data_dig function without locations (hiera_vault): one call without a
            // path, made whenever a lookup reaches the level.
            auto reached = std::make_shared<DataFile>();
            reached->exists = true;
            st.files.push_back({Candidate{}, std::move(reached)});
            return st;
        }
        st.files.reserve(locs.candidates.size());
        for (Candidate& c : locs.candidates) {
            // A deployed path outside this environment is not in the checkout: missing, never read
            // from wherever it happens to point on this machine (docs/layers.md).
            std::shared_ptr<const DataFile> file =
                c.outsideRepository ? std::make_shared<const DataFile>() : provider->open(c.path, st.options, env);
            if (file->error && engine.options().skipBrokenFiles)
                snap.warnings.push_back(brokenFileWarning(*file->error));
            st.files.push_back({std::move(c), std::move(file)});
        }
    } catch (const Error& e) {
        st.error = e;
    }
    return st;
}

// Puppet drops the keys of a module's data that are outside its namespace, with a warning.
void noteUnqualifiedKeys(LayerState& ls)
{
    const std::string prefix = ls.layer->module + "::";
    for (const LevelState& level : ls.levels)
        for (const ResolvedFile& rf : level.files) {
            if (!rf.file->data.isHash())
                continue;
            for (const auto& e : rf.file->data.asHash()) {
                if (e.key.isString()
                    && (e.key.asString().rfind(prefix, 0) == 0 || e.key.asString() == "lookup_options"))
                    continue;
                ls.warnings.push_back("Module '" + ls.layer->module + "': Value returned from " + level.level->function
                                      + ", when using location '" + rf.candidate.path
                                      + "', must use keys qualified with the name of the module (key '"
                                      + (e.key.isString() ? e.key.asString() : std::string(e.key.typeName()))
                                      + "' dropped)");
                break; // one note per file
            }
        }
}

} // namespace

std::shared_ptr<NodeSnapshot> resolveSnapshot(const Engine& engine, const Scope& scope)
{
    auto snap = std::make_shared<NodeSnapshot>();
    snap->checkedAtNs = nowNs();
    const EngineState& state = engineState(engine);
    const auto& layers = engine.layers();
    snap->layers.reserve(layers.size());
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const Layer& layer = layers[li];
        LayerState ls;
        ls.layer = &layer;
        const auto& providers = state.providers[li];
        const auto& hierarchy = layer.config.hierarchy;
        ls.levels.reserve(hierarchy.size());
        for (std::size_t lv = 0; lv < hierarchy.size(); ++lv)
            ls.levels.push_back(resolveLevelState(engine, layer, hierarchy[lv], providers[lv].get(), scope, *snap));
        const auto& defaults = layer.config.defaultHierarchy;
        for (std::size_t lv = 0; lv < defaults.size(); ++lv)
            ls.defaultLevels.push_back(
                resolveLevelState(engine, layer, defaults[lv], providers[hierarchy.size() + lv].get(), scope, *snap));
        if (layer.kind == Layer::Kind::Module) {
            noteUnqualifiedKeys(ls);
            snap->modules[layer.module].layer = li;
        }
        if (engine.options().skipBrokenFiles)
            for (const LevelState& level : ls.levels)
                for (const ResolvedFile& rf : level.files)
                    if (rf.file->exists && rf.file->error)
                        snap->brokenFiles.push_back({li, *rf.file->error});
        snap->layers.push_back(std::move(ls));
    }
    return snap;
}

namespace {

std::shared_ptr<TraceNode> lookupOptionsTraceNode(bool explain, const std::string& name = {})
{
    if (!explain)
        return nullptr;
    auto trace = std::make_shared<TraceNode>();
    trace->kind = TraceNode::Kind::LookupOptions;
    trace->key = "lookup_options";
    trace->name = name;
    return trace;
}

// Whether the levels have lookup_options in a file, or an existing file of a level that cannot be run
// (merging lookup_options would consult it, and that fails).
// `mustRun`: a file the merge has to consult itself, whatever the files with options say: one of a
// level that cannot run, or one that does not parse (Puppet reads every level for lookup_options, so
// such a file fails every lookup that needs them, even one answered from a level above it).
void scanLevels(const std::vector<LevelState>& levels, std::vector<const DataFile*>& withOptions, bool& mustRun)
{
    for (const LevelState& level : levels)
        for (const ResolvedFile& rf : level.files) {
            if (rf.file->hasLookupOptions)
                withOptions.push_back(rf.file.get());
            mustRun = mustRun || (rf.file->exists && (level.provider->unrunnable() || rf.file->error));
        }
}

// Every entry of a module's lookup_options must be in its namespace (docs/layers.md §3).
void checkModuleEntries(const Value& merged, const std::string& module)
{
    if (!merged.isHash())
        return;
    const std::string prefix = module + "::";
    for (const auto& e : merged.asHash()) {
        const std::string k = e.key.isString() ? e.key.asString() : std::string();
        if (k.rfind(prefix, 0) == 0 || k.rfind("^" + prefix, 0) == 0)
            continue;
        throw Error(ErrorCode::LookupOptions,
                    "all lookup_options keys must start with module name '" + module + "' (found '" + k + "')",
                    SourceFiles::locate(e.key.mark()));
    }
}

// The module layers' lookup_options (merged below the global and environment ones) and their
// default_hierarchy's own.
void buildModuleOptions(const Engine& engine, const Scope& scope, NodeSnapshot& snap, bool explain)
{
    const Value& base = snap.lookupOptions ? snap.lookupOptions->merged() : Value();
    for (auto& [name, mod] : snap.modules) {
        const LayerState& layer = snap.layers[mod.layer];
        if (layer.layer->error) {
            mod.error = layer.layer->error;
            continue;
        }
        std::vector<const DataFile*> files;
        bool unrunnable = false;
        scanLevels(layer.levels, files, unrunnable);
        if (!files.empty() || unrunnable) {
            mod.trace = lookupOptionsTraceNode(explain, name);
            try {
                LookupRun run(engine, scope, snap, explain);
                std::vector<std::shared_ptr<const DataFile>> sources;
                bool interpolated = false;
                const Value own = run.mergeLookupOptions(TraceCursor(mod.trace.get()), sources, interpolated,
                                                         {LayerSelection::Mode::ModuleOnly, name});
                checkModuleEntries(own, name);
                // The global and environment entries win whole over the module's (docs/layers.md §3).
                MergeSpec hash;
                hash.strategy = MergeStrategy::Hash;
                const Value combined = base.isHash() && own.isHash() ? mergeStep(hash, base, own)
                    : own.isHash()                                   ? own
                                                                     : base;
                mod.table = std::make_shared<const LookupOptionsTable>(combined);
            } catch (const Error& e) {
                mod.error = e;
                TraceCursor(mod.trace.get()).failed(e);
            }
        }
        if (!layer.defaultLevels.empty()) {
            mod.defaultTrace = lookupOptionsTraceNode(explain, name);
            try {
                LookupRun run(engine, scope, snap, explain);
                std::vector<std::shared_ptr<const DataFile>> sources;
                bool interpolated = false;
                const Value own = run.mergeLookupOptions(TraceCursor(mod.defaultTrace.get()), sources, interpolated,
                                                         {LayerSelection::Mode::DefaultHierarchy, name});
                checkModuleEntries(own, name);
                mod.defaultTable = std::make_shared<const LookupOptionsTable>(own);
            } catch (const Error& e) {
                mod.defaultError = e;
                TraceCursor(mod.defaultTrace.get()).failed(e);
            }
        }
    }
}

} // namespace

std::shared_ptr<const NodeSnapshot> buildSnapshot(const Engine& engine, const Scope& scope, bool explain,
                                                  const NodeSnapshot* previous)
{
    std::shared_ptr<NodeSnapshot> snap = resolveSnapshot(engine, scope);
    if (previous && previous->lookupOptions && !explain && snap->sameFiles(*previous)) {
        snap->lookupOptions = previous->lookupOptions;
        snap->modules = previous->modules;
        return snap;
    }
    std::shared_ptr<TraceNode> trace = lookupOptionsTraceNode(explain);
    // Shared across nodes: lookup_options without interpolation depend only on the files they come from.
    std::vector<const DataFile*> withOptions;
    bool consultsUnrunnable = false;
    for (const LayerState& layer : snap->layers)
        if (layer.layer->kind != Layer::Kind::Module)
            scanLevels(layer.levels, withOptions, consultsUnrunnable);
    LookupOptionsCache& shared = engineState(engine).lookupOptions;
    std::shared_ptr<const LookupOptionsTable> cached;
    if (!explain && !consultsUnrunnable)
        cached = shared.find(withOptions);
    if (cached) {
        snap->lookupOptions = std::move(cached);
    } else {
        try {
            LookupRun run(engine, scope, *snap, explain);
            std::vector<std::shared_ptr<const DataFile>> sources;
            bool interpolated = false;
            Value merged = run.mergeLookupOptions(TraceCursor(trace.get()), sources, interpolated);
            auto table = std::make_shared<const LookupOptionsTable>(merged);
            snap->lookupOptions = table;
            if (!interpolated && !explain)
                shared.store(std::move(sources), table);
        } catch (const Error& e) {
            snap->lookupOptionsError = e;
            TraceCursor(trace.get()).failed(e);
        }
        snap->lookupOptionsTrace = std::move(trace);
    }
    if (snap->lookupOptions && !snap->modules.empty())
        buildModuleOptions(engine, scope, *snap, explain);
    return snap;
}

} // namespace hiera::detail
