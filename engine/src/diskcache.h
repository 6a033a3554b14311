#pragma once

// A persistent cache of parsed data files, so that a new hiera-lookup process does not parse again
// what an earlier one parsed: YAML parsing is most of a cold lookup. Entries are keyed by backend and
// path and valid only for the exact file version they were made from (inode, size, mtime in ns).
// Everything here is best effort: any I/O problem or damaged entry is a miss, never an error.

#include <hiera/value.h>

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
    bool operator==(const FileSignature&) const = default;
};

FileSignature statFile(const std::string& path);

struct CachedParse
{
    Value data;
    std::vector<std::string> warnings;
};

class DiskCache
{
public:
    explicit DiskCache(std::string directory);

    std::optional<CachedParse> load(const std::string& backend, const std::string& path,
                                    const FileSignature& signature) const;
    void store(const std::string& backend, const std::string& path, const FileSignature& signature,
               const CachedParse& parse) const;

    // Serialisation, exposed for tests and the fuzzer.
    static std::string encode(const std::string& backend, const std::string& path, const FileSignature& signature,
                              const CachedParse& parse);
    static std::optional<CachedParse> decode(std::string_view bytes, const std::string& backend,
                                             const std::string& path, const FileSignature& signature);

private:
    std::string entryPath(const std::string& backend, const std::string& path) const;
    void prune() const;

    std::string m_directory;
};

} // namespace hiera::detail
