#include "nodes/factsources.h"

#include <hiera/error.h>
#include <hiera/puppetdbexport.h>
#include <hiera/sourcelocation.h>
#include <hiera/valueformat.h>

namespace hiera {

namespace {

SourceLocation whereIs(const Value& v, const std::string& file)
{
    const SourceLocation at = SourceFiles::locate(v.mark());
    return at.isValid() ? at : SourceLocation{file, 0, 0};
}

bool namesNode(const Value& entry, std::string_view certname)
{
    if (!entry.isHash())
        return false;
    const Value* name = entry.asHash().find("certname");
    return name && name->isString() && name->asString() == certname;
}

// The entry that names `certname` (the first, as NodeLibrary keeps the first), null if none. An export is
// an array of factsets; a lone factset object is an export of one.
Value* entryOf(Value& doc, std::string_view certname, const std::string& file)
{
    if (doc.isArray()) {
        for (Value& entry : doc.mutableArray()) {
            if (namesNode(entry, certname))
                return &entry;
        }
        return nullptr;
    }
    if (doc.isHash() && doc.asHash().contains("facts"))
        return namesNode(doc, certname) ? &doc : nullptr;
    throw Error(ErrorCode::FactsSyntax,
                std::string("not a PuppetDB factsets export (an array of factsets), got ") + doc.typeName(),
                whereIs(doc, file));
}

Value parseExport(std::string_view text, const std::string& file, const ParseLimits& limits, bool& json)
{
    Value doc = detail::parseFactsDocument(text, file, limits, json);
    if (doc.isNull())
        throw Error(ErrorCode::FactsSyntax, "empty PuppetDB export", {file, 0, 0});
    return doc;
}

// The facts as PuppetDB lists them: [{"name": ..., "value": ...}] in the hash's order.
Value factList(const Value& facts)
{
    if (!facts.isHash())
        throw Error(ErrorCode::FactsSyntax, std::string("PuppetDB facts must be a hash, got ") + facts.typeName());
    Array list;
    list.reserve(facts.asHash().size());
    for (const Hash::Entry& fact : facts.asHash()) {
        if (!fact.key.isString())
            throw Error(ErrorCode::FactsSyntax,
                        "a PuppetDB fact name must be a string, not " + toJson(fact.key));
        list.push_back(makeHash({{"name", fact.key}, {"value", fact.value}}));
    }
    return Value(std::move(list));
}

} // namespace

std::optional<PuppetDBFactset> findPuppetDBFactset(std::string_view text, const std::string& file,
                                                   std::string_view certname, const ParseLimits& limits)
{
    bool json = false;
    Value doc = parseExport(text, file, limits, json);
    const Value* entry = entryOf(doc, certname, file);
    if (!entry)
        return std::nullopt;
    const Hash& h = entry->asHash();
    const Value* facts = h.find("facts");
    if (!facts)
        throw Error(ErrorCode::FactsSyntax, "the PuppetDB factset of " + std::string(certname) + " has no facts",
                    whereIs(*entry, file));
    PuppetDBFactset set;
    set.certname = std::string(certname);
    if (const Value* env = h.find("environment"); env && env->isString())
        set.environment = env->asString();
    set.facts = detail::factsFromPuppetDB(*facts);
    return set;
}

std::optional<std::string> replacePuppetDBFacts(std::string_view text, const std::string& file,
                                                std::string_view certname, const Value& facts,
                                                const ParseLimits& limits)
{
    bool json = false;
    Value doc = parseExport(text, file, limits, json);
    Value* entry = entryOf(doc, certname, file);
    if (!entry)
        return std::nullopt;
    Hash& h = entry->mutableHash();
    Value* old = h.findMutable(Value("facts"));
    const Value list = factList(facts);
    if (old && old->isHash() && old->asHash().contains("data")) {
        // {"data": [...], "href": ...}: only the data changes; href and the rest stay where they were.
        Hash wrapper = old->asHash();
        wrapper.set("data", list);
        *old = Value(std::move(wrapper));
    } else if (!old || old->isArray()) {
        h.set("facts", list);
    } else {
        detail::factsFromPuppetDB(*old); // throws, naming what is wrong with the entry's facts and where
    }
    return json ? toJson(doc, true) + '\n' : toYaml(doc);
}

} // namespace hiera
