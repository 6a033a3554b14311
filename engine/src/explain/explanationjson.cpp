// The explanation report as one JSON document, written by the reports' JSON writer: valid for any
// value (hiera/report/json.h).

#include "explain/explanationcontent.h"

#include <hiera/report/json.h>

namespace hiera {

std::string explanationJson(const ExplanationReport& report)
{
    const detail::ExplanationContent c = detail::collectExplanation(report);
    Hash o;
    o.set("key", Value(c.key));
    o.set("merge", Value(c.merge));
    o.set("result", Value(c.status));
    if (c.found)
        o.set("value", c.value);
    if (!c.error.empty())
        o.set("error", Value(c.error));
    Array warnings;
    for (const std::string& w : c.warnings)
        warnings.emplace_back(w);
    o.set("warnings", Value(std::move(warnings)));
    o.set("secretsRedacted", Value(c.redacted));
    o.set("hieraYaml", Value(c.hieraYaml));
    o.set("factsFile", Value(c.factsFile));
    o.set("factsEdited", Value(c.factsEdited));
    Array changed;
    for (const auto& d : c.factsChanged) {
        Hash f;
        f.set("fact", Value(d.name));
        if (d.inFile)
            f.set("inFile", *d.inFile);
        if (d.used)
            f.set("used", *d.used);
        changed.emplace_back(std::move(f));
    }
    o.set("factsChanged", Value(std::move(changed)));
    if (!c.revision.empty())
        o.set("repository", Value(c.revision));
    o.set("tool", Value(c.tool));
    o.set("time", Value(c.time));
    Hash facts;
    for (const auto& [name, v] : c.facts)
        facts.set(name, v);
    o.set("factsUsed", Value(std::move(facts)));
    Array consulted;
    for (const auto& row : c.consulted) {
        Hash r;
        r.set("level", Value(row.level));
        r.set("file", Value(row.file));
        r.set("outcome", Value(row.outcome));
        r.set("line", Value(static_cast<std::int64_t>(row.line)));
        if (row.value)
            r.set("value", *row.value);
        consulted.emplace_back(std::move(r));
    }
    o.set("consulted", Value(std::move(consulted)));
    Array leaves;
    for (const auto& leaf : c.leaves) {
        Array over;
        for (const auto& [v, where] : leaf.overrode) {
            Hash b;
            b.set("value", v);
            b.set("at", Value(where));
            over.emplace_back(std::move(b));
        }
        Hash l;
        l.set("path", Value(leaf.path));
        l.set("value", leaf.value);
        l.set("at", Value(leaf.origin));
        Array from;
        for (const std::string& f : leaf.from)
            from.emplace_back(f);
        l.set("from", Value(std::move(from)));
        l.set("overrode", Value(std::move(over)));
        Array removed;
        for (const auto& r : leaf.removed) {
            Hash b;
            b.set("value", r.value);
            b.set("at", Value(r.at));
            b.set("removedBy", Value(r.by));
            removed.emplace_back(std::move(b));
        }
        l.set("removed", Value(std::move(removed)));
        leaves.emplace_back(std::move(l));
    }
    o.set("leaves", Value(std::move(leaves)));
    return reportJson(Value(std::move(o)), /*pretty=*/true) + '\n';
}

} // namespace hiera
