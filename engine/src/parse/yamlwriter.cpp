// toYaml (hiera/valueformat.h): YAML that reads back, through Puppet's YAML 1.1 typing
// (parse/scalarresolver.h), as the same value. Here in parse/, beside the reader whose typing it must
// agree with, rather than with the other value formats in core/.

#include "core/bytes.h"
#include "core/delimited.h"
#include "core/jsonescape.h"
#include "parse/scalarresolver.h"

#include <hiera/valueformat.h>

#include <cmath>
#include <optional>
#include <string>

namespace hiera {

namespace {

using detail::unprintableAt;
using detail::writeDelimited;

// A double-quoted YAML scalar: JSON's escapes (valid in YAML), plus \u escapes for DEL and the
// characters above, which JSON may carry raw but YAML may not.
void yamlQuoted(std::string& out, const std::string& s)
{
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        char buf[16];
        if (c >= 0x80) {
            if (const auto cp = unprintableAt(s, i)) {
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(*cp));
                out += buf;
                i += *cp < 0x800 ? 1 : 2;
                continue;
            }
            out += static_cast<char>(c);
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

// Whether `s` may be written plain: as a value *and as a key* it must read back as the same string.
bool plainSafe(const std::string& s)
{
    if (s.empty() || s.size() > 200)
        return false;
    // A `<<` key is a merge key (YAML 1.1's merge type), plain or quoted: keys write it as mergeKeyText.
    if (s == "<<")
        return false;
    // YAML 1.1's one-letter booleans: Psych reads them as strings, but yaml-cpp, PyYAML's 1.1 mode and
    // Go's yaml.v2 read them as true/false, and Psych itself writes them quoted.
    if (s == "y" || s == "Y" || s == "n" || s == "N")
        return false;
    const unsigned char c0 = static_cast<unsigned char>(s[0]);
    // Indicators, digits and signs: quote, so no YAML reader (1.1 or 1.2) takes it for something else.
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`~=+.0123456789 ").find(static_cast<char>(c0)) != std::string_view::npos)
        return false;
    if (s.back() == ' ' || s.back() == ':')
        return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && unprintableAt(s, i)))
            return false;
    }
    if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos)
        return false;
    std::optional<detail::ScalarProblem> problem;
    const Value read = detail::resolvePsychScalar(s, problem);
    return !problem && read.isString() && read.asString() == s;
}

void yamlScalar(std::string& out, const Value& v, bool flow = false)
{
    switch (v.type()) {
    case Value::Type::Null:
        out += "~";
        break;
    case Value::Type::Boolean:
        out += v.asBoolean() ? "true" : "false";
        break;
    case Value::Type::Integer:
        out += std::to_string(v.asInteger());
        break;
    case Value::Type::Float: {
        const double d = v.asFloat();
        if (std::isnan(d))
            out += ".nan";
        else if (std::isinf(d))
            out += d > 0 ? ".inf" : "-.inf";
        else
            out += rubyFloat(d);
        break;
    }
    case Value::Type::String:
        // Bytes that are not UTF-8 (a !!binary scalar) have no YAML string form: write them back as
        // !!binary, which reads as the same string (found by fuzzing).
        if (detail::invalidUtf8At(v.asString()) != std::string_view::npos) {
            out += "!!binary ";
            out += detail::encodeBase64(v.asString());
            break;
        }
        // In a flow collection (a complex key) strings are always quoted: yaml-cpp reads indicators
        // inside flow plain scalars (`/? o`, `a,b`) differently from libyaml (found by fuzzing).
        if (!flow && plainSafe(v.asString()))
            out += v.asString();
        else
            yamlQuoted(out, v.asString());
        break;
    case Value::Type::Array:
        out += "[]";
        break;
    case Value::Type::Hash:
        out += "{}";
        break;
    }
}

// The key `<<` as a string: quoted it is still a merge key for Psych (and for parseData), which would
// merge a hash value away; only the !!str tag makes it an ordinary key (docs/engine-semantics.md,
// "YAML merge keys").
constexpr std::string_view mergeKeyText = "!!str \"<<\"";

bool isMergeKeyString(const Value& key)
{
    return key.isString() && key.asString() == "<<";
}

// Flow form ([a, {b: c}]) for a collection used as a hash key. Not JSON: JSON would turn integer
// keys and NaN into strings, and the key must read back as the same value.
void yamlFlow(std::string& out, const Value& v)
{
    if (v.isArray()) {
        writeDelimited(out, '[', v.asArray(), ']', [&](const Value& e) {
            yamlFlow(out, e);
            return true;
        });
    } else if (v.isHash()) {
        writeDelimited(out, '{', v.asHash(), '}', [&](const Hash::Entry& e) {
            std::string key;
            if (isMergeKeyString(e.key))
                key = mergeKeyText;
            else
                yamlFlow(key, e.key);
            if (!e.key.isScalar() || key.size() > 1000)
                out += "? ";
            out += key;
            out += ": ";
            yamlFlow(out, e.value);
            return true;
        });
    } else {
        yamlScalar(out, v, true);
    }
}

bool isBlockCollection(const Value& v)
{
    return (v.isArray() && !v.asArray().empty()) || (v.isHash() && !v.asHash().empty());
}

void writeYaml(std::string& out, const Value& v, int indent);

void writeYamlEntryValue(std::string& out, const Value& v, int indent)
{
    if (isBlockCollection(v)) {
        out += '\n';
        writeYaml(out, v, indent);
    } else {
        out += ' ';
        yamlScalar(out, v);
        out += '\n';
    }
}

void writeYaml(std::string& out, const Value& v, int indent)
{
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    if (v.isArray()) {
        for (const auto& e : v.asArray()) {
            out += pad + "-";
            if (isBlockCollection(e)) {
                // Nested collections start on their own line, indented.
                out += '\n';
                writeYaml(out, e, indent + 2);
            } else {
                out += ' ';
                yamlScalar(out, e);
                out += '\n';
            }
        }
    } else if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            out += pad;
            std::string key;
            if (isMergeKeyString(e.key))
                key = mergeKeyText;
            else if (e.key.isScalar())
                yamlScalar(key, e.key);
            // YAML limits implicit keys to 1024 characters (found by fuzzing: a long key did not read
            // back); longer ones, and collections, are written as explicit keys.
            if (e.key.isScalar() && key.size() <= 1000) {
                out += key;
            } else if (e.key.isScalar()) {
                out += "? ";
                out += key;
                out += '\n';
                out += pad;
            } else {
                // An explicit key: `? [a, b]` on its line, then `: value` (`? [a]: v` would make the
                // key itself a mapping).
                out += "? ";
                yamlFlow(out, e.key);
                out += '\n';
                out += pad;
            }
            out += ':';
            writeYamlEntryValue(out, e.value, indent + 2);
        }
    }
}

} // namespace

std::string toYaml(const Value& v)
{
    std::string out = "---";
    if (isBlockCollection(v)) {
        out += '\n';
        writeYaml(out, v, 0);
    } else {
        out += ' ';
        yamlScalar(out, v);
        out += '\n';
    }
    return out;
}

} // namespace hiera
