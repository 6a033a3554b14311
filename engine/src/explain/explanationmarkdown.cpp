// The explanation report as Markdown (CommonMark with GitHub's tables). Every piece of data goes
// through report/markdown.h: code spans for keys, values and files, escaped text for the rest.

#include "explain/explanationcontent.h"
#include "report/markdown.h"

#include <hiera/valueformat.h>

namespace hiera {

std::string explanationMarkdown(const ExplanationReport& report)
{
    using detail::markdownCode;
    using detail::MarkdownContext;
    using detail::markdownText;
    const detail::ExplanationContent c = detail::collectExplanation(report);
    const auto code = [](std::string_view s) { return markdownCode(s, MarkdownContext::Inline); };
    std::string md = "# Hiera lookup of " + code(c.key) + "\n\n";
    md += "- Merge: " + markdownText(c.merge) + "\n- Result: " + markdownText(c.status)
        + "\n- Hierarchy: " + code(c.hieraYaml) + "\n- Facts: " + code(c.factsFileShown) + "\n- Made by "
        + markdownText(c.tool) + " at " + markdownText(c.time) + "\n";
    if (!c.error.empty())
        md += "- Error: " + markdownText(c.error) + "\n";
    for (const std::string& w : c.warnings)
        md += "- Warning: " + markdownText(w) + "\n";
    md += "\n## Value\n\n";
    md += c.found ? detail::markdownCodeBlock(c.valueYaml, "yaml") : "Not found.\n";
    if (c.redacted)
        md += "\nDecrypted eyaml values are redacted.\n";
    if (!c.leaves.empty()) {
        md += "\n## Where each part came from, and what it overrode\n\n| Leaf | Value | From | Overrode "
              "|\n|---|---|---|---|\n";
        for (const auto& leaf : c.leaves) {
            std::string over;
            for (const auto& [v, where] : leaf.overrode)
                over += (over.empty() ? "" : "; ") + markdownCode(cellText(v)) + " (" + markdownText(where) + ")";
            md += "| " + markdownText(leaf.path.empty() ? c.key : leaf.path) + " | "
                + markdownCode(cellText(leaf.value)) + " | " + markdownText(leaf.origin) + " | " + over + " |\n";
        }
    }
    md += "\n## Facts the hierarchy used\n\n";
    if (c.facts.empty())
        md += "None.\n";
    for (const auto& [name, v] : c.facts)
        md += "- " + code(name) + " = " + code(cellText(v)) + "\n";
    md += "\n## Levels and files consulted\n\n| Level | File | Outcome | Line |\n|---|---|---|---|\n";
    for (const auto& row : c.consulted)
        md += "| " + markdownText(row.level) + " | " + markdownCode(row.file) + " | " + markdownText(row.outcome)
            + " | " + (row.line > 0 ? std::to_string(row.line) : std::string()) + " |\n";
    return md;
}

} // namespace hiera
