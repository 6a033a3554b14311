#pragma once

// Making a node's NodeSnapshot (lookup/nodesnapshot.h): resolving its levels for a scope and merging
// its lookup_options, which takes lookups of its own (lookup/lookuprun.h). Apart from the snapshot's
// data so that the fold, which reads snapshots, and the builder, which runs folds, do not include each
// other.

#include "lookup/nodesnapshot.h"

#include <memory>

namespace hiera {
class Engine;
class Scope;
} // namespace hiera

namespace hiera::detail {

// Resolves the levels and reads the files (through the cache). Does not compute lookup_options.
std::shared_ptr<NodeSnapshot> resolveSnapshot(const Engine& engine, const Scope& scope);
// Resolves, then merges lookup_options (reusing `previous`'s when the files are the same).
std::shared_ptr<const NodeSnapshot> buildSnapshot(const Engine& engine, const Scope& scope, bool explain,
                                                  const NodeSnapshot* previous);

} // namespace hiera::detail
