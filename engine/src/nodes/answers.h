#pragma once

// A node's answers as the node library reports them (all keys, node and revision diffs), made from the
// engine's lookups through its front door (hiera/nodelookups.h).

#include <hiera/nodelookups.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodediff.h>

#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

// Looks `root` up on `node` and says where its answer was decided; the lookup's warnings are added to
// `warnings`.
ResolvedKey resolveKey(const NodeLookups& node, std::string_view root, std::vector<std::string>& warnings);
// The error of a result as one printable line.
std::string errorLine(const LookupResult& r);
// Two answers are the same when both are found with equal values, both not found, or both errors
// with the same message (hiera/nodes/nodediff.h).
bool sameAnswer(const LookupResult& x, const LookupResult& y);
// A result as one side of a difference, its files from `node`'s hierarchy.
KeyDifference::Side answerSide(const NodeLookups& node, LookupResult r);

} // namespace hiera::detail
