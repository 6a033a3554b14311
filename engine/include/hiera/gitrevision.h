#pragma once

// The git revision a control repository's directory is at, so that a report can say which data it was
// made from: the commit, the branch, and whether the work tree differs from the commit (tracked files
// changed, or files git would add). Read with libgit2, straight from the repository: no git process.

#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct GitRevision
{
    std::string commit; // the full object id of HEAD; empty in a repository with no commit yet
    std::string branch; // the checked-out branch's short name; empty for a detached HEAD
    bool dirty = false; // the work tree or the index differs from HEAD
    std::vector<std::string> changed; // the paths that differ (from the work tree's root), at most 100
    std::size_t changedCount = 0; // all of them
    // Set when the directory lies in a work tree whose state was not read, and why: a file git would
    // open is not a regular file (a FIFO named .gitignore would block the read forever), or reading
    // took longer than the bound. The fields above are then empty.
    std::string unreadable;
};

// The revision of the git work tree `directory` lies in (any directory below its root will do);
// nullopt when it lies in none or the repository cannot be read. Never throws, never blocks on a
// special file, and returns within about 10 s whatever the file system does (GitRevision::unreadable).
std::optional<GitRevision> gitRevision(const std::string& directory);

// "commit 1a2b3c4d (main), with uncommitted changes", for a report's header line.
std::string describe(const GitRevision& revision);

} // namespace hiera
