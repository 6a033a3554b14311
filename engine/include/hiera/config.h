#pragma once

// hiera.yaml version 5 (docs/seed-rules.md §2): the parsed, validated configuration of one hierarchy.
//
// Parsing checks everything that can be checked without facts; every rejection is a hiera::Error whose
// location names the file, line and column of the offending key. Interpolation of locations happens at
// lookup time, against the caller's Scope (see LocationResolver).

#include <hiera/sourcelocation.h>
#include <hiera/sourcetree.h>
#include <hiera/value.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

// How a backend is called: a data_hash function returns a whole file's hash; data_dig and lookup_key
// functions are asked per key (docs/seed-rules.md §2.5 reserved them; this engine runs lookup_key for eyaml).
enum class BackendKind { DataHash, DataDig, LookupKey };
const char* backendKindName(BackendKind kind); // "data_hash", "data_dig", "lookup_key"

struct LocationSpec
{
    enum class Kind { Path, Glob, MappedPaths };
    Kind kind = Kind::Path;
    std::string pattern; // path, glob or mapped_paths template, as written (uninterpolated)
    std::string scopeKey; // mapped_paths only
    std::string loopVariable; // mapped_paths only
    SourceLocation location; // where it is written in hiera.yaml
};

struct Level
{
    std::string name;
    BackendKind kind = BackendKind::DataHash;
    std::string function = "yaml_data";
    bool backendInherited = false; // the backend came from defaults (or the built-in fallback)
    std::string datadir; // as written (or inherited, or "data"); may contain %{...}
    std::vector<LocationSpec> locations; // candidate order: path, paths, glob, globs, mapped_paths
    Value options; // a Hash, or null; interpolated per lookup
    SourceLocation location; // where the level's entry starts
};

// An absolute path as Puppet deploys it, and where those files are here: a checkout of a control
// repository opened as the environment r10k deploys under $environmentpath/<name> (docs/layers.md,
// "Deployed paths").
struct DeployedPath
{
    std::string deployed; // "/etc/puppetlabs/code/environments/production"
    std::string local; // "/home/me/control-repo"
};

struct Config
{
    // Which layer a hiera.yaml is written for: `default_hierarchy` is allowed in a module's only
    // (docs/layers.md §4; elsewhere it stays docs/seed-rules.md §2's parse error).
    enum class Use { Global, Environment, Module };

    std::string path; // the hiera.yaml file ("" for text parsed without a file)
    std::string directory; // the base for relative datadirs
    // Absolute datadirs and paths under a `deployed` prefix are read under its `local` one; one under a
    // deployment root (Puppet's codedir) that no mapping covers lies outside the repository. Set by
    // Environment::discover; empty for a hiera.yaml read alone.
    std::vector<DeployedPath> deployedPaths;
    std::vector<std::string> deploymentRoots;
    std::vector<Level> hierarchy;
    bool hierarchyDeclared = false; // false: Puppet's default hierarchy (Common -> common.yaml) is used
    // A module layer's `default_hierarchy`: searched, with its own lookup_options, only when no layer
    // found the key. Its level names may repeat the hierarchy's.
    std::vector<Level> defaultHierarchy;

    // Parses hiera.yaml text. `baseDirectory` resolves relative datadirs; `fileName` names the source
    // in messages (defaults to <baseDirectory>/hiera.yaml).
    static Config parse(std::string_view text, const std::string& baseDirectory, const std::string& fileName = {},
                        Use use = Use::Global);
    // Reads and parses a hiera.yaml file: from the working tree, or from `tree` (hiera/sourcetree.h).
    static Config load(const std::string& path, Use use = Use::Global);
    static Config load(const SourceTree& tree, const std::string& path, Use use = Use::Global);
};

} // namespace hiera
