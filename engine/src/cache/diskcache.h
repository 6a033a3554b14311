#pragma once

// A persistent cache of parsed data files, so that a new hiera-lookup process does not parse again
// what an earlier one parsed: YAML parsing is most of a cold lookup. Entries are keyed by backend and
// path and valid only for the exact file version they were made from (inode, size, mtime and ctime in
// ns). Everything here is best effort: any I/O problem or damaged entry is a miss, never an error.

#include <hiera/sourcetree.h>
#include <hiera/value.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hiera::detail {

struct FileSignature
{
    bool exists = false;
    bool directory = false;
    unsigned long long inode = 0;
    long long size = 0;
    long long mtimeNs = 0;
    // A rewrite in place can keep inode, size and mtime (an editor or a tool that restores the mtime);
    // it cannot keep the ctime, which the kernel sets on every write and every utimensat.
    long long ctimeNs = 0;
    // TreeStat::contentId: set, the file cannot change (a git revision's blob). Not kept on disk.
    std::string contentId = {};
    bool operator==(const FileSignature&) const = default;
};

// The version of `path` in `tree` (stat(2): symbolic links followed); the one-argument form asks
// the working tree.
FileSignature statFile(const SourceTree& tree, const std::string& path);
FileSignature statFile(const std::string& path);

struct CachedParse
{
    Value data;
    std::vector<std::string> warnings;
};

class DiskCache
{
public:
    static constexpr std::uintmax_t kDefaultMaxBytes = 512ull << 20;

    // `maxBytes` bounds the real disk use of the directory's entries (blocks, not logical sizes).
    explicit DiskCache(std::string directory, std::uintmax_t maxBytes = kDefaultMaxBytes);

    // Whether a file is worth an entry at all (see kMinCachedBytes in diskcache.cpp).
    static bool worthCaching(const FileSignature& signature);

    std::optional<CachedParse> load(const std::string& backend, const std::string& path,
                                    const FileSignature& signature) const;
    void store(const std::string& backend, const std::string& path, const FileSignature& signature,
               const CachedParse& parse) const;

    // Serialisation, exposed for tests and the fuzzer.
    static std::string encode(const std::string& backend, const std::string& path, const FileSignature& signature,
                              const CachedParse& parse);
    static std::optional<CachedParse> decode(std::string_view bytes, const std::string& backend,
                                             const std::string& path, const FileSignature& signature);

    // Drops the oldest entries until the directory's real disk use is at most half the bound. store()
    // calls it; public for tests.
    void prune() const;
    // The disk use of the entries in the directory: the sum of st_blocks * 512.
    std::uintmax_t diskUsage() const;

private:
    std::string entryPath(const std::string& backend, const std::string& path) const;

    std::string m_directory;
    std::uintmax_t m_maxBytes;
    // Disk use written by this object since its last prune; guarded by being atomic only (a prune more
    // or less does not matter).
    mutable std::atomic<std::uintmax_t> m_writtenSincePrune{0};
};

} // namespace hiera::detail
