#pragma once

// The override chain of a key: what every level holds for it, and for each leaf of the answer the
// values it overrode, each with file:line (issue 11 §2.4). The explorer's Overridden values panel, its
// exported explanation and `hiera-lookup --explain --format markdown|html` show it.
//
//   hiera::OverrideChain chain = hiera::overrideChain(*engine, scope, "profile::ntp::servers", {});
//   for (const hiera::OverrideLeaf& leaf : chain.leaves)
//       for (const hiera::OverriddenValue& below : leaf.overrode) ...
//
// A first-found lookup stops at the winner, so its trace never shows the `4` that roles/web.yaml holds
// under the node's `16`. Here the root key is looked up once more with explain and a deep merge (which
// visits every level that has the key and records each found value with its file:line) and each
// level's value is dug by the key's segments. The answer itself comes from the user's request; its
// leaves carry their origins (source marks), and the lower levels' values at the same place are what
// each leaf overrode. Two lookups: a host runs it off its GUI thread.

#include <hiera/engine.h>
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
    bool contributed = false; // some leaf of the answer comes from here; else wholly overridden
};

struct OverriddenValue
{
    Value value;
    SourceLocation location;
    std::string level;
};

struct OverrideLeaf
{
    std::string path; // inside the answer: "ssh.source", "[0]"; empty for a scalar answer
    Value value;
    SourceLocation origin;
    std::vector<OverriddenValue> overrode; // highest priority first
};

struct OverrideChain
{
    std::string key;
    bool found = false;
    Value answer;
    std::vector<OverrideLevel> levels; // highest priority first
    std::vector<OverrideLeaf> leaves;
    std::string error;
};

// `merge` is the user's (unset: as lookup_options says). Never throws: errors go to OverrideChain::error.
OverrideChain overrideChain(const Engine& engine, const Scope& scope, const std::string& key,
                            const std::optional<MergeSpec>& merge);

} // namespace hiera
