// The all-keys exports: YAML and JSON as `puppet lookup` answers each key, and a CSV table.

#include "nodes/relativepath.h"

#include <hiera/error.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/report/csv.h>
#include <hiera/report/json.h>
#include <hiera/valueformat.h>

namespace hiera {

namespace {

Value shown(const Value& v, const NodeExportOptions& options)
{
    return options.revealSecrets || !containsSecret(v) ? v : redactSecrets(v);
}

Value foundHash(const NodeData& data, const NodeExportOptions& options)
{
    Hash h;
    h.reserve(data.keys.size());
    for (const ResolvedKey& k : data.keys)
        if (k.found())
            h.set(k.key, shown(k.value, options));
    return Value(std::move(h));
}

// JSON without a comment: a value JSON cannot hold (NaN, infinities) is told as that key's error
// rather than failing the whole export.
std::string jsonOrError(const Value& v, std::string& error)
{
    try {
        return toJson(v);
    } catch (const Error& e) {
        error = printableLine(e.message());
        return {};
    }
}

} // namespace

std::string nodeDataYaml(const NodeData& data, const NodeExportOptions& options)
{
    std::string out;
    if (!data.node.empty())
        out += "# node: " + printableLine(data.node) + "\n";
    if (data.errorCount() > 0) {
        out += "# Keys left out, their lookups failed:\n";
        for (const ResolvedKey& k : data.keys)
            if (k.status == LookupResult::Status::Error)
                out += "#   " + printableLine(k.key) + ": " + k.error + "\n";
    }
    if (data.cancelled)
        out += "# Cancelled: not every key was resolved.\n";
    return out + toYaml(foundHash(data, options));
}

std::string nodeDataJson(const NodeData& data, const NodeExportOptions& options)
{
    Hash found, errors;
    for (const ResolvedKey& k : data.keys) {
        if (k.status == LookupResult::Status::Error) {
            errors.set(k.key, Value(k.error));
        } else if (k.found()) {
            Value v = shown(k.value, options);
            std::string error;
            jsonOrError(v, error);
            if (error.empty())
                found.set(k.key, std::move(v));
            else
                errors.set(k.key, Value(error));
        }
    }
    Hash doc;
    if (!data.node.empty())
        doc.set("node", Value(data.node));
    doc.set("data", Value(std::move(found)));
    doc.set("errors", Value(std::move(errors)));
    if (data.cancelled)
        doc.set("cancelled", Value(true));
    return reportJson(Value(std::move(doc)), /*pretty=*/true) + "\n";
}

std::string nodeDataCsv(const NodeData& data, const NodeExportOptions& options)
{
    std::string out;
    appendCsvRow(out, {"node", "key", "value", "level", "file", "merge", "merge_source", "lookup_options", "error"});
    for (const ResolvedKey& k : data.keys) {
        if (k.status == LookupResult::Status::NotFound)
            continue;
        std::string error = k.error;
        const std::string value = k.found() ? jsonOrError(shown(k.value, options), error) : std::string();
        const std::string merge = k.merge ? mergeStrategyName(k.merge->spec.strategy) : "";
        const std::string source = k.merge ? mergeSourceName(k.merge->source) : "";
        const std::string entry = k.merge ? std::string(k.merge->entryName()) : std::string();
        SourceLocation where = k.location;
        where.file = detail::relativePath(where.file, options.relativeTo);
        appendCsvRow(out, {data.node, k.key, value, k.level, where.toString(), merge, source, entry, error});
    }
    return out;
}

} // namespace hiera
