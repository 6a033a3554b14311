#pragma once

// Turns a level's declared locations into candidate files for one scope (semantics §2): interpolate
// the datadir and each path / glob / mapped_paths template, join with the datadir, expand globs with
// glob(3). Existence is checked later, through the file cache.

#include <hiera/config.h>
#include <hiera/scope.h>

#include <string>
#include <vector>

namespace hiera::detail {

struct Candidate
{
    LocationSpec::Kind kind = LocationSpec::Kind::Path;
    std::string declared;     // as written
    std::string originalPath; // Puppet's "Original path": the declared path, or the joined glob pattern
    std::string interpolated; // relative (or absolute) path after interpolation
    std::string path;         // absolute path
    std::vector<std::string> undefinedVariables;
    bool suspicious = false;
};

struct LevelLocations
{
    std::string datadir; // absolute
    std::vector<Candidate> candidates;
};

// Throws hiera::Error for interpolation errors in the datadir or a location.
LevelLocations resolveLevel(const Config& config, const Level& level, const Scope& scope);

} // namespace hiera::detail
