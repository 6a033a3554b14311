#include "nodes/factsources.h"

#include <hiera/error.h>
#include <hiera/puppetdbexport.h>
#include <hiera/sourcelocation.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <cstdint>

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

Value parseExport(std::string_view text, const std::string& file, const ParseLimits& limits, bool& json,
                  bool* strictJson = nullptr)
{
    Value doc = detail::parseFactsDocument(text, file, limits, json, strictJson);
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

// The byte offset of a JSON value's mark in `text` (line 1-based, column counted in UTF-8 characters
// from 1, as the JSON loader counts), npos when it is not there.
std::size_t offsetOf(std::string_view text, const SourceMark& mark)
{
    if (mark.line == 0 || mark.column == 0)
        return std::string_view::npos;
    std::size_t pos = 0;
    for (std::uint32_t line = 1; line < mark.line; ++line) {
        pos = text.find('\n', pos);
        if (pos == std::string_view::npos)
            return pos;
        ++pos;
    }
    for (std::uint32_t column = 1; pos < text.size(); ++pos) {
        if ((static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
            continue;
        if (column++ == mark.column)
            return pos;
    }
    return std::string_view::npos;
}

// One past the end of the JSON array or object that starts at `begin` (text that parsed as JSON), npos
// when it does not end.
std::size_t jsonCollectionEnd(std::string_view text, std::size_t begin)
{
    std::size_t depth = 0;
    for (std::size_t i = begin; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                i += text[i] == '\\';
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

// `text` with the JSON array `old` (a value parsed from it) replaced by `list`, indented as the line it
// starts on; every other byte of the export stays as it was. Nothing when `old` cannot be found there
// exactly (the caller then writes the whole document anew).
std::optional<std::string> spliced(std::string_view text, const Value& old, const Value& list)
{
    const std::size_t begin = offsetOf(text, old.mark());
    if (begin == std::string_view::npos || text[begin] != '[')
        return std::nullopt;
    const std::size_t end = jsonCollectionEnd(text, begin);
    if (end == std::string_view::npos)
        return std::nullopt;
    const std::size_t newline = text.rfind('\n', begin);
    const std::size_t lineStart = newline == std::string_view::npos ? 0 : newline + 1;
    const std::size_t indentEnd = text.find_first_not_of(" \t", lineStart);
    const std::string_view indent = text.substr(lineStart, std::min(indentEnd, begin) - lineStart);
    std::string out(text.substr(0, begin));
    for (const char c : toJson(list, true)) {
        out += c;
        if (c == '\n') // JSON strings hold no raw newline: these are all the pretty printer's
            out += indent;
    }
    out += text.substr(end);
    return out;
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
    bool strictJson = false;
    Value doc = parseExport(text, file, limits, json, &strictJson);
    Value* entry = entryOf(doc, certname, file);
    if (!entry)
        return std::nullopt;
    Hash& h = entry->mutableHash();
    Value* old = h.findMutable(Value("facts"));
    const Value list = factList(facts);
    if (strictJson && old) {
        // Only the node's fact list changes in the text: the rest of the export keeps its bytes.
        const Value* oldList = old->isHash() ? old->asHash().find("data") : old;
        if (oldList && oldList->isArray()) {
            if (auto out = spliced(text, *oldList, list))
                return out;
        }
    }
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
