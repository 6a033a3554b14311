// The revision diff's exports: JSON (and the same document as a Value, for YAML), Markdown fit for a
// merge-request comment, and a self-contained HTML page. Secrets are "<sensitive>" unless revealed
// (docs/bad-input.md).

#include "nodes/relativepath.h"

#include <hiera/error.h>
#include <hiera/nodes/revisiondiff.h>
#include <hiera/report/html.h>
#include <hiera/report/json.h>
#include <hiera/report/markdown.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace hiera {

namespace {

using Side = KeyDifference::Side;

Value shown(const Value& v, const RevisionDiffExportOptions& options)
{
    return options.revealSecrets || !containsSecret(v) ? v : redactSecrets(v);
}

// "file:line" with the file relative to the repository.
std::string sourceText(const std::string& source, const RevisionDiffExportOptions& options)
{
    const std::size_t colon = source.rfind(':');
    if (colon == std::string::npos)
        return detail::relativePath(source, options.relativeTo);
    return detail::relativePath(source.substr(0, colon), options.relativeTo) + source.substr(colon);
}

Value sourcesValue(const std::vector<std::string>& sources, const RevisionDiffExportOptions& options)
{
    Array out;
    out.reserve(sources.size());
    for (const std::string& s : sources)
        out.emplace_back(sourceText(s, options));
    return Value(std::move(out));
}

Value sideValue(const Side& s, const RevisionDiffExportOptions& options)
{
    return s.found() ? shown(s.value, options) : Value();
}

std::string summary(const RevisionDiff& diff, const RevisionDiffExportOptions& options,
                    std::string (*text)(std::string_view))
{
    std::size_t nodeChanges = 0;
    std::unordered_set<std::string_view> keys;
    for (const RevisionChange& c : diff.changes) {
        keys.insert(c.key);
        nodeChanges += c.nodes.size();
    }
    std::string s = diff.changes.empty()
        ? "No key changes on any of " + std::to_string(diff.nodes) + " nodes"
        : std::to_string(keys.size()) + (keys.size() == 1 ? " key changes" : " keys change") + " ("
            + std::to_string(nodeChanges) + (nodeChanges == 1 ? " node answer)" : " node answers)");
    s += " from " + text(options.from) + " to " + text(options.to) + "; " + std::to_string(diff.keysRecomputed)
        + (diff.keysRecomputed == 1 ? " key" : " keys") + " recomputed on " + std::to_string(diff.nodesRecomputed)
        + " of " + std::to_string(diff.nodes) + " nodes: " + text(diff.reason);
    if (!options.nodeFilter.empty())
        s += "; only the nodes the filter " + text(options.nodeFilter) + " shows";
    if (diff.cancelled)
        s += "; cancelled before every node was compared";
    return s;
}

std::string plainText(std::string_view text)
{
    return std::string(text);
}

// An answer as one line: compact JSON (Ruby's inspect for what JSON cannot hold), or what happened.
std::string answerLine(const Side& s, const RevisionDiffExportOptions& options)
{
    if (s.found()) {
        const Value v = shown(s.value, options);
        try {
            return toJson(v);
        } catch (const Error&) {
            return rubyInspect(v);
        }
    }
    return s.status == LookupResult::Status::Error ? "error: " + s.error : std::string("(not found)");
}

// A change whose two answers read alike once their decrypted values are redacted: only a hidden secret
// can make them differ (the diff lists no change between equal answers), and the reader is told so.
bool redactedAlike(const RevisionChange& c, const RevisionDiffExportOptions& options)
{
    return !options.revealSecrets && c.before.found() && c.after.found()
        && answerLine(c.before, options) == answerLine(c.after, options);
}

constexpr std::string_view kSecretDiffers = "(a hidden secret differs)";

} // namespace

Value revisionDiffValue(const RevisionDiff& diff, const RevisionDiffExportOptions& options)
{
    Hash doc;
    doc.set("from", Value(options.from));
    doc.set("to", Value(options.to));
    if (!options.nodeFilter.empty())
        doc.set("node_filter", Value(options.nodeFilter));
    doc.set("nodes", Value(static_cast<std::int64_t>(diff.nodes)));
    doc.set("nodes_recomputed", Value(static_cast<std::int64_t>(diff.nodesRecomputed)));
    doc.set("keys_recomputed", Value(static_cast<std::int64_t>(diff.keysRecomputed)));
    doc.set("hierarchy_changed", Value(diff.hierarchyChanged));
    doc.set("reason", Value(diff.reason));
    Array files;
    for (const std::string& f : diff.changedFiles)
        files.emplace_back(detail::relativePath(f, options.relativeTo));
    doc.set("changed_files", Value(std::move(files)));
    if (diff.cancelled)
        doc.set("cancelled", Value(true));
    Array changes;
    changes.reserve(diff.changes.size());
    for (const RevisionChange& c : diff.changes) {
        Hash h;
        h.set("key", Value(c.key));
        h.set("before", sideValue(c.before, options));
        h.set("after", sideValue(c.after, options));
        h.set("found_before", Value(c.before.found()));
        h.set("found_after", Value(c.after.found()));
        if (c.before.status == LookupResult::Status::Error)
            h.set("error_before", Value(c.before.error));
        if (c.after.status == LookupResult::Status::Error)
            h.set("error_after", Value(c.after.error));
        Array names(c.nodes.begin(), c.nodes.end());
        h.set("nodes", Value(std::move(names)));
        h.set("sources_before", sourcesValue(c.sourcesBefore, options));
        h.set("sources_after", sourcesValue(c.sourcesAfter, options));
        changes.emplace_back(std::move(h));
    }
    doc.set("changes", Value(std::move(changes)));
    if (!diff.warnings.empty()) {
        Array warnings(diff.warnings.begin(), diff.warnings.end());
        doc.set("warnings", Value(std::move(warnings)));
    }
    return Value(std::move(doc));
}

std::string revisionDiffJson(const RevisionDiff& diff, const RevisionDiffExportOptions& options)
{
    return reportJson(revisionDiffValue(diff, options), /*pretty=*/true) + "\n";
}

std::string revisionDiffMarkdown(const RevisionDiff& diff, const RevisionDiffExportOptions& options)
{
    std::string out = "**Hiera revision diff**: " + summary(diff, options, &markdownText) + ".\n";
    if (diff.changes.empty())
        return out;
    out += "\n| key | " + markdownText(options.from) + " | " + markdownText(options.to)
        + " | nodes | sources |\n|---|---|---|---|---|\n";
    auto answer = [&](const Side& s) {
        return s.found() ? markdownCode(answerLine(s, options)) : markdownText(answerLine(s, options));
    };
    auto afterAnswer = [&](const RevisionChange& c) {
        return answer(c.after) + (redactedAlike(c, options) ? " " + markdownText(kSecretDiffers) : std::string());
    };
    auto sources = [&](const std::vector<std::string>& list) {
        std::string text;
        for (std::size_t i = 0; i < list.size() && i < 5; ++i)
            text += (text.empty() ? "" : "<br>") + markdownText(sourceText(list[i], options));
        if (list.size() > 5)
            text += "<br>and " + std::to_string(list.size() - 5) + " more";
        return text.empty() ? std::string("-") : text;
    };
    for (const RevisionChange& c : diff.changes) {
        const std::string nodes = markdownFoldedList(c.nodes, options.nodesShown);
        out += "| " + markdownText(c.key) + " | " + answer(c.before) + " | " + afterAnswer(c) + " | " + nodes + " | "
            + markdownText(options.from) + ": " + sources(c.sourcesBefore) + "<br>" + markdownText(options.to) + ": "
            + sources(c.sourcesAfter) + " |\n";
    }
    return out;
}

std::string revisionDiffHtml(const RevisionDiff& diff, const RevisionDiffExportOptions& options)
{
    constexpr std::string_view style =
        "body{font-family:sans-serif;margin:2em}"
        "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #999;padding:2px 6px;"
        "text-align:left;vertical-align:top}code{font-family:monospace;white-space:pre-wrap}";
    std::string h = htmlDocumentStart("Hiera revision diff from " + options.from + " to " + options.to, style);
    h += "<h1>Hiera revision diff</h1>\n<p>" + htmlText(summary(diff, options, &plainText)) + ".</p>\n";
    const auto lines = [&](const std::vector<std::string>& list, auto&& text) {
        std::string out;
        for (const std::string& item : list)
            out += (out.empty() ? "" : "<br>") + htmlText(text(item));
        return out;
    };
    if (!diff.changedFiles.empty())
        h += "<h2>Files that differ</h2>\n<p>"
            + lines(diff.changedFiles,
                    [&](const std::string& f) { return detail::relativePath(f, options.relativeTo); })
            + "</p>\n";
    if (!diff.changes.empty()) {
        h += "<h2>Changes</h2>\n<table><tr><th>Key</th><th>" + htmlText(options.from) + "</th><th>"
            + htmlText(options.to) + "</th><th>Nodes</th><th>Sources</th></tr>\n";
        const auto answer = [&](const Side& s) {
            const std::string line = htmlText(answerLine(s, options));
            return s.found() ? "<code>" + line + "</code>" : line;
        };
        const auto sources = [&](const std::vector<std::string>& list) {
            return list.empty() ? std::string("-")
                                : lines(list, [&](const std::string& source) { return sourceText(source, options); });
        };
        for (const RevisionChange& c : diff.changes) {
            // Every node named: the page is the whole record (the Markdown comment folds long lists).
            std::string nodes = c.nodes.size() == 1 ? std::string() : std::to_string(c.nodes.size()) + " nodes: ";
            for (std::size_t i = 0; i < c.nodes.size(); ++i)
                nodes += (i ? ", " : "") + c.nodes[i];
            h += "<tr><td><code>" + htmlText(c.key) + "</code></td><td>" + answer(c.before) + "</td><td>"
                + answer(c.after) + (redactedAlike(c, options) ? " " + htmlText(kSecretDiffers) : std::string())
                + "</td><td>" + htmlText(nodes) + "</td><td>" + htmlText(options.from) + ": " + sources(c.sourcesBefore)
                + "<br>" + htmlText(options.to) + ": " + sources(c.sourcesAfter) + "</td></tr>\n";
        }
        h += "</table>\n";
    }
    if (!diff.warnings.empty())
        h += "<h2>Warnings</h2>\n<p>" + lines(diff.warnings, plainText) + "</p>\n";
    return h + "</body></html>\n";
}

} // namespace hiera
