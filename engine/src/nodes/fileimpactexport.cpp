// The file impact's exports: JSON (and the same document as a Value, for YAML) and Markdown (a
// summary line and a table, long node lists folded).

#include "nodes/relativepath.h"

#include <hiera/nodes/fileimpact.h>
#include <hiera/report/json.h>
#include <hiera/report/markdown.h>

#include <algorithm>

namespace hiera {

const char* keyImpactRoleName(KeyImpact::Role role)
{
    return role == KeyImpact::Role::Winner ? "winner" : "merged";
}

Value fileImpactValue(const FileImpact& impact, const FileImpactExportOptions& options)
{
    Hash doc;
    doc.set("file", Value(detail::relativePath(impact.file, options.relativeTo)));
    doc.set("exists", Value(impact.exists));
    doc.set("nodes", Value(static_cast<std::int64_t>(impact.nodes)));
    doc.set("nodes_reading", Value(Array(impact.nodesReading.begin(), impact.nodesReading.end())));
    doc.set("keys_defined", Value(static_cast<std::int64_t>(impact.keysDefined)));
    Array keys;
    keys.reserve(impact.keys.size());
    for (const KeyImpact& k : impact.keys) {
        Hash h;
        h.set("key", Value(k.key));
        h.set("role", Value(keyImpactRoleName(k.role)));
        h.set("nodes", Value(Array(k.nodes.begin(), k.nodes.end())));
        keys.emplace_back(std::move(h));
    }
    doc.set("keys", Value(std::move(keys)));
    if (!impact.lookupOptions.empty())
        doc.set("lookup_options", Value(Array(impact.lookupOptions.begin(), impact.lookupOptions.end())));
    if (!impact.error.empty())
        doc.set("error", Value(impact.error));
    if (!impact.warnings.empty())
        doc.set("warnings", Value(Array(impact.warnings.begin(), impact.warnings.end())));
    if (impact.cancelled)
        doc.set("cancelled", Value(true));
    return Value(std::move(doc));
}

std::string fileImpactJson(const FileImpact& impact, const FileImpactExportOptions& options)
{
    return reportJson(fileImpactValue(impact, options), /*pretty=*/true) + "\n";
}

std::string fileImpactSummary(const FileImpact& impact)
{
    if (!impact.exists)
        return "the file does not exist: no node reads it";
    if (impact.nodesReading.empty())
        return "no node of the " + std::to_string(impact.nodes) + " in the library reads it";
    std::size_t winner = 0, merged = 0;
    for (const KeyImpact& k : impact.keys)
        (k.role == KeyImpact::Role::Winner ? winner : merged) += 1;
    const auto count = [](std::size_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string out =
        std::to_string(impact.nodesReading.size()) + " of " + std::to_string(impact.nodes) + " nodes read it; ";
    if (impact.keysDefined == 0)
        out += "it defines no key";
    else
        out += "of the " + count(impact.keysDefined, "key", "keys") + " it defines, it decides "
            + count(winner, "key", "keys") + " as the winner and contributes to "
            + count(merged, "merged key", "merged keys") + " on some node";
    if (!impact.lookupOptions.empty()) {
        std::string names;
        for (const std::string& k : impact.lookupOptions)
            names += (names.empty() ? "" : ", ") + k;
        out += "; its lookup_options set how " + names + " merge on the nodes that read it";
    }
    if (impact.cancelled)
        out += "; cancelled before every node was read";
    return out;
}

std::string fileImpactMarkdown(const FileImpact& impact, const FileImpactExportOptions& options)
{
    const std::string file =
        markdownCode(detail::relativePath(impact.file, options.relativeTo), MarkdownContext::Inline);
    std::string out = "**Hiera file impact** of " + file + ": " + markdownText(fileImpactSummary(impact)) + ".\n";
    if (!impact.exists || impact.nodesReading.empty())
        return out;
    if (!impact.error.empty())
        out += "\nIt does not parse: " + markdownText(impact.error) + "\n";
    if (impact.keys.empty())
        return out;
    out += "\n| key | role | nodes |\n|---|---|---|\n";
    for (const KeyImpact& k : impact.keys) {
        const std::string nodes = markdownFoldedList(k.nodes, options.nodesShown);
        out += "| " + markdownText(k.key) + " | " + keyImpactRoleName(k.role) + " | " + nodes + " |\n";
    }
    return out;
}

} // namespace hiera
