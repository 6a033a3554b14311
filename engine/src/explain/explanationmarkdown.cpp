// The explanation report as Markdown (CommonMark with GitHub's tables). Every piece of data goes
// through hiera/report/markdown.h: code spans for keys, values and files, escaped text for the rest.

#include "explain/explanationcontent.h"

#include <hiera/report/markdown.h>
#include <hiera/valueformat.h>

namespace hiera {

std::string explanationMarkdown(const ExplanationReport& report)
{
    const detail::ExplanationContent c = detail::collectExplanation(report);
    const auto code = [](std::string_view s) { return markdownCode(s, MarkdownContext::Inline); };
    std::string md = "# Hiera lookup of " + code(c.key) + "\n\n";
    md += "- Merge: " + markdownText(c.merge) + "\n- Result: " + markdownText(c.status)
        + "\n- Hierarchy: " + code(c.hieraYaml) + "\n";
    if (!c.revision.empty())
        md += "- Repository: " + markdownText(c.revision) + "\n";
    md += "- Facts: " + code(c.factsFileShown);
    if (c.factsEdited)
        md += c.factsChanged.empty() ? std::string(", edited (no fact differs from the file)")
                                     : ", edited: " + std::to_string(c.factsChanged.size())
                + (c.factsChanged.size() == 1 ? " fact differs" : " facts differ") + " from the file (listed below)";
    md += "\n- Made by " + markdownText(c.tool) + " at " + markdownText(c.time) + "\n";
    if (!c.error.empty())
        md += "- Error: " + markdownText(c.error) + "\n";
    for (const std::string& w : c.warnings)
        md += "- Warning: " + markdownText(w) + "\n";
    md += "\n## Value\n\n";
    md += c.found ? markdownCodeBlock(c.valueYaml, "yaml") : "Not found.\n";
    if (c.redacted)
        md += "\nDecrypted eyaml values are redacted.\n";
    if (!c.leaves.empty()) {
        md += "\n## Where each part came from, and what it overrode\n\n| Leaf | Value | From | Overrode | Removed by a "
              "knockout |\n|---|---|---|---|---|\n";
        for (const auto& leaf : c.leaves) {
            std::string from, over, removed;
            for (const std::string& f : leaf.from)
                from += (from.empty() ? "" : "<br>") + markdownText(f);
            for (const auto& [v, where] : leaf.overrode)
                over += (over.empty() ? "" : "; ") + markdownCode(cellText(v)) + " (" + markdownText(where) + ")";
            for (const auto& r : leaf.removed)
                removed += (removed.empty() ? "" : "; ") + markdownCode(cellText(r.value)) + " (" + markdownText(r.at)
                    + ") by " + markdownText(r.by);
            md += "| " + markdownText(leaf.path.empty() ? c.key : leaf.path) + " | "
                + markdownCode(cellText(leaf.value)) + " | " + from + " | " + over + " | " + removed + " |\n";
        }
    }
    if (c.factsEdited && !c.factsChanged.empty()) {
        md += "\n## Facts that differ from " + code(c.factsFileShown)
            + "\n\n| Fact | In the file | Used |\n|---|---|---|\n";
        for (const auto& d : c.factsChanged)
            md += "| " + code(d.name) + " | " + (d.inFile ? markdownCode(cellText(*d.inFile)) : std::string("(absent)"))
                + " | " + (d.used ? markdownCode(cellText(*d.used)) : std::string("(absent)")) + " |\n";
    }
    md += "\n## Facts the hierarchy used\n\n";
    if (c.facts.empty())
        md += "None.\n";
    for (const auto& [name, v] : c.facts)
        md += "- " + code(name) + " = " + code(cellText(v)) + "\n";
    md += "\n## Levels and files consulted\n\n| Level | File | Outcome | Line | Value |\n|---|---|---|---|---|\n";
    for (const auto& row : c.consulted)
        md += "| " + markdownText(row.level) + " | " + markdownCode(row.file) + " | " + markdownText(row.outcome)
            + " | " + (row.line > 0 ? std::to_string(row.line) : std::string()) + " | "
            + (row.value ? markdownCode(cellText(*row.value)) : std::string()) + " |\n";
    return md;
}

} // namespace hiera
