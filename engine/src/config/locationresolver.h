#pragma once

// Turns a level's declared locations into candidate files for one scope (docs/hiera-reference.md §2): interpolate
// the datadir and each path / glob / mapped_paths template, join with the datadir, expand globs with
// glob(3). Existence is checked later, through the file cache.

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
};

// glob(3) results, re-read once `interval` has passed (0 = every time): in a fleet every node expands
// the same patterns, and reading a directory costs more than resolving the rest of a node.
class GlobCache
{
public:
    explicit GlobCache(std::chrono::milliseconds interval);
    std::shared_ptr<const std::vector<std::string>> expand(const std::string& pattern);
    void clear();

private:
    struct Entry
    {
        std::shared_ptr<const std::vector<std::string>> matches;
        std::chrono::steady_clock::time_point checkedAt;
    };
    std::chrono::milliseconds m_interval;
    std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_entries;
};

// Files matching a glob pattern, directories dropped, sorted bytewise.
std::vector<std::string> expandGlob(const std::string& pattern);

// Throws hiera::Error for interpolation errors in the datadir or a location.
LevelLocations resolveLevel(const Config& config, const Level& level, const Scope& scope, GlobCache& globs);

} // namespace hiera::detail
