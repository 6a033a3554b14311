#include "explain/explanationcontent.h"

#include <hiera/provenance.h>
#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace hiera::detail {

namespace {

using Kind = TraceNode::Kind;

// Files below the hierarchy's directory are named from there (data/common.yaml:53): the report names
// the hierarchy itself in full once, and absolute paths made the tables three times as tall.
std::string at(const SourceLocation& location, const std::string& base)
{
    if (!location.isValid())
        return {};
    const std::string file = relativePath(location.file, base);
    return location.line > 0 ? file + ':' + std::to_string(location.line) : file;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The plain variables a path template interpolates (%{facts.os.name}, %{::trusted.certname}), as
// written: not function calls (%{lookup('x')}, %{scope("y")}). Scanned by hand rather than with
// std::regex, which recurses per character.
void appendReferences(std::string_view path, std::vector<std::string>& out)
{
    for (std::size_t open = path.find("%{"); open != std::string_view::npos; open = path.find("%{", open + 2)) {
        const std::size_t close = path.find('}', open + 2);
        if (close == std::string_view::npos)
            return;
        std::string_view inside = path.substr(open + 2, close - open - 2);
        if (inside.find_first_of("'\"(") != std::string_view::npos)
            continue;
        while (!inside.empty() && isBlank(inside.front()))
            inside.remove_prefix(1);
        while (!inside.empty() && isBlank(inside.back()))
            inside.remove_suffix(1);
        if (!inside.empty())
            out.emplace_back(inside);
    }
}

class Collector
{
public:
    Collector(ExplanationContent& c, bool reveal) : m_c(c), m_reveal(reveal) { }

    std::vector<std::string> references; // %{...} in the consulted paths, resolved against the scope afterwards

    void walk(const TraceNode& node, const std::string& level, bool nested)
    {
        switch (node.kind) {
        case Kind::ScopeRead:
            if (node.value && m_factNames.insert(node.name).second)
                m_c.facts.emplace_back(node.name, m_reveal ? *node.value : redactSecrets(*node.value));
            return;
        case Kind::LookupOptions:
        case Kind::SubLookup:
            nested = true; // its levels are another key's: only its scope reads count
            break;
        case Kind::Location:
            // The facts a level's path was made from: its %{...} references, as written.
            if (!nested)
                appendReferences(node.originalPath, references);
            break;
        case Kind::Level:
            for (const auto& child : node.children)
                walk(*child, node.name, nested);
            return;
        default:
            break;
        }
        for (const auto& child : node.children)
            walk(*child, level, nested);
    }

private:
    ExplanationContent& m_c;
    bool m_reveal;
    std::unordered_set<std::string> m_factNames;
};

// mapped_paths loop variables and the fact each runs over ("dc" -> "facts.datacenters"): a path's
// %{dc} is bound per element, so the report names the fact instead of a variable unset outside.
std::unordered_map<std::string, std::string> mappedVariables(const Engine* engine)
{
    std::unordered_map<std::string, std::string> out;
    if (!engine)
        return out;
    for (const Layer& layer : engine->layers())
        for (const Level& level : layer.config.hierarchy)
            for (const LocationSpec& location : level.locations)
                if (location.kind == LocationSpec::Kind::MappedPaths)
                    out.emplace(location.loopVariable, location.scopeKey);
    return out;
}

} // namespace

ExplanationContent collectExplanation(const ExplanationReport& r)
{
    ExplanationContent c;
    const LookupResult& result = *r.result;
    const auto redact = [&](const Value& v) { return r.revealSecrets ? v : redactSecrets(v); };
    c.key = r.key;
    const std::size_t slash = r.hieraYaml.find_last_of('/');
    c.baseDirectory = slash == std::string::npos ? std::string() : r.hieraYaml.substr(0, slash);
    if (r.merge)
        c.merge = std::string(mergeStrategyName(r.merge->strategy)) + " (" + r.mergeChosenBy + ")";
    else if (result.trace && result.trace->merge)
        c.merge = std::string(mergeStrategyName(result.trace->merge->strategy))
            + (result.trace->mergeFromLookupOptions ? " (from lookup_options)" : "");
    else
        c.merge = "first";
    c.found = result.found();
    c.status = result.found() ? "found" : result.error ? "error" : "not found";
    if (result.error)
        c.error = result.error->what();
    if (result.found()) {
        c.redacted = !r.revealSecrets && containsSecret(result.value);
        c.value = redact(result.value);
        c.valueYaml = toYaml(c.value);
    }
    c.warnings = result.warnings;
    c.tool = r.tool;
    c.time = r.time;
    c.hieraYaml = r.hieraYaml;
    c.factsFile = r.factsFile;
    c.factsFileShown = r.factsFile.empty() ? r.noFactsFile : r.factsFile;
    c.factsEdited = r.factsEdited;
    for (const FactDifference& d : r.factsChanged)
        c.factsChanged.push_back({d.name, d.inFile ? std::optional<Value>(redact(*d.inFile)) : std::nullopt,
                                  d.used ? std::optional<Value>(redact(*d.used)) : std::nullopt});
    c.revision = r.revision;
    Collector collector(c, r.revealSecrets);
    if (result.trace) {
        collector.walk(*result.trace, {}, false);
        // Every source in the order it was read, with the outcome the Sources tab shows.
        for (const SourceContribution& s : sourceContributions(*result.trace)) {
            ExplanationContent::Consulted row;
            row.level = s.level;
            row.file = s.path.empty() ? s.originalPath : relativePath(s.path, c.baseDirectory);
            row.outcome = outcomeName(s.outcome);
            if (!s.message.empty())
                row.outcome += ": " + s.message;
            row.line = s.value && s.shownAt.line > 0 ? s.shownAt.line : 0;
            if (s.value)
                row.value = redact(*s.value);
            c.consulted.push_back(std::move(row));
        }
    }
    // The facts in the paths come first: they chose the files. (The scope reads of interpolated values
    // are in the trace already.)
    const auto mapped = mappedVariables(r.engine);
    std::vector<std::pair<std::string, Value>> facts;
    std::unordered_set<std::string> named;
    for (const std::string& written : collector.references) {
        const auto m = mapped.find(written);
        const std::string& ref = m == mapped.end() ? written : m->second;
        if (!named.insert(ref).second)
            continue;
        const std::optional<Value> v = r.scope ? r.scope->lookup(ref) : std::nullopt;
        facts.emplace_back(ref, v ? redact(*v) : Value());
    }
    for (auto& f : c.facts)
        if (named.insert(f.first).second)
            facts.push_back(std::move(f));
    c.facts = std::move(facts);
    if (r.overrides && r.overrides->key == r.key) {
        for (const OverrideLeaf& leaf : r.overrides->leaves) {
            ExplanationContent::Leaf l;
            l.path = leaf.path;
            l.value = redact(leaf.value);
            // A merged array came from as many files as its elements: each is named, with its elements.
            // Grouped by file (`where` without its line) through a table: a search per element made a
            // 5,000-file unique merge's report quadratic (docs/performance.md, "Cost that grows with the input").
            std::vector<std::pair<std::string, std::string>> files; // file:line of the first, indexes
            std::unordered_map<std::string, std::size_t> fileIndex;
            for (const OverrideElement& e : leaf.elements) {
                std::string where = at(e.origin, c.baseDirectory);
                const auto [it, added] = fileIndex.try_emplace(where.substr(0, where.rfind(':')), files.size());
                if (added)
                    files.emplace_back(std::move(where), '[' + std::to_string(e.index) + ']');
                else
                    files[it->second].second += ", [" + std::to_string(e.index) + ']';
            }
            if (files.size() > 1) {
                for (const auto& [file, indexes] : files)
                    l.from.push_back(file + " (" + indexes + ")");
            } else {
                l.from.push_back(at(leaf.origin, c.baseDirectory));
            }
            for (const std::string& f : l.from)
                l.origin += (l.origin.empty() ? "" : "; ") + f;
            for (const OverriddenValue& below : leaf.overrode)
                l.overrode.emplace_back(redact(below.value), at(below.location, c.baseDirectory));
            for (const RemovedValue& removed : r.overrides->removed)
                if (removed.path == leaf.path)
                    l.removed.push_back({redact(removed.value), at(removed.location, c.baseDirectory),
                                         at(removed.removedBy, c.baseDirectory)});
            c.leaves.push_back(std::move(l));
        }
    }
    return c;
}

} // namespace hiera::detail
