#pragma once

// The override chain of a key: what every level holds for it, and for each leaf of the answer where it
// came from (every element of a merged array its own file:line), the values it replaced, and what a
// deep merge's knockouts removed, each with file:line. The explorer's Overridden values panel, its
// exported explanation and `hiera-lookup --explain --format markdown|html` show it. Which levels
// contributed is hiera::sourceContributions' answer (provenance.h), so that every view agrees.
//
//   hiera::OverrideChain chain = hiera::overrideChain(*engine, scope, "profile::ntp::servers", {});
//   for (const hiera::OverrideLeaf& leaf : chain.leaves)
//       for (const hiera::OverriddenValue& below : leaf.overrode) ...
//
// A first-found lookup stops at the winner, so its trace never shows the `4` that roles/web.yaml holds
// under the node's `16`. Here the root key is looked up once more with explain and a deep merge (which
// visits every level that has the key and records each found value with its file:line) and each
// level's value is dug by the key's segments. The answer itself comes from the user's request; its
// leaves carry their origins (source marks). A lower level's value at the same place was replaced
// (`overrode`) unless the merge took it in (a unique or deep merge's arrays: its elements are in the
// answer with their own origins, or were duplicates) or a knockout removed it (`removed`). Two
// lookups: a host runs it off its GUI thread.

#include <hiera/engine.h>
#include <hiera/provenance.h>
#include <hiera/value.h>

#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct OverrideLevel
{
    std::string layer; // the data provider ("global", "environment", a module)
    std::string level; // the hierarchy entry's name
    std::string path; // the file (empty for a lookup_key backend)
    SourceLocation location; // where the key's value is written
    Value value; // the level's value for the (dotted) key
    bool contributed = false; // some leaf of the answer comes from here
    // What the answer's lookup made of this source (sourceContributions); Shadowed for a level a
    // first-found lookup never read because a level above won.
    SourceContribution::Outcome outcome = SourceContribution::Outcome::Shadowed;
};

struct OverriddenValue
{
    Value value;
    SourceLocation location;
    std::string level;
};

// One element of an array leaf, with the level it came from (a unique or deep merge takes elements
// from several levels).
struct OverrideElement
{
    std::size_t index = 0;
    Value value;
    SourceLocation origin;
    std::string level;
};

struct OverrideLeaf
{
    std::string path; // inside the answer: "ssh.source", "[0]"; empty for a scalar answer
    Value value;
    SourceLocation origin; // an array: its first element's
    std::string level; // the level of `origin`
    std::vector<OverrideElement> elements; // an array leaf: every element
    std::vector<OverriddenValue> overrode; // values this leaf replaced, highest priority first
};

// A value a deep merge's knockout took out of the answer: `--x` in an array above removes `x` below,
// a bare `--` element empties the arrays below, a `--x` scalar replaces the values below.
struct RemovedValue
{
    std::string path; // where in the answer (as OverrideLeaf::path)
    Value value;
    SourceLocation location;
    std::string level;
    SourceLocation removedBy; // the knockout entry
    std::string removedByLevel;
};

struct OverrideChain
{
    std::string key;
    bool found = false;
    Value answer;
    std::vector<OverrideLevel> levels; // highest priority first
    std::vector<OverrideLeaf> leaves;
    std::vector<RemovedValue> removed; // in the order of the leaves, highest level first
    std::string error;
};

// `merge` is the user's (unset: as lookup_options says). Never throws: errors go to OverrideChain::error.
OverrideChain overrideChain(const Engine& engine, const Scope& scope, const std::string& key,
                            const std::optional<MergeSpec>& merge);

} // namespace hiera
