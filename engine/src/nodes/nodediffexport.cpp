// The node diff's exports: Markdown, JSON, CSV and a plain-text listing for terminals.

#include "nodes/relativepath.h"

#include <hiera/error.h>
#include <hiera/nodes/fleet.h>
#include <hiera/nodes/nodediff.h>
#include <hiera/report/csv.h>
#include <hiera/report/json.h>
#include <hiera/report/markdown.h>
#include <hiera/valueformat.h>

#include <algorithm>

namespace hiera {

namespace {

using Side = KeyDifference::Side;

Value shown(const Value& v, const DiffExportOptions& options)
{
    return options.revealSecrets || !containsSecret(v) ? v : redactSecrets(v);
}

// Compact JSON; Ruby's inspect form for what JSON cannot hold (NaN, infinities).
std::string valueText(const Value& v, const DiffExportOptions& options)
{
    const Value s = shown(v, options);
    try {
        return toJson(s);
    } catch (const Error&) {
        return rubyInspect(s);
    }
}

std::string answerText(const Side& s, const DiffExportOptions& options)
{
    switch (s.status) {
    case LookupResult::Status::Found:
        return valueText(s.value, options);
    case LookupResult::Status::NotFound:
        return "(not found)";
    case LookupResult::Status::Error:
        return "error: " + s.error;
    }
    return {};
}

std::string joinFiles(const Side& s, const DiffExportOptions& options, std::string_view separator)
{
    std::string out;
    for (const std::string& f : s.files) {
        if (!out.empty())
            out += separator;
        out += detail::relativePath(f, options.relativeTo);
    }
    return out;
}

// `name` writes a node's name for the format (a printable line, Markdown text).
std::string summary(const NodeDiff& diff, const DiffExportOptions& options, std::string (*name)(std::string_view))
{
    std::string s = std::to_string(diff.keys.size()) + (diff.keys.size() == 1 ? " key differs" : " keys differ")
        + " between " + name(options.nameA) + " and " + name(options.nameB) + " (" + std::to_string(diff.keysCompared)
        + " compared)";
    if (diff.cancelled)
        s += ", cancelled before every key was compared";
    return s;
}

Value sideValue(const Side& s, const DiffExportOptions& options)
{
    Hash h;
    h.set("status", Value(fleetStatusName(s.status)));
    if (s.found()) {
        Value v = shown(s.value, options);
        try {
            toJson(v);
            h.set("value", std::move(v));
        } catch (const Error& e) {
            h.set("error", Value(printableLine(e.message())));
        }
    }
    if (s.status == LookupResult::Status::Error)
        h.set("error", Value(s.error));
    Array files;
    for (const std::string& f : s.files)
        files.emplace_back(detail::relativePath(f, options.relativeTo));
    h.set("files", Value(std::move(files)));
    return Value(std::move(h));
}

} // namespace

std::string nodeDiffMarkdown(const NodeDiff& diff, const DiffExportOptions& options)
{
    std::string out = summary(diff, options, &markdownText) + ".\n";
    if (diff.keys.empty())
        return out;
    out += "\n| key | " + markdownText(options.nameA) + " | " + markdownText(options.nameB) + " | "
        + markdownText(options.nameA) + " files | " + markdownText(options.nameB) + " files |\n|---|---|---|---|---|\n";
    // A value as code (JSON), "(not found)", or "error: " and the message.
    auto answer = [&](const Side& s) {
        if (s.found())
            return markdownCode(valueText(s.value, options));
        return s.status == LookupResult::Status::Error ? "error: " + markdownText(s.error) : std::string("(not found)");
    };
    auto files = [&](const Side& s) {
        std::string text;
        for (const std::string& f : s.files)
            text += (text.empty() ? "" : "<br>") + markdownText(detail::relativePath(f, options.relativeTo));
        return text;
    };
    for (const KeyDifference& d : diff.keys)
        out += "| " + markdownText(d.key) + " | " + answer(d.a) + " | " + answer(d.b) + " | " + files(d.a) + " | "
            + files(d.b) + " |\n";
    return out;
}

std::string nodeDiffJson(const NodeDiff& diff, const DiffExportOptions& options)
{
    Hash doc;
    doc.set("a", Value(options.nameA));
    doc.set("b", Value(options.nameB));
    doc.set("keys_compared", Value(static_cast<std::int64_t>(diff.keysCompared)));
    if (diff.cancelled)
        doc.set("cancelled", Value(true));
    Array differences;
    differences.reserve(diff.keys.size());
    for (const KeyDifference& d : diff.keys) {
        Hash h;
        h.set("key", Value(d.key));
        h.set("a", sideValue(d.a, options));
        h.set("b", sideValue(d.b, options));
        differences.emplace_back(std::move(h));
    }
    doc.set("differences", Value(std::move(differences)));
    return reportJson(Value(std::move(doc)), /*pretty=*/true) + "\n";
}

std::string nodeDiffCsv(const NodeDiff& diff, const DiffExportOptions& options)
{
    std::string out;
    appendCsvRow(out, {"key", "a_node", "a_status", "a_value", "a_files", "b_node", "b_status", "b_value", "b_files"});
    auto value = [&](const Side& s) {
        return s.found() ? valueText(s.value, options) : s.status == LookupResult::Status::Error ? s.error : "";
    };
    for (const KeyDifference& d : diff.keys)
        appendCsvRow(out,
                     {d.key, options.nameA, fleetStatusName(d.a.status), value(d.a), joinFiles(d.a, options, ";"),
                      options.nameB, fleetStatusName(d.b.status), value(d.b), joinFiles(d.b, options, ";")});
    return out;
}

std::string nodeDiffText(const NodeDiff& diff, const DiffExportOptions& options)
{
    std::string out;
    // Each line one printable line: values, errors and file names come from data (docs/bad-input.md).
    const std::string nameA = printableLine(options.nameA), nameB = printableLine(options.nameB);
    const std::size_t width = std::max(nameA.size(), nameB.size());
    auto line = [&](const std::string& name, const Side& s) {
        std::string text = answerText(s, options);
        if (!s.files.empty())
            text += "  (" + joinFiles(s, options, ", ") + ")";
        out += "  " + name + ':' + std::string(width - name.size() + 1, ' ') + printableLine(text) + '\n';
    };
    for (const KeyDifference& d : diff.keys) {
        out += printableLine(d.key) + '\n';
        line(nameA, d.a);
        line(nameB, d.b);
    }
    return out + summary(diff, options, [](std::string_view name) { return printableLine(name); }) + '\n';
}

} // namespace hiera
