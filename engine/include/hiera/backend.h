#pragma once

// Backends: the functions a hierarchy level names (`data_hash: yaml_data`). The engine calls a
// backend through these interfaces only, so that later backends (eyaml_lookup_key, hosts' own) plug in
// without touching the lookup.

#include <hiera/value.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct ParseLimits;

// A data_hash function: reads one location whole and returns its top-level hash.
class DataHashBackend
{
public:
    virtual ~DataHashBackend() = default;
    virtual std::string name() const = 0;
    // Returns the file's hash. A file whose content is empty gives an empty hash; `warnings` receives
    // notes such as "file does not contain a valid yaml hash". Throws hiera::Error naming the file.
    virtual Value load(const std::string& path, const Value& options, const ParseLimits& limits,
                       std::vector<std::string>& warnings) const = 0;
};

// A lookup_key function: asked for one root key at one location (reserved: no built-in one yet).
class LookupKeyBackend
{
public:
    virtual ~LookupKeyBackend() = default;
    virtual std::string name() const = 0;
    virtual std::optional<Value> lookupKey(const std::string& key, const std::string& path,
                                           const Value& options) const = 0;
};

// The functions a level may name. The default registry has yaml_data and json_data.
class BackendRegistry
{
public:
    static std::shared_ptr<const BackendRegistry> defaultRegistry();

    void add(std::shared_ptr<const DataHashBackend> backend);
    void add(std::shared_ptr<const LookupKeyBackend> backend);
    const DataHashBackend* dataHash(const std::string& name) const;
    const LookupKeyBackend* lookupKey(const std::string& name) const;

private:
    std::vector<std::shared_ptr<const DataHashBackend>> m_dataHash;
    std::vector<std::shared_ptr<const LookupKeyBackend>> m_lookupKey;
};

} // namespace hiera
