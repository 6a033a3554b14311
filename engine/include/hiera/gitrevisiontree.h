#pragma once

// A commit of a control repository as a hiera::SourceTree (hiera/sourcetree.h), read with libgit2
// straight from the repository's object database: no checkout, no temporary copy, no git process
// (docs/architecture.md, "The source tree"). An engine given it answers as an engine on a checkout of
// the commit at the same path would.
//
// The commit is mounted at the root of the work tree the directory lies in, spelled as the engine
// spells paths (lexically, as Environment::discover does; not the canonical path libgit2 knows).
// Paths under the mount come from the commit: files from blobs (stat's size from the blob, its
// contentId the blob's id), directories from trees, symbolic links (mode 120000) followed inside the
// commit (a relative target from the link's directory; an absolute target, or one climbing above
// the mount, continues on the file system, as in a checkout, where a path leading back under the mount
// is the commit's again; 40 links at most, then "Too many levels of symbolic links"), submodules (gitlinks) as empty
// directories, and `..` taken physically (after links). Paths elsewhere are the file system's. Files are given as
// stored: .gitattributes filters (eol, ident, external drivers) are not applied.
//
// A bare repository is refused: it has no work tree to mount the commit at, and the engine's paths
// are the work tree's. Thread-safe (one lock around libgit2).

#include <hiera/sourcetree.h>

#include <memory>
#include <string>

namespace hiera {

struct RevisionTreeOptions
{
    // Where the commit is mounted: empty for the root of the work tree `directory` lies in. Any
    // absolute path will do (a checkout's, to compare with one; one that does not exist).
    std::string mountAt;
};

// The commit `revision` (anything git_revparse_single takes: an object id, a branch, a tag, HEAD~2)
// of the repository whose work tree `directory` lies in. Throws hiera::Error (ErrorCode::Io), one line
// naming the directory and the revision, when `directory` lies in no work tree, the repository is bare
// or unreadable, a file git would open is not a regular file (a FIFO in .git would block it), the
// revision is unknown or names no commit, or the commit's objects are missing (a shallow clone) or
// corrupt. A blob missing or corrupt is found when it is read: read() throws DataUnreadable naming
// the file and the revision.
std::shared_ptr<const SourceTree> openRevision(const std::string& directory, const std::string& revision,
                                               const RevisionTreeOptions& options = {});

} // namespace hiera
