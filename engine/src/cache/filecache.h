#pragma once

// The shared cache of parsed data files. Lookups from several threads read it at once; a file is
// parsed once and shared (shared_ptr<const DataFile>) until it changes on disk (inode, size, mtime or
// ctime differ) or the host invalidates it.

#include "cache/diskcache.h"

#include <hiera/backend.h>
#include <hiera/error.h>
#include <hiera/sourcetree.h>
#include <hiera/value.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace hiera {

class DataHashBackend;
struct ParseLimits;

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

// hiera/engine.h: parses of content-named files, by path, content id and backend.
class ContentParseCache
{
public:
    std::shared_ptr<const DataFile> find(const std::string& key) const;
    void store(const std::string& key, std::shared_ptr<const DataFile> file);

private:
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::shared_ptr<const DataFile>> m_files;
};

class FileCache
{
public:
    // `diskCacheDirectory` empty: no persistent cache. Files are stat-ed and read through `tree`
    // (null: the working tree); the disk cache keeps only the working tree's files.
    FileCache(std::chrono::milliseconds revalidateInterval, const std::string& diskCacheDirectory = {},
              std::shared_ptr<const SourceTree> tree = {}, std::shared_ptr<ContentParseCache> shared = {});

    // The file parsed by `backend` with `options` (interpolated: part of the entry's identity).
    std::shared_ptr<const DataFile> get(const std::string& path, const DataHashBackend& backend, const Value& options,
                                        const ParseLimits& limits);
    void invalidate();
    void invalidate(const std::string& path);
    std::size_t size() const;
    const SourceTree& tree() const { return *m_tree; }

private:
    using Signature = detail::FileSignature;
    struct Entry
    {
        const DataHashBackend* backend = nullptr;
        Value options;
        std::shared_ptr<const DataFile> file;
        Signature signature;
        std::atomic<long long> checkedAtNs{0};
    };

    static long long nowNs();

    std::chrono::milliseconds m_interval;
    std::shared_ptr<const SourceTree> m_tree;
    std::unique_ptr<detail::DiskCache> m_disk;
    std::shared_ptr<ContentParseCache> m_shared;
    mutable std::shared_mutex m_mutex;
    // By path; a path read by two backends (yaml_data and json_data), or with different options, has
    // two entries.
    std::unordered_map<std::string, std::vector<std::shared_ptr<Entry>>> m_entries;
};

} // namespace hiera
