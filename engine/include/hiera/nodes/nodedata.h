#pragma once

// Everything the hierarchy defines for one node, resolved: what `puppet lookup KEY` would answer for
// every root key that some data file of this node's hierarchy holds, each with its lookup_options
// merge, its winning file and level, and its error when it has one.
//
//   hiera::NodeData data = hiera::resolveAllKeys(*engine, scope);
//   for (const hiera::ResolvedKey& k : data.keys)
//       if (k.found()) show(k.key, k.value, k.level, k.location.toString());
//   std::string yaml = hiera::nodeDataYaml(data); // the node's data as one YAML hash
//
// One key that fails (a bad interpolation, a merge of mismatched types) keeps its one-line error and
// the others still resolve. The engine starts no threads: a host that wants this off its GUI thread
// runs it on a worker and cancels through the stop token.

#include <hiera/engine.h>
#include <hiera/error.h>

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace hiera {

struct ResolvedKey
{
    std::string key; // the root key as the data files write it (unquoted)
    LookupResult::Status status = LookupResult::Status::NotFound;
    Value value; // Found: the answer, merged and converted as `puppet lookup KEY` returns it
    std::string error; // Error: one printable line, "file:line:col: message" where known
    // Where the answer was written: the value's own mark; for a merged value (whose own mark is the
    // one of whichever value the merge started from) and a value the merge built anew (a unique
    // array), the mark of its leaf from the highest-priority file that contributed. Empty when unknown
    // (e.g. a value made by convert_to).
    SourceLocation location;
    std::string level; // the hierarchy level that file belongs to ("Per-node data"); empty when unknown
    std::string layer; // its layer: "global", "environment", "module profile"
    std::optional<MergeUsed> merge;

    bool found() const { return status == LookupResult::Status::Found; }
};

struct NodeWarning
{
    std::string message; // one printable line, as LookupResult::warnings has it
    std::string key; // the root key whose lookup first gave it (others may repeat it)
    SourceLocation location; // the place the message names first (leadingLocation), when it names one
};

struct NodeData
{
    std::string node; // the scope's trusted.certname (empty when it has none): exports name it
    std::vector<ResolvedKey> keys; // sorted by key; every root key of the inventory, found or not
    // The lookups' warnings, each once in first-seen order (files skipped, levels skipped, a variable
    // undefined where a value interpolates it).
    std::vector<NodeWarning> warnings;
    // The node's data files that exist but cannot be read or parsed, each once. Puppet fails every
    // lookup that reaches one (so do `keys`' lookups, strict), and the keys only they define are not
    // in `keys` at all: a node whose one data file is broken has no keys, and says so here.
    std::vector<Error> brokenFiles;
    bool cancelled = false; // stopped early: `keys` holds the keys resolved until then

    std::size_t errorCount() const; // keys whose lookups failed
};

struct ResolveOptions
{
    std::stop_token stop; // checked between keys
    // Called after each key with (keys done, keys in all), from the calling thread.
    std::function<void(std::size_t, std::size_t)> progress;
};

// Resolves every root key of `engine.keyInventory(scope)` (lookup_options left out) for the scope.
// Never throws for data problems: they become the keys' errors.
NodeData resolveAllKeys(const Engine& engine, const Scope& scope, const ResolveOptions& options = {});

struct NodeExportOptions
{
    // Decrypted eyaml values are written as "<sensitive>" unless this is set.
    bool revealSecrets = false;
    // File paths below this directory are written relative to it (a control repository's root); empty:
    // absolute paths.
    std::string relativeTo;
};

// The node's data as one YAML hash, key -> value in key order, the way `puppet lookup` answers each
// key. Keys not found are left out; keys that failed are left out too and listed, with their errors,
// in a comment at the top, below a `# node: NAME` comment. Reads back (hiera::parseData) as that hash.
std::string nodeDataYaml(const NodeData& data, const NodeExportOptions& options = {});
// {"node": NAME, "data": {key: value...}, "errors": {key: message...}} — JSON has no comments, so the
// errors get a field of their own ("node" only when NodeData::node is set).
std::string nodeDataJson(const NodeData& data, const NodeExportOptions& options = {});
// A table, one row per key that was found or failed (RFC 4180 CSV, header row):
// node,key,value,level,file,merge,merge_source,lookup_options,error (node: NodeData::node on every row). `value` is the
// JSON text of the value (so that the string "true" and the boolean true stay apart); `file` is file:line:col.
std::string nodeDataCsv(const NodeData& data, const NodeExportOptions& options = {});

// "deep", or "deep (lookup_options 'profile::ntp')" / "first (default)"-style text for reports.
std::string describeMerge(const MergeUsed& merge);

} // namespace hiera
