#pragma once

// Rendering an explain trace: Puppet's `--explain` text (so users can compare with real Puppet), with
// the file:line:column of every found value added; and a JSON document.

#include <hiera/trace.h>

#include <string>

namespace hiera {

std::string explainText(const TraceNode& root);
std::string explainJson(const TraceNode& root, bool pretty = true);

} // namespace hiera
