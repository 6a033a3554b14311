// The fleet result as CSV, JSON and Markdown, for the command line and the explorer's export.

#include "nodes/relativepath.h"

#include <hiera/nodes/fleet.h>
#include <hiera/report/csv.h>
#include <hiera/report/json.h>
#include <hiera/report/markdown.h>
#include <hiera/valueformat.h>

namespace hiera {

namespace {

std::string valueText(const Value& v, bool revealSecrets)
{
    const Value shown = revealSecrets ? v : redactSecrets(v);
    try {
        return toJson(shown);
    } catch (const Error&) {
        return rubyInspect(shown); // NaN and infinities have no JSON form
    }
}

Value jsonValue(const Value& v, bool revealSecrets)
{
    const Value shown = revealSecrets ? v : redactSecrets(v);
    try {
        (void)toJson(shown);
        return shown;
    } catch (const Error&) {
        return Value(rubyInspect(shown));
    }
}

std::string answerText(LookupResult::Status status, const Value& value, const std::string& error, bool revealSecrets)
{
    switch (status) {
    case LookupResult::Status::Found:
        return valueText(value, revealSecrets);
    case LookupResult::Status::Error:
        return error;
    case LookupResult::Status::NotFound:
        break;
    }
    return {};
}

} // namespace

std::string fleetCsv(const FleetResult& result, const FleetExportOptions& options)
{
    const bool revealSecrets = options.revealSecrets;
    // The key on every row, as the all-keys CSV names the node on every row: files of several keys
    // concatenated stay readable.
    std::string out = "node,key,status,value,file,level\r\n";
    const std::string key = csvField(result.key);
    for (const auto& n : result.nodes) {
        out += csvField(n.name) + ',' + key + ',' + csvField(fleetStatusName(n.status)) + ','
            + csvField(answerText(n.status, n.value, n.error, revealSecrets)) + ','
            + csvField(detail::relativePath(n.file, options.relativeTo)) + ',' + csvField(n.level) + "\r\n";
    }
    return out;
}

Value fleetValue(const FleetResult& result, const FleetExportOptions& options)
{
    const bool revealSecrets = options.revealSecrets;
    auto files = [&](const std::vector<std::string>& paths) {
        Array out;
        out.reserve(paths.size());
        for (const std::string& p : paths)
            out.emplace_back(detail::relativePath(p, options.relativeTo));
        return Value(std::move(out));
    };
    auto answer = [&](Hash& h, LookupResult::Status status, const Value& value, const std::string& error) {
        h.set("status", Value(fleetStatusName(status)));
        if (status == LookupResult::Status::Found)
            h.set("value", jsonValue(value, revealSecrets));
        else if (status == LookupResult::Status::Error)
            h.set("error", Value(error));
    };
    Array groups;
    for (const auto& g : result.groups) {
        Hash h;
        answer(h, g.status, g.value, g.error);
        h.set("count", Value(static_cast<std::int64_t>(g.members.size())));
        Array names;
        for (std::size_t m : g.members)
            names.emplace_back(result.nodes[m].name);
        h.set("nodes", Value(std::move(names)));
        h.set("files", files(g.decidingFiles));
        groups.emplace_back(std::move(h));
    }
    Array nodes;
    for (const auto& n : result.nodes) {
        Hash h;
        h.set("node", Value(n.name));
        answer(h, n.status, n.value, n.error);
        h.set("file", Value(detail::relativePath(n.file, options.relativeTo)));
        h.set("level", Value(n.level));
        h.set("files", files(n.decidingFiles));
        nodes.emplace_back(std::move(h));
    }
    Hash doc;
    doc.set("key", Value(result.key));
    doc.set("total", Value(static_cast<std::int64_t>(result.total)));
    doc.set("library_nodes", Value(static_cast<std::int64_t>(result.libraryNodes)));
    if (!options.nodeFilter.empty())
        doc.set("node_filter", Value(options.nodeFilter));
    doc.set("cancelled", Value(result.cancelled));
    doc.set("groups", Value(std::move(groups)));
    doc.set("nodes", Value(std::move(nodes)));
    return Value(std::move(doc));
}

std::string fleetJson(const FleetResult& result, const FleetExportOptions& options)
{
    return reportJson(fleetValue(result, options), true) + '\n';
}

std::string fleetMarkdown(const FleetResult& result, const FleetExportOptions& options)
{
    const bool revealSecrets = options.revealSecrets;
    constexpr std::size_t kNamesShown = 5;
    std::string out = markdownCode(result.key, MarkdownContext::Inline) + " on " + std::to_string(result.nodes.size())
        + " of " + std::to_string(result.total) + " nodes"
        + (result.libraryNodes > result.total ? " (chosen"
                   + (options.nodeFilter.empty()
                          ? std::string()
                          : " by the filter " + markdownCode(options.nodeFilter, MarkdownContext::Inline))
                   + " from the library's " + std::to_string(result.libraryNodes) + ")"
                                              : "")
        + (result.cancelled ? " (cancelled)" : "") + "\n\n";
    out += "| nodes | count | value | files |\n|---|---:|---|---|\n";
    for (const auto& g : result.groups) {
        std::string names;
        for (std::size_t i = 0; i < g.members.size() && i < kNamesShown; ++i)
            names += (i ? ", " : "") + markdownText(result.nodes[g.members[i]].name);
        if (g.members.size() > kNamesShown)
            names += " and " + std::to_string(g.members.size() - kNamesShown) + " more";
        std::string value = g.status == LookupResult::Status::Found ? markdownCode(valueText(g.value, revealSecrets))
                                                                    : "*" + std::string(fleetStatusName(g.status)) + "*"
                + (g.error.empty() ? "" : ": " + markdownText(g.error));
        std::string files;
        for (std::size_t i = 0; i < g.decidingFiles.size(); ++i)
            files += (i ? "<br>" : "") + markdownText(detail::relativePath(g.decidingFiles[i], options.relativeTo));
        out += "| " + names + " | " + std::to_string(g.members.size()) + " | " + value + " | " + files + " |\n";
    }
    return out;
}

} // namespace hiera
