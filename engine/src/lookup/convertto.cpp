#include "lookup/convertto.h"
#include "lookup/puppettype.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace hiera::detail {

namespace {

// convert_to runs Puppet's `new(Type, value, args…)` (lookup_adapter.rb convert_result); the
// conversions below follow the `new` functions of Puppet 7.23's types (pops/types/types.rb) and their
// messages, as `Array.new(...)` etc. answer in `puppet apply` and `puppet lookup`.

[[noreturn]] void convertError(const std::string& key, const std::string& what, const Value& at)
{
    throw Error(ErrorCode::ConvertTo, "The convert_to lookup_option for key '" + key + "' raised error: " + what,
                SourceFiles::locate(at.mark()));
}

std::string cannotConvert(const char* function, const Value& v, const char* type)
{
    std::string out = function[0] ? std::string("'") + function + "' " : std::string();
    if (v.isString())
        return out + "The string '" + v.asString() + "' cannot be converted to " + type;
    return out + "Value of type " + detail::puppetTypeName(v, detail::CollectionNames::ArrayHash)
        + " cannot be converted to " + type;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Length of a run of characters from `pos` matching `pred`.
template <typename Pred>
std::size_t runOf(const std::string& s, std::size_t pos, Pred pred)
{
    std::size_t n = 0;
    while (pos + n < s.size() && pred(s[pos + n]))
        ++n;
    return n;
}

// The number part after `[+-]?\s*`: where it starts.
std::size_t afterSignAndSpace(const std::string& s)
{
    std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    return i + runOf(s, i, isSpace);
}

// INTEGER_PATTERN_LENIENT: \A[+-]?\s*(?:\d+|0[xX]\h+|0[bB][01]+)\z
bool matchesIntegerLenient(const std::string& s)
{
    const std::size_t i = afterSignAndSpace(s);
    const std::string rest = s.substr(i);
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'))
        return runOf(rest, 2, isHexDigit) == rest.size() - 2;
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'b' || rest[1] == 'B'))
        return runOf(rest, 2, [](char c) { return c == '0' || c == '1'; }) == rest.size() - 2;
    return !rest.empty() && runOf(rest, 0, isDigit) == rest.size();
}

// FLOAT_PATTERN: \A[+-]?\s*(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?|0[xX]\h+|0[0-7]+|0[bB][01]+)\z
bool matchesFloat(const std::string& s)
{
    const std::string rest = s.substr(afterSignAndSpace(s));
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'))
        return runOf(rest, 2, isHexDigit) == rest.size() - 2;
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'b' || rest[1] == 'B'))
        return runOf(rest, 2, [](char c) { return c == '0' || c == '1'; }) == rest.size() - 2;
    if (rest.size() > 1 && rest[0] == '0'
        && runOf(rest, 1, [](char c) { return c >= '0' && c <= '7'; }) == rest.size() - 1)
        return true;
    std::size_t i = 0;
    if (rest.empty() || !isDigit(rest[0]))
        return false;
    i = rest[0] == '0' ? 1 : runOf(rest, 0, isDigit);
    if (i < rest.size() && rest[i] == '.') {
        const std::size_t n = runOf(rest, i + 1, isDigit);
        if (n == 0)
            return false;
        i += 1 + n;
    }
    if (i < rest.size() && (rest[i] == 'e' || rest[i] == 'E')) {
        ++i;
        if (i < rest.size() && rest[i] == '-')
            ++i;
        const std::size_t n = runOf(rest, i, isDigit);
        if (n == 0)
            return false;
        i += n;
    }
    return i == rest.size();
}

struct OutOfRange
{
};

// Ruby's Integer(string) for strings of INTEGER_PATTERN_LENIENT's shape: leading whitespace, a sign,
// 0x / 0b / 0 (octal) prefixes; whitespace between sign and digits is an ArgumentError.
std::optional<std::int64_t> rubyInteger(const std::string& s)
{
    std::size_t i = runOf(s, 0, isSpace);
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        negative = s[i] == '-';
        ++i;
    }
    if (i >= s.size() || !isDigit(s[i]))
        return std::nullopt;
    int base = 10;
    if (s[i] == '0' && i + 1 < s.size()) {
        const char p = s[i + 1];
        if (p == 'x' || p == 'X')
            base = 16, i += 2;
        else if (p == 'b' || p == 'B')
            base = 2, i += 2;
        else
            base = 8, i += 1;
    }
    unsigned long long magnitude = 0;
    const char* begin = s.data() + i;
    const char* end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(begin, end, magnitude, base);
    if (ec == std::errc::result_out_of_range)
        throw OutOfRange{};
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    const unsigned long long limit = negative ? 9223372036854775808ull : 9223372036854775807ull;
    if (magnitude > limit)
        throw OutOfRange{};
    if (negative)
        return magnitude == limit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(magnitude);
    return static_cast<std::int64_t>(magnitude);
}

// Patterns::WS_BETWEEN_SIGN_AND_NUMBER: \A([+-])[[:blank:]]+(.*)\z: Puppet retries without the blanks.
std::optional<std::string> withoutBlanksAfterSign(const std::string& s)
{
    if (s.size() < 2 || (s[0] != '+' && s[0] != '-') || (s[1] != ' ' && s[1] != '\t'))
        return std::nullopt;
    if (s.find('\n') != std::string::npos)
        return std::nullopt; // (.*) does not cross a line
    const std::size_t n = runOf(s, 1, [](char c) { return c == ' ' || c == '\t'; });
    return s.substr(0, 1) + s.substr(1 + n);
}

std::string outOfRange(const std::string& text)
{
    return "integer " + text + " is out of the 64-bit range this engine supports";
}

Value toInteger(const Value& value, const std::string& key)
{
    if (value.isInteger())
        return value;
    if (value.isBoolean())
        return Value(std::int64_t(value.asBoolean() ? 1 : 0));
    if (value.isFloat()) {
        const double d = std::trunc(value.asFloat());
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
            convertError(key, outOfRange(rubyFloat(value.asFloat())), value);
        return Value(static_cast<std::int64_t>(d));
    }
    if (!value.isString() || !matchesIntegerLenient(value.asString()))
        convertError(key, cannotConvert("new", value, "Integer"), value);
    const std::string& s = value.asString();
    try {
        if (auto i = rubyInteger(s))
            return Value(*i);
        if (auto retry = withoutBlanksAfterSign(s))
            if (auto i = rubyInteger(*retry))
                return Value(*i);
    } catch (const OutOfRange&) {
        convertError(key, outOfRange(s), value);
    }
    convertError(key, "invalid value for Integer(): " + rubyInspect(value), value);
}

// Ruby's Float(string) for strings of FLOAT_PATTERN's shape: decimal (a leading 0 is not octal) or 0x hex.
std::optional<double> rubyFloatOf(const std::string& s)
{
    std::size_t i = runOf(s, 0, isSpace);
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        negative = s[i] == '-';
        ++i;
    }
    if (i >= s.size() || !isDigit(s[i]))
        return std::nullopt;
    const std::string rest = s.substr(i);
    double d = 0;
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) {
        for (std::size_t k = 2; k < rest.size(); ++k) {
            if (!isHexDigit(rest[k]))
                return std::nullopt;
            d = d * 16 + (isDigit(rest[k]) ? rest[k] - '0' : (rest[k] | 0x20) - 'a' + 10);
        }
    } else {
        const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), d);
        if ((ec != std::errc() && ec != std::errc::result_out_of_range) || ptr != rest.data() + rest.size())
            return std::nullopt;
        if (ec == std::errc::result_out_of_range)
            d = std::strtod(rest.c_str(), nullptr); // Ruby gives Infinity or 0.0 (with a warning)
    }
    return negative ? -d : d;
}

Value toFloat(const Value& value, const std::string& key)
{
    if (value.isFloat())
        return value;
    if (value.isInteger())
        return Value(static_cast<double>(value.asInteger()));
    if (value.isBoolean())
        return Value(value.asBoolean() ? 1.0 : 0.0);
    if (!value.isString() || !matchesFloat(value.asString()))
        convertError(key, cannotConvert("new_float", value, "Float"), value);
    const std::string& s = value.asString();
    if (s[0] == '0') {
        // Puppet: `from[0] == '0' && from[1].casecmp('b').zero?`, which fails on "0" itself.
        if (s.size() == 1)
            convertError(key, "undefined method `casecmp' for nil:NilClass", value);
        if (s[1] == 'b' || s[1] == 'B') {
            try {
                if (auto i = rubyInteger(s))
                    return Value(static_cast<double>(*i));
            } catch (const OutOfRange&) {
                convertError(key, outOfRange(s), value);
            }
        }
    }
    if (auto d = rubyFloatOf(s))
        return Value(*d);
    if (auto retry = withoutBlanksAfterSign(s))
        if (auto d = rubyFloatOf(*retry))
            return Value(*d);
    convertError(key, "invalid value for Float(): " + rubyInspect(value), value);
}

std::string lowerAscii(std::string s)
{
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return s;
}

Value toBoolean(const Value& value, const std::string& key)
{
    if (value.isBoolean())
        return value;
    if (value.isInteger())
        return Value(value.asInteger() != 0);
    if (value.isFloat())
        return Value(value.asFloat() != 0.0);
    if (value.isString()) {
        const std::string s = lowerAscii(value.asString());
        if (s == "true" || s == "yes" || s == "y")
            return Value(true);
        if (s == "false" || s == "no" || s == "n")
            return Value(false);
    }
    convertError(key, cannotConvert("new_boolean", value, "Boolean"), value);
}

// A value's elements the way Puppet's Iterable sees them: a string's characters (UTF-8 code points; a
// byte that is not valid UTF-8 is one character, as Ruby's each_char does), 0...n for an Integer n >= 0.
constexpr std::size_t kMaxConvertedElements = 1'000'000;

[[noreturn]] void tooManyElements(const std::string& key, const std::string& count, const Value& value)
{
    throw Error(ErrorCode::DataLimit,
                "The convert_to lookup_option for key '" + key + "' would make an array of " + count
                    + " elements (the limit is " + std::to_string(kMaxConvertedElements) + ")",
                SourceFiles::locate(value.mark()));
}

std::optional<Array> iterate(const Value& value, const std::string& key)
{
    Array out;
    if (value.isString()) {
        const std::string& s = value.asString();
        if (s.size() > kMaxConvertedElements * 4)
            tooManyElements(key, "more than " + std::to_string(kMaxConvertedElements), value);
        for (std::size_t i = 0; i < s.size();) {
            const auto c = static_cast<unsigned char>(s[i]);
            std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
            if (i + n > s.size())
                n = 1;
            for (std::size_t k = 1; k < n; ++k)
                if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
                    n = 1;
            out.push_back(Value(s.substr(i, n)).withMark(value.mark()));
            i += n;
        }
        if (out.size() > kMaxConvertedElements)
            tooManyElements(key, std::to_string(out.size()), value);
        return out;
    }
    if (value.isInteger() && value.asInteger() >= 0) {
        if (static_cast<std::uint64_t>(value.asInteger()) > kMaxConvertedElements)
            tooManyElements(key, std::to_string(value.asInteger()), value);
        out.reserve(static_cast<std::size_t>(value.asInteger()));
        for (std::int64_t i = 0; i < value.asInteger(); ++i)
            out.push_back(Value(i).withMark(value.mark()));
        return out;
    }
    return std::nullopt;
}

Value toArray(const Value& value, bool wrap, const std::string& key)
{
    if (value.isArray())
        return value;
    if (wrap)
        return Value(Array{value});
    if (value.isHash()) {
        Array a;
        for (const auto& e : value.asHash())
            a.push_back(Value(Array{e.key, e.value}));
        return Value(std::move(a));
    }
    if (auto elements = iterate(value, key))
        return Value(std::move(*elements));
    convertError(key, cannotConvert("new_array", value, "Array"), value);
}

Value toHash(const Value& value, const std::string& key)
{
    if (value.isHash())
        return value;
    std::optional<Array> items;
    if (value.isArray())
        items = value.asArray();
    else
        items = iterate(value, key);
    if (!items)
        convertError(key, cannotConvert("", value, "Hash"), value);
    Hash h;
    const Array& a = *items;
    const bool pairs = !a.empty()
        && std::all_of(a.begin(), a.end(), [](const Value& e) { return e.isArray() && e.asArray().size() == 2; });
    if (pairs) { // KeyValueArray: Array[Tuple[Any, Any], 1]
        for (const auto& e : a)
            h.set(e.asArray()[0], e.asArray()[1]);
    } else {
        if (a.size() % 2 != 0)
            convertError(key, "odd number of arguments for Hash", value);
        for (std::size_t i = 0; i < a.size(); i += 2)
            h.set(a[i], a[i + 1]);
    }
    return Value(std::move(h));
}

// Puppet's puppet_quote (StringConverter): single quotes with \' and a backslash kept as it is, or
// double quotes with escapes when the string has a control character.
std::string puppetQuote(const std::string& s)
{
    const bool control = std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    std::string out;
    if (control) {
        out = "\"";
        for (char c : s) {
            switch (c) {
            case '\t':
                out += "\\t";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '"':
                out += "\\\"";
                break;
            case '$':
                out += "\\$";
                break;
            case '\\':
                out += "\\\\";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[16];
                    std::snprintf(buf, sizeof buf, "\\u{%X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    out += buf;
                } else {
                    out += c;
                }
            }
        }
        return out + "\"";
    }
    out = "'";
    bool escaped = false;
    for (char c : s) {
        if (escaped) {
            out += '\\';
            out += c;
            escaped = false;
        } else if (c == '\'') {
            out += "\\'";
        } else if (c == '\\') {
            escaped = true;
        } else {
            out += c;
        }
    }
    if (escaped)
        out += '\\';
    return out + "'";
}

// Ruby's format('%f'): C's, except for the names of the infinities and NaN.
std::string percentF(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "Inf" : "-Inf";
    char buf[400];
    std::snprintf(buf, sizeof buf, "%f", d);
    return buf;
}

// A value inside an array or hash: the %p format.
void puppetInner(std::string& out, const Value& v, std::size_t depth);

void puppetContainer(std::string& out, const Value& v, std::size_t depth)
{
    if (depth > 10000)
        throw Error(ErrorCode::DataLimit, "convert_to String: the value nests too deeply");
    if (v.isArray()) {
        out += '[';
        bool first = true;
        for (const auto& e : v.asArray()) {
            if (!first)
                out += ", ";
            first = false;
            puppetInner(out, e, depth + 1);
        }
        out += ']';
    } else {
        out += '{';
        bool first = true;
        for (const auto& e : v.asHash()) {
            if (!first)
                out += ", ";
            first = false;
            puppetInner(out, e.key, depth + 1);
            out += " => ";
            puppetInner(out, e.value, depth + 1);
        }
        out += '}';
    }
}

void puppetInner(std::string& out, const Value& v, std::size_t depth)
{
    switch (v.type()) {
    case Value::Type::Null:
        out += "undef";
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
        out += puppetQuote(v.asString());
        break;
    case Value::Type::Array:
    case Value::Type::Hash:
        puppetContainer(out, v, depth);
        break;
    }
}

// String.new(value): Puppet's StringConverter with its default formats (%s for strings, %d for
// integers, %f for floats, "" for undef, containers as ['a', 1] and {'k' => 'v'}).
std::string puppetString(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Null:
        return "";
    case Value::Type::Boolean:
        return v.asBoolean() ? "true" : "false";
    case Value::Type::Integer:
        return std::to_string(v.asInteger());
    case Value::Type::Float:
        return percentF(v.asFloat());
    case Value::Type::String:
        return v.asString();
    case Value::Type::Array:
    case Value::Type::Hash: {
        std::string out;
        puppetContainer(out, v, 0);
        return out;
    }
    }
    return "";
}

} // namespace

Value convertTo(const Value& value, const Value& spec, const std::string& key)
{
    std::string type;
    bool wrap = false;
    if (spec.isString()) {
        type = spec.asString();
    } else if (spec.isArray() && !spec.asArray().empty() && spec.asArray()[0].isString()) {
        const Array& a = spec.asArray();
        type = a[0].asString();
        if (type == "Array" && a.size() == 2 && a[1].isBoolean())
            wrap = a[1].asBoolean(); // Array.new(value, true) wraps a non-array
        else if (a.size() > 1)
            convertError(key, "arguments to convert_to are not supported by this engine (except [Array, true|false])",
                         spec);
    } else {
        throw Error(ErrorCode::ConvertTo, "Invalid data type in lookup_options for key '" + key + "'",
                    SourceFiles::locate(spec.mark()));
    }
    Value out;
    if (type == "Array")
        out = toArray(value, wrap, key);
    else if (type == "Hash")
        out = toHash(value, key);
    else if (type == "String")
        out = Value(puppetString(value));
    else if (type == "Integer")
        out = toInteger(value, key);
    else if (type == "Float")
        out = toFloat(value, key);
    else if (type == "Boolean")
        out = toBoolean(value, key);
    else if (type == "Sensitive")
        out = Value("Sensitive [value redacted]");
    else
        throw Error(ErrorCode::ConvertTo,
                    "convert_to type '" + type + "' for key '" + key
                        + "' is not supported (supported: Array, Hash, String, Integer, Float, Boolean, Sensitive)",
                    SourceFiles::locate(spec.mark()));
    if (!out.mark().isValid())
        out.setMark(value.mark());
    return out;
}

} // namespace hiera::detail
