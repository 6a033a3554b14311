#pragma once

// hiera::Engine — a loaded hierarchy that answers lookups.
//
//   auto engine = hiera::Engine::load("hiera.yaml");          // throws hiera::Error
//   hiera::MapScope scope(facts);
//   hiera::LookupResult r = engine->lookup(scope, "profile::ntp.servers.0");
//   if (r.found()) use(r.value);                              // r.value.mark() says file:line
//
// An Engine is immutable once loaded; lookups are const and may run from several threads at once.
// Parsed data files are shared through a guarded cache and re-read when they change on disk. The engine
// starts no threads of its own.
//
// A lookup spans one or more layers (Puppet's global / environment / module layers); each layer is a
// hiera.yaml with its own hierarchy. One merge folds all levels of all layers in order.

#include <hiera/backend.h>
#include <hiera/config.h>
#include <hiera/error.h>
#include <hiera/layer.h>
#include <hiera/merge.h>
#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/value.h>
#include <hiera/yaml.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

class Engine;
namespace detail {
struct EngineState;
const EngineState& engineState(const Engine& engine);
}

// Parsed files named by their content (TreeStat::contentId: a git revision's blobs), shared by the
// engines a host gives the same one: two engines on two revisions of one repository parse a file the
// revisions share once (hiera/nodes/revisiondiff.h). Engines sharing one should have the same limits and
// backends. Thread-safe; it keeps every parse until the last engine holding it goes.
class ContentParseCache;
std::shared_ptr<ContentParseCache> makeContentParseCache();

struct EngineOptions
{
    ParseLimits limits;
    // How old a cached file's on-disk check may be before a lookup stats it again. 0 = every lookup.
    // Hosts that watch files themselves can call Engine::invalidate() instead.
    std::chrono::milliseconds revalidateInterval{0};
    std::size_t maxInterpolationDepth = 64; // nested lookups / re-interpolations
    std::size_t maxInterpolatedBytes = 16u << 20; // one interpolated string
    std::shared_ptr<const BackendRegistry> backends; // null = BackendRegistry::defaultRegistry()
    // Puppet fails every lookup when any existing data file of the hierarchy cannot be read or parsed
    // (lookup_options reads them all; a module's files only for that module's keys). So does the
    // engine; with this set, such a file is skipped and named in LookupResult::warnings, the lookup
    // still fails with its error, and LookupResult::unverifiedValue holds what the rest of the
    // hierarchy answers (the explorer's mode: it shows that value greyed).
    bool skipBrokenFiles = false;
    // Levels whose function this engine cannot run (a custom data_hash, hiera_vault, data_dig...) fail
    // a lookup that consults them, as Puppet does without that function (strict). With this set they
    // are skipped instead, with a warning on the level, in the trace and in LookupResult::warnings.
    bool skipUnsupportedLevels = false;
    // A PEM private key for eyaml levels whose own `pkcs7_private_key` cannot be loaded (a control
    // repository names the server's /etc/puppetlabs path; the user has a copy elsewhere). Empty: none,
    // and such values stay encrypted. Decrypted values are marked (Value::isSecret).
    std::string eyamlPrivateKey;
    // A directory for a persistent cache of parsed data files (empty = none). Entries are used only
    // for the exact file version they were made from; hiera-lookup uses ~/.cache/hiera-explorer.
    std::string diskCacheDirectory;
    // Where the hierarchy's files are read from: its hiera.yaml (Engine::load), data files, existence
    // checks and glob listings (hiera/sourcetree.h). Null: the working tree, the process's file system.
    // eyaml key files are always read from the file system.
    std::shared_ptr<const SourceTree> tree;
    // Null: this engine's parses are its own.
    std::shared_ptr<ContentParseCache> contentParses;
};

// How one lookup is asked (not to be confused with Hiera's `lookup_options` data).
struct LookupRequest
{
    std::optional<MergeSpec> merge; // overrides lookup_options when set
    bool explain = false; // build the trace
};

// The merge a lookup folded the root key's values with, and where it came from (Puppet's order: the
// caller's merge, else the key's lookup_options entry, else first).
struct MergeUsed
{
    enum class Source { Default, LookupOptions, Caller };
    MergeSpec spec;
    Source source = Source::Default;
    // The lookup_options entry (an exact key or a ^pattern) selected for the key, whether or not its
    // merge was used (a caller's merge wins; an entry may hold only convert_to). Null when none. It
    // shares the engine's table, so that reporting it costs a lookup no copy.
    std::shared_ptr<const std::string> lookupOptionsEntry;

    std::string_view entryName() const { return lookupOptionsEntry ? std::string_view(*lookupOptionsEntry) : ""; }
};
const char* mergeSourceName(MergeUsed::Source s); // "default", "lookup_options", "caller"

struct LookupResult
{
    enum class Status { Found, NotFound, Error };
    Status status = Status::NotFound;
    Value value; // the result: the root key's merged value, dug by the segments, converted
    bool rootFound = false;
    Value rootValue; // the merged value of the root key, before digging
    std::optional<Error> error;
    std::vector<std::string> warnings;
    TracePtr trace; // set when LookupRequest::explain
    // Set once the lookup has chosen its merge (unset when it failed before: bad lookup_options, a bad
    // key). For a module key answered by its default_hierarchy, that hierarchy's own choice.
    std::optional<MergeUsed> merge;
    // Error only, when the error is one Puppet fails the lookup with but the data still answers: a file
    // that must be read for lookup_options does not parse (skipped under skipBrokenFiles, or the
    // lookup_options left out), or a module's lookup_options are bad. What the rest of the data answers
    // then. Never the answer (Puppet has none); a host shows it greyed beside the error, so that the
    // user sees what the broken file is holding up.
    std::optional<Value> unverifiedValue;

    bool found() const { return status == Status::Found; }
};

// The locations of a level as a given scope makes them, for the hierarchy view.
struct ResolvedLocation
{
    enum class Status { Present, Missing, Failed };
    LocationSpec::Kind kind = LocationSpec::Kind::Path;
    std::string declared; // the template as written
    std::string interpolated; // after interpolation, relative to the datadir
    std::string path; // absolute path
    Status status = Status::Missing;
    std::string error; // Failed: the parse or read error
    // References that interpolated to nothing (e.g. trusted.certname) — why `nodes/.yaml` did not match.
    std::vector<std::string> undefinedVariables;
    bool suspicious = false; // an undefined or empty reference, or an empty path component
    std::string deployedPath; // as the deployment names it, when read from the checkout instead
    bool outsideRepository = false; // under Puppet's codedir, outside the environment opened
};

struct ResolvedLevel
{
    const Layer* layer = nullptr;
    const Level* level = nullptr;
    bool defaultHierarchy = false; // a level of a module's default_hierarchy
    std::string datadir; // absolute, interpolated
    std::vector<ResolvedLocation> locations;
    std::string error; // the level cannot be used (bad interpolation in a path or datadir...)
    // Set for a level whose function this engine cannot run: what a lookup consulting it fails with
    // (or, under skipUnsupportedLevels, the warning it is skipped with). Not an error by itself: a
    // level none of whose files exist is never consulted.
    std::string unsupported;
};

class Engine : public std::enable_shared_from_this<Engine>
{
public:
    // Loads a hiera.yaml (the global layer). Throws hiera::Error.
    static std::shared_ptr<Engine> load(const std::string& hieraYaml, EngineOptions options = {});
    static std::shared_ptr<Engine> fromConfig(Config config, EngineOptions options = {});
    static std::shared_ptr<Engine> fromLayers(std::vector<Layer> layers, EngineOptions options = {});
    ~Engine();

    const std::vector<Layer>& layers() const { return m_layers; }
    const EngineOptions& options() const { return m_options; }

    // Looks up a (possibly dotted) key. Never throws: errors come back in the result.
    LookupResult lookup(const Scope& scope, std::string_view key, const LookupRequest& request = {}) const;

    // The hierarchy as the scope makes it: every level's locations, interpolated, with file status.
    std::vector<ResolvedLevel> resolveHierarchy(const Scope& scope) const;

    // Every key of every existing data file for this scope, with dotted sub-paths into hashes and
    // arrays (for completion). Sorted, unique. lookup_options is left out.
    std::vector<std::string> keyInventory(const Scope& scope, std::size_t maxDepth = 6) const;

    // One task per data file this scope's hierarchy consults, each reading and parsing it into the
    // cache. The engine starts no threads: a host that wants the files parsed in parallel runs these
    // on its own threads before the first lookup (hiera-lookup does, on every core).
    std::vector<std::function<void()>> preloadTasks(const Scope& scope) const;

    // Every data file path this scope's hierarchy consults (present or not), for file watching; then
    // each glob pattern as matched (braces expanded), whose directory a watcher watches for new files.
    std::vector<std::string> candidateFiles(const Scope& scope) const;

    // Drops cached parses so that the next lookup re-reads from disk (all, or one file).
    void invalidate() const;
    void invalidate(const std::string& path) const;

private:
    Engine(std::vector<Layer> layers, EngineOptions options);
    friend const detail::EngineState& detail::engineState(const Engine& engine);

    std::vector<Layer> m_layers;
    EngineOptions m_options;
    std::unique_ptr<detail::EngineState> m_state; // caches and level providers, private to the engine
};

} // namespace hiera
