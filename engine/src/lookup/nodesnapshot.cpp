#include "lookup/nodesnapshot.h"

#include "interpolate/interpolation.h"
#include "lookup/enginestate.h"
#include "lookup/lookuprun.h"

#include <chrono>

namespace hiera::detail {

namespace {
long long nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

std::string brokenFileWarning(const Error& error)
{
    return std::string(error.what()) + " (file skipped; Puppet would fail the lookup)";
}

std::string unsupportedLevelWarning(const Error& why)
{
    return std::string(why.what()) + " (level skipped; Puppet would run it)";
}

bool NodeSnapshot::sameFiles(const NodeSnapshot& other) const
{
    if (layers.size() != other.layers.size())
        return false;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const auto& a = layers[i].levels;
        const auto& b = other.layers[i].levels;
        if (a.size() != b.size())
            return false;
        for (std::size_t j = 0; j < a.size(); ++j) {
            if (a[j].files.size() != b[j].files.size() || a[j].error.has_value() != b[j].error.has_value())
                return false;
            for (std::size_t k = 0; k < a[j].files.size(); ++k)
                if (a[j].files[k].file != b[j].files[k].file || a[j].files[k].candidate.path != b[j].files[k].candidate.path)
                    return false;
        }
    }
    return true;
}

std::shared_ptr<NodeSnapshot> resolveSnapshot(const Engine& engine, const Scope& scope)
{
    auto snap = std::make_shared<NodeSnapshot>();
    snap->checkedAtNs = nowNs();
    const EngineState& state = engineState(engine);
    const ProviderEnvironment env{state.files, engine.options().limits};
    const auto& layers = engine.layers();
    snap->layers.reserve(layers.size());
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const Layer& layer = layers[li];
        LayerState ls;
        ls.layer = &layer;
        ls.levels.reserve(layer.config.hierarchy.size());
        for (std::size_t lv = 0; lv < layer.config.hierarchy.size(); ++lv) {
            const Level& level = layer.config.hierarchy[lv];
            LevelState st;
            st.level = &level;
            st.provider = state.providers[li][lv].get();
            // Locations are resolved even for a level that cannot be run, so that hosts can show them.
            try {
                st.options = containsInterpolation(level.options) ? interpolateOptions(level.options, scope)
                                                                  : level.options;
                LevelLocations locs = resolveLevel(layer.config, level, scope, state.globs);
                st.datadir = std::move(locs.datadir);
                st.files.reserve(locs.candidates.size());
                for (Candidate& c : locs.candidates) {
                    std::shared_ptr<const DataFile> file = st.provider->open(c.path, st.options, env);
                    if (file->error && engine.options().skipBrokenFiles)
                        snap->warnings.push_back(brokenFileWarning(*file->error));
                    st.files.push_back({std::move(c), std::move(file)});
                }
            } catch (const Error& e) {
                st.error = e;
            }
            ls.levels.push_back(std::move(st));
        }
        snap->layers.push_back(std::move(ls));
    }
    return snap;
}

std::shared_ptr<const NodeSnapshot> buildSnapshot(const Engine& engine, const Scope& scope, bool explain,
                                                  const NodeSnapshot* previous)
{
    std::shared_ptr<NodeSnapshot> snap = resolveSnapshot(engine, scope);
    if (previous && previous->lookupOptions && !explain && snap->sameFiles(*previous)) {
        snap->lookupOptions = previous->lookupOptions;
        return snap;
    }
    std::shared_ptr<TraceNode> trace;
    if (explain) {
        trace = std::make_shared<TraceNode>();
        trace->kind = TraceNode::Kind::LookupOptions;
        trace->key = "lookup_options";
    }
    // Shared across nodes: lookup_options without interpolation depend only on the files they come from
    // (unless a level that cannot be run has a file here: merging them consults it, and that fails).
    std::vector<const DataFile*> withOptions;
    bool consultsUnrunnable = false;
    for (const LayerState& layer : snap->layers)
        for (const LevelState& level : layer.levels)
            for (const ResolvedFile& rf : level.files) {
                if (rf.file->hasLookupOptions)
                    withOptions.push_back(rf.file.get());
                consultsUnrunnable = consultsUnrunnable || (rf.file->exists && level.provider->unrunnable());
            }
    LookupOptionsCache& shared = engineState(engine).lookupOptions;
    if (!explain && !consultsUnrunnable)
        if (auto table = shared.find(withOptions)) {
            snap->lookupOptions = std::move(table);
            return snap;
        }
    try {
        LookupRun run(engine, scope, *snap, explain);
        std::vector<std::shared_ptr<const DataFile>> sources;
        bool interpolated = false;
        Value merged = run.mergeLookupOptions(TraceCursor(trace.get()), sources, interpolated);
        auto table = std::make_shared<const LookupOptionsTable>(merged);
        snap->lookupOptions = table;
        if (!interpolated)
            shared.store(std::move(sources), table);
    } catch (const Error& e) {
        snap->lookupOptionsError = e;
        TraceCursor(trace.get()).failed(e);
    }
    snap->lookupOptionsTrace = std::move(trace);
    return snap;
}

std::size_t LookupOptionsCache::KeyHash::operator()(const std::vector<const DataFile*>& k) const
{
    std::size_t h = k.size();
    for (const DataFile* p : k)
        h = h * 1099511628211ull ^ std::hash<const void*>{}(p);
    return h;
}

std::shared_ptr<const LookupOptionsTable> LookupOptionsCache::find(const std::vector<const DataFile*>& files) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(files);
    return it == m_entries.end() ? nullptr : it->second.table;
}

void LookupOptionsCache::store(std::vector<std::shared_ptr<const DataFile>> files,
                               std::shared_ptr<const LookupOptionsTable> table)
{
    std::vector<const DataFile*> key;
    key.reserve(files.size());
    for (const auto& f : files)
        key.push_back(f.get());
    std::lock_guard lock(m_mutex);
    if (m_entries.size() >= 4096)
        m_entries.clear(); // bounded: a fleet rarely has that many distinct combinations
    m_entries[std::move(key)] = Entry{std::move(files), std::move(table)};
}

void LookupOptionsCache::clear()
{
    std::lock_guard lock(m_mutex);
    m_entries.clear();
}

} // namespace hiera::detail
