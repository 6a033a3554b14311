#pragma once

// The shared cache of parsed data files. Lookups from several threads read it at once; a file is
// parsed once and shared (shared_ptr<const DataFile>) until it changes on disk (inode, size, mtime or
// ctime differ) or the host invalidates it.

#include "cache/diskcache.h"

#include <hiera/backend.h>
#include <hiera/datafile.h>
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
