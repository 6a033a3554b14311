// The explanation report as one self-contained HTML page: the style inline, no script, no resource
// from anywhere, a Content-Security-Policy that says so; every piece of data escaped (hiera/report/html.h).

#include "explain/explanationcontent.h"

#include <hiera/report/html.h>
#include <hiera/valueformat.h>

namespace hiera {

namespace {

constexpr std::string_view kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:70em}"
    "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #999;padding:2px 6px;"
    "text-align:left;vertical-align:top}code,pre{font-family:monospace}pre{background:#f4f4f4;"
    "padding:0.5em}.over{color:#777;text-decoration:line-through}";

} // namespace

std::string explanationHtml(const ExplanationReport& report)
{
    const detail::ExplanationContent c = detail::collectExplanation(report);
    std::string h = htmlDocumentStart("Hiera lookup of " + c.key, kStyle);
    h += "<h1>Hiera lookup of <code>" + htmlText(c.key) + "</code></h1>\n<table>";
    const auto row = [&](std::string_view name, std::string_view value) {
        h += "<tr><th>" + htmlText(name) + "</th><td>" + htmlText(value) + "</td></tr>";
    };
    row("Merge", c.merge);
    row("Result", c.status);
    row("Hierarchy", c.hieraYaml);
    if (!c.revision.empty())
        row("Repository", c.revision);
    row("Facts",
        c.factsEdited ? c.factsFileShown
                + (c.factsChanged.empty() ? std::string(", edited (no fact differs from the file)")
                                          : ", edited: " + std::to_string(c.factsChanged.size())
                           + (c.factsChanged.size() == 1 ? " fact differs" : " facts differ")
                           + " from the file (listed below)")
                      : c.factsFileShown);
    row("Made by", c.tool);
    row("Time", c.time);
    if (!c.error.empty())
        row("Error", c.error);
    for (const std::string& w : c.warnings)
        row("Warning", w);
    h += "</table>\n<h2>Value</h2>\n";
    // A line break right after <pre> is dropped by HTML parsers: the one written keeps the value's own.
    h += c.found ? "<pre>\n" + htmlText(c.valueYaml) + "</pre>\n" : std::string("<p>Not found.</p>\n");
    if (c.redacted)
        h += "<p>Decrypted eyaml values are redacted.</p>\n";
    if (!c.leaves.empty()) {
        h +=
            "<h2>Where each part came from, and what it overrode</h2>\n"
            "<table><tr><th>Leaf</th><th>Value</th><th>From</th><th>Overrode</th><th>Removed by a knockout</th></tr>\n";
        for (const auto& leaf : c.leaves) {
            std::string from, over, removed;
            for (const std::string& f : leaf.from)
                from += (from.empty() ? "" : "<br>") + htmlText(f);
            for (const auto& [v, where] : leaf.overrode)
                over += (over.empty() ? "" : "<br>") + std::string("<span class=\"over\"><code>")
                    + htmlText(cellText(v)) + "</code></span> (" + htmlText(where) + ")";
            for (const auto& r : leaf.removed)
                removed += (removed.empty() ? "" : "<br>") + std::string("<span class=\"over\"><code>")
                    + htmlText(cellText(r.value)) + "</code></span> (" + htmlText(r.at) + ") by " + htmlText(r.by);
            h += "<tr><td>" + htmlText(leaf.path.empty() ? c.key : leaf.path) + "</td><td><code>"
                + htmlText(cellText(leaf.value)) + "</code></td><td>" + from + "</td><td>" + over + "</td><td>"
                + removed + "</td></tr>\n";
        }
        h += "</table>\n";
    }
    if (c.factsEdited && !c.factsChanged.empty()) {
        h += "<h2>Facts that differ from <code>" + htmlText(c.factsFileShown)
            + "</code></h2>\n<table><tr><th>Fact</th><th>In the file</th><th>Used</th></tr>\n";
        for (const auto& d : c.factsChanged)
            h += "<tr><td><code>" + htmlText(d.name) + "</code></td><td>"
                + (d.inFile ? "<code>" + htmlText(cellText(*d.inFile)) + "</code>" : std::string("(absent)"))
                + "</td><td>" + (d.used ? "<code>" + htmlText(cellText(*d.used)) + "</code>" : std::string("(absent)"))
                + "</td></tr>\n";
        h += "</table>\n";
    }
    h += "<h2>Facts the hierarchy used</h2>\n<table>";
    for (const auto& [name, v] : c.facts)
        h += "<tr><td><code>" + htmlText(name) + "</code></td><td><code>" + htmlText(cellText(v)) + "</code></td></tr>";
    h += "</table>\n<h2>Levels and files consulted</h2>\n"
         "<table><tr><th>Level</th><th>File</th><th>Outcome</th><th>Line</th><th>Value</th></tr>\n";
    for (const auto& r : c.consulted)
        h += "<tr><td>" + htmlText(r.level) + "</td><td><code>" + htmlText(r.file) + "</code></td><td>"
            + htmlText(r.outcome) + "</td><td>" + (r.line > 0 ? std::to_string(r.line) : std::string()) + "</td><td>"
            + (r.value ? "<code>" + htmlText(cellText(*r.value)) + "</code>" : std::string()) + "</td></tr>\n";
    h += "</table>\n</body></html>\n";
    return h;
}

} // namespace hiera
