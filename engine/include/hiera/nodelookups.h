#pragma once

// hiera::NodeLookups — one node bound once, for resolving many of its keys in one pass: the node
// library's front door to the engine (all keys of a node, node and revision diffs, file impact).
//
//   hiera::NodeLookups node(engine, scope);
//   for (std::string_view root : node.rootKeys())
//       use(node.lookup(root));
//
// Context's sibling, with a different contract (docs/architecture.md, "The engine's rooms"): a Context
// is shared between threads and checks its files again as time passes; a NodeLookups is used by one
// thread for one pass over a fixed view of the files, which lets it
// - share the answers of sub-lookups between keys (`%{lookup('x')}`, `alias`: many keys of a control
//   repository interpolate the same few), unsynchronised;
// - skip the files that lack a key through an index of which file holds which root key
//   (KeyIndex::Indexed), which pays for itself over hundreds of keys;
// - say which level and layer each of the node's files is, and hand out the parsed files themselves
//   (hiera/datafile.h) for the questions asked of files rather than keys.
// Answers are exactly Context::lookup's with default options.

#include <hiera/datafile.h>
#include <hiera/engine.h>
#include <hiera/sourcelocation.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

namespace detail {
class LookupOptionsTable;
}

class NodeLookups
{
public:
    // How many of the node's keys the caller will resolve: Indexed builds the index of which files hold
    // which key once; PerLookup looks each key up in every file, as a lone lookup does (a revision diff
    // resolves a handful of keys on each of 20,000 nodes, where the index of 17,000 keys cost forty
    // times the lookups).
    enum class KeyIndex { Indexed, PerLookup };

    // `engine` and `scope` must outlive this.
    NodeLookups(const Engine& engine, const Scope& scope, KeyIndex keys = KeyIndex::Indexed);
    ~NodeLookups();
    NodeLookups(const NodeLookups&) = delete;
    NodeLookups& operator=(const NodeLookups&) = delete;

    // The root keys of the node's data files (Engine::keyInventory's roots), unquoted, sorted, unique:
    // views into the parsed files, valid as long as this object.
    std::vector<std::string_view> rootKeys() const;

    // Looks the root key up as `puppet lookup` would, with its lookup_options.
    LookupResult lookup(std::string_view root) const;

    // Where a found answer was decided: the file, line and column of its value, or of its
    // highest-priority leaf when a merge mixed files, with that file's level and layer (empty for a
    // file outside the node's hierarchy, such as a value aliased from elsewhere).
    struct Place
    {
        SourceLocation location; // default-constructed when the answer has no place
        std::string level;
        std::string layer;
    };
    Place placeOf(const LookupResult& answer) const;

    // The data files `v`'s leaves were written in, highest-priority level first.
    std::vector<std::string> leafFiles(const Value& v) const;
    // Where `v`'s leaves were written, "file:line", sorted and unique.
    static std::vector<std::string> leafSources(const Value& v);

    // Calls f for every file of the node's hierarchy (parsed, present or not), highest priority first.
    void forEachDataFile(const std::function<void(const DataFile&)>& f) const;
    // The node's data file at `path` (its hierarchy's name for it, absolute), parsed; null when no level
    // of the node names it.
    std::shared_ptr<const DataFile> fileAt(std::string_view path) const;

    // The files a lookup reads for a key of no module of the node's own (the global and environment
    // layers'), present ones only, in the order it reads them, when an answer read from them is a
    // function of the files that hold the key (as written: not interpolating, no key Puppet cannot
    // return, nothing refused) and of its lookup_options entry alone, so that nodes with the same holders
    // get the same answer: nothing skipped or failed, every level a runnable data_hash one. False
    // otherwise: every key must be resolved.
    bool shareableFiles(std::vector<std::shared_ptr<const DataFile>>& files) const;
    // Whether every answer is a function of the node's files as read (and of its scope): every level a
    // data_hash one (parsed once per file version by the engine's cache) or eyaml_lookup_key, or one
    // that fails every time. False when a level asks a function at each lookup (a host's lookup_key or
    // data_dig backend), whose answers may change with nothing on disk changing.
    bool answersFollowFiles() const;
    // Whether the root key's own module has a layer here (its answer then reads that layer and its
    // lookup_options: not a function of shareableFiles).
    bool hasLayerOfModule(std::string_view root) const;

    // The node's merged lookup_options, shared between nodes whose files holding options are the same:
    // its identity says which nodes read the same options.
    const std::shared_ptr<const detail::LookupOptionsTable>& optionsTable() const;
    // The entry `table` selects for `root`, by identity only (two keys with the same entry get the same
    // pointer; null when none applies). Throws hiera::Error for a malformed entry, as the lookup would.
    static const void* optionsEntry(const detail::LookupOptionsTable& table, std::string_view root);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace hiera
