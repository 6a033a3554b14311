#pragma once

// One node of a PuppetDB factsets export, read and written back (the format NodeLibrary reads, see
// nodelibrary.h): the export is a shared file, so a save replaces that node's entry and keeps the rest.
//
//   std::string text = hiera::readFile("factsets.json");
//   if (auto set = hiera::findPuppetDBFactset(text, "factsets.json", "web01.example.com")) {
//       facts = set->facts; ... edit ...
//       if (auto written = hiera::replacePuppetDBFacts(text, "factsets.json", "web01.example.com", facts))
//           save(*written);   // else: the node is no longer in the export
//   }
//
// Writing keeps the export's form: the entry's `facts` stays {"data": [...], "href": ...} (its other
// members kept) or stays a plain [{name, value}] array; certname, environment and the entry's other
// members, the other entries and every key order are kept. In a JSON export only the node's fact list
// is written anew (pretty-printed, indented as the line it starts on): every other byte of the file stays
// as it was. An export in YAML (or JSON-like text that only YAML reads) is serialised anew. Values keep
// their types (JSON typing: 1 stays an integer, 1.0 a float, "true" a string).
//
// Cost: in a JSON array of factsets only the entries whose text names the node are parsed (the others
// are scanned for their brackets), so a 70 MB export is read or rewritten in about 0.1 s instead of
// the 0.6 s a whole parse takes. Anything else (YAML, a lone factset, broken JSON) is parsed whole.

#include <hiera/value.h>
#include <hiera/yaml.h>

#include <optional>
#include <string>
#include <string_view>

namespace hiera {

struct PuppetDBFactset
{
    std::string certname;
    std::string environment; // empty when the entry has none
    Value facts; // a Hash: fact name -> value
};

// The entry of `certname` in an export's text (the first, as NodeLibrary keeps the first), or nothing
// when no entry names it. A single factset object on its own counts as an export of one. Throws
// hiera::Error naming `file` (line:column where known) when the text is not an export or that entry's
// facts are malformed.
std::optional<PuppetDBFactset> findPuppetDBFactset(std::string_view text, const std::string& file,
                                                   std::string_view certname, const ParseLimits& limits = {});

// The export's text with the facts of `certname` replaced by `facts` (a hash of fact names to values),
// or nothing when no entry names it. Throws hiera::Error as findPuppetDBFactset does, and for facts that
// have no PuppetDB form (a fact name that is not a string, NaN or an infinity in JSON). When
// `previousFacts` is given it receives the entry's facts as they were in `text` (what
// findPuppetDBFactset would give), from the same pass: a caller can tell that someone else changed them.
std::optional<std::string> replacePuppetDBFacts(std::string_view text, const std::string& file,
                                                std::string_view certname, const Value& facts,
                                                const ParseLimits& limits = {}, Value* previousFacts = nullptr);

} // namespace hiera
