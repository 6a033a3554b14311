#include "lookup/lookupoptions.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <cmath>
#include <cstdlib>

namespace hiera::detail {

namespace {

// Compiled patterns, shared by every table: a fleet has many lookup_options tables (one per distinct
// set of files) but few distinct patterns, and compiling a pattern costs far more than matching.
std::shared_ptr<const RubyRegex> compiledPattern(const std::string& source)
{
    static std::mutex mutex;
    static std::unordered_map<std::string, std::shared_ptr<const RubyRegex>> cache;
    {
        std::lock_guard lock(mutex);
        if (auto it = cache.find(source); it != cache.end())
            return it->second;
    }
    auto regex = std::make_shared<const RubyRegex>(source); // throws std::invalid_argument
    std::lock_guard lock(mutex);
    if (cache.size() > 10000)
        cache.clear();
    cache.emplace(source, regex);
    return regex;
}

} // namespace

namespace {
std::string giveUpReason(RubyRegex::Outcome outcome, std::size_t keyBytes)
{
    switch (outcome) {
    case RubyRegex::Outcome::GaveUp:
        return "gave up matching a key of " + std::to_string(keyBytes) + " bytes (more backtracking than the limit of "
               + std::to_string(RubyRegex::retryLimitFor(keyBytes)) + " steps)";
    case RubyRegex::Outcome::BudgetSpent:
        return "was not matched: this lookup's patterns already took more than "
               + std::to_string(RubyRegex::kLookupBudget.count()) + " s of matching";
    default: return "cannot match a key that is not valid UTF-8";
    }
}
} // namespace

LookupOptionsTable::LookupOptionsTable(const Value& merged)
{
    if (merged.isNull())
        return;
    if (!merged.isHash())
        throw Error(ErrorCode::LookupOptions, "value of lookup_options must be a hash, got " + std::string(merged.typeName()),
                    SourceFiles::locate(merged.mark()));
    m_merged = merged;
    for (const auto& e : merged.asHash()) {
        if (!e.key.isString() || e.key.asString().empty() || e.key.asString()[0] != '^')
            continue;
        std::string source = e.key.asString();
        try {
            m_patterns.push_back({source, compiledPattern(source), e.key.mark()});
        } catch (const std::invalid_argument& err) {
            throw Error(ErrorCode::LookupOptions,
                        "invalid regular expression in lookup_options: /" + source + "/ (" + err.what() + ")",
                        SourceFiles::locate(e.key.mark()));
        }
    }
}

std::shared_ptr<const LookupOptionsEntry> LookupOptionsTable::select(const std::string& rootKey) const
{
    if (!m_merged.isHash())
        return nullptr;
    {
        std::shared_lock lock(m_memoMutex);
        if (auto it = m_memo.find(rootKey); it != m_memo.end())
            return it->second;
    }
    std::shared_ptr<const LookupOptionsEntry> entry = selectUncached(rootKey); // errors are not remembered
    std::unique_lock lock(m_memoMutex);
    if (m_memo.size() > 100000)
        m_memo.clear();
    m_memo.emplace(rootKey, entry);
    return entry;
}

std::shared_ptr<const LookupOptionsEntry> LookupOptionsTable::selectUncached(const std::string& rootKey) const
{
    const Value* found = m_merged.asHash().find(std::string_view(rootKey));
    std::string name = rootKey;
    if (!found) {
        for (const Pattern& p : m_patterns) {
            const RubyRegex::Outcome outcome = p.regex->search(rootKey);
            if (outcome == RubyRegex::Outcome::Match) {
                found = m_merged.asHash().find(std::string_view(p.source));
                name = p.source;
                break;
            }
            if (outcome != RubyRegex::Outcome::NoMatch)
                throw Error(ErrorCode::LookupOptions,
                            "lookup_options pattern /" + p.source + "/ " + giveUpReason(outcome, rootKey.size()),
                            SourceFiles::locate(p.mark));
        }
    }
    if (!found || found->isNull())
        return nullptr;
    if (!found->isHash())
        throw Error(ErrorCode::LookupOptions,
                    "lookup_options entry for '" + name + "' must be a hash (e.g. {merge: deep}), got "
                        + std::string(found->typeName()),
                    SourceFiles::locate(found->mark()));
    auto result = std::make_shared<LookupOptionsEntry>();
    LookupOptionsEntry& entry = *result;
    entry.name = name;
    entry.value = *found;
    const Hash& h = found->asHash();
    if (const Value* m = h.find("merge")) {
        try {
            entry.merge = MergeSpec::fromValue(*m);
        } catch (const Error& e) {
            throw Error(e.code(), e.message() + " (lookup_options entry '" + name + "')", SourceFiles::locate(m->mark()));
        }
    }
    if (const Value* c = h.find("convert_to"))
        entry.convertTo = *c;
    return result;
}

namespace {

[[noreturn]] void convertError(const std::string& key, const std::string& what, const Value& at)
{
    throw Error(ErrorCode::ConvertTo, "The convert_to lookup_option for key '" + key + "' raised error: " + what,
                SourceFiles::locate(at.mark()));
}

std::optional<std::int64_t> parseInteger(const std::string& s)
{
    std::string t;
    for (char c : s)
        if (c != '_')
            t += c;
    if (t.empty())
        return std::nullopt;
    std::size_t i = 0;
    bool neg = false;
    if (t[0] == '+' || t[0] == '-') {
        neg = t[0] == '-';
        ++i;
    }
    int base = 10;
    if (t.compare(i, 2, "0x") == 0 || t.compare(i, 2, "0X") == 0) {
        base = 16;
        i += 2;
    } else if (t.compare(i, 2, "0b") == 0 || t.compare(i, 2, "0B") == 0) {
        base = 2;
        i += 2;
    } else if (t.size() > i + 1 && t[i] == '0') {
        base = 8;
        i += 1;
    }
    if (i >= t.size())
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(t.c_str() + i, &end, base);
    if (errno != 0 || *end != '\0')
        return std::nullopt;
    return neg ? -v : v;
}

} // namespace

Value convertTo(const Value& value, const Value& spec, const std::string& key)
{
    std::string type;
    if (spec.isString()) {
        type = spec.asString();
    } else if (spec.isArray() && !spec.asArray().empty() && spec.asArray()[0].isString()) {
        type = spec.asArray()[0].asString();
        if (spec.asArray().size() > 1)
            convertError(key, "arguments to convert_to are not supported by this engine", spec);
    } else {
        throw Error(ErrorCode::ConvertTo, "Invalid data type in lookup_options for key '" + key + "'",
                    SourceFiles::locate(spec.mark()));
    }
    Value out;
    if (type == "Array") {
        if (value.isArray())
            out = value;
        else if (value.isHash()) {
            Array a;
            for (const auto& e : value.asHash())
                a.push_back(Value(Array{e.key, e.value}));
            out = Value(std::move(a));
        } else
            out = Value(Array{value});
    } else if (type == "Hash") {
        if (value.isHash())
            out = value;
        else if (value.isArray()) {
            Hash h;
            const Array& a = value.asArray();
            for (const auto& e : a)
                if (!e.isArray() || e.asArray().size() != 2)
                    convertError(key, "'new' Hash needs an array of [key, value] pairs", value);
            for (const auto& e : a)
                h.set(e.asArray()[0], e.asArray()[1]);
            out = Value(std::move(h));
        } else
            convertError(key, "'new' cannot convert " + std::string(value.typeName()) + " to Hash", value);
    } else if (type == "String") {
        out = Value(interpolationString(value));
    } else if (type == "Integer") {
        if (value.isInteger())
            out = value;
        else if (value.isFloat())
            out = Value(static_cast<std::int64_t>(std::trunc(value.asFloat())));
        else if (value.isBoolean())
            out = Value(std::int64_t(value.asBoolean() ? 1 : 0));
        else if (value.isString()) {
            auto i = parseInteger(value.asString());
            if (!i)
                convertError(key, "'new' The string '" + value.asString() + "' cannot be converted to Integer", value);
            out = Value(*i);
        } else
            convertError(key, "'new' cannot convert " + std::string(value.typeName()) + " to Integer", value);
    } else if (type == "Float") {
        if (value.isFloat())
            out = value;
        else if (value.isInteger())
            out = Value(static_cast<double>(value.asInteger()));
        else if (value.isString()) {
            char* end = nullptr;
            const double d = std::strtod(value.asString().c_str(), &end);
            if (value.asString().empty() || *end != '\0')
                convertError(key, "'new' The string '" + value.asString() + "' cannot be converted to Float", value);
            out = Value(d);
        } else
            convertError(key, "'new' cannot convert " + std::string(value.typeName()) + " to Float", value);
    } else if (type == "Boolean") {
        if (value.isBoolean())
            out = value;
        else if (value.isString()) {
            const std::string& s = value.asString();
            if (s == "true" || s == "yes" || s == "y")
                out = Value(true);
            else if (s == "false" || s == "no" || s == "n" || s.empty())
                out = Value(false);
            else
                convertError(key, "'new' The string '" + s + "' cannot be converted to Boolean", value);
        } else if (value.isNumber())
            out = Value(value.isInteger() ? value.asInteger() != 0 : value.asFloat() != 0);
        else
            convertError(key, "'new' cannot convert " + std::string(value.typeName()) + " to Boolean", value);
    } else if (type == "Sensitive") {
        out = Value("Sensitive [value redacted]");
    } else {
        throw Error(ErrorCode::ConvertTo,
                    "convert_to type '" + type + "' for key '" + key
                        + "' is not supported (supported: Array, Hash, String, Integer, Float, Boolean, Sensitive)",
                    SourceFiles::locate(spec.mark()));
    }
    if (!out.mark().isValid())
        out.setMark(value.mark());
    return out;
}

} // namespace hiera::detail
