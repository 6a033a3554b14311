#pragma once

// Rendering an explain trace: Puppet's `--explain` text (so users can compare with real Puppet), with
// the file:line:column of every found value added; and a JSON document.

#include <hiera/trace.h>

#include <string>

namespace hiera {

struct ExplainOptions
{
    // Decrypted eyaml values (Value::isSecret) are written as "<sensitive>" unless this is set: an
    // explanation is shared, logged and attached to tickets.
    bool revealSecrets = false;
};

std::string explainText(const TraceNode& root, const ExplainOptions& options = {});
std::string explainJson(const TraceNode& root, bool pretty = true, const ExplainOptions& options = {});

} // namespace hiera
