#pragma once

// Reading facts files, and the scope tree `puppet lookup --facts` builds from them: each fact is
// visible as facts.<name> and as the top-scope variable <name> (the rules: hiera/nodescope.h).

#include <hiera/nodescope.h>
#include <hiera/value.h>

#include <string>
#include <string_view>

namespace hiera {

// Reads a facts file: YAML or JSON (facter -y, facter -j), or the {"name": ..., "values": {...}}
// wrapper that `puppet facts` prints. Returns the facts hash. Throws hiera::Error(FactsSyntax or
// DataSyntax) naming the file.
Value loadFactsFile(const std::string& path);
Value parseFacts(std::string_view text, const std::string& fileName);

// The scope tree for facts, materialised: {<each fact but `environment`>: value, facts: F, trusted:
// {...}}, then the entries of `extra` over all; trusted.certname is certnameFor(facts, node), and
// without a `trusted` hash in the facts, trusted is Puppet's local one (hostname and domain split from
// the certname). $environment is not in it: NodeScope::ofTree adds the environment's name. A lookup in
// it answers as NodeScope does, for a host that shows or saves the tree (the explorer's fact tree).
Value scopeFromFacts(const Value& facts, const std::string& node = {}, const Value& extra = {});

} // namespace hiera
