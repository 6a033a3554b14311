#pragma once

// What the libgit2 readers of hiera_nodes share (repository/gitrevision.cpp,
// repository/gitrevisiontree.cpp): the library's one initialisation, and owners of its objects.

#include <git2.h>

#include <memory>
#include <string>

namespace hiera::detail {

// libgit2 is initialised once a process and stays so: git_libgit2_shutdown at exit would race with
// another thread still reading a repository.
inline void initialiseLibgit2Once()
{
    static const int initialised = git_libgit2_init();
    (void)initialised;
}

template <typename T, void (*Free)(T*)>
struct GitFreer
{
    void operator()(T* p) const { Free(p); }
};
template <typename T, void (*Free)(T*)>
using GitOwned = std::unique_ptr<T, GitFreer<T, Free>>;

using GitRepository = GitOwned<git_repository, git_repository_free>;
using GitObject = GitOwned<git_object, git_object_free>;
using GitTree = GitOwned<git_tree, git_tree_free>;
using GitBlob = GitOwned<git_blob, git_blob_free>;
using GitOdb = GitOwned<git_odb, git_odb_free>;

// libgit2's last error message for this thread, or a generic one.
inline std::string lastGitError()
{
    const git_error* e = git_error_last();
    return e && e->message ? std::string(e->message) : std::string("unknown libgit2 error");
}

} // namespace hiera::detail
