#include <hiera/gitrevision.h>

#include "repository/gitspecialfiles.h"
#include "repository/libgit2util.h"

#include <git2.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

namespace hiera {

namespace {

using detail::initialiseLibgit2Once;
template <typename T, void (*Free)(T*)>
using Freer = detail::GitFreer<T, Free>;
using Repository = detail::GitRepository;
using Reference = std::unique_ptr<git_reference, Freer<git_reference, git_reference_free>>;
using StatusList = std::unique_ptr<git_status_list, Freer<git_status_list, git_status_list_free>>;

constexpr std::size_t kChangedListed = 100;
// The bound on reading a repository's state: a work tree on a hung network mount, or a file turned
// into a FIFO after the check below, must not hold a report (or the explorer's exit) forever.
constexpr std::chrono::seconds kStateBound{10};

std::optional<GitRevision> readWithLibgit2(const std::string& directory)
{
    initialiseLibgit2Once();
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, directory.c_str(), 0, nullptr) != 0)
        return std::nullopt;
    const Repository repository(raw);
    if (git_repository_is_bare(repository.get()))
        return std::nullopt;
    GitRevision revision;
    git_reference* head = nullptr;
    if (git_repository_head(&head, repository.get()) == 0) {
        const Reference owned(head);
        if (const git_oid* oid = git_reference_target(head)) {
            char text[GIT_OID_HEXSZ + 1] = {};
            git_oid_tostr(text, sizeof text, oid);
            revision.commit = text;
        }
        if (git_reference_is_branch(head))
            revision.branch = git_reference_shorthand(head);
    } else if (!git_repository_head_unborn(repository.get())) {
        return std::nullopt; // HEAD unreadable
    }
    git_status_options options = GIT_STATUS_OPTIONS_INIT;
    options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    options.flags =
        GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS | GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
    git_status_list* rawList = nullptr;
    if (git_status_list_new(&rawList, repository.get(), &options) != 0)
        return std::nullopt;
    const StatusList list(rawList);
    revision.changedCount = git_status_list_entrycount(list.get());
    revision.dirty = revision.changedCount > 0;
    for (std::size_t i = 0; i < revision.changedCount && revision.changed.size() < kChangedListed; ++i) {
        const git_status_entry* entry = git_status_byindex(list.get(), i);
        const git_diff_delta* delta = entry->index_to_workdir ? entry->index_to_workdir : entry->head_to_index;
        if (delta && delta->new_file.path)
            revision.changed.emplace_back(delta->new_file.path);
    }
    return revision;
}

} // namespace

std::optional<GitRevision> gitRevision(const std::string& directory)
{
    std::string problem;
    const std::optional<detail::GitPlaces> places = detail::findGitPlaces(directory, problem);
    if (!places)
        return std::nullopt;
    if (problem.empty()) {
        const char* home = std::getenv("HOME");
        if (auto special = detail::specialFileGitWouldOpen(*places, home ? home : ""))
            problem = *special;
    }
    if (!problem.empty()) {
        GitRevision r;
        r.unreadable = problem + ", so git would block reading it";
        return r;
    }
    // libgit2 on a thread of its own, waited for up to kStateBound; a read that takes longer is left
    // to finish (or not) on its own, holding only its own copy of what it needs.
    struct Shared
    {
        std::mutex mutex;
        std::condition_variable done;
        bool finished = false;
        std::optional<GitRevision> result;
    };
    auto shared = std::make_shared<Shared>();
    std::thread reader;
    try {
        reader = std::thread([shared, root = places->workTree.string()] {
            std::optional<GitRevision> r = readWithLibgit2(root);
            const std::lock_guard lock(shared->mutex);
            shared->result = std::move(r);
            shared->finished = true;
            shared->done.notify_all();
        });
    } catch (const std::system_error&) {
        return readWithLibgit2(places->workTree.string()); // no thread to be had: read here
    }
    std::unique_lock lock(shared->mutex);
    if (!shared->done.wait_for(lock, kStateBound, [&] { return shared->finished; })) {
        reader.detach();
        GitRevision r;
        r.unreadable = "reading the repository's state took more than " + std::to_string(kStateBound.count()) + " s";
        return r;
    }
    lock.unlock();
    // Finished: joined, so that the thread's own state (libgit2's and OpenSSL's per-thread buffers,
    // freed as it exits) is gone before the caller goes on; a detached reader that the process outlived
    // by a moment left them to LeakSanitizer, now and then.
    reader.join();
    return shared->result;
}

std::string describe(const GitRevision& revision)
{
    if (!revision.unreadable.empty())
        return "git state not read: " + revision.unreadable;
    std::string text =
        revision.commit.empty() ? std::string("no commit yet") : "commit " + revision.commit.substr(0, 12);
    if (!revision.branch.empty())
        text += " (" + revision.branch + ")";
    text += revision.dirty ? ", with uncommitted changes (" + std::to_string(revision.changedCount) + " files)"
                           : ", work tree clean";
    return text;
}

} // namespace hiera
