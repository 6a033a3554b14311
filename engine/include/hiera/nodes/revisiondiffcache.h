#pragma once

// hiera::RevisionDiffCache — what hiera::diffRevisions keeps between runs for a host that diffs again
// (the explorer's second Compare: the same two revisions, or one of them against a later one).
//
//   hiera::RevisionDiffCache kept;                // held by the host while it may compare again
//   hiera::RevisionDiffOptions options;
//   options.cache = &kept;
//   auto first = hiera::diffRevisions(*main, *branch, library, options);
//   auto again = hiera::diffRevisions(*main, *branch, library, options);  // reuses both sides
//   auto later = hiera::diffRevisions(*main, *next, library, options);    // reuses main's side
//
// Per engine (the two last diffed), per node: the hierarchy's candidate files, the node's resolved
// hierarchy (a NodeLookups) and the answers it gave. Only what can never change is kept, so that a
// later diff is exactly what a fresh one would be (docs/revision-diff.md, "Kept between runs"):
// - an engine on a git revision, a node every path of whose hierarchy resolves inside the revision's
//   objects (SourceTree::fixed: a path the revision reads from the disk is not), and whose levels read
//   files only (NodeLookups::answersFollowFiles);
// - never the working tree, whose files change under it: its side is resolved again on every diff.
// A kept side belongs to the engine object (held here until the side is replaced or clear()), and a
// kept node to its scope (NodeLibrary's Node::scope, held too): another engine or another library is
// new to the cache. Costs each kept node's resolved hierarchy, answers and references, some 32 KB a
// node a side on the large fixture (docs/performance.md, "Revision diff, second pass"). One diff at a
// time per cache.

#include <cstddef>
#include <memory>

namespace hiera {

namespace detail {
struct RevisionDiffKept;
}

class RevisionDiffCache
{
public:
    RevisionDiffCache();
    ~RevisionDiffCache();
    RevisionDiffCache(const RevisionDiffCache&) = delete;
    RevisionDiffCache& operator=(const RevisionDiffCache&) = delete;

    // Forgets everything (and lets the engines and scopes it held go).
    void clear();
    // How many (node, side) pairs have their lookups kept: what the next diff of those sides reuses.
    std::size_t keptNodes() const;

    detail::RevisionDiffKept& kept() { return *m_kept; } // for diffRevisions

private:
    std::unique_ptr<detail::RevisionDiffKept> m_kept;
};

} // namespace hiera
