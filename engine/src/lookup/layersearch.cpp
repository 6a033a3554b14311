// The search of one key through a node's layers (layersearch.h; Puppet's lookup_adapter.rb and the data
// providers).

#include "lookup/layersearch.h"

#include "lookup/enginestate.h"
#include "lookup/rubyregex.h"
#include "providers/valuechecks.h"

#include <hiera/merge.h>
#include <hiera/valueformat.h>

#include <algorithm>

namespace hiera::detail {

std::string_view moduleOfKey(std::string_view root)
{
    const std::size_t p = root.find("::");
    return p == std::string_view::npos ? std::string_view() : root.substr(0, p);
}

const LookupOptionsTable& LayerSearch::lookupOptions(TraceCursor trace, std::string_view module)
{
    static const LookupOptionsTable empty;
    if (m_ignoreOptions)
        return empty;
    if (m_computingLookupOptions || !m_snapshot.lookupOptions) {
        if (m_snapshot.lookupOptionsError && !m_computingLookupOptions) {
            m_optionsFailed = true;
            throw *m_snapshot.lookupOptionsError;
        }
        return empty; // lookups made while merging lookup_options itself see no options
    }
    const ModuleOptions* mod = nullptr;
    if (!module.empty() && !m_snapshot.modules.empty()) // most hierarchies have no module data: no hashing
        if (auto it = m_snapshot.modules.find(module); it != m_snapshot.modules.end())
            mod = &it->second;
    // The top-level lookup's trace starts with how lookup_options were merged (once per snapshot), the
    // module's after the global and environment ones.
    trace.with([&](TraceNode& n) {
        if (n.kind != TraceNode::Kind::Lookup || !n.children.empty() || m_invocation.depth() > 1)
            return;
        if (m_snapshot.lookupOptionsTrace)
            n.children.push_back(m_snapshot.lookupOptionsTrace);
        if (mod && mod->trace)
            n.children.push_back(mod->trace);
    });
    if (mod && mod->error) {
        m_optionsFailed = true;
        throw *mod->error;
    }
    return mod && mod->table ? *mod->table : *m_snapshot.lookupOptions;
}

std::optional<Value> LayerSearch::searchDefaultHierarchy(const LookupKey& key, std::string_view module,
                                                         const std::optional<MergeSpec>& callerMerge, TraceCursor trace,
                                                         std::shared_ptr<const LookupOptionsEntry>& entry)
{
    const auto it = m_snapshot.modules.find(module);
    if (it == m_snapshot.modules.end() || m_snapshot.layers[it->second.layer].defaultLevels.empty())
        return std::nullopt;
    const ModuleOptions& mod = it->second;
    const TraceCursor dh = trace.child(TraceNode::Kind::Message);
    dh.with([&](TraceNode& n) {
        n.message = "Searching default_hierarchy of module \"" + std::string(module) + "\"";
        if (mod.defaultTrace)
            n.children.push_back(mod.defaultTrace);
    });
    if (mod.defaultError)
        throw *mod.defaultError;
    // Its own lookup_options only: the global, environment and module ones do not apply, and neither
    // does the caller's merge (--merge, lookup(..., merge)): Puppet's lookup_default_in_module starts
    // from no strategy at all (docs/layers.md §4).
    entry = mod.defaultTable ? mod.defaultTable->select(key.root()) : nullptr;
    MergeSpec merge;
    if (entry && entry->merge)
        merge = *entry->merge;
    if (callerMerge && !(*callerMerge == merge))
        dh.with([&](TraceNode& n) {
            n.message += " (its own lookup_options decide the merge; the merge asked for does not apply)";
        });
    dh.with([&](TraceNode& n) { n.merge = merge; });
    return search(key.root(), merge, dh, {LayerSelection::Mode::DefaultHierarchy, module});
}

Value LayerSearch::mergeLookupOptions(TraceCursor trace, std::vector<std::shared_ptr<const DataFile>>& sources,
                                      bool& interpolated, LayerSelection layers)
{
    m_computingLookupOptions = true;
    m_lookupOptionsSources = &sources;
    m_lookupOptionsInterpolated = false;
    struct Done
    {
        LayerSearch& r;
        ~Done()
        {
            r.m_computingLookupOptions = false;
            r.m_lookupOptionsSources = nullptr;
        }
    } done{*this};
    MergeSpec hashMerge;
    hashMerge.strategy = MergeStrategy::Hash;
    trace.with([&](TraceNode& n) { n.merge = hashMerge; });
    std::optional<Value> merged = searchLayers("lookup_options", hashMerge, trace, /*lookupOptionsMeta=*/true, layers);
    if (merged)
        trace.outcome(TraceNode::Event::Result, *merged);
    else
        trace.event(TraceNode::Event::NotFound);
    interpolated = m_lookupOptionsInterpolated;
    return merged ? *merged : Value();
}

std::optional<Value> LayerSearch::searchLayers(const std::string& root, const MergeSpec& merge, TraceCursor trace,
                                               bool lookupOptionsMeta, LayerSelection selection)
{
    const bool first = merge.strategy == MergeStrategy::First;
    MergeFold all(merge);
    const Hash::PreparedKey prepared(root); // hashed once for every level's file
    const KeyPresence::Holders* holders = m_presence ? &m_presence->filesWith(prepared) : nullptr;
    const auto& layers = m_snapshot.layers;
    for (std::size_t li = 0; li < layers.size() && !(first && all.count() > 0); ++li) {
        const LayerState& layer = layers[li];
        if (!selection.covers(*layer.layer))
            continue;
        if (layer.layer->error)
            throw *layer.layer->error; // a module whose hiera.yaml cannot be used fails its own keys
        if (!lookupOptionsMeta)
            for (const auto& w : layer.warnings)
                m_invocation.warn(w);
        const auto& levels =
            selection.mode == LayerSelection::Mode::DefaultHierarchy ? layer.defaultLevels : layer.levels;
        const TraceCursor layerTrace = trace.child(TraceNode::Kind::Layer);
        layerTrace.with([&](TraceNode& n) {
            n.name = layer.layer->providerTitle();
            n.path = layer.layer->config.path;
            if (!first)
                n.merge = merge;
            n.children.reserve(levels.size());
        });
        MergeFold inLayer(merge);
        const int firstBit = holders ? m_presence->firstLevelBit(levels) : -1;
        for (std::size_t lv = 0; lv < levels.size() && !(first && inLayer.count() > 0); ++lv) {
            if (holders && m_presence->skips(*holders, firstBit < 0 ? -1 : firstBit + static_cast<int>(lv)))
                continue; // no file of the level holds the key, and the level has nothing else to say
            const LevelState& level = levels[lv];
            const TraceCursor levelTrace = layerTrace.child(TraceNode::Kind::Level);
            levelTrace.with([&](TraceNode& n) { n.name = level.level->name; });
            const std::size_t before = inLayer.count();
            try {
                searchLevel(level, prepared, root, merge, levelTrace, inLayer, lookupOptionsMeta, holders);
            } catch (const Error& e) {
                levelTrace.failed(e);
                throw;
            }
            if (inLayer.count() > 1 && inLayer.count() != before) {
                // Each merge step: what the fold holds once this level's value has been merged in.
                layerTrace.child(TraceNode::Kind::Merge).with([&](TraceNode& step) {
                    step.name = level.level->name;
                    step.merge = merge;
                    step.event = TraceNode::Event::Result;
                    step.value = inLayer.value();
                });
            }
        }
        if (inLayer.count() > 0) {
            layerTrace.outcome(TraceNode::Event::Result, inLayer.value());
            all.add(inLayer.value());
        } else {
            layerTrace.event(TraceNode::Event::NotFound);
        }
    }
    if (all.count() == 0)
        return std::nullopt;
    return all.result();
}

void LayerSearch::consultUnrunnable(const LevelState& level, const Error& why, TraceCursor levelTrace)
{
    bool consulted = false;
    for (const ResolvedFile& rf : level.files) {
        const TraceCursor loc = levelTrace.child(TraceNode::Kind::Location);
        loc.with([&](TraceNode& n) {
            n.originalPath = rf.candidate.originalPath;
            n.path = rf.candidate.path;
        });
        if (!rf.file->exists) {
            loc.event(TraceNode::Event::LocationNotFound);
            continue;
        }
        consulted = true;
        break;
    }
    if (!consulted) {
        levelTrace.event(TraceNode::Event::NotFound);
        return;
    }
    if (!m_invocation.options().skipUnsupportedLevels)
        throw why;
    const std::string warning = unsupportedLevelWarning(why);
    m_invocation.warn(warning);
    levelTrace.event(TraceNode::Event::Warning).message(warning);
}

void LayerSearch::searchLevel(const LevelState& level, const Hash::PreparedKey& root, const std::string& rootKey,
                              const MergeSpec& merge, TraceCursor levelTrace, MergeFold& inLayer,
                              bool lookupOptionsMeta, const KeyPresence::Holders* holders)
{
    if (level.error)
        throw *level.error;
    if (const Error* why = level.provider->unrunnable()) {
        consultUnrunnable(level, *why, levelTrace);
        return;
    }
    const bool first = merge.strategy == MergeStrategy::First;
    if (holders && !level.provider->answersFromDataHash())
        holders = nullptr;
    MergeFold inLevel(merge);
    for (const ResolvedFile& rf : level.files) {
        if (first && inLevel.count() > 0)
            break;
        const Candidate& c = rf.candidate;
        const DataFile& file = *rf.file;
        const TraceCursor loc = levelTrace.child(TraceNode::Kind::Location);
        loc.with([&](TraceNode& n) {
            n.originalPath = c.originalPath;
            n.path = c.path;
            n.key = std::string(root.text());
        });
        if (!file.exists) {
            loc.event(TraceNode::Event::LocationNotFound);
            continue;
        }
        if (file.error) {
            loc.failed(*file.error);
            if (m_invocation.options().skipBrokenFiles) {
                m_invocation.warn(brokenFileWarning(*file.error));
                continue;
            }
            throw *file.error;
        }
        for (const auto& w : file.warnings)
            m_invocation.warn(w);
        if (holders && !holders->holds(&file))
            continue; // the file lacks the key: its provider would answer nothing
        std::optional<LocationHit> hit;
        try {
            hit = level.provider->lookup(LocationQuery{c.path, file, level.options, m_invocation.options().limits, root,
                                                       rootKey, m_host, loc,
                                                       engineState(m_invocation.engine()).files.tree()});
        } catch (const Error& e) {
            loc.failed(e);
            throw;
        }
        if (!hit) {
            loc.event(TraceNode::Event::NotFound);
            continue;
        }
        if (lookupOptionsMeta && m_lookupOptionsSources) {
            m_lookupOptionsSources->push_back(rf.file);
            // Options found by a function that reads no file of ours, or interpolated, are this node's own.
            if (hit->dependsOnScope || !file.data.isHash())
                m_lookupOptionsInterpolated = true;
        }
        loc.outcome(TraceNode::Event::Found, hit->value).with([&](TraceNode& n) {
            n.location = SourceFiles::locate(hit->keyMark); // where the key is written
        });
        inLevel.add(std::move(hit->value));
    }
    if (inLevel.count() > 0) {
        levelTrace.outcome(TraceNode::Event::Result, inLevel.value());
        inLayer.add(inLevel.value());
    } else {
        levelTrace.event(TraceNode::Event::NotFound);
    }
}

} // namespace hiera::detail
