#pragma once

// The explanation of one lookup as a document an auditor can keep, and reproduce: what was looked up,
// the merge, the facts the hierarchy used (and, when they were edited, every fact that differs from the
// file named), every level and file consulted with its outcome and value, the value, each leaf's
// file:line (every file of a merged array), what it overrode and what knockouts removed (the override
// chain), the program, the time with its zone and the repository's git revision. As
// Markdown, self-contained HTML or JSON: the explorer's File ▸ Export Explanation and
// `hiera-lookup --explain --format markdown|html` write the same documents (the explorer prints and
// makes its PDF from the HTML). Decrypted eyaml values are redacted unless revealSecrets.
//
//   hiera::LookupRequest request;
//   request.explain = true;
//   const hiera::LookupResult result = engine->lookup(scope, key, request);
//   const hiera::OverrideChain chain = hiera::overrideChain(*engine, scope, key, request.merge);
//   hiera::ExplanationReport report;
//   report.engine = engine.get(); report.key = key; report.result = &result; report.scope = &scope;
//   report.overrides = &chain; report.hieraYaml = "/repo/hiera.yaml"; ...
//   std::string html = hiera::explanationHtml(report);
//
// Whatever the data holds, the documents are safe to open and read back as written
// (docs/bad-input.md, "What goes out"): HTML escapes every key, value, file, fact and message and
// carries a Content-Security-Policy that forbids scripts and remote resources; Markdown escapes what
// could make markup, links or HTML; JSON is valid for any value (bytes that are not UTF-8 become U+FFFD,
// listed in "json_replacements").

#include <hiera/engine.h>
#include <hiera/overridechain.h>

#include <optional>
#include <string>
#include <vector>

namespace hiera {

// A fact whose value in the lookup differs from the facts file the report names (an unsaved edit).
struct FactDifference
{
    std::string name; // a dotted path: "facts.os.family", "role"
    std::optional<Value> inFile; // unset: not in the file (added)
    std::optional<Value> used; // unset: not in the lookup's scope (removed)
};

struct ExplanationReport
{
    // Every pointer is only read during the call that writes the document.
    const Engine* engine = nullptr; // optional: its mapped_paths levels name the fact a path variable runs over
    std::string key;
    std::optional<MergeSpec> merge; // the merge the user chose (unset: lookup_options', read from the trace)
    std::string mergeChosenBy = "chosen by the user"; // said after a chosen merge ("chosen in the explorer")
    const LookupResult* result = nullptr; // required; its trace (LookupRequest::explain) gives levels and facts
    const Scope* scope = nullptr; // optional: resolves the facts named in the hierarchy's paths
    const OverrideChain* overrides = nullptr; // optional: each leaf's origin and what it overrode (same key)
    std::string hieraYaml; // named in full; files below its directory are named from there
    std::string factsFile; // where the facts came from
    std::string noFactsFile = "(unsaved)"; // said instead when factsFile is empty
    // The facts were edited after they were read from factsFile: the report says so and lists
    // factsChanged (every difference), so that the answer can be reproduced from the report itself.
    bool factsEdited = false;
    std::vector<FactDifference> factsChanged;
    std::string revision; // the repository's git revision (hiera::describe(GitRevision)); empty: none
    std::string tool; // "Hiera Explorer 0.9 (engine 0.9)"
    std::string time; // when: ISO 8601 with the zone's offset, and the zone's name ("… +01:00 (CET)")
    bool revealSecrets = false; // the user chose to show decrypted values
};

std::string explanationMarkdown(const ExplanationReport& report);
std::string explanationHtml(const ExplanationReport& report);
std::string explanationJson(const ExplanationReport& report);

} // namespace hiera
