#pragma once

// Level providers: how a lookup runs one hierarchy level, one per backend kind (Puppet's
// DataHashFunctionProvider, LookupKeyFunctionProvider...). The lookup (lookup/lookuprun.cpp) walks
// layers, levels and locations, folds and traces; for each location it asks the level's provider for
// the root key. Providers are made once per level when the engine is built, from the
// BackendRegistry, by makeLevelProvider (the one place that knows the kinds).

#include "cache/filecache.h"
#include "config/locationresolver.h"
#include "trace/tracecursor.h"

#include <hiera/backend.h>
#include <hiera/config.h>
#include <hiera/value.h>

#include <memory>
#include <optional>
#include <string>

namespace hiera::detail {

class InterpolationHost;

// What a provider needs from the engine to open a location.
struct ProviderEnvironment
{
    FileCache& files;
    const ParseLimits& limits;
};

// One root key asked at one opened location.
struct LocationQuery
{
    const std::string& path;
    const DataFile& file; // exists and has no error
    const Value& options; // the level's options, interpolated for the scope
    const ParseLimits& limits;
    const Hash::PreparedKey& root;
    const std::string& rootKey; // root's text, for functions that take a std::string
    InterpolationHost& host; // scope, nested lookups, warnings, limits
    TraceCursor trace; // the location's trace node
    const SourceTree& tree; // what the location is read from (LookupKeyContext::read)
};

// The value a location holds for the root key.
struct LocationHit
{
    Value value;
    SourceMark keyMark; // where the key is written (the trace's file:line of "Found key")
    bool dependsOnScope = false; // interpolation was involved (lookup_options so found are per node)
};

class LevelProvider
{
public:
    virtual ~LevelProvider() = default;

    // Reads one candidate location for a scope's snapshot: parses it through the engine's shared
    // cache, or only checks that it exists. Never throws: a failure is recorded in the DataFile.
    virtual std::shared_ptr<const DataFile> open(const std::string& path, const Value& options,
                                                 const ProviderEnvironment& env) const = 0;

    // The root key at an opened, existing, readable location; nullopt when it is not there. Throws
    // hiera::Error (interpolation, decryption...).
    virtual std::optional<LocationHit> lookup(const LocationQuery& query) const = 0;

    // Set for a level this engine cannot run: what a lookup that consults one of its existing
    // locations fails with (docs/seed-rules.md §2's message for data_dig and lookup_key).
    virtual const Error* unrunnable() const { return nullptr; }
    // True when lookup() answers exactly from the opened file's top-level hash (a data_hash level):
    // a file whose hash lacks the root key has nothing for it, so a lookup may skip it (KeyPresence).
    virtual bool answersFromDataHash() const { return false; }
};

// The provider for a level, from the registry. Never null: a function the registry does not have
// gives a provider whose unrunnable() says so.
std::shared_ptr<const LevelProvider> makeLevelProvider(const Level& level, const BackendRegistry& registry);

// A location that is only checked for existence (functions that read their own files, or none).
// Asked of the engine's source tree.
std::shared_ptr<const DataFile> statOnly(const std::string& path, const SourceTree& tree);

} // namespace hiera::detail
