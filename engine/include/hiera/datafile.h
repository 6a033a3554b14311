#pragma once

// hiera::DataFile — one version of a data file as a data_hash backend parsed it (yaml_data, json_data,
// eyaml's data files), shared read-only between every lookup that reads it. The engine's file cache
// makes them; hosts that reason about files rather than keys (the node library: which nodes read a
// file, what a revision changes) read them through hiera::NodeLookups (hiera/nodelookups.h).

#include <hiera/backend.h>
#include <hiera/error.h>
#include <hiera/value.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hiera {

namespace detail {
// LocationMemo for one parsed file version. Bounded: a function memoising per key cannot grow it past
// kMaxEntries (it then starts again from empty).
class FileMemo : public LocationMemo
{
public:
    static constexpr std::size_t kMaxEntries = 1u << 16;
    std::optional<Value> find(const std::string& key) const override;
    void store(const std::string& key, Value value) override;

private:
    mutable std::shared_mutex m_mutex; // warm lookups only read
    std::unordered_map<std::string, Value> m_values;
};
} // namespace detail

struct DataFile
{
    bool exists = false;
    Value data; // the top-level hash (empty hash for an empty file)
    std::vector<std::string> warnings;
    std::optional<Error> error; // exists but could not be read or parsed
    // Per top-level entry (by position): whether its value contains "%{" anywhere, so that lookups
    // skip interpolation walks over values that have nothing to interpolate.
    // Bit 1: it has a hash key Puppet cannot return (boolean, null, collection). Both are fixed for a
    // parsed file, so lookups skip the walks over values that have nothing to interpolate or refuse.
    // Bit 2: its value holds something Puppet loads but refuses to return (a Ruby symbol); a lookup
    // that reaches the entry fails with `refusal(entry)`, the rest of the file answers.
    enum EntryFlag : std::uint8_t { Interpolates = 1, InvalidKey = 2, Refused = 4 };
    std::vector<std::uint8_t> entryFlags;
    bool hasLookupOptions = false;
    // What lookup_key functions derive from this version of the file (decrypted values).
    mutable detail::FileMemo memo;
    std::vector<std::pair<std::size_t, Error>> refusals; // by entry position

    std::uint8_t flags(const Hash::Entry* e) const
    {
        const std::size_t i = position(e);
        return i < entryFlags.size() ? entryFlags[i] : (Interpolates | InvalidKey);
    }
    // The error for an entry flagged Refused.
    const Error& refusal(const Hash::Entry* e) const
    {
        const std::size_t i = position(e);
        for (const auto& r : refusals)
            if (r.first == i)
                return r.second;
        return refusals.front().second;
    }

private:
    std::size_t position(const Hash::Entry* e) const
    {
        return static_cast<std::size_t>(e - data.asHash().entries().data());
    }
};

} // namespace hiera
