#pragma once

// What a lookup needs to know about one scope before it looks at any key: every level's candidate
// files (interpolated, globs expanded) with their parsed data from the engine's cache, and the merged
// lookup_options. A Context keeps one snapshot across lookups; Engine::lookup builds one per call.

#include "cache/filecache.h"
#include "config/locationresolver.h"
#include "lookup/lookupoptions.h"
#include "providers/levelprovider.h"

#include <hiera/engine.h>

#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace hiera::detail {

struct ResolvedFile
{
    Candidate candidate;
    std::shared_ptr<const DataFile> file;
};

struct LevelState
{
    const Level* level = nullptr;
    const LevelProvider* provider = nullptr;
    Value options; // the level's options, interpolated for the scope
    std::optional<Error> error; // raised when a lookup reaches this level
    std::string datadir;
    std::vector<ResolvedFile> files;
};

struct LayerState
{
    const Layer* layer = nullptr;
    std::vector<LevelState> levels;
    std::vector<LevelState> defaultLevels; // a module's default_hierarchy
    // A module layer's notes for lookups that consult it: keys outside the module's namespace, dropped.
    std::vector<std::string> warnings;
};

// A module's lookup_options: its own merged below the global and environment ones (for its keys), and
// its default_hierarchy's own.
struct ModuleOptions
{
    std::size_t layer = 0; // index in NodeSnapshot::layers
    std::shared_ptr<const LookupOptionsTable> table; // null: the global + environment table applies
    std::optional<Error> error;
    std::shared_ptr<TraceNode> trace;
    std::shared_ptr<const LookupOptionsTable> defaultTable;
    std::optional<Error> defaultError;
    std::shared_ptr<TraceNode> defaultTrace;
};

struct NodeSnapshot
{
    std::vector<LayerState> layers;
    std::shared_ptr<const LookupOptionsTable> lookupOptions;
    std::optional<Error> lookupOptionsError;
    std::shared_ptr<TraceNode> lookupOptionsTrace; // only in snapshots built for explain
    // By module name; looked up with the key's module as a string_view, without allocating.
    struct NameHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, ModuleOptions, NameHash, std::equal_to<>> modules;
    // Files skipped under EngineOptions::skipBrokenFiles: every lookup reports them, even one answered
    // before it reaches them (lookup_options read them all).
    std::vector<std::string> warnings;
    // Those files, with their layer: what fails a lookup that reads that layer for lookup_options.
    struct BrokenFile
    {
        std::size_t layer = 0;
        Error error;
    };
    std::vector<BrokenFile> brokenFiles;
    long long checkedAtNs = 0;

    // True when both resolve to the same files with the same parsed content.
    bool sameFiles(const NodeSnapshot& other) const;
};

// The warning for a file skipped under EngineOptions::skipBrokenFiles.
std::string brokenFileWarning(const Error& error);
// The warning for a level skipped under EngineOptions::skipUnsupportedLevels.
std::string unsupportedLevelWarning(const Error& why);

// Every top-level entry that answers a lookup in this snapshot's data files, in hierarchy order (a
// key may come more than once): lookup_options, non-string keys, files that failed and a module's
// keys outside its namespace are left out. The key inventory and the all-keys views walk this.
void forEachRootEntry(const NodeSnapshot& snapshot, const std::function<void(const Hash::Entry&)>& f);

// lookup_options merged from files without interpolation depend only on which files they come from;
// hosts that look up many nodes share those tables here.
class LookupOptionsCache
{
public:
    std::shared_ptr<const LookupOptionsTable> find(const std::vector<const DataFile*>& files) const;
    void store(std::vector<std::shared_ptr<const DataFile>> files, std::shared_ptr<const LookupOptionsTable> table);
    void clear();

private:
    struct Entry
    {
        std::vector<std::shared_ptr<const DataFile>> files; // keeps the keys alive and unique
        std::shared_ptr<const LookupOptionsTable> table;
    };
    struct KeyHash
    {
        std::size_t operator()(const std::vector<const DataFile*>& k) const;
    };
    mutable std::mutex m_mutex;
    std::unordered_map<std::vector<const DataFile*>, Entry, KeyHash> m_entries;
};

} // namespace hiera::detail
