#pragma once

// Building a scope tree from facts files, the way `puppet lookup --facts` does: each fact is visible
// as facts.<name> and as the top-scope variable <name>.

#include <hiera/value.h>

#include <string>
#include <string_view>

namespace hiera {

// Reads a facts file: YAML or JSON (facter -y, facter -j), or the {"name": ..., "values": {...}}
// wrapper that `puppet facts` prints. Returns the facts hash. Throws hiera::Error(FactsSyntax or
// DataSyntax) naming the file.
Value loadFactsFile(const std::string& path);
Value parseFacts(std::string_view text, const std::string& fileName);

// The scope tree for facts: {facts: F, <each fact>: value, trusted: {certname: ...}}. Entries of
// `extra` win. trusted.certname is `node`, else the clientcert fact (as Puppet builds $trusted).
Value scopeFromFacts(const Value& facts, const std::string& node = {}, const Value& extra = {});

} // namespace hiera
