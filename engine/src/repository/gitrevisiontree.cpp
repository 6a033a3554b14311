// A git commit as a SourceTree (hiera/gitrevisiontree.h): paths under the mount are walked component
// by component over the commit's trees, read with libgit2 from the object database; everything else,
// and whatever a link or `..` leads out of the mount to, is the working tree's (docs/architecture.md,
// "The source tree").

#include <hiera/error.h>
#include <hiera/gitrevisiontree.h>

#include "repository/gitspecialfiles.h"
#include "repository/libgit2util.h"
#include "repository/workrepository.h"

#include <git2.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace hiera {

namespace {

// The most symbolic links one path may go through, as Linux's MAXSYMLINKS.
constexpr int kMaxLinks = 40;
// The device every path of a revision reports ("git"), so that its inodes never meet a disk's.
constexpr std::uint64_t kDevice = 0x676974;

std::string oidText(const git_oid& oid)
{
    char text[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(text, sizeof text, &oid);
    return text;
}

std::string oidKey(const git_oid& oid)
{
    return std::string(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
}

struct Node
{
    enum class Kind { Tree, Blob, Link, Gitlink };
    Kind kind = Kind::Tree;
    git_oid oid{};
};

struct DirEntry
{
    std::string name;
    Node node;
};
using DirIndex = std::vector<DirEntry>; // sorted by name

std::deque<std::string> components(const std::string& path)
{
    std::deque<std::string> out;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t slash = path.find('/', start);
        if (slash == std::string::npos)
            slash = path.size();
        if (slash > start)
            out.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

std::string joined(const std::deque<std::string>& parts)
{
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : "/") + p;
    return out;
}

// Where a path leads.
struct Resolved
{
    enum class Where { Tree, Disk, Error };
    Where where = Where::Error;
    Node node; // Tree
    std::string treePath; // Tree: from the mount ("" for its root); Error: the part that exists
    std::string diskPath; // Disk
    int error = 0; // Error: an errno
    std::string problem; // Error: a repository's failure (an object missing or corrupt), for people
    std::string remainder; // Error ENOENT/ENOTDIR: what was left, from the missing component on
};

class GitRevisionTree : public SourceTree
{
public:
    GitRevisionTree(detail::GitRepository repository, const git_oid& commit, const git_oid& rootTree,
                    std::string revision, std::string mount)
        : m_repository(std::move(repository))
        , m_commit(commit)
        , m_revision(std::move(revision))
        , m_mount(std::move(mount))
        , m_mountCanonical(SourceTree::workingTree()->canonical(m_mount).value_or(m_mount))
    {
        m_root.kind = Node::Kind::Tree;
        m_root.oid = rootTree;
    }

    std::string read(const std::string& path, std::size_t limit) const override
    {
        const Resolved r = resolve(path, true);
        if (r.where == Resolved::Where::Disk) {
            try {
                return SourceTree::workingTree()->read(r.diskPath, limit);
            } catch (const Error& e) {
                throw Error(e.code(), e.message(), {path, 0, 0});
            }
        }
        if (r.where == Resolved::Where::Error)
            throw Error(ErrorCode::DataUnreadable,
                        "cannot read: " + (r.problem.empty() ? std::string(std::strerror(r.error)) : r.problem),
                        {path, 0, 0});
        if (r.node.kind != Node::Kind::Blob)
            throw Error(ErrorCode::DataUnreadable, "cannot read: it is a directory, not a file", {path, 0, 0});
        const std::lock_guard lock(m_mutex);
        git_blob* raw = nullptr;
        if (git_blob_lookup(&raw, m_repository.get(), &r.node.oid) != 0)
            throw Error(ErrorCode::DataUnreadable, "cannot read: " + objectProblem(r.node.oid), {path, 0, 0});
        const detail::GitBlob blob(raw);
        const auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
        if (size > limit)
            throw Error(ErrorCode::DataLimit,
                        "file of " + std::to_string(size) + " bytes exceeds the limit of " + std::to_string(limit),
                        {path, 0, 0});
        return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())), size);
    }

    TreeStat stat(const std::string& path) const override { return statOf(path, true); }
    TreeStat lstat(const std::string& path) const override { return statOf(path, false); }

    std::optional<std::vector<TreeEntry>> list(const std::string& dir, std::string* error) const override
    {
        const Resolved r = resolve(dir, true);
        if (r.where == Resolved::Where::Disk)
            return SourceTree::workingTree()->list(r.diskPath, error);
        if (r.where == Resolved::Where::Error || r.node.kind == Node::Kind::Blob) {
            if (error)
                *error = r.where == Resolved::Where::Error
                    ? (r.problem.empty() ? std::string(std::strerror(r.error)) : r.problem)
                    : std::string(std::strerror(ENOTDIR));
            return std::nullopt;
        }
        std::vector<TreeEntry> out;
        if (r.node.kind == Node::Kind::Gitlink)
            return out; // a submodule not checked out: an empty directory
        std::string problem;
        const std::shared_ptr<const DirIndex> index = indexOf(r.node.oid, problem);
        if (!index) {
            if (error)
                *error = problem;
            return std::nullopt;
        }
        out.reserve(index->size());
        for (const DirEntry& e : *index)
            out.push_back({e.name,
                           e.node.kind == Node::Kind::Link       ? TreeEntry::Type::Symlink
                               : e.node.kind == Node::Kind::Blob ? TreeEntry::Type::Other
                                                                 : TreeEntry::Type::Directory});
        return out;
    }

    std::optional<std::string> canonical(const std::string& path) const override
    {
        const Resolved r = resolve(path, true);
        switch (r.where) {
        case Resolved::Where::Disk:
            return SourceTree::workingTree()->canonical(r.diskPath);
        case Resolved::Where::Tree:
            return inMount(r.treePath);
        case Resolved::Where::Error:
            if (r.error == ENOENT || r.error == ENOTDIR)
                return (fs::path(inMount(r.treePath)) / r.remainder).lexically_normal().string();
            return std::nullopt;
        }
        return std::nullopt;
    }

    bool fixed(const std::string& path) const override
    {
        // A path that leaves the mount (or a link that leads out of it) is the disk's; an object that
        // cannot be read may be fetched later (a shallow clone).
        const Resolved r = resolve(path, true);
        return r.where == Resolved::Where::Tree
            || (r.where == Resolved::Where::Error && r.problem.empty() && (r.error == ENOENT || r.error == ENOTDIR));
    }

    std::string describe() const override
    {
        return "commit " + oidText(m_commit).substr(0, 12) + " (revision " + m_revision + ")";
    }

private:
    std::string inMount(const std::string& treePath) const
    {
        return treePath.empty() ? m_mountCanonical : (fs::path(m_mountCanonical) / treePath).string();
    }

    // "revision 'v2': object 1a2b3c… is missing or corrupt (…)": why an object cannot be read.
    std::string objectProblem(const git_oid& oid) const
    {
        return "revision '" + m_revision + "': object " + oidText(oid)
            + " cannot be read (missing, as in a shallow clone, or corrupt): " + detail::lastGitError();
    }

    // The path inside the mount, from its root; nothing when the path lies outside it.
    std::optional<std::string> underMount(const std::string& path) const
    {
        if (path == m_mount)
            return std::string();
        if (m_mount == "/")
            return path.empty() || path[0] != '/' ? std::nullopt : std::optional<std::string>(path.substr(1));
        if (path.size() > m_mount.size() && path.compare(0, m_mount.size(), m_mount) == 0
            && path[m_mount.size()] == '/')
            return path.substr(m_mount.size() + 1);
        return std::nullopt;
    }

    // A tree's entries, read once (under the lock) and kept.
    std::shared_ptr<const DirIndex> indexOf(const git_oid& oid, std::string& problem) const
    {
        const std::lock_guard lock(m_mutex);
        const std::string key = oidKey(oid);
        if (const auto it = m_indexes.find(key); it != m_indexes.end())
            return it->second;
        git_tree* raw = nullptr;
        if (git_tree_lookup(&raw, m_repository.get(), &oid) != 0) {
            problem = objectProblem(oid);
            return nullptr;
        }
        const detail::GitTree tree(raw);
        auto index = std::make_shared<DirIndex>();
        const std::size_t count = git_tree_entrycount(tree.get());
        index->reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
            const git_tree_entry* e = git_tree_entry_byindex(tree.get(), i);
            DirEntry entry;
            entry.name = git_tree_entry_name(e);
            entry.node.oid = *git_tree_entry_id(e);
            switch (git_tree_entry_filemode(e)) {
            case GIT_FILEMODE_TREE:
                entry.node.kind = Node::Kind::Tree;
                break;
            case GIT_FILEMODE_LINK:
                entry.node.kind = Node::Kind::Link;
                break;
            case GIT_FILEMODE_COMMIT:
                entry.node.kind = Node::Kind::Gitlink;
                break;
            default:
                entry.node.kind = Node::Kind::Blob;
                break;
            }
            index->push_back(std::move(entry));
        }
        std::sort(index->begin(), index->end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
        m_indexes.emplace(key, index);
        return index;
    }

    // A blob's size (a link's target's length), from the object's header; nothing when it cannot
    // be read (read() then says why).
    std::optional<std::int64_t> blobSize(const git_oid& oid) const
    {
        const std::lock_guard lock(m_mutex);
        const std::string key = oidKey(oid);
        if (const auto it = m_sizes.find(key); it != m_sizes.end())
            return it->second;
        if (!m_odb) {
            git_odb* raw = nullptr;
            if (git_repository_odb(&raw, m_repository.get()) != 0)
                return std::nullopt;
            m_odb.reset(raw);
        }
        std::size_t size = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        if (git_odb_read_header(&size, &type, m_odb.get(), &oid) != 0)
            return std::nullopt;
        m_sizes.emplace(key, static_cast<std::int64_t>(size));
        return static_cast<std::int64_t>(size);
    }

    std::optional<std::string> linkTarget(const git_oid& oid) const
    {
        const std::lock_guard lock(m_mutex);
        git_blob* raw = nullptr;
        if (git_blob_lookup(&raw, m_repository.get(), &oid) != 0)
            return std::nullopt;
        const detail::GitBlob blob(raw);
        return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                           static_cast<std::size_t>(git_blob_rawsize(blob.get())));
    }

    // Walks `path` as the kernel would in a checkout at the mount: `.` skipped, `..` to the physical
    // parent, links followed (the last component's only when `followLast`).
    Resolved resolve(const std::string& path, bool followLast) const
    {
        std::string current = path;
        int links = 0;
        for (;;) {
            const std::optional<std::string> inside = underMount(current);
            if (!inside) {
                Resolved r;
                r.where = Resolved::Where::Disk;
                r.diskPath = current;
                return r;
            }
            std::deque<std::string> rest = components(*inside);
            std::deque<std::string> walked;
            std::vector<Node> nodes; // of `walked`
            Node node = m_root;
            bool leftMount = false;
            const auto failed = [&](int error, const std::string& component) {
                Resolved r;
                r.where = Resolved::Where::Error;
                r.error = error;
                r.treePath = joined(walked);
                std::deque<std::string> remainder = rest;
                remainder.push_front(component);
                r.remainder = joined(remainder);
                return r;
            };
            while (!rest.empty()) {
                const std::string c = rest.front();
                rest.pop_front();
                if (node.kind == Node::Kind::Blob)
                    return failed(ENOTDIR, c);
                if (c == ".")
                    continue;
                if (c == "..") {
                    if (walked.empty()) { // above the mount: the file system's
                        const fs::path parent = fs::path(m_mount).parent_path();
                        current = rest.empty() ? parent.string() : (parent / joined(rest)).string();
                        leftMount = true;
                        break;
                    }
                    walked.pop_back();
                    nodes.pop_back();
                    node = nodes.empty() ? m_root : nodes.back();
                    continue;
                }
                if (node.kind == Node::Kind::Gitlink)
                    return failed(ENOENT, c);
                std::string problem;
                const std::shared_ptr<const DirIndex> index = indexOf(node.oid, problem);
                if (!index) {
                    Resolved r = failed(EIO, c);
                    r.problem = problem;
                    return r;
                }
                const auto it = std::lower_bound(index->begin(), index->end(), c,
                                                 [](const DirEntry& e, const std::string& n) { return e.name < n; });
                if (it == index->end() || it->name != c)
                    return failed(ENOENT, c);
                if (it->node.kind == Node::Kind::Link && (followLast || !rest.empty())) {
                    if (++links > kMaxLinks)
                        return failed(ELOOP, c);
                    const std::optional<std::string> target = linkTarget(it->node.oid);
                    if (!target) {
                        Resolved r = failed(EIO, c);
                        r.problem = objectProblem(it->node.oid);
                        return r;
                    }
                    if (target->empty())
                        return failed(ENOENT, c);
                    if ((*target)[0] == '/') { // absolute: wherever it points, the mount included
                        current = rest.empty() ? *target : (fs::path(*target) / joined(rest)).string();
                        leftMount = true;
                        break;
                    }
                    std::deque<std::string> spliced = components(*target);
                    rest.insert(rest.begin(), spliced.begin(), spliced.end());
                    continue;
                }
                walked.push_back(c);
                nodes.push_back(it->node);
                node = it->node;
            }
            if (leftMount)
                continue;
            Resolved r;
            r.where = Resolved::Where::Tree;
            r.node = node;
            r.treePath = joined(walked);
            return r;
        }
    }

    TreeStat statOf(const std::string& path, bool follow) const
    {
        const Resolved r = resolve(path, follow);
        if (r.where == Resolved::Where::Disk)
            return follow ? SourceTree::workingTree()->stat(r.diskPath) : SourceTree::workingTree()->lstat(r.diskPath);
        if (r.where == Resolved::Where::Error)
            return {};
        TreeStat s;
        s.kind = r.node.kind == Node::Kind::Blob ? TreeStat::Kind::File
            : r.node.kind == Node::Kind::Link    ? TreeStat::Kind::Symlink
                                                 : TreeStat::Kind::Directory;
        s.device = kDevice;
        std::memcpy(&s.inode, r.node.oid.id, sizeof s.inode);
        if (r.node.kind == Node::Kind::Blob || r.node.kind == Node::Kind::Link)
            s.size = blobSize(r.node.oid).value_or(0);
        s.contentId = oidText(r.node.oid);
        return s;
    }

    detail::GitRepository m_repository;
    git_oid m_commit{};
    std::string m_revision;
    std::string m_mount;
    std::string m_mountCanonical;
    Node m_root;
    // One lock around every libgit2 call on the repository, and the memos below.
    mutable std::mutex m_mutex;
    mutable detail::GitOdb m_odb;
    mutable std::map<std::string, std::shared_ptr<const DirIndex>> m_indexes;
    mutable std::map<std::string, std::int64_t> m_sizes;
};

} // namespace

std::shared_ptr<const SourceTree> openRevision(const std::string& directory, const std::string& revision,
                                               const RevisionTreeOptions& options)
{
    const auto failure = [&](const std::string& why) {
        return Error(ErrorCode::Io, "cannot read revision '" + revision + "' of " + directory + ": " + why);
    };
    detail::WorkRepository opened = detail::openWorkRepository(
        directory,
        "not in a git work tree (bare repositories are not read: a revision is mounted at the work tree's root)",
        failure);
    const detail::GitPlaces* places = &opened.places;
    detail::GitRepository repository = std::move(opened.repository);
    if (git_repository_is_bare(repository.get()))
        throw failure("a bare repository has no work tree to mount the revision at");
    git_object* rawObject = nullptr;
    if (const int status = git_revparse_single(&rawObject, repository.get(), revision.c_str()); status != 0)
        throw failure((status == GIT_ENOTFOUND || status == GIT_EAMBIGUOUS || status == GIT_EINVALIDSPEC
                           ? std::string("unknown revision (")
                           : std::string("it cannot be read, the repository's objects missing or corrupt ("))
                      + detail::lastGitError() + ")");
    const detail::GitObject object(rawObject);
    git_object* rawCommit = nullptr;
    if (git_object_peel(&rawCommit, object.get(), GIT_OBJECT_COMMIT) != 0)
        throw failure("it names no commit (" + detail::lastGitError() + ")");
    const detail::GitObject commit(rawCommit);
    git_tree* rawTree = nullptr;
    if (git_commit_tree(&rawTree, reinterpret_cast<const git_commit*>(commit.get())) != 0)
        throw failure("the commit's tree cannot be read (missing, as in a shallow clone, or corrupt): "
                      + detail::lastGitError());
    const detail::GitTree tree(rawTree);
    std::string mount =
        options.mountAt.empty() ? places->workTree.string() : fs::absolute(options.mountAt).lexically_normal().string();
    while (mount.size() > 1 && mount.back() == '/')
        mount.pop_back();
    return std::make_shared<const GitRevisionTree>(std::move(repository), *git_object_id(commit.get()),
                                                   *git_tree_id(tree.get()), revision, std::move(mount));
}

} // namespace hiera
