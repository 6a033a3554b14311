#pragma once

// hiera::SourceTree — the one seam through which the engine reads a hierarchy's files: every
// hiera.yaml (global, environment, module, and a module's version pre-check), environment.conf, the
// data files yaml_data, json_data and eyaml_lookup_key parse, the existence checks of locations, the
// directories a glob or the module discovery reads, and the symbolic-link resolution that decides
// whether a module's data lies inside it (docs/architecture.md, "The source tree").
//
// SourceTree::workingTree() is the process's file system, and what the engine uses when
// EngineOptions::tree / EnvironmentOptions::tree is null. Another implementation (a commit of the
// control repository, say) answers for the paths it holds. Paths are the engine's: absolute strings
// spelled as the engine builds them (lexically normalised, never canonicalised). Implementations must
// be thread-safe: lookups run on several threads at once.
//
// Never through the tree: eyaml key files, facts files, the node library, scope files and the disk
// cache — they are the user's machine, not the hierarchy's source.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hiera {

// The largest file read by default (ParseLimits::maxDocumentBytes, hiera/yaml.h).
inline constexpr std::size_t kMaxFileBytes = 512u << 20;

// Reads a whole file into a string. Only regular files are read (not FIFOs, devices or kernel
// pseudo-files such as /proc's); a file larger than `limit` is refused from its size before it is read.
// Throws hiera::Error naming the file: DataUnreadable, or DataLimit (too large, out of memory).
std::string readFile(const std::string& path, std::size_t limit = kMaxFileBytes);

// What stat(2) or lstat(2) says of a path, as far as the engine asks.
struct TreeStat
{
    // Symlink only from lstat(); stat() follows links.
    enum class Kind { Missing, File, Directory, Symlink, Other };
    Kind kind = Kind::Missing;
    // The version of what the path holds: a file whose values are all equal has not changed.
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::int64_t size = 0;
    long long mtimeNs = 0;
    long long ctimeNs = 0;
    // The content's own name when the tree is immutable (a git revision: the blob's or tree's object
    // id), so that what was read once under it never needs asking again; empty for the working tree.
    std::string contentId = {};

    bool exists() const { return kind != Kind::Missing; }
    bool operator==(const TreeStat&) const = default;
};

// One entry of a directory, typed as lstat(2) would type it (a symbolic link is a Symlink, whatever
// it points to). Unknown: the tree could not tell without an lstat(), which the reader then asks.
struct TreeEntry
{
    enum class Type { Unknown, Directory, Symlink, Other };
    std::string name;
    Type type = Type::Unknown;
};

class SourceTree
{
public:
    virtual ~SourceTree() = default;

    // A file's content, as hiera::readFile reads it (above): regular files only, one larger
    // than `limit` refused from its size. Throws hiera::Error naming `path`: DataUnreadable, DataLimit.
    virtual std::string read(const std::string& path, std::size_t limit) const = 0;
    // stat(2) (symbolic links followed) and lstat(2) (not followed). Missing when it cannot be asked.
    virtual TreeStat stat(const std::string& path) const = 0;
    virtual TreeStat lstat(const std::string& path) const = 0;
    // A directory's entries, without "." and "..", in no particular order; nullopt when it cannot be
    // opened, with the reason in `error` (strerror's text: "Permission denied"). When reading fails
    // part way, the entries read so far, with `error` set.
    virtual std::optional<std::vector<TreeEntry>> list(const std::string& dir, std::string* error = nullptr) const = 0;
    // std::filesystem::weakly_canonical: symbolic links of the existing leading part resolved, the
    // rest normalised lexically; nullopt on error.
    virtual std::optional<std::string> canonical(const std::string& path) const = 0;
    // For people: "working tree".
    virtual std::string describe() const = 0;
    // Whether what `path` is (its content, or its absence, or a directory's entries) can never change:
    // it resolves inside a git revision's objects (hiera/gitrevisiontree.h), or fails to at a component
    // missing from them. False for everything on a disk, where a file may change at any time: what a
    // host keeps from reading a path across runs is exact only when this holds (docs/revision-diff.md,
    // "Kept between runs").
    virtual bool fixed(const std::string& path) const
    {
        (void)path;
        return false;
    }

    // The process's file system.
    static std::shared_ptr<const SourceTree> workingTree();
};

// `tree`, or the working tree when it is null.
inline const SourceTree& treeOrWorking(const std::shared_ptr<const SourceTree>& tree)
{
    return tree ? *tree : *SourceTree::workingTree();
}

} // namespace hiera
