// lookupAcross: the per-node lookups in parallel, where each value was decided (from its marks), and
// the grouping by value.

#include <hiera/nodes/fleet.h>

#include "nodes/parallel.h"
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>

#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>

namespace hiera {

namespace {

using detail::hashMix;

// A hash that agrees with Value's ==: hash key order does not count, 0.0 equals -0.0, NaN equals NaN.
std::uint64_t groupHash(const Value& v)
{
    const auto type = static_cast<std::uint64_t>(v.type());
    switch (v.type()) {
    case Value::Type::Null:
        return hashMix(type, 0);
    case Value::Type::Boolean:
        return hashMix(type, v.asBoolean());
    case Value::Type::Integer:
        return hashMix(type, static_cast<std::uint64_t>(v.asInteger()));
    case Value::Type::Float: {
        const double d = v.asFloat();
        return hashMix(type, std::isnan(d) ? 1 : d == 0 ? 0 : std::bit_cast<std::uint64_t>(d));
    }
    case Value::Type::String:
        return hashMix(type, std::hash<std::string_view>{}(v.asString()));
    case Value::Type::Array: {
        std::uint64_t h = hashMix(type, v.asArray().size());
        for (const Value& item : v.asArray())
            h = hashMix(h, groupHash(item));
        return h;
    }
    case Value::Type::Hash: {
        std::uint64_t sum = 0;
        for (const auto& e : v.asHash())
            sum += hashMix(groupHash(e.key), groupHash(e.value));
        return hashMix(hashMix(type, v.asHash().size()), sum);
    }
    }
    return 0;
}

// The files a value's leaves (scalars, and empty arrays and hashes) were written in, in value order.
// Containers' own marks are left out: a merged container keeps the mark of whichever value it was
// merged from, which need not be where any of its content is.
void collectFiles(const Value& v, std::vector<std::uint32_t>& ids)
{
    const bool leaf = v.isScalar() || (v.isArray() && v.asArray().empty()) || (v.isHash() && v.asHash().empty());
    if (leaf && v.mark().file && std::find(ids.begin(), ids.end(), v.mark().file) == ids.end())
        ids.push_back(v.mark().file);
    if (v.isArray())
        for (const Value& item : v.asArray())
            collectFiles(item, ids);
    else if (v.isHash())
        for (const auto& e : v.asHash())
            collectFiles(e.value, ids);
}

// Which level holds a file, and where that level stands in the hierarchy (0 = searched first),
// learnt from the first node that reads it and shared by the others: the same data file is in the
// same level for every node (unless two levels' globs overlap, where the first node's level is
// reported).
class LevelNames
{
public:
    struct Level
    {
        std::string name; // empty: no level of the node holds the file (a value from elsewhere)
        std::size_t rank = SIZE_MAX; // the level's position in the node's hierarchy, layers in order
    };

    explicit LevelNames(const Engine& engine) : m_engine(engine) { }

    Level levelOf(const std::string& file, const Scope& scope)
    {
        {
            std::shared_lock lock(m_mutex);
            if (auto it = m_levels.find(file); it != m_levels.end())
                return it->second;
        }
        std::unordered_map<std::string, Level> found;
        std::size_t rank = 0;
        for (const ResolvedLevel& level : m_engine.resolveHierarchy(scope)) {
            if (!level.level)
                continue;
            std::string name = level.level->name;
            if (level.layer && level.layer->kind == Layer::Kind::Module)
                name += " (" + level.layer->displayName() + ")";
            for (const ResolvedLocation& loc : level.locations)
                if (loc.status == ResolvedLocation::Status::Present)
                    found.emplace(loc.path, Level{name, rank});
            ++rank;
        }
        std::unique_lock lock(m_mutex);
        for (auto& [path, level] : found)
            m_levels.emplace(path, level);
        // A file no level of this node holds (a value from elsewhere) is remembered as such too.
        return m_levels.emplace(file, Level()).first->second;
    }

    // SourceFiles::name, without its global lock and a fresh string for every node.
    std::string fileName(std::uint32_t id)
    {
        {
            std::shared_lock lock(m_mutex);
            if (auto it = m_names.find(id); it != m_names.end())
                return it->second;
        }
        std::string name = SourceFiles::name(id);
        std::unique_lock lock(m_mutex);
        return m_names.emplace(id, std::move(name)).first->second;
    }

private:
    const Engine& m_engine;
    std::shared_mutex m_mutex;
    std::unordered_map<std::string, Level> m_levels;
    std::unordered_map<std::uint32_t, std::string> m_names;
};

using NodeLookup = std::function<LookupResult(std::size_t node)>;

FleetNodeResult lookupNode(const NodeLookup& lookup, const Node& node, std::size_t index, LevelNames& levels)
{
    FleetNodeResult out;
    out.node = index;
    out.name = node.name;
    LookupResult r = lookup(index);
    out.status = r.status;
    if (r.status == LookupResult::Status::Error) {
        out.error = r.error ? printableLine(r.error->what()) : std::string("unknown error");
        return out;
    }
    if (r.status != LookupResult::Status::Found)
        return out;
    out.value = std::move(r.value);
    std::vector<std::uint32_t> ids;
    collectFiles(out.value, ids);
    if (ids.empty() && out.value.mark().file)
        ids.push_back(out.value.mark().file);
    for (std::uint32_t id : ids)
        out.decidingFiles.push_back(levels.fileName(id));
    // The file of the highest level that contributed stands for the value: for a value from one file,
    // that file; for a merged one, not the file of its first element (a merge's order is Puppet's, not
    // the hierarchy's), but the one searched first.
    std::size_t best = SIZE_MAX;
    for (const std::string& file : out.decidingFiles) {
        LevelNames::Level level = levels.levelOf(file, *node.scope);
        if (out.file.empty() || level.rank < best) {
            best = level.rank;
            out.file = file;
            out.level = std::move(level.name);
        }
    }
    std::sort(out.decidingFiles.begin(), out.decidingFiles.end());
    return out;
}

bool sameAnswer(const FleetGroup& g, const FleetNodeResult& n)
{
    if (g.status != n.status)
        return false;
    switch (n.status) {
    case LookupResult::Status::Found:
        return g.value == n.value;
    case LookupResult::Status::Error:
        return g.error == n.error;
    case LookupResult::Status::NotFound:
        return true;
    }
    return false;
}

void groupResults(FleetResult& result)
{
    std::unordered_multimap<std::uint64_t, std::size_t> index; // answer hash -> group
    for (std::size_t i = 0; i < result.nodes.size(); ++i) {
        FleetNodeResult& n = result.nodes[i];
        const std::uint64_t h = n.status == LookupResult::Status::Found ? groupHash(n.value)
            : n.status == LookupResult::Status::Error                   ? hashMix(1, std::hash<std::string>{}(n.error))
                                                                        : 2;
        std::size_t g = result.groups.size();
        for (auto [it, end] = index.equal_range(h); it != end; ++it)
            if (sameAnswer(result.groups[it->second], n)) {
                g = it->second;
                break;
            }
        if (g == result.groups.size()) {
            FleetGroup group;
            group.status = n.status;
            group.value = n.value;
            group.error = n.error;
            result.groups.push_back(std::move(group));
            index.emplace(h, g);
        }
        result.groups[g].members.push_back(i);
        for (const auto& f : n.decidingFiles)
            result.groups[g].decidingFiles.push_back(f);
    }
    for (auto& g : result.groups) {
        std::sort(g.decidingFiles.begin(), g.decidingFiles.end());
        g.decidingFiles.erase(std::unique(g.decidingFiles.begin(), g.decidingFiles.end()), g.decidingFiles.end());
    }
    // Groups were made in order of their first member, so a stable sort by size keeps that for ties.
    std::stable_sort(result.groups.begin(), result.groups.end(),
                     [](const FleetGroup& a, const FleetGroup& b) { return a.members.size() > b.members.size(); });
    for (std::size_t g = 0; g < result.groups.size(); ++g)
        for (std::size_t m : result.groups[g].members)
            result.nodes[m].group = g;
}

} // namespace

std::size_t FleetResult::count(LookupResult::Status status) const
{
    return static_cast<std::size_t>(
        std::count_if(nodes.begin(), nodes.end(), [&](const FleetNodeResult& n) { return n.status == status; }));
}

const char* fleetStatusName(LookupResult::Status status)
{
    switch (status) {
    case LookupResult::Status::Found:
        return "found";
    case LookupResult::Status::NotFound:
        return "not found";
    case LookupResult::Status::Error:
        return "error";
    }
    return "?";
}

static FleetResult runAcross(const Engine& engine, const NodeLibrary& library, std::string_view key,
                             const NodeLookup& lookup, const FleetOptions& options)
{
    FleetResult result;
    result.key = std::string(key);
    const auto& nodes = library.nodes();
    // Which nodes, by library index: all of them, or those asked for that the library has.
    std::vector<std::size_t> asked;
    if (options.nodes) {
        asked.reserve(options.nodes->size());
        for (std::size_t i : *options.nodes)
            if (i < nodes.size())
                asked.push_back(i);
    } else {
        asked.resize(nodes.size());
        for (std::size_t i = 0; i < nodes.size(); ++i)
            asked[i] = i;
    }
    result.total = asked.size();
    result.libraryNodes = nodes.size();
    std::vector<FleetNodeResult> slots(asked.size());
    std::vector<char> done(asked.size(), 0);
    LevelNames levels(engine);

    std::atomic<std::size_t> finished{0};
    detail::parallelItems(asked.size(), options.executor, options.stop, [&](std::size_t k) {
        const std::size_t i = asked[k];
        try {
            slots[k] = lookupNode(lookup, nodes[i], i, levels);
        } catch (const std::exception& e) { // lookups do not throw; a failure here is ours (bad_alloc)
            slots[k] = FleetNodeResult{};
            slots[k].node = i;
            slots[k].name = nodes[i].name;
            slots[k].status = LookupResult::Status::Error;
            slots[k].error = printableLine(e.what());
        }
        done[k] = 1;
        const std::size_t n = ++finished;
        if (options.progress)
            options.progress(n, asked.size());
    });

    result.nodes.reserve(finished.load());
    for (std::size_t i = 0; i < asked.size(); ++i) {
        if (done[i])
            result.nodes.push_back(std::move(slots[i]));
        else
            result.cancelled = true;
    }
    groupResults(result);
    return result;
}

FleetResult lookupAcross(const Engine& engine, const NodeLibrary& library, std::string_view key,
                         const LookupRequest& request, const FleetOptions& options)
{
    return runAcross(
        engine, library, key, [&](std::size_t i) { return engine.lookup(*library.nodes()[i].scope, key, request); },
        options);
}

FleetContexts::FleetContexts(std::shared_ptr<const Engine> engine, const NodeLibrary& library)
    : m_engine(std::move(engine))
    , m_library(library)
{
    m_contexts.reserve(library.size());
    for (const Node& node : library.nodes())
        m_contexts.push_back(std::make_unique<Context>(m_engine, node.scope));
}

FleetResult lookupAcross(const FleetContexts& contexts, std::string_view key, const LookupRequest& request,
                         const FleetOptions& options)
{
    return runAcross(
        contexts.engine(), contexts.library(), key,
        [&](std::size_t i) { return contexts.context(i).lookup(key, request); }, options);
}

} // namespace hiera
