#include "report/reportjson.h"

#include "core/jsonescape.h"
#include "report/utf8.h"

#include <hiera/valueformat.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace hiera::detail {

namespace {

class Writer
{
public:
    explicit Writer(bool pretty) : m_pretty(pretty) { }

    std::string out;
    std::vector<std::pair<std::string, const char*>> replacements; // pointer, reason

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
            } else {
                const std::string text = rubyFloat(d); // NaN, Infinity, -Infinity
                replaced(text == "NaN" ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                string(text);
            }
            break;
        }
        case Value::Type::String:
            if (!string(v.asString()))
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
                m_path.push_back(std::to_string(i));
                value(a[i], indent + 1);
                m_path.pop_back();
            }
            newline(indent);
            out += ']';
            break;
        }
        case Value::Type::Hash:
            hash(v.asHash(), indent, false);
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
            bool replacedBytes = false;
            const std::string name = validUtf8(keyText(e.key), &replacedBytes);
            m_path.push_back(name);
            if (replacedBytes)
                replaced("key not UTF-8");
            string(name);
            out += m_pretty ? ": " : ":";
            value(e.value, indent + 1);
            m_path.pop_back();
        }
        if (top && !replacements.empty()) {
            out += ',';
            newline(indent + 1);
            out += '"';
            out += kJsonReplacementsKey;
            out += m_pretty ? "\": [" : "\":[";
            for (std::size_t i = 0; i < replacements.size(); ++i) {
                if (i)
                    out += ',';
                newline(indent + 2);
                out += m_pretty ? "{\"pointer\": " : "{\"pointer\":";
                string(replacements[i].first);
                out += m_pretty ? ", \"reason\": " : ",\"reason\":";
                string(replacements[i].second);
                out += '}';
            }
            newline(indent + 1);
            out += ']';
        }
        newline(indent);
        out += '}';
    }

    // Writes `s` as a JSON string; false when bytes that are not UTF-8 had to be replaced.
    bool string(std::string_view s)
    {
        bool replacedBytes = false;
        const std::string valid = validUtf8(s, &replacedBytes);
        out += '"';
        appendJsonEscaped(out, valid);
        out += '"';
        return !replacedBytes;
    }

private:
    void newline(int level)
    {
        if (m_pretty) {
            out += '\n';
            out.append(static_cast<std::size_t>(level) * 2, ' ');
        }
    }

    // As toJson names a key that is not a string.
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
        replacements.emplace_back(std::move(pointer), reason);
    }

    bool m_pretty;
    std::vector<std::string> m_path; // reference tokens, already valid UTF-8
};

} // namespace

std::string reportJson(const Value& document, bool pretty)
{
    Writer w(pretty);
    if (document.isHash())
        w.hash(document.asHash(), 0, /*top=*/true);
    else
        w.value(document, 0);
    return std::move(w.out);
}

} // namespace hiera::detail
