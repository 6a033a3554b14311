#pragma once

// Overrides — what every level holds for a key, and for each leaf of the answer the values it
// overrode, each with file:line (issue 11 §2.4). A plain function run on a worker by LookupRunner.
//
// A first-found lookup stops at the winner, so its trace never shows the `4` that roles/web.yaml holds
// under the node's `16`. Here the root key is looked up once more with explain and a deep merge (which
// visits every level that has the key and records each found value with its file:line) and each
// level's value is dug by the key's segments. The answer itself comes from the user's request; its
// leaves carry their origins (source marks), and the lower levels' values at the same place are what
// each leaf overrode.

#include <hiera/engine.h>
#include <hiera/value.h>

#include <QMetaType>

#include <memory>
#include <string>
#include <vector>

namespace Overrides {

struct Level
{
    std::string layer; // the data provider ("global", "environment", a module)
    std::string level; // the hierarchy entry's name
    std::string path; // the file (empty for a lookup_key backend)
    hiera::SourceLocation location; // where the key's value is written
    hiera::Value value; // the level's value for the (dotted) key
    bool contributed = false; // some leaf of the answer comes from here; else wholly overridden
};

struct Overridden
{
    hiera::Value value;
    hiera::SourceLocation location;
    std::string level;
};

struct Leaf
{
    std::string path; // inside the answer: "ssh.source", "[0]"; empty for a scalar answer
    hiera::Value value;
    hiera::SourceLocation origin;
    std::vector<Overridden> overrode; // highest priority first
};

struct Result
{
    std::string key;
    bool found = false;
    hiera::Value answer;
    std::vector<Level> levels; // highest priority first
    std::vector<Leaf> leaves;
    std::string error;
};
using ResultPtr = std::shared_ptr<const Result>;

// `merge` is the user's (unset: as lookup_options says). Never throws: errors go to Result::error.
Result compute(const hiera::Engine& engine, const hiera::Scope& scope, const std::string& key,
    const std::optional<hiera::MergeSpec>& merge);

// "ssh.source" style dotted path of a leaf, as Leaf::path; exposed for the report writers.
std::string displayValue(const hiera::Value& value);

} // namespace Overrides

Q_DECLARE_METATYPE(Overrides::ResultPtr)
