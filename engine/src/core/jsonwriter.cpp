#include "core/jsonwriter.h"

#include "core/bytes.h"
#include "core/jsonescape.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <cmath>
#include <utility>
#include <vector>

namespace hiera::detail {

namespace {

class Writer
{
public:
    Writer(bool pretty, JsonInvalid invalid) : m_pretty(pretty), m_replace(invalid == JsonInvalid::Replace) { }

    std::string out;

    void value(const Value& v, int indent)
    {
        switch (v.type()) {
        case Value::Type::Null:
            out += "null";
            break;
        case Value::Type::Boolean:
            out += v.asBoolean() ? "true" : "false";
            break;
        case Value::Type::Integer:
            out += std::to_string(v.asInteger());
            break;
        case Value::Type::Float: {
            const double d = v.asFloat();
            if (std::isfinite(d)) {
                out += rubyFloat(d);
                break;
            }
            // Puppet's message, which names -Infinity "Infinity" too.
            if (!m_replace)
                throw Error(ErrorCode::DataType,
                            std::string(std::isnan(d) ? "NaN" : "Infinity") + " not allowed in JSON",
                            SourceFiles::locate(v.mark()));
            const std::string text = rubyFloat(d); // NaN, Infinity, -Infinity
            replaced(text == "NaN" ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
            string(text, v.mark());
            break;
        }
        case Value::Type::String:
            if (!string(v.asString(), v.mark()))
                replaced("not UTF-8");
            break;
        case Value::Type::Array: {
            const Array& a = v.asArray();
            if (a.empty()) {
                out += "[]";
                break;
            }
            out += '[';
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (i)
                    out += ',';
                newline(indent + 1);
                if (m_replace)
                    m_path.push_back(std::to_string(i));
                value(a[i], indent + 1);
                if (m_replace)
                    m_path.pop_back();
            }
            newline(indent);
            out += ']';
            break;
        }
        case Value::Type::Hash:
            hash(v.asHash(), indent, /*top=*/false);
            break;
        }
    }

    // `top`: the document itself, which ends with the list of replacements made in it, if any.
    void hash(const Hash& h, int indent, bool top)
    {
        if (h.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        bool first = true;
        for (const auto& e : h) {
            if (!first)
                out += ',';
            first = false;
            newline(indent + 1);
            const std::string name = keyText(e.key);
            if (m_replace) {
                // The pointer names the member as written, its bytes already replaced.
                bool replacedBytes = false;
                m_path.push_back(validUtf8(name, &replacedBytes));
                if (replacedBytes)
                    replaced("key not UTF-8");
            }
            string(name, e.key.mark());
            out += m_pretty ? ": " : ":";
            value(e.value, indent + 1);
            if (m_replace)
                m_path.pop_back();
        }
        if (top && !m_replacements.empty()) {
            out += ',';
            newline(indent + 1);
            out += '"';
            out += kJsonReplacementsKey;
            out += m_pretty ? "\": [" : "\":[";
            for (std::size_t i = 0; i < m_replacements.size(); ++i) {
                if (i)
                    out += ',';
                newline(indent + 2);
                out += m_pretty ? "{\"pointer\": " : "{\"pointer\":";
                string(m_replacements[i].first, {});
                out += m_pretty ? ", \"reason\": " : ",\"reason\":";
                string(m_replacements[i].second, {});
                out += '}';
            }
            newline(indent + 1);
            out += ']';
        }
        newline(indent);
        out += '}';
    }

private:
    // Writes `s` as a JSON string; false when bytes that are not UTF-8 had to be replaced. A string of
    // such bytes (a !!binary value, alone or interpolated into a string) has no JSON form: refused, it
    // names the value's mark.
    bool string(std::string_view s, const SourceMark& mark)
    {
        const bool valid = invalidUtf8At(s) == std::string_view::npos;
        if (!valid && !m_replace)
            throw Error(ErrorCode::DataType,
                        "a string that is not UTF-8 (a !!binary value) cannot be written as JSON: "
                            + std::string(1, '"') + printableLine(s) + '"',
                        SourceFiles::locate(mark));
        out += '"';
        if (valid)
            appendJsonEscaped(out, s);
        else
            appendJsonEscaped(out, validUtf8(s));
        out += '"';
        return valid;
    }

    void newline(int level)
    {
        if (m_pretty) {
            out += '\n';
            out.append(static_cast<std::size_t>(level) * 2, ' ');
        }
    }

    static std::string keyText(const Value& k)
    {
        switch (k.type()) {
        case Value::Type::String:
            return k.asString();
        case Value::Type::Integer:
            return std::to_string(k.asInteger());
        case Value::Type::Float:
            return rubyFloat(k.asFloat());
        case Value::Type::Boolean:
            return k.asBoolean() ? "true" : "false";
        case Value::Type::Null:
            return "";
        default:
            return rubyInspect(k);
        }
    }

    // RFC 6901: '~' as ~0 and '/' as ~1 in each reference token.
    void replaced(const char* reason)
    {
        std::string pointer;
        for (const std::string& token : m_path) {
            pointer += '/';
            for (char c : token) {
                if (c == '~')
                    pointer += "~0";
                else if (c == '/')
                    pointer += "~1";
                else
                    pointer += c;
            }
        }
        m_replacements.emplace_back(std::move(pointer), reason);
    }

    bool m_pretty;
    bool m_replace;
    std::vector<std::string> m_path; // reference tokens, valid UTF-8 (only when replacing)
    std::vector<std::pair<std::string, const char*>> m_replacements; // pointer, reason
};

} // namespace

std::string writeJson(const Value& document, bool pretty, JsonInvalid invalid)
{
    Writer w(pretty, invalid);
    if (document.isHash())
        w.hash(document.asHash(), 0, /*top=*/true);
    else
        w.value(document, 0);
    return std::move(w.out);
}

} // namespace hiera::detail
