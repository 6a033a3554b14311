// listRevisions: the refs and recent commits of a repository, for a person to pick from.

#include "repository/libgit2util.h"
#include "repository/workrepository.h"

#include <hiera/error.h>
#include <hiera/gitrevisionlist.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <tuple>

namespace hiera {

namespace {

using GitReference = detail::GitOwned<git_reference, git_reference_free>;
using GitCommit = detail::GitOwned<git_commit, git_commit_free>;
using GitRevwalk = detail::GitOwned<git_revwalk, git_revwalk_free>;
using GitReferenceIterator = detail::GitOwned<git_reference_iterator, git_reference_iterator_free>;

std::string abbreviated(const git_oid& id)
{
    char text[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(text, sizeof text, &id);
    return std::string(text).substr(0, 12);
}

// The commit `id` as a choice named `name`; false when it cannot be read.
bool describeCommit(git_repository* repository, const git_oid& id, RevisionChoice& choice)
{
    git_commit* raw = nullptr;
    if (git_commit_lookup(&raw, repository, &id) != 0)
        return false;
    const GitCommit commit(raw);
    char text[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(text, sizeof text, &id);
    choice.commit = text;
    const char* summary = git_commit_summary(commit.get());
    choice.summary = summary ? summary : "";
    const git_signature* author = git_commit_author(commit.get());
    choice.author = author && author->name ? author->name : "";
    choice.time = static_cast<std::int64_t>(git_commit_time(commit.get()));
    return true;
}

} // namespace

std::vector<RevisionChoice> listRevisions(const std::string& directory, std::size_t recent)
{
    const detail::WorkRepository opened =
        detail::openWorkRepository(directory, "not in a git work tree", [&](const std::string& why) {
            return Error(ErrorCode::Io, "cannot list the revisions of " + directory + ": " + why);
        });
    const detail::GitRepository& repository = opened.repository;

    std::vector<RevisionChoice> out;
    git_oid head{};
    const bool hasHead = git_reference_name_to_id(&head, repository.get(), "HEAD") == 0;
    if (hasHead) {
        RevisionChoice c;
        c.kind = RevisionChoice::Kind::Head;
        c.name = "HEAD";
        if (describeCommit(repository.get(), head, c))
            out.push_back(std::move(c));
    }

    std::vector<RevisionChoice> refs;
    git_reference_iterator* rawIterator = nullptr;
    if (git_reference_iterator_new(&rawIterator, repository.get()) == 0) {
        const GitReferenceIterator iterator(rawIterator);
        git_reference* rawReference = nullptr;
        while (git_reference_next(&rawReference, iterator.get()) == 0) {
            const GitReference reference(rawReference);
            RevisionChoice c;
            if (git_reference_is_branch(reference.get()))
                c.kind = RevisionChoice::Kind::Branch;
            else if (git_reference_is_remote(reference.get()))
                c.kind = RevisionChoice::Kind::RemoteBranch;
            else if (git_reference_is_tag(reference.get()))
                c.kind = RevisionChoice::Kind::Tag;
            else
                continue;
            c.name = git_reference_shorthand(reference.get());
            if (c.kind == RevisionChoice::Kind::RemoteBranch && c.name.ends_with("/HEAD"))
                continue; // origin/HEAD names another remote branch
            git_object* peeled = nullptr;
            if (git_reference_peel(&peeled, reference.get(), GIT_OBJECT_COMMIT) != 0)
                continue; // a tag of a tree or a blob: not a revision of the data
            const detail::GitObject commit(peeled);
            if (describeCommit(repository.get(), *git_object_id(commit.get()), c))
                refs.push_back(std::move(c));
        }
    }
    std::stable_sort(refs.begin(), refs.end(), [](const RevisionChoice& a, const RevisionChoice& b) {
        return std::tie(a.kind, a.name) < std::tie(b.kind, b.name);
    });
    out.insert(out.end(), refs.begin(), refs.end());

    if (hasHead && recent > 0) {
        git_revwalk* rawWalk = nullptr;
        if (git_revwalk_new(&rawWalk, repository.get()) == 0) {
            const GitRevwalk walk(rawWalk);
            git_revwalk_sorting(walk.get(), GIT_SORT_TIME);
            git_oid id{};
            if (git_revwalk_push(walk.get(), &head) == 0) {
                for (std::size_t n = 0; n < recent && git_revwalk_next(&id, walk.get()) == 0; ++n) {
                    RevisionChoice c;
                    c.kind = RevisionChoice::Kind::Commit;
                    c.name = abbreviated(id);
                    if (describeCommit(repository.get(), id, c))
                        out.push_back(std::move(c));
                }
            }
        }
    }
    return out;
}

} // namespace hiera
