#pragma once

// One key across a fleet: every node of a NodeLibrary looked up, grouped by the value it gets.
//
//   hiera::FleetResult r = hiera::lookupAcross(*engine, library, "profile::ntp::servers");
//   for (const auto& g : r.groups)            // largest group first
//       std::cout << g.nodes.size() << " nodes: " << hiera::toJson(g.value) << '\n';
//   std::string csv = hiera::fleetCsv(r);      // also fleetJson, fleetMarkdown
//
// Where a value was decided comes from the values' source marks, not from an explain trace (which
// would cost ten times more a node): `decidingFiles` are the files the value's leaves were written in
// (several for a merged value), and `file` the one of them searched first: the highest-priority
// level that contributed (the value's own file when it comes from one file). `level` is the name of
// the hierarchy level that holds `file` for this node. A value that did not come from a data file
// (interpolated from facts only, a convert_to result) may have no file.

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/nodes/executor.h>
#include <hiera/nodes/nodelibrary.h>

#include <functional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

struct FleetOptions
{
    // Where the nodes are worked on (hiera/nodes/executor.h); null: the calling thread only.
    const Executor* executor = nullptr;
    // Called from the worker threads (possibly several at once) after each node; must be thread-safe.
    std::function<void(std::size_t done, std::size_t total)> progress;
    // Once a stop is requested, the run stops within one node per thread; the result holds the nodes
    // done so far and says cancelled. May be null.
    std::stop_token stop;
    // Only these nodes (indices into NodeLibrary::nodes(), looked up in this order; an index past the
    // library is ignored), e.g. the nodes a filter shows. Null: every node.
    const std::vector<std::size_t>* nodes = nullptr;
};

struct FleetNodeResult
{
    std::size_t node = 0; // index into NodeLibrary::nodes()
    std::string name;
    LookupResult::Status status = LookupResult::Status::NotFound;
    Value value; // Found: the value
    std::string error; // Error: one line, "file:line:col: message"
    // The winning file: the file of the value's first leaf (its only file unless merged). Empty when
    // not known.
    std::string file;
    std::string level; // its level's name ("name (module x)" in a module layer)
    std::vector<std::string> decidingFiles; // every file the value's leaves come from, sorted
    std::size_t group = 0; // index into FleetResult::groups
};

// Nodes that got the same answer: an equal value (hiera::Value's ==, so hash key order does not
// matter), or not found, or the same error message.
struct FleetGroup
{
    LookupResult::Status status = LookupResult::Status::NotFound;
    Value value; // Found: the value (as the group's first node got it)
    std::string error; // Error: the message
    std::vector<std::size_t> members; // indices into FleetResult::nodes, in library order
    std::vector<std::string> decidingFiles; // union over the members, sorted
};

struct FleetResult
{
    std::string key;
    std::vector<FleetNodeResult> nodes; // in library order; only the nodes done when cancelled
    std::vector<FleetGroup> groups; // largest first; equal sizes in order of their first node
    std::size_t total = 0; // nodes asked for: the library's, or FleetOptions::nodes'
    std::size_t libraryNodes = 0; // nodes in the library (more than total when some were chosen)
    bool cancelled = false;

    std::size_t count(LookupResult::Status status) const;
};

// Looks `key` up on every node of `library`, in parallel. Never throws for a node's failure: it is
// that node's Error status. Lookups go through one hiera::Context per node per call, so the data files
// are parsed once (the engine's cache) and each node's hierarchy is resolved once per call.
FleetResult lookupAcross(const Engine& engine, const NodeLibrary& library, std::string_view key,
                         const LookupRequest& request = {}, const FleetOptions& options = {});

// One hiera::Context per node of a library for one engine, kept between runs: the first run resolves
// each node's hierarchy (its snapshot: locations, files, lookup_options), later runs — another key,
// or the same key after a fact or data change the engine has seen — reuse it, which makes a warm run
// about ten times cheaper a node (2 us against 18 us on the large fixture). Costs the snapshots'
// memory: about 18 KB a node there (355 MiB for 20,000 nodes), so a host keeps it only while it
// wants fast repeated runs. The library must outlive it. Thread-safe as Context is.
class FleetContexts
{
public:
    FleetContexts(std::shared_ptr<const Engine> engine, const NodeLibrary& library);

    const Engine& engine() const { return *m_engine; }
    const NodeLibrary& library() const { return m_library; }
    const Context& context(std::size_t node) const { return *m_contexts[node]; }

private:
    std::shared_ptr<const Engine> m_engine;
    const NodeLibrary& m_library;
    std::vector<std::unique_ptr<Context>> m_contexts;
};

// lookupAcross through kept contexts (see FleetContexts); same results.
FleetResult lookupAcross(const FleetContexts& contexts, std::string_view key, const LookupRequest& request = {},
                         const FleetOptions& options = {});

// Exports. Values are JSON (secrets shown as `<sensitive>` unless revealSecrets).
struct FleetExportOptions
{
    bool revealSecrets = false;
    // File paths below this directory are written relative to it (a control repository's root); empty:
    // absolute paths.
    std::string relativeTo;
    // How the nodes were chosen from the library (the explorer's Nodes filter, "role=web env=prod"); said
    // in the JSON ("node_filter") and the Markdown when not empty.
    std::string nodeFilter;
};
// CSV (RFC 4180, a header row): node,key,status,value,file,level — status found / not found / error, the
// value as JSON (the error message for errors).
std::string fleetCsv(const FleetResult& result, const FleetExportOptions& options = {});
// {"key": ..., "total": n, "library_nodes": m, ["node_filter": f,] "cancelled": b, "groups": [{"status",
// "value"|"error", "count", "nodes": [...], "files": [...]}...], "nodes": [{"node", "status", "value"|"error", "file",
// "level", "files"}...]}
std::string fleetJson(const FleetResult& result, const FleetExportOptions& options = {});
// The same document as a Value (for YAML output: toYaml(fleetValue(r))).
Value fleetValue(const FleetResult& result, const FleetExportOptions& options = {});
// A Markdown table of the groups: | nodes | value | files | (with the node names, the first few).
std::string fleetMarkdown(const FleetResult& result, const FleetExportOptions& options = {});

// "found", "not found", "error".
const char* fleetStatusName(LookupResult::Status status);

} // namespace hiera
