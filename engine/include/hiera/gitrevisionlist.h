#pragma once

// The revisions of a control repository a person picks from (the explorer's Revision diff panel):
// HEAD, the branches, the tags and the most recent commits, each with its commit's first line, author
// and date. Read with libgit2 from the repository's refs and objects; nothing is written.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hiera {

struct RevisionChoice
{
    enum class Kind { Head, Branch, RemoteBranch, Tag, Commit };
    Kind kind = Kind::Commit;
    std::string name; // what openRevision takes: "HEAD", "main", "origin/main", "v1.2", an abbreviated id
    std::string commit; // the commit's full id
    std::string summary; // its message's first line
    std::string author;
    std::int64_t time = 0; // its commit time, seconds since the epoch (UTC)
};

// HEAD, then local branches, remote-tracking branches and tags (each by name), then the `recent`
// newest commits reachable from HEAD, newest first. Throws hiera::Error (ErrorCode::Io), one line
// naming the directory, when `directory` lies in no git work tree or the repository cannot be read;
// a ref that names no commit is left out.
std::vector<RevisionChoice> listRevisions(const std::string& directory, std::size_t recent = 30);

} // namespace hiera
