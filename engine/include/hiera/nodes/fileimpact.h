#pragma once

// What one data file decides across a node library: which nodes read it (the file is one of their
// hierarchy's files, matched by a path, a glob or mapped_paths, and it exists), and for which nodes
// each key it defines takes its value from it, as the winner (the answer's highest-priority leaf was
// written there) or as a contributor to a merge (some leaves come from it, the winner's from a
// higher level). A key it defines that every node takes from elsewhere is not listed.
//
//   hiera::FileImpact impact = hiera::fileImpact(*engine, library, "/repo/data/roles/web.yaml");
//   for (const hiera::KeyImpact& k : impact.keys)
//       report(k.key, k.role, k.nodes);
//   std::string md = hiera::fileImpactMarkdown(impact, {.relativeTo = "/repo"});
//
// Keys are resolved as `--all-keys` resolves them: each root key with its lookup_options merge.

#include <hiera/engine.h>
#include <hiera/nodes/executor.h>
#include <hiera/nodes/nodelibrary.h>

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace hiera {

struct FileImpactOptions
{
    const Executor* executor = nullptr; // where the nodes are worked on; null: the calling thread
    // Called after each node with how many of `total` are done; from worker threads, thread-safe.
    std::function<void(std::size_t done, std::size_t total)> progress;
    std::stop_token stop; // checked between nodes
};

struct KeyImpact
{
    enum class Role { Winner, Merged };
    std::string key; // root key, unquoted
    Role role = Role::Winner;
    std::vector<std::string> nodes; // certnames, in library order
};

struct FileImpact
{
    std::string file; // absolute, as the hierarchy names it
    bool exists = false;
    std::size_t nodes = 0; // nodes of the library
    std::vector<std::string> nodesReading; // in library order
    std::size_t keysDefined = 0; // root keys the file defines (lookup_options aside)
    // The keys and patterns of its lookup_options: how their lookups merge may change on every node
    // that reads it, whichever file holds their values.
    std::vector<std::string> lookupOptions;
    std::vector<KeyImpact> keys; // by key, winner before merged
    std::string error; // the file does not parse: one line, file:line:col
    // Each once: a skipped level; the keys that fail on a node, one line a node and error
    // ("web02: 16 keys fail (classes, …), not counted: data/nodes/web02.yaml:3:1: …").
    std::vector<std::string> warnings;
    bool cancelled = false;
};

// Never throws for data problems. `file` is a path as the hierarchy resolves it (absolute, normal);
// a relative one is taken from the current directory.
FileImpact fileImpact(const Engine& engine, const NodeLibrary& library, const std::string& file,
                      const FileImpactOptions& options = {});

struct FileImpactExportOptions
{
    std::string relativeTo; // file paths below it are written relative to it (the repository's root)
    std::size_t nodesShown = 10; // Markdown: node names listed before "and N more"
};

const char* keyImpactRoleName(KeyImpact::Role role); // "winner", "merged"

// {"file", "exists", "nodes", "nodes_reading": [...], "keys_defined", "keys": [{"key", "role", "nodes": [...]}],
//  "lookup_options"?: [...], "error"?, "warnings"?, "cancelled"?}
std::string fileImpactJson(const FileImpact& impact, const FileImpactExportOptions& options = {});
Value fileImpactValue(const FileImpact& impact, const FileImpactExportOptions& options = {});
// What the impact comes to, one line of plain text: "2 of 4 nodes read it; of the 5 keys it defines, it
// decides 4 keys as the winner and contributes to 1 merged key on some node".
std::string fileImpactSummary(const FileImpact& impact);
// One summary line, then | key | role | nodes |, long node lists folded (<details>).
std::string fileImpactMarkdown(const FileImpact& impact, const FileImpactExportOptions& options = {});

} // namespace hiera
