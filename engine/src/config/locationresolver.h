#pragma once

// Turns a level's declared locations into candidate files for one scope (docs/hiera-reference.md §2): interpolate
// the datadir and each path / glob / mapped_paths template, join with the datadir, expand globs as
// Ruby's Dir.glob does, over the engine's source tree (hiera/sourcetree.h). Existence is checked later, through the
// file cache.

#include <hiera/config.h>
#include <hiera/scope.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace hiera::detail {

struct Candidate
{
    LocationSpec::Kind kind = LocationSpec::Kind::Path;
    std::string declared; // as written
    std::string originalPath; // Puppet's "Original path": the declared path, or the joined glob pattern
    std::string interpolated; // relative (or absolute) path after interpolation
    std::string path; // absolute path
    std::vector<std::string> undefinedVariables;
    bool suspicious = false;
    std::string deployedPath; // the path as Puppet's deployment names it, when `path` was mapped from it
    bool outsideRepository = false; // under a deployment root (codedir) that no mapping covers
};

struct LevelLocations
{
    std::string datadir; // absolute
    std::vector<Candidate> candidates;
    // Each glob pattern as matched, braces expanded and escapes removed (/repo/data/os/*.yaml): a host
    // that watches for new files watches their directories. Then, for every directory the expansion
    // read (each one a `**/` walked, each one a `*/` led to), that directory joined with the
    // pattern's last component (/repo/data/g/x/*.yaml), so that a watcher watches it too.
    std::vector<std::string> globPatterns;
};

// What a glob pattern matched, and the directories read to find it (where a new file could change
// the matches).
struct GlobExpansion
{
    std::vector<std::string> matches;
    std::vector<std::string> directories;
};

// Glob expansions, re-read once `interval` has passed (0 = every time): in a fleet every node expands
// the same patterns, and reading a directory costs more than resolving the rest of a node.
class GlobCache
{
public:
    // Directories are read from `tree` (null: the working tree).
    GlobCache(std::chrono::milliseconds interval, std::shared_ptr<const SourceTree> tree = {});
    std::shared_ptr<const GlobExpansion> expand(const std::string& pattern);
    void clear();

private:
    struct Entry
    {
        std::shared_ptr<const GlobExpansion> matches;
        std::chrono::steady_clock::time_point checkedAt;
    };
    std::chrono::milliseconds m_interval;
    std::shared_ptr<const SourceTree> m_tree;
    std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_entries;
};

// Files matching a glob pattern, directories dropped: as Ruby's Dir.glob (what Puppet's glob and globs
// run), brace alternatives `{a,b}` expanded first and appended in the order they are written, each
// matched as Ruby's glob_helper does: `*`, `?`, `[..]` within one component (never a leading dot),
// `**/` for zero or more directories (hidden ones and symbolic links skipped), each directory's
// entries in bytewise order, depth first. Throws hiera::Error(ConfigInvalidValue) beyond
// maxBraceAlternatives. Directories are listed and entries typed through `tree`'s list, lstat and stat.
GlobExpansion expandGlob(const SourceTree& tree, const std::string& pattern);

// Ruby's brace expansion of a glob pattern (dir.c, ruby_brace_expand): the first outermost `{...}` is
// replaced by each of its comma-separated alternatives in turn, recursively; a backslash escapes the
// next character; an unclosed `{` expands to nothing, a lone `}` is literal. Escapes are kept.
constexpr std::size_t maxBraceAlternatives = 1024;
std::vector<std::string> expandBraces(const std::string& pattern);

// The pattern with glob escapes removed (`\*` is `*`): the path a watcher is given.
std::string unescapeGlob(const std::string& pattern);

// Throws hiera::Error for interpolation errors in the datadir or a location.
LevelLocations resolveLevel(const Config& config, const Level& level, const Scope& scope, GlobCache& globs);

} // namespace hiera::detail
