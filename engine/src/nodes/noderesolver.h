#pragma once

// One node, bound once, for resolving many of its keys: the all-keys view and the node diff. Builds
// the node's snapshot (files and lookup_options) once and runs every key's lookup over it, as a
// Context does; and knows which level and layer each of the node's data files belongs to.

#include "lookup/nodesnapshot.h"

#include <hiera/nodedata.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hiera::detail {

class NodeResolver
{
public:
    NodeResolver(const Engine& engine, const Scope& scope);

    // The root keys of the node's data files (Engine::keyInventory's roots), unquoted, sorted, unique.
    std::vector<std::string> rootKeys() const;

    // Looks `root` up as `puppet lookup` would (with its lookup_options); the warnings are added to
    // `warnings`. The location, level and layer come from the answer's mark.
    ResolvedKey resolve(const std::string& root, std::vector<std::string>& warnings) const;
    // Only the lookup, for callers that want the raw result (the diff).
    LookupResult lookup(const std::string& root) const;

    // The data files `v`'s leaves were written in, highest-priority level first.
    std::vector<std::string> leafFiles(const Value& v) const;

private:
    struct FileInfo
    {
        const Level* level = nullptr;
        const Layer* layer = nullptr;
        std::size_t rank = 0; // position in the hierarchy: 0 = highest priority
    };
    const FileInfo* fileInfo(std::uint32_t id) const;
    // The mark of the leaf of `v` written in the highest-priority file (first of them in `v`).
    SourceMark topLeafMark(const Value& v) const;

    const Engine& m_engine;
    const Scope& m_scope;
    std::shared_ptr<const NodeSnapshot> m_snapshot;
    // By SourceMark file id: the node's files are known once, so a mark maps to its level without
    // comparing paths (Engine::resolveHierarchy gives the same mapping by path, at a higher cost).
    std::unordered_map<std::uint32_t, FileInfo> m_files;
};

// A root key as a lookup key: quoted when it holds a dot or a quote.
std::string lookupKeyForRoot(const std::string& root);
// The error of a result as one printable line.
std::string errorLine(const LookupResult& r);

} // namespace hiera::detail
