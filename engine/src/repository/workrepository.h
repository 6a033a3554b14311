#pragma once

// Opening the repository whose work tree a directory lies in, without a read that could block: what
// every reader of a commit does first (repository/gitrevisiontree.cpp, repository/gitrevisionlist.cpp).

#include "repository/gitspecialfiles.h"
#include "repository/libgit2util.h"

#include <hiera/error.h>

#include <cstdlib>
#include <string>

namespace hiera::detail {

struct WorkRepository
{
    GitPlaces places;
    GitRepository repository;
};

// Found as git finds it, refused when a file git would open is not a regular one (a FIFO would block
// it). Throws failure(reason): `notInWorkTree` when the directory lies in no work tree, "<file> …, so git
// would block reading it", "not a readable git repository: <libgit2's message>".
template <typename Failure>
WorkRepository openWorkRepository(const std::string& directory, const std::string& notInWorkTree, Failure failure)
{
    initialiseLibgit2Once();
    std::string problem;
    std::optional<GitPlaces> places = findGitPlaces(directory, problem);
    if (!places)
        throw failure(notInWorkTree);
    if (problem.empty()) {
        const char* home = std::getenv("HOME");
        if (auto special = specialFileGitWouldOpen(*places, home ? home : "", false))
            problem = *special;
    }
    if (!problem.empty())
        throw failure(problem + ", so git would block reading it");
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, places->workTree.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
        throw failure("not a readable git repository: " + lastGitError());
    return {std::move(*places), GitRepository(raw)};
}

} // namespace hiera::detail
