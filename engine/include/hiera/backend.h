#pragma once

// Backends: the functions a hierarchy level names (`data_hash: yaml_data`, `lookup_key:
// eyaml_lookup_key`). The engine calls a backend through these interfaces only. A host adds its own
// by registering it in a BackendRegistry passed in EngineOptions::backends; the built-in ones are
// registered the same way (engine/src/backends/registry.cpp, one line each).
//
// As in Puppet, each call gets a context: the level's options interpolated for the scope, the engine's
// limits, a sink for warnings and, for lookup_key functions, interpolation and a per-location memo.

#include <hiera/value.h>
#include <hiera/yaml.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct ParseLimits;

// What every backend call is handed.
class BackendContext
{
public:
    virtual ~BackendContext() = default;
    // The location: an absolute path; empty for a lookup_key function whose level declares no
    // location (hiera_vault is written so), which is then called once, without a path.
    virtual const std::string& path() const = 0;
    // The level's `options`, their %{} interpolated for the scope; a Hash, or null when none.
    virtual const Value& options() const = 0;
    virtual const ParseLimits& limits() const = 0;
    // The location's content, read as hiera::readFile reads it (at most `limit` bytes; throws
    // hiera::Error naming the file). The engine's contexts read it through the engine's source tree
    // (hiera/sourcetree.h); this default reads the file system, for hosts' own contexts.
    virtual std::string read(std::size_t limit) const { return readFile(path(), limit); }
    // A note for the lookup's warnings (and the trace), e.g. "file does not contain a valid yaml hash".
    virtual void warn(const std::string& message) = 0;
};

// A data_hash function: reads one location whole and returns its top-level hash. The engine calls it
// only for a location that exists, parses each file version once and shares the result between
// lookups, scopes and threads (and keeps it in the disk cache), so it must depend on the file alone.
class DataHashBackend
{
public:
    virtual ~DataHashBackend() = default;
    virtual std::string name() const = 0;
    // A file whose content is empty gives an empty hash. Throws hiera::Error naming the file.
    virtual Value load(BackendContext& context) const = 0;
    // False for a function whose result does not depend on the options (yaml_data, json_data): its
    // parse of a file is then shared by all levels and kept in the disk cache.
    virtual bool readsOptions() const { return true; }
};

// A thread-safe memo of what a lookup_key function derives from one version of one location (decrypted
// values, say): dropped with the parsed file when the file changes, never written to disk.
class LocationMemo
{
public:
    virtual ~LocationMemo() = default;
    virtual std::optional<Value> find(const std::string& key) const = 0;
    virtual void store(const std::string& key, Value value) = 0;
};

// What a lookup_key call is handed on top of the BackendContext.
class LookupKeyContext : public BackendContext
{
public:
    // The location parsed as DataFormat LookupKeyBackend::fileFormat() (through the engine's shared
    // cache, like data_hash files); an empty hash when the function reads no file.
    virtual const Value& data() const = 0;
    // Interpolates %{} in a value against the lookup's scope (lookup() and alias() included), as
    // Puppet's context.interpolate does. Throws hiera::Error.
    virtual Value interpolate(const Value& value) = 0;
    virtual LocationMemo& memo() = 0;
};

// A lookup_key function: asked for one root key at one location. Called only for locations that
// exist. Returns nullopt for "not found here". Its values are returned as they are: a function that
// wants interpolation calls context.interpolate (eyaml_lookup_key does, after decrypting).
class LookupKeyBackend
{
public:
    virtual ~LookupKeyBackend() = default;
    virtual std::string name() const = 0;
    // The format the engine parses each location in before calling lookupKey (eyaml: YAML), or
    // nullopt for a function that reads its locations itself.
    virtual std::optional<DataFormat> fileFormat() const { return std::nullopt; }
    virtual std::optional<Value> lookupKey(const std::string& key, LookupKeyContext& context) const = 0;
};

// The functions a level may name. The default registry has yaml_data, json_data and eyaml_lookup_key.
class BackendRegistry
{
public:
    static std::shared_ptr<const BackendRegistry> defaultRegistry();
    // The default registry's backends, to extend with a host's own.
    static std::shared_ptr<BackendRegistry> withDefaults();

    void add(std::shared_ptr<const DataHashBackend> backend);
    void add(std::shared_ptr<const LookupKeyBackend> backend);
    const DataHashBackend* dataHash(const std::string& name) const;
    const LookupKeyBackend* lookupKey(const std::string& name) const;
    // Names by kind, in registration order (for messages: "available: yaml_data, json_data").
    std::vector<std::string> dataHashNames() const;
    std::vector<std::string> lookupKeyNames() const;

private:
    std::vector<std::shared_ptr<const DataHashBackend>> m_dataHash;
    std::vector<std::shared_ptr<const LookupKeyBackend>> m_lookupKey;
};

} // namespace hiera
