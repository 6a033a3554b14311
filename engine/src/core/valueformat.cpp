#include "core/bytes.h"
#include "core/delimited.h"
#include "core/interpolationstring.h"
#include "core/jsonwriter.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

namespace hiera {

std::string rubyFloat(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "Infinity" : "-Infinity";
    if (d == 0)
        return std::signbit(d) ? "-0.0" : "0.0";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific); // shortest round-trip
    std::string sci(buf, res.ptr);
    std::string sign;
    if (sci[0] == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const std::size_t e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exponent = std::stoi(sci.substr(e + 1));
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    const int decpt = exponent + 1;
    const int n = static_cast<int>(digits.size());
    std::string out;
    // Ruby's Float#to_s (flo_to_s in numeric.c) with the shortest digits: a point inside the digits is
    // written in place (1000000000000000.5); digits padded with zeros only below 16 places
    // (100000000000000.0, but 1.0e+15 and 1.234567890123456e+15); 0.000ddd down to 4 zeros; otherwise
    // the exponent form. docs/engine-semantics.md, 3.6.
    if (decpt > 0 && (decpt < n || decpt < 16)) {
        if (decpt >= n)
            out = digits + std::string(static_cast<std::size_t>(decpt - n), '0') + ".0";
        else
            out = digits.substr(0, static_cast<std::size_t>(decpt)) + "."
                + digits.substr(static_cast<std::size_t>(decpt));
    } else if (decpt <= 0 && decpt > -4) {
        out = "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
    } else {
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%+03d", decpt - 1);
        out = digits.substr(0, 1) + "." + (n > 1 ? digits.substr(1) : "0") + exp;
    }
    return sign + out;
}

namespace {

using detail::unprintableAt;
using detail::writeDelimited;

// The inspect writers stop (return false) as soon as `out` grows past `limit`, so that an
// interpolation of a huge value (an alias bomb that passed the node limit) fails before it has
// rendered gigabytes. Unbounded callers pass npos.

// The length of the valid multi-byte UTF-8 sequence starting at s[i], or 0.
std::size_t sequenceLengthAt(const std::string& s, std::size_t i)
{
    const unsigned char b = static_cast<unsigned char>(s[i]);
    const std::size_t n = (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    const bool valid = n != 0 && i + n <= s.size()
        && detail::invalidUtf8At(std::string_view(s).substr(i, n)) == std::string_view::npos;
    return valid ? n : 0;
}

bool inspectString(std::string& out, const std::string& s, std::size_t limit)
{
    if (s.size() > limit || out.size() > limit - s.size())
        return false;
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
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
        case 0x1b:
            out += "\\e";
            break;
        case '#':
            // Ruby escapes "#{", "#$" and "#@" so the inspect form is not itself interpolated.
            if (i + 1 < s.size() && (s[i + 1] == '{' || s[i + 1] == '$' || s[i + 1] == '@'))
                out += "\\#";
            else
                out += '#';
            break;
        default:
            // Control bytes, and bytes that are not UTF-8 (a !!binary value), as Ruby's inspect
            // writes them: \xNN. The explain text shows values this way, on a terminal.
            const std::size_t n = c < 0x80 ? 1 : sequenceLengthAt(s, i);
            if (c < 0x20 || c == 0x7f || n == 0) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
            } else if (const auto cp = n > 1 ? unprintableAt(s, i) : std::nullopt) {
                char buf[12];
                std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(*cp));
                out += buf;
                i += n - 1;
            } else {
                out.append(s, i, n);
                i += n - 1;
            }
        }
    }
    out += '"';
    return out.size() <= limit;
}

bool writeInspect(std::string& out, const Value& v, std::size_t limit)
{
    switch (v.type()) {
    case Value::Type::Null:
        out += "nil";
        break;
    case Value::Type::Boolean:
        out += v.asBoolean() ? "true" : "false";
        break;
    case Value::Type::Integer:
        out += std::to_string(v.asInteger());
        break;
    case Value::Type::Float:
        out += rubyFloat(v.asFloat());
        break;
    case Value::Type::String:
        return inspectString(out, v.asString(), limit);
    case Value::Type::Array:
        if (!writeDelimited(out, '[', v.asArray(), ']', [&](const Value& e) { return writeInspect(out, e, limit); }))
            return false;
        break;
    case Value::Type::Hash:
        if (!writeDelimited(out, '{', v.asHash(), '}', [&](const Hash::Entry& e) {
                if (!writeInspect(out, e.key, limit))
                    return false;
                out += "=>";
                return writeInspect(out, e.value, limit);
            }))
            return false;
        break;
    }
    return out.size() <= limit;
}

} // namespace

// JSON text is Unicode: bytes that are not UTF-8 (a !!binary value) and NaN/Infinity have no JSON form.
// Puppet fails to render them too; replacing them would change data (core/jsonwriter.h).
std::string toJson(const Value& v, bool pretty)
{
    return detail::writeJson(v, pretty, detail::JsonInvalid::Refuse);
}

std::string rubyInspect(const Value& v)
{
    std::string out;
    writeInspect(out, v, std::string::npos);
    return out;
}

std::string cellText(const Value& v)
{
    if (v.isString())
        return v.asString();
    try {
        return toJson(v);
    } catch (const Error&) {
        return rubyInspect(v);
    }
}

namespace detail {

bool appendInterpolationString(std::string& out, const Value& v, std::size_t maxBytes)
{
    switch (v.type()) {
    case Value::Type::Null:
        return out.size() <= maxBytes;
    case Value::Type::String: {
        const std::string& s = v.asString();
        if (s.size() > maxBytes || out.size() > maxBytes - s.size())
            return false;
        out += s;
        return true;
    }
    case Value::Type::Boolean:
    case Value::Type::Integer:
    case Value::Type::Float:
        out += interpolationString(v);
        return out.size() <= maxBytes;
    default:
        return writeInspect(out, v, maxBytes);
    }
}

} // namespace detail

std::string interpolationString(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Null:
        return {};
    case Value::Type::String:
        return v.asString();
    case Value::Type::Boolean:
        return v.asBoolean() ? "true" : "false";
    case Value::Type::Integer:
        return std::to_string(v.asInteger());
    case Value::Type::Float:
        return rubyFloat(v.asFloat());
    default:
        return rubyInspect(v);
    }
}

} // namespace hiera
