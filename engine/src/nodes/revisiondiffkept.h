#pragma once

// What a RevisionDiffCache (hiera/nodes/revisiondiffcache.h) holds: per engine side, per node of the
// library, what diffRevisions worked out for it and may use again. Each node's entry is touched only by
// the thread working on that node.

#include <hiera/engine.h>
#include <hiera/nodelookups.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/scope.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace hiera::detail {

struct FileReferences; // revisiondiff.cpp: which keys a file's interpolations name

// What one data file's change does to the keys of the nodes that read it.
struct FileChange
{
    bool changed = false;
    bool allKeys = false; // every key of its nodes: lookup_options changed, unparseable, not YAML/JSON
    std::vector<std::string> keys; // root keys whose value or presence differs
};

// Every file some node reads on either side of a diff, each compared once. Kept when every node was
// fixed on both sides: two held engines and the same nodes then read the same files, whose content can
// never change.
struct KeptComparison
{
    std::shared_ptr<const Engine> before, after; // set when kept
    std::vector<std::shared_ptr<const Scope>> scopes; // the library's nodes, in order, when kept
    std::vector<std::string> paths; // sorted
    std::vector<FileChange> changes; // by path
};

struct KeptNode
{
    std::shared_ptr<const Scope> scope; // held: its address names the node
    bool filesKnown = false;
    std::vector<std::string> files; // Engine::candidateFiles, when filesKnown
    // Every path of `files` is fixed in the engine's tree (SourceTree::fixed): the NodeLookups and the
    // answers below may be kept. Decided once per node, by the diff that first resolved it.
    bool fixedKnown = false;
    bool fixed = false;
    std::unique_ptr<NodeLookups> lookups; // KeyIndex::PerLookup; answersFollowFiles
    std::unordered_map<std::string, LookupResult> answers; // by root key, from `lookups`
    // The references of `lookups`' files that name keys, when known.
    bool referencesKnown = false;
    bool referencesUnbounded = false;
    std::vector<std::shared_ptr<const FileReferences>> references;
};

struct KeptSide
{
    std::shared_ptr<const Engine> engine; // held: its address names the side
    std::vector<KeptNode> nodes; // by library index
    std::uint64_t lastUse = 0;

    // The entry of node `index`, made anew when it was kept for another scope.
    KeptNode& node(std::size_t index, const std::shared_ptr<const Scope>& scope);
};

struct RevisionDiffKept
{
    KeptSide sides[2];
    std::uint64_t uses = 0;
    std::shared_ptr<const KeptComparison> comparison; // of the last diff whose two sides were kept whole

    // The kept comparison when it is of these two engines and these nodes.
    std::shared_ptr<const KeptComparison> comparisonOf(const Engine& before, const Engine& after,
                                                       const std::vector<Node>& nodes) const;

    // The side kept for `engine`, sized for `nodes` nodes; a new one (replacing the least recently
    // used other than `other`) when none is. Null when the engine cannot be kept: not on a git
    // revision, or not held by a shared_ptr.
    KeptSide* side(const Engine& engine, const KeptSide* other, std::size_t nodes);
};

} // namespace hiera::detail
