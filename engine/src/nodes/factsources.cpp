#include "nodes/factsources.h"

#include <hiera/nodescope.h>

#include <algorithm>

namespace hiera::detail {

namespace {

SourceLocation whereIs(const Value& v, const std::string& file)
{
    const SourceLocation at = SourceFiles::locate(v.mark());
    return at.isValid() ? at : SourceLocation{file, 0, 0};
}

[[noreturn]] void fail(const std::string& message, const Value& at, const std::string& file)
{
    throw Error(ErrorCode::FactsSyntax, message, whereIs(at, file));
}

const std::string* stringMember(const Hash& h, std::string_view key)
{
    const Value* v = h.find(key);
    return v && v->isString() && !v->asString().empty() ? &v->asString() : nullptr;
}

NodeFacts puppetDBEntry(const Value& entry, const std::string& file)
{
    if (!entry.isHash())
        fail(std::string("a PuppetDB factset must be an object, got ") + entry.typeName(), entry, file);
    const Hash& h = entry.asHash();
    const std::string* certname = stringMember(h, "certname");
    if (!certname)
        fail("a PuppetDB factset without a certname", entry, file);
    const Value* facts = h.find("facts");
    if (!facts)
        fail("the PuppetDB factset of " + *certname + " has no facts", entry, file);
    checkNodeName(*certname, whereIs(entry, file));
    NodeFacts node;
    node.name = *certname;
    node.at = whereIs(entry, file);
    node.format = FactsFormat::PuppetDB;
    if (const std::string* env = stringMember(h, "environment"))
        node.environment = *env;
    node.facts = factsFromPuppetDB(*facts);
    return node;
}

} // namespace

// JSON when the document starts like JSON (YAML 1.1 typing would misread 1e3), else YAML; as
// hiera::parseFacts does, JSON-looking text that is not strict JSON is read again as YAML.
Value parseFactsDocument(std::string_view text, const std::string& file, const ParseLimits& limits, bool& json,
                         bool* strictJson)
{
    if (strictJson)
        *strictJson = false;
    std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        ++i;
    json = i < text.size() && (text[i] == '{' || text[i] == '[');
    if (!json)
        return parseData(text, file, DataFormat::Yaml, limits);
    try {
        Value doc = parseData(text, file, DataFormat::Json, limits);
        if (strictJson)
            *strictJson = true;
        return doc;
    } catch (const Error& e) {
        if (e.code() == ErrorCode::DataLimit)
            throw;
        try {
            return parseData(text, file, DataFormat::Yaml, limits);
        } catch (const Error&) {
            throw e; // the JSON parser's message is the one that fits a .json file
        }
    }
}

Value factsFromPuppetDB(const Value& facts)
{
    const Value* list = &facts;
    if (facts.isHash()) {
        list = facts.asHash().find("data");
        if (!list)
            fail("PuppetDB facts without \"data\" (only an \"href\"? query factsets with the facts expanded)", facts,
                 {});
    }
    if (!list->isArray())
        fail(std::string("PuppetDB facts must be an array of {name, value}, got ") + list->typeName(), *list, {});
    Hash out;
    out.reserve(list->asArray().size());
    for (const Value& item : list->asArray()) {
        const Value* name = item.isHash() ? item.asHash().find("name") : nullptr;
        const Value* value = item.isHash() ? item.asHash().find("value") : nullptr;
        if (!name || !name->isString() || !value)
            fail("a PuppetDB fact must be {\"name\": string, \"value\": ...}", item, {});
        out.set(*name, *value);
    }
    return Value(std::move(out)).withMark(list->mark());
}

std::string nameFromFacts(const Value& facts)
{
    // The certname `hiera-lookup --facts FILE` gives the node (certnameFor, hiera/nodescope.h:
    // clientcert, fqdn, networking.fqdn), else the facts' own trusted.certname, which answers there when
    // none of those is set: one rule for a node's name, so that a node of the library reads the same
    // `nodes/%{trusted.certname}.yaml` as its facts file does (facter 4's output names a node only by
    // networking.fqdn).
    if (!facts.isHash())
        return {};
    const Hash& h = facts.asHash();
    for (const char* name : {"clientcert", "fqdn"})
        if (const std::string* s = stringMember(h, name))
            return *s;
    if (const Value* networking = h.find("networking"); networking && networking->isHash())
        if (const std::string* s = stringMember(networking->asHash(), "fqdn"))
            return *s;
    if (const Value* trusted = h.find("trusted"); trusted && trusted->isHash())
        if (const std::string* s = stringMember(trusted->asHash(), "certname"))
            return *s;
    return {};
}

void checkNodeName(const std::string& name, const SourceLocation& at)
{
    if (!name.empty())
        hiera::checkCertname(name, at); // the engine's one rule for a node's name (hiera/nodescope.h)
}

std::string nameFromFile(const std::string& file)
{
    std::string base = file.substr(file.find_last_of('/') + 1);
    if (const auto dot = base.find_last_of('.'); dot != std::string::npos && dot > 0)
        base.resize(dot);
    return base;
}

FactsSource parseFactsSource(std::string_view text, const std::string& file, const ParseLimits& limits)
{
    bool json = false;
    const Value doc = parseFactsDocument(text, file, limits, json);
    FactsSource out;
    if (doc.isNull())
        throw Error(ErrorCode::FactsSyntax, "empty facts file", {file, 0, 0});
    if (doc.isArray()) {
        // A PuppetDB export: a bad entry is skipped, the others still load.
        for (const Value& entry : doc.asArray()) {
            try {
                out.nodes.push_back(puppetDBEntry(entry, file));
            } catch (const Error& e) {
                out.errors.push_back(e.location().isValid() ? e : Error(e.code(), e.message(), whereIs(entry, file)));
            }
        }
        if (out.nodes.empty() && out.errors.empty())
            throw Error(ErrorCode::FactsSyntax, "an empty PuppetDB export (no factsets)", whereIs(doc, file));
        return out;
    }
    if (!doc.isHash())
        fail(std::string("a facts file must contain a mapping of fact names to values, got ") + doc.typeName(), doc,
             file);
    const Hash& h = doc.asHash();
    NodeFacts node;
    node.at = {file, 0, 0};
    node.format = json ? FactsFormat::FacterJson : FactsFormat::FacterYaml;
    if (h.find("certname") && h.find("facts")) {
        out.nodes.push_back(puppetDBEntry(doc, file)); // one factset on its own
        return out;
    }
    if (const Value* values = h.find("values"); values && values->isHash() && h.find("name")) {
        node.format = FactsFormat::PuppetFacts;
        if (const std::string* name = stringMember(h, "name"))
            node.name = *name;
        node.facts = *values;
    } else {
        node.facts = doc;
    }
    if (node.facts.asHash().empty())
        fail("a facts file without any facts", doc, file);
    if (node.name.empty())
        node.name = nameFromFacts(node.facts);
    out.nodes.push_back(std::move(node));
    return out;
}

} // namespace hiera::detail
