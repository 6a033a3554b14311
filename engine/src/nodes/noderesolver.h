#pragma once

// One node, bound once, for resolving many of its keys: the all-keys view and the node diff. Builds
// the node's snapshot (files and lookup_options) once and runs every key's lookup over it, as a
// Context does, sharing the answers of sub-lookups between keys (SubLookupMemo: many keys of a
// control repository interpolate the same few) and skipping the files that lack a key (KeyPresence);
// and knows which level and layer each of the node's
// data files belongs to. Not thread-safe: one per thread.

#include "lookup/lookuprun.h"
#include "lookup/nodesnapshot.h"

#include <hiera/nodedata.h>
#include <hiera/nodediff.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hiera::detail {

class NodeResolver
{
public:
    // How many of the node's keys the caller will resolve: Many builds the index of which files hold
    // which key (KeyPresence) once, which pays for itself over hundreds of keys; Few looks each key up
    // in every file, as a lone lookup does (a revision diff resolves a handful of keys on each of
    // 20,000 nodes, where the index of 17,000 keys cost forty times the lookups).
    enum class Keys { Many, Few };
    NodeResolver(const Engine& engine, const Scope& scope, Keys keys = Keys::Many);

    // The root keys of the node's data files (Engine::keyInventory's roots), unquoted, sorted, unique:
    // views into the parsed files, valid as long as this resolver.
    std::vector<std::string_view> rootKeys() const;

    // Looks `root` up as `puppet lookup` would (with its lookup_options); the warnings are added to
    // `warnings`. The location, level and layer come from the answer's mark.
    ResolvedKey resolve(std::string_view root, std::vector<std::string>& warnings) const;
    // Only the lookup, for callers that want the raw result (the diff).
    LookupResult lookup(std::string_view root) const;

    // The data files `v`'s leaves were written in, highest-priority level first.
    std::vector<std::string> leafFiles(const Value& v) const;
    // Calls f(const DataFile&) for every file of the node's hierarchy (parsed, present or not).
    template <typename F>
    void forEachDataFile(F&& f) const
    {
        for (const LayerState& layer : m_snapshot->layers)
            for (const auto* levels : {&layer.levels, &layer.defaultLevels})
                for (const LevelState& level : *levels)
                    for (const ResolvedFile& rf : level.files)
                        if (rf.file)
                            f(*rf.file);
    }
    // The node's data file at `path` (its hierarchy's name for it, absolute), parsed; null when no level
    // of the node names it.
    std::shared_ptr<const DataFile> fileAt(std::string_view path) const
    {
        for (const LayerState& layer : m_snapshot->layers)
            for (const auto* levels : {&layer.levels, &layer.defaultLevels})
                for (const LevelState& level : *levels)
                    for (const ResolvedFile& rf : level.files)
                        if (rf.file && rf.candidate.path == path)
                            return rf.file;
        return nullptr;
    }
    // The files a lookup reads for a key of no module of the node's own (the global and environment
    // layers'), present ones only, in the order it reads them, when an answer read from them is a
    // function of the files that hold the key (as written: not interpolating, no key Puppet cannot
    // return, nothing refused) and of its lookup_options entry alone, so that nodes with the same holders
    // get the same answer: nothing skipped or failed, every level a runnable data_hash one. False
    // otherwise: every key must be resolved.
    bool shareableFiles(std::vector<std::shared_ptr<const DataFile>>& files) const;
    // Whether the root key's own module has a layer here (its answer then reads that layer and its
    // lookup_options: not a function of shareableFiles).
    bool hasLayerOfModule(std::string_view root) const;
    // The node's merged lookup_options (shared between nodes whose files holding options are the same).
    const std::shared_ptr<const LookupOptionsTable>& optionsTable() const { return m_snapshot->lookupOptions; }
    // Where `v`'s leaves were written, "file:line", sorted and unique.
    static std::vector<std::string> leafSources(const Value& v);

private:
    struct FileInfo
    {
        const Level* level = nullptr;
        std::string layerName;
        std::string path;
        std::size_t rank = 0; // position in the hierarchy: 0 = highest priority
    };
    const FileInfo* fileInfo(std::uint32_t id) const;
    // The file's position in the node's hierarchy (after every file of it when it is not one).
    std::size_t rankOf(std::uint32_t file) const;
    // The mark of the leaf of `v` written in the highest-priority file (first of them in `v`).
    SourceMark topLeafMark(const Value& v) const;

    const Engine& m_engine;
    const Scope& m_scope;
    std::shared_ptr<const NodeSnapshot> m_snapshot;
    // By SourceMark file id: the node's files are known once, so a mark maps to its level without
    // comparing paths (Engine::resolveHierarchy gives the same mapping by path, at a higher cost).
    std::unordered_map<std::uint32_t, FileInfo> m_files;
    std::optional<KeyPresence> m_presence; // Keys::Many
    mutable SubLookupMemo m_subLookups;
};

// The error of a result as one printable line.
std::string errorLine(const LookupResult& r);
// Two answers are the same when both are found with equal values, both not found, or both errors
// with the same message (hiera/nodediff.h).
bool sameAnswer(const LookupResult& x, const LookupResult& y);
// A result as one side of a difference, its files from `node`'s hierarchy.
KeyDifference::Side answerSide(const NodeResolver& node, LookupResult r);

} // namespace hiera::detail
