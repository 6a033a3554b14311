#pragma once

// Before libgit2 reads a repository's state, every file it may open is checked to be a regular file
// (or a directory where one belongs): libgit2 opens files with a blocking open(2), so a FIFO named
// `.gitignore`, `.git/index` or an include.path target hangs it forever, and a device gives it
// endless bytes (docs/bad-input.md, "Git state"). Only lstat/stat are used here: nothing is opened but
// config files already known to be regular, read to find the files they name.

#include <filesystem>
#include <optional>
#include <string>

namespace hiera::detail {

// Where a work tree's repository lives: its root and its git directory (`.git`, or the directory a
// `.git` file names). Nothing when `start` lies in no work tree.
struct GitPlaces
{
    std::filesystem::path workTree;
    std::filesystem::path gitDir;
};

// Finds the work tree `start` lies in, as git does (walking up to the first `.git`), without opening
// anything that is not a regular file; a `.git` that is neither a directory nor a regular file, or a
// `.git` file that does not name a directory, is reported through `problem`.
std::optional<GitPlaces> findGitPlaces(const std::filesystem::path& start, std::string& problem);

// The first file libgit2 would open for `git status` that is not a regular file (a FIFO, a device, a
// socket), as one line naming it ("'data/.gitignore' is a FIFO"); nothing when all are regular. Looks
// at: every entry of the git directory, every `.gitignore` and `.gitattributes` of the work tree, every
// entry git could hash (a special file where a tracked file was), the repository's, the user's and the
// system's config files, and the files they name (include.path, includeIf paths, core.excludesFile,
// core.attributesFile), and the user's global ignore and attributes files. `home` is $HOME.
// `withWorkTree` false leaves the work tree out (its ignore and attributes files, the entries git would
// hash): reading a commit's objects (hiera/gitrevisiontree.h) opens none of them.
std::optional<std::string> specialFileGitWouldOpen(const GitPlaces& places, const std::string& home,
                                                   bool withWorkTree = true);

} // namespace hiera::detail
