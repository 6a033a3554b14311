#include "lookup/keypresence.h"
#include "lookup/lookupoptions.h"
#include "lookup/lookuprun.h"
#include "lookup/nodesnapshot.h"
#include "lookup/snapshotbuilder.h"

#include <hiera/lookupkey.h>
#include <hiera/nodelookups.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace hiera {

using namespace detail;

struct NodeLookups::Impl
{
    struct FileInfo
    {
        const Level* level = nullptr;
        std::string layerName;
        std::string path;
        std::size_t rank = 0; // position in the hierarchy: 0 = highest priority
    };

    Impl(const Engine& engine, const Scope& scope) : engine(engine), scope(scope) { }

    const FileInfo* fileInfo(std::uint32_t id) const
    {
        const auto it = files.find(id);
        return it == files.end() ? nullptr : &it->second;
    }
    // The file's position in the node's hierarchy (after every file of it when it is not one).
    std::size_t rankOf(std::uint32_t file) const
    {
        const FileInfo* info = fileInfo(file);
        return info ? info->rank : files.size();
    }
    // The mark of the leaf of `v` written in the highest-priority file (first of them in `v`).
    SourceMark topLeafMark(const Value& v) const;

    const Engine& engine;
    const Scope& scope;
    std::shared_ptr<const NodeSnapshot> snapshot;
    // By SourceMark file id: the node's files are known once, so a mark maps to its level without
    // comparing paths (Engine::resolveHierarchy gives the same mapping by path, at a higher cost).
    std::unordered_map<std::uint32_t, FileInfo> files;
    std::optional<KeyPresence> presence; // KeyIndex::Indexed
    mutable SubLookupMemo subLookups;
};

namespace {
// Calls f(layer, level, file) for every file of the snapshot's hierarchy, highest priority first; f
// returns true to stop.
template <typename F>
void forEachResolvedFile(const NodeSnapshot& snapshot, F&& f)
{
    for (const LayerState& layer : snapshot.layers)
        for (const auto* levels : {&layer.levels, &layer.defaultLevels})
            for (const LevelState& level : *levels)
                for (const ResolvedFile& rf : level.files)
                    if (f(layer, level, rf))
                        return;
}
} // namespace

NodeLookups::NodeLookups(const Engine& engine, const Scope& scope, KeyIndex keys)
    : m_impl(std::make_unique<Impl>(engine, scope))
{
    Impl& d = *m_impl;
    d.snapshot = buildSnapshot(engine, scope, /*explain=*/false, nullptr);
    if (keys == KeyIndex::Indexed)
        d.presence.emplace(*d.snapshot);
    std::size_t rank = 0;
    forEachResolvedFile(*d.snapshot, [&](const LayerState& layer, const LevelState& level, const ResolvedFile& rf) {
        if (rf.file && rf.file->exists)
            d.files.try_emplace(SourceFiles::intern(rf.candidate.path),
                                Impl::FileInfo{level.level, layer.layer->displayName(), rf.candidate.path, rank++});
        return false;
    });
}

NodeLookups::~NodeLookups() = default;

std::vector<std::string_view> NodeLookups::rootKeys() const
{
    // Views into the snapshot's parsed files (alive as long as it is): no key is copied.
    std::vector<std::string_view> views;
    forEachRootEntry(*m_impl->snapshot, [&](const Hash::Entry& e) { views.push_back(e.key.asString()); });
    std::sort(views.begin(), views.end());
    views.erase(std::unique(views.begin(), views.end()), views.end());
    return views;
}

LookupResult NodeLookups::lookup(std::string_view root) const
{
    const Impl& d = *m_impl;
    LookupRun run(d.engine, d.scope, *d.snapshot, /*explain=*/false);
    run.setSubLookupMemo(&d.subLookups);
    if (d.presence)
        run.setKeyPresence(&*d.presence);
    if (!root.empty() && LookupKey::isSingleSegment(root))
        return run.run(root, {});
    return run.run(LookupKey::forRoot(root), {});
}

NodeLookups::Place NodeLookups::placeOf(const LookupResult& answer) const
{
    Place place;
    if (!answer.found())
        return place;
    // A value built by the merge (a unique array) has no mark of its own, and a merged hash keeps the
    // mark of whichever value the merge started from (often the lowest level's): the winning file is
    // then the one of its highest-priority leaf. A value from one file keeps its own mark (the line of
    // the key's value, not of one of its leaves).
    // Only a merge mixes files: a first-found value is walked for nothing (a fifth of all-keys' time).
    const Impl& d = *m_impl;
    const Value& value = answer.value;
    SourceMark mark = value.mark();
    const bool merged = answer.merge && answer.merge->spec.strategy != MergeStrategy::First;
    if (!mark.isValid() || (merged && (value.isArray() || value.isHash()))) {
        const SourceMark top = d.topLeafMark(value);
        if (!mark.isValid() || (top.isValid() && d.rankOf(top.file) < d.rankOf(mark.file)))
            mark = top;
    }
    if (const Impl::FileInfo* info = d.fileInfo(mark.file)) {
        place.location = SourceLocation{info->path, static_cast<int>(mark.line), static_cast<int>(mark.column)};
        place.level = info->level->name;
        place.layer = info->layerName;
    } else if (mark.isValid()) {
        place.location = SourceFiles::locate(mark); // a file outside the node's hierarchy
    }
    return place;
}

void NodeLookups::forEachDataFile(const std::function<void(const DataFile&)>& f) const
{
    forEachResolvedFile(*m_impl->snapshot, [&](const LayerState&, const LevelState&, const ResolvedFile& rf) {
        if (rf.file)
            f(*rf.file);
        return false;
    });
}

std::shared_ptr<const DataFile> NodeLookups::fileAt(std::string_view path) const
{
    std::shared_ptr<const DataFile> found;
    forEachResolvedFile(*m_impl->snapshot, [&](const LayerState&, const LevelState&, const ResolvedFile& rf) {
        if (rf.file && rf.candidate.path == path)
            found = rf.file;
        return found != nullptr;
    });
    return found;
}

const std::shared_ptr<const LookupOptionsTable>& NodeLookups::optionsTable() const
{
    return m_impl->snapshot->lookupOptions;
}

const void* NodeLookups::optionsEntry(const LookupOptionsTable& table, std::string_view root)
{
    return table.select(std::string(root)).get();
}

bool NodeLookups::shareableFiles(std::vector<std::shared_ptr<const DataFile>>& files) const
{
    files.clear();
    const NodeSnapshot& s = *m_impl->snapshot;
    // Skipped files and levels add warnings to every lookup; a failed lookup_options merge fails it.
    if (!s.lookupOptions || s.lookupOptionsError || !s.warnings.empty() || !s.brokenFiles.empty())
        return false;
    for (const LayerState& layer : s.layers) {
        if (layer.layer->kind == Layer::Kind::Module) // it answers only its own module's keys
            continue;
        if (!layer.warnings.empty())
            return false;
        for (const LevelState& level : layer.levels) {
            if (level.error || !level.level || level.level->kind != BackendKind::DataHash || !level.provider
                || level.provider->unrunnable())
                return false;
            for (const ResolvedFile& rf : level.files) {
                if (!rf.file)
                    return false;
                if (!rf.file->exists)
                    continue;
                if (rf.file->error || !(rf.file->data.isHash() || rf.file->data.isNull()))
                    return false;
                files.push_back(rf.file);
            }
        }
    }
    return true;
}

bool NodeLookups::answersFollowFiles() const
{
    for (const LayerState& layer : m_impl->snapshot->layers)
        for (const auto* levels : {&layer.levels, &layer.defaultLevels})
            for (const LevelState& level : *levels) {
                if (!level.level || !level.provider)
                    return false;
                if (level.error || level.provider->unrunnable() || level.level->kind == BackendKind::DataHash
                    || (level.level->kind == BackendKind::LookupKey && level.level->function == "eyaml_lookup_key"))
                    continue;
                return false;
            }
    return true;
}

bool NodeLookups::hasLayerOfModule(std::string_view root) const
{
    const std::string_view module = moduleOfKey(root);
    return !module.empty() && m_impl->snapshot->modules.find(module) != m_impl->snapshot->modules.end();
}

namespace {
// Calls f(mark) for every leaf: scalars and empty collections.
template <typename F>
void forEachLeafMark(const Value& v, F&& f)
{
    if (v.isArray() && !v.asArray().empty()) {
        for (const Value& e : v.asArray())
            forEachLeafMark(e, f);
    } else if (v.isHash() && !v.asHash().empty()) {
        for (const auto& e : v.asHash())
            forEachLeafMark(e.value, f);
    } else if (v.mark().isValid()) {
        f(v.mark());
    }
}
} // namespace

SourceMark NodeLookups::Impl::topLeafMark(const Value& v) const
{
    SourceMark best;
    std::size_t bestRank = 0;
    std::uint32_t lastFile = 0; // leaves come in runs from one file: look its rank up once a run
    std::size_t lastRank = 0;
    forEachLeafMark(v, [&](const SourceMark& m) {
        if (m.file != lastFile || lastFile == 0) {
            lastFile = m.file;
            lastRank = rankOf(m.file);
        }
        const std::size_t rank = lastRank;
        if (!best.isValid() || rank < bestRank) {
            best = m;
            bestRank = rank;
        }
    });
    return best;
}

std::vector<std::string> NodeLookups::leafFiles(const Value& v) const
{
    const Impl& d = *m_impl;
    std::unordered_set<std::uint32_t> ids;
    forEachLeafMark(v, [&](const SourceMark& m) { ids.insert(m.file); });
    struct Ranked
    {
        std::size_t rank;
        std::string name;
    };
    std::vector<Ranked> files;
    files.reserve(ids.size());
    for (std::uint32_t id : ids) {
        const Impl::FileInfo* info = d.fileInfo(id);
        // A file outside the node's hierarchy (a value aliased from elsewhere) sorts after its own.
        files.push_back({info ? info->rank : d.files.size(), info ? info->path : SourceFiles::name(id)});
    }
    std::sort(files.begin(), files.end(),
              [](const Ranked& x, const Ranked& y) { return std::tie(x.rank, x.name) < std::tie(y.rank, y.name); });
    std::vector<std::string> out;
    out.reserve(files.size());
    for (auto& f : files)
        out.push_back(std::move(f.name));
    return out;
}

std::vector<std::string> NodeLookups::leafSources(const Value& v)
{
    std::set<std::string> out;
    forEachLeafMark(v,
                    [&](const SourceMark& m) { out.insert(SourceFiles::name(m.file) + ":" + std::to_string(m.line)); });
    return {out.begin(), out.end()};
}

} // namespace hiera
