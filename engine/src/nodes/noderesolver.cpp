#include "nodes/noderesolver.h"

#include "lookup/snapshotbuilder.h"

#include <hiera/lookupkey.h>

#include <algorithm>
#include <set>

namespace hiera::detail {

std::string errorLine(const LookupResult& r)
{
    return r.error ? printableLine(r.error->what()) : std::string();
}

bool sameAnswer(const LookupResult& x, const LookupResult& y)
{
    if (x.status != y.status)
        return false;
    switch (x.status) {
    case LookupResult::Status::Found:
        return x.value == y.value;
    case LookupResult::Status::NotFound:
        return true;
    case LookupResult::Status::Error:
        return errorLine(x) == errorLine(y);
    }
    return false;
}

KeyDifference::Side answerSide(const NodeResolver& node, LookupResult r)
{
    KeyDifference::Side s;
    s.status = r.status;
    s.merge = std::move(r.merge);
    if (r.status == LookupResult::Status::Error)
        s.error = errorLine(r);
    if (r.found()) {
        s.files = node.leafFiles(r.value);
        s.value = std::move(r.value);
    }
    return s;
}

NodeResolver::NodeResolver(const Engine& engine, const Scope& scope, Keys keys)
    : m_engine(engine)
    , m_scope(scope)
    , m_snapshot(buildSnapshot(engine, scope, /*explain=*/false, nullptr))
{
    if (keys == Keys::Many)
        m_presence.emplace(*m_snapshot);
    std::size_t rank = 0;
    for (const LayerState& layer : m_snapshot->layers)
        for (const auto* levels : {&layer.levels, &layer.defaultLevels})
            for (const LevelState& level : *levels)
                for (const ResolvedFile& rf : level.files)
                    if (rf.file && rf.file->exists)
                        m_files.try_emplace(
                            SourceFiles::intern(rf.candidate.path),
                            FileInfo{level.level, layer.layer->displayName(), rf.candidate.path, rank++});
}

std::vector<std::string_view> NodeResolver::rootKeys() const
{
    // Views into the snapshot's parsed files (alive as long as it is): no key is copied.
    std::vector<std::string_view> views;
    forEachRootEntry(*m_snapshot, [&](const Hash::Entry& e) { views.push_back(e.key.asString()); });
    std::sort(views.begin(), views.end());
    views.erase(std::unique(views.begin(), views.end()), views.end());
    return views;
}

LookupResult NodeResolver::lookup(std::string_view root) const
{
    LookupRun run(m_engine, m_scope, *m_snapshot, /*explain=*/false);
    run.setSubLookupMemo(&m_subLookups);
    if (m_presence)
        run.setKeyPresence(&*m_presence);
    if (!root.empty() && LookupKey::isSingleSegment(root))
        return run.run(root, {});
    return run.run(LookupKey::forRoot(root), {});
}

const NodeResolver::FileInfo* NodeResolver::fileInfo(std::uint32_t id) const
{
    const auto it = m_files.find(id);
    return it == m_files.end() ? nullptr : &it->second;
}

ResolvedKey NodeResolver::resolve(std::string_view root, std::vector<std::string>& warnings) const
{
    LookupResult r = lookup(root);
    ResolvedKey k;
    k.key = std::string(root);
    k.status = r.status;
    k.merge = std::move(r.merge);
    for (auto& w : r.warnings)
        warnings.push_back(std::move(w));
    if (r.status == LookupResult::Status::Error) {
        k.error = errorLine(r);
        return k;
    }
    if (!r.found())
        return k;
    k.value = std::move(r.value);
    // A value built by the merge (a unique array) has no mark of its own, and a merged hash keeps the
    // mark of whichever value the merge started from (often the lowest level's): the winning file is
    // then the one of its highest-priority leaf. A value from one file keeps its own mark (the line of
    // the key's value, not of one of its leaves).
    // Only a merge mixes files: a first-found value is walked for nothing (a fifth of all-keys' time).
    SourceMark mark = k.value.mark();
    const bool merged = k.merge && k.merge->spec.strategy != MergeStrategy::First;
    if (!mark.isValid() || (merged && (k.value.isArray() || k.value.isHash()))) {
        const SourceMark top = topLeafMark(k.value);
        if (!mark.isValid() || (top.isValid() && rankOf(top.file) < rankOf(mark.file)))
            mark = top;
    }
    if (const FileInfo* info = fileInfo(mark.file)) {
        k.location = SourceLocation{info->path, static_cast<int>(mark.line), static_cast<int>(mark.column)};
        k.level = info->level->name;
        k.layer = info->layerName;
    } else if (mark.isValid()) {
        k.location = SourceFiles::locate(mark); // a file outside the node's hierarchy
    }
    return k;
}

bool NodeResolver::shareableFiles(std::vector<std::shared_ptr<const DataFile>>& files) const
{
    files.clear();
    const NodeSnapshot& s = *m_snapshot;
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

bool NodeResolver::hasLayerOfModule(std::string_view root) const
{
    const std::string_view module = moduleOfKey(root);
    return !module.empty() && m_snapshot->modules.find(module) != m_snapshot->modules.end();
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

std::size_t NodeResolver::rankOf(std::uint32_t file) const
{
    const FileInfo* info = fileInfo(file);
    return info ? info->rank : m_files.size();
}

SourceMark NodeResolver::topLeafMark(const Value& v) const
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

std::vector<std::string> NodeResolver::leafFiles(const Value& v) const
{
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
        const FileInfo* info = fileInfo(id);
        // A file outside the node's hierarchy (a value aliased from elsewhere) sorts after its own.
        files.push_back({info ? info->rank : m_files.size(), info ? info->path : SourceFiles::name(id)});
    }
    std::sort(files.begin(), files.end(),
              [](const Ranked& x, const Ranked& y) { return std::tie(x.rank, x.name) < std::tie(y.rank, y.name); });
    std::vector<std::string> out;
    out.reserve(files.size());
    for (auto& f : files)
        out.push_back(std::move(f.name));
    return out;
}

std::vector<std::string> NodeResolver::leafSources(const Value& v)
{
    std::set<std::string> out;
    forEachLeafMark(v,
                    [&](const SourceMark& m) { out.insert(SourceFiles::name(m.file) + ":" + std::to_string(m.line)); });
    return {out.begin(), out.end()};
}

} // namespace hiera::detail
