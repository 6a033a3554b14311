#pragma once

// Reading facts files. The scope `puppet lookup --facts` builds from them (each fact visible as
// facts.<name> and as the top-scope variable <name>) is hiera/nodescope.h's, included here for the
// hosts that read facts and then build it.

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

} // namespace hiera
