#pragma once

// What a change to the data does to every node: the same node library resolved on two revisions of a
// control repository (two engines, each reading its revision through a hiera::SourceTree), and every
// key whose answer changes on some node, grouped by change.
//
//   auto before = hiera::Engine::fromLayers(..., {.tree = hiera::openRevision(repo, "main")});
//   auto after  = hiera::Engine::fromLayers(...);               // the working tree
//   hiera::RevisionDiff d = hiera::diffRevisions(*before, *after, library);
//   for (const hiera::RevisionChange& c : d.changes)
//       report(c.key, c.before.value, c.after.value, c.nodes);
//   std::string md = hiera::revisionDiffMarkdown(d, {.from = "main", .to = "working tree"});
//
// Keys are resolved as `--all-keys` resolves them: each root key with its lookup_options merge. Two
// answers are the same as in hiera/nodes/nodediff.h (equal values, both not found, or the same error).
//
// Only what a change can reach is recomputed (docs/revision-diff.md says why each rule is exact):
// - the hierarchy changed (a layer's hiera.yaml, environment.conf, the set of modules): every key of
//   every node;
// - else a node none of whose data files differs between the two revisions is skipped: its answers
//   are a function of its facts, the hierarchy and those files;
// - else, for that node, the root keys whose value or presence differs in a changed file, then every
//   key whose interpolation (lookup/hiera/alias) names one of them, until nothing is added; every key
//   of the node when a changed file's lookup_options differ, when a changed file does not parse as a
//   hash on either side, or is not YAML or JSON, or when an interpolation's key cannot be read.

#include <hiera/engine.h>
#include <hiera/nodes/executor.h>
#include <hiera/nodes/nodediff.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodes/revisiondiffcache.h>

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace hiera {

struct RevisionDiffOptions
{
    std::string prefix; // only root keys starting with it; empty: all
    const Executor* executor = nullptr; // where the nodes are worked on; null: the calling thread
    // Called after each node with how many of `total` are done; from worker threads, thread-safe.
    std::function<void(std::size_t done, std::size_t total)> progress;
    std::stop_token stop; // checked between nodes
    // What to keep for the next diff, and what the last ones kept (hiera/nodes/revisiondiffcache.h: a
    // revision's side, node by node); null: nothing is kept. The same result either way.
    RevisionDiffCache* cache = nullptr;
};

// One key's change, as some nodes see it: the same answer before and the same answer after on every
// node listed.
struct RevisionChange
{
    std::string key; // root key, unquoted
    KeyDifference::Side before, after; // `files`: every file the value's leaves come from
    std::vector<std::string> sourcesBefore, sourcesAfter; // "file:line" of the value's leaves, sorted
    std::vector<std::string> nodes; // certnames, in library order
};

struct RevisionDiff
{
    std::size_t nodes = 0; // nodes of the library
    std::size_t nodesRecomputed = 0; // nodes with at least one key resolved on both sides
    std::size_t keysRecomputed = 0; // distinct root keys resolved on some node
    std::size_t lookups = 0; // (node, key) pairs resolved on both sides
    bool hierarchyChanged = false; // everything was recomputed
    std::string reason; // why this much was recomputed, one line
    std::vector<std::string> changedFiles; // files of some node's hierarchy that differ, sorted
    std::vector<RevisionChange> changes; // by key, then most nodes first
    std::vector<std::string> warnings;
    bool cancelled = false;
};

// Never throws for data problems: a file that fails on one side is the keys' errors there.
RevisionDiff diffRevisions(const Engine& before, const Engine& after, const NodeLibrary& library,
                           const RevisionDiffOptions& options = {});

struct RevisionDiffExportOptions
{
    std::string from = "before"; // how the two revisions are named
    std::string to = "after";
    bool revealSecrets = false; // decrypted eyaml values are "<sensitive>" unless set
    std::string relativeTo; // file paths below it are written relative to it (the repository's root)
    std::size_t nodesShown = 10; // Markdown: node names listed before "and N more"
    // How the nodes were narrowed (the explorer's Nodes filter, "role=web"): said in the summary and as
    // "node_filter" in JSON when not empty.
    std::string nodeFilter;
};

// {"from", "to", ["node_filter",] "nodes", "nodes_recomputed", "keys_recomputed", "hierarchy_changed", "reason",
//  "changed_files": [...], "changes": [{"key", "before", "after", "found_before", "found_after",
//  "error_before"?, "error_after"?, "nodes": [...], "sources_before": ["file:line"...], "sources_after"}]}
// A value is null when not found; an error side has its message in error_before / error_after.
std::string revisionDiffJson(const RevisionDiff& diff, const RevisionDiffExportOptions& options = {});
Value revisionDiffValue(const RevisionDiff& diff, const RevisionDiffExportOptions& options = {});
// One summary line, then | key | before | after | nodes | sources |, long node lists folded
// (<details>): fit to paste as a merge-request comment.
std::string revisionDiffMarkdown(const RevisionDiff& diff, const RevisionDiffExportOptions& options = {});
// The same table as one self-contained HTML page: every node listed, every key, value, node name and
// file escaped, inline style, a Content-Security-Policy that forbids scripts and remote resources
// (safe to open whatever the data holds).
std::string revisionDiffHtml(const RevisionDiff& diff, const RevisionDiffExportOptions& options = {});

} // namespace hiera
