#include "nodes/factsources.h"

#include <hiera/error.h>
#include <hiera/nodes/puppetdbexport.h>
#include <hiera/sourcelocation.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

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
// PuppetDB's facts are JSON: a hash key inside a fact's value that is not a string (a YAML export can
// hold a null or an integer key) would be written as a string and read back as another hash, or merge
// with a string key of the same text. Refused by name instead. An explicit stack: no recursion depth
// for a deep value.
void checkJsonKeys(const std::string& fact, const Value& value)
{
    std::vector<const Value*> pending{&value};
    while (!pending.empty()) {
        const Value* v = pending.back();
        pending.pop_back();
        if (v->isArray()) {
            for (const Value& item : v->asArray())
                pending.push_back(&item);
        } else if (v->isHash()) {
            for (const Hash::Entry& entry : v->asHash()) {
                if (!entry.key.isString())
                    throw Error(ErrorCode::FactsSyntax,
                                "the PuppetDB fact " + fact + " has a hash key that is not a string ("
                                    + toJson(entry.key) + "), which JSON cannot hold");
                pending.push_back(&entry.value);
            }
        }
    }
}

Value factList(const Value& facts)
{
    if (!facts.isHash())
        throw Error(ErrorCode::FactsSyntax, std::string("PuppetDB facts must be a hash, got ") + facts.typeName());
    Array list;
    list.reserve(facts.asHash().size());
    for (const Hash::Entry& fact : facts.asHash()) {
        if (!fact.key.isString())
            throw Error(ErrorCode::FactsSyntax, "a PuppetDB fact name must be a string, not " + toJson(fact.key));
        checkJsonKeys(fact.key.asString(), fact.value);
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

// `text` with the JSON array `old` replaced by `list`, indented as the line it starts on; every other
// byte of the export stays as it was. `old` was parsed from the text from `base` on (an entry parsed on
// its own, or the whole document). Nothing when `old` cannot be found there exactly (the caller then
// writes the whole document anew).
std::optional<std::string> spliced(std::string_view text, std::size_t base, const Value& old, const Value& list)
{
    std::size_t begin = offsetOf(text.substr(base), old.mark());
    if (begin == std::string_view::npos || text[base + begin] != '[')
        return std::nullopt;
    begin += base;
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

// Where `certname`'s entry is in an export that is a JSON array of objects, found without parsing the
// other entries: a 70 MB export takes half a second to parse, a tenth of that to scan. Only entries whose
// text holds the quoted certname are parsed. Unknown when the text is not something this scan follows
// (YAML, a lone factset, broken JSON, an entry that does not parse, text after the array): the caller
// parses the whole document then, which also gives a broken export its located error.
enum class Scan { Found, Absent, Unknown };

struct EntrySpan
{
    std::size_t begin = 0;
    Value entry; // parsed from text.substr(begin) on its own: its marks count from there
};

Scan scanForEntry(std::string_view text, std::string_view certname, const std::string& file, const ParseLimits& limits,
                  EntrySpan& found)
{
    if (certname.find_first_of("\"\\") != std::string_view::npos
        || std::any_of(certname.begin(), certname.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
        return Scan::Unknown; // its JSON text would hold escapes
    const std::string quoted = '"' + std::string(certname) + '"';
    std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    const auto blanks = [&] {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
            ++i;
    };
    blanks();
    if (i >= text.size() || text[i] != '[')
        return Scan::Unknown;
    ++i;
    // The entry is only taken once the whole text has proved to be one JSON array: after a found
    // entry, text that JSON does not end there (YAML such as `[...]:`) must be parsed as a whole, or
    // the splice would write into a document of another shape.
    bool haveFound = false;
    for (bool first = true;; first = false) {
        blanks();
        if (i < text.size() && text[i] == ']' && first) {
            ++i;
            break;
        }
        if (i >= text.size() || text[i] != '{')
            return Scan::Unknown;
        const std::size_t end = jsonCollectionEnd(text, i);
        if (end == std::string_view::npos)
            return Scan::Unknown;
        const std::string_view entryText = text.substr(i, end - i);
        if (!haveFound && entryText.find(quoted) != std::string_view::npos) {
            try {
                Value entry = parseData(entryText, file, DataFormat::Json, limits);
                if (namesNode(entry, certname)) {
                    found = {i, std::move(entry)};
                    haveFound = true;
                }
            } catch (const Error&) {
                return Scan::Unknown;
            }
        }
        i = end;
        blanks();
        if (i < text.size() && text[i] == ',') {
            ++i;
            continue;
        }
        if (i < text.size() && text[i] == ']') {
            ++i;
            break;
        }
        return Scan::Unknown;
    }
    blanks();
    if (i != text.size())
        return Scan::Unknown;
    return haveFound ? Scan::Found : Scan::Absent;
}

PuppetDBFactset factsetOf(const Value& entry, std::string_view certname, const std::string& file)
{
    const Hash& h = entry.asHash();
    const Value* facts = h.find("facts");
    if (!facts)
        throw Error(ErrorCode::FactsSyntax, "the PuppetDB factset of " + std::string(certname) + " has no facts",
                    whereIs(entry, file));
    PuppetDBFactset set;
    set.certname = std::string(certname);
    if (const Value* env = h.find("environment"); env && env->isString())
        set.environment = env->asString();
    set.facts = detail::factsFromPuppetDB(*facts);
    return set;
}

// The fact list of an entry (the facts array, or facts.data), null when it has none.
const Value* factListOf(const Value& entry)
{
    const Value* facts = entry.asHash().find("facts");
    const Value* list = facts && facts->isHash() ? facts->asHash().find("data") : facts;
    return list && list->isArray() ? list : nullptr;
}

} // namespace

std::optional<PuppetDBFactset> findPuppetDBFactset(std::string_view text, const std::string& file,
                                                   std::string_view certname, const ParseLimits& limits)
{
    EntrySpan span;
    switch (scanForEntry(text, certname, file, limits, span)) {
    case Scan::Absent:
        return std::nullopt;
    case Scan::Found:
        try {
            return factsetOf(span.entry, certname, file);
        } catch (const Error&) {
            break; // its marks count from the entry: the whole document names the right line
        }
        break;
    case Scan::Unknown:
        break;
    }
    bool json = false;
    Value doc = parseExport(text, file, limits, json);
    const Value* entry = entryOf(doc, certname, file);
    if (!entry)
        return std::nullopt;
    return factsetOf(*entry, certname, file);
}

std::optional<std::string> replacePuppetDBFacts(std::string_view text, const std::string& file,
                                                std::string_view certname, const Value& facts,
                                                const ParseLimits& limits, Value* previousFacts)
{
    const Value list = factList(facts);
    // Only the node's fact list changes in the text: the rest of the export keeps its bytes.
    EntrySpan span;
    switch (scanForEntry(text, certname, file, limits, span)) {
    case Scan::Absent:
        return std::nullopt;
    case Scan::Found:
        if (previousFacts) {
            try {
                *previousFacts = factsetOf(span.entry, certname, file).facts;
            } catch (const Error&) {
                break; // as findPuppetDBFactset: the whole document names the right line
            }
        }
        if (const Value* oldList = factListOf(span.entry)) {
            if (auto out = spliced(text, span.begin, *oldList, list))
                return out;
        }
        break;
    case Scan::Unknown:
        break;
    }
    bool json = false;
    bool strictJson = false;
    Value doc = parseExport(text, file, limits, json, &strictJson);
    Value* entry = entryOf(doc, certname, file);
    if (!entry)
        return std::nullopt;
    if (previousFacts)
        *previousFacts = factsetOf(*entry, certname, file).facts;
    Hash& h = entry->mutableHash();
    Value* old = h.findMutable(Value("facts"));
    if (strictJson && old) {
        if (const Value* oldList = factListOf(*entry)) {
            if (auto out = spliced(text, 0, *oldList, list))
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
