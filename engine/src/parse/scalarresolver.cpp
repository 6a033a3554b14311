#include "parse/scalarresolver.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace hiera::detail {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
char lower(char c)
{
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool equalsNoCase(const std::string& s, const char* word)
{
    std::size_t i = 0;
    for (; word[i]; ++i)
        if (i >= s.size() || lower(s[i]) != word[i])
            return false;
    return i == s.size();
}

// Psych's "this is certainly a string" class: [[:alpha:]_\s!@#$%^&*(){}<>|/\~;=]. Bytes of multi-byte
// UTF-8 characters count as letters (Ruby's [[:alpha:]] is Unicode-aware; non-ASCII text is mostly
// letters).
bool inStringClass(unsigned char c)
{
    if (c >= 0x80 || std::isalpha(c) || std::isspace(c))
        return true;
    switch (c) {
    case '_':
    case '!':
    case '@':
    case '#':
    case '$':
    case '%':
    case '^':
    case '&':
    case '*':
    case '(':
    case ')':
    case '{':
    case '}':
    case '<':
    case '>':
    case '|':
    case '/':
    case '\\':
    case '~':
    case ';':
    case '=':
        return true;
    default:
        return false;
    }
}

// /^[^\d.:-]?[[:alpha:]_\s!@#$%^&*(){}<>|\/\\~;=]+/ (a prefix match).
bool looksLikeString(const std::string& s)
{
    if (s.empty())
        return false;
    const auto c0 = static_cast<unsigned char>(s[0]);
    if (inStringClass(c0))
        return true;
    if (isDigit(static_cast<char>(c0)) || c0 == '.' || c0 == ':' || c0 == '-')
        return false;
    return s.size() > 1 && inStringClass(static_cast<unsigned char>(s[1]));
}

// Matches `n` digits exactly at s[i..], advancing i; with minN..maxN digits when ranged.
bool digits(const std::string& s, std::size_t& i, std::size_t minN, std::size_t maxN)
{
    std::size_t n = 0;
    while (i < s.size() && isDigit(s[i]) && n < maxN) {
        ++i;
        ++n;
    }
    return n >= minN;
}

bool looksLikeTime(const std::string& s)
{
    // ^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$
    std::size_t i = 0;
    if (i < s.size() && s[i] == '-')
        ++i;
    if (!digits(s, i, 4, 4) || i >= s.size() || s[i++] != '-' || !digits(s, i, 1, 2) || i >= s.size() || s[i++] != '-'
        || !digits(s, i, 1, 2) || i >= s.size())
        return false;
    if (s[i] == 'T' || s[i] == 't')
        ++i;
    else {
        std::size_t b = i;
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        if (i == b)
            return false;
    }
    if (!digits(s, i, 1, 2) || i >= s.size() || s[i++] != ':' || !digits(s, i, 2, 2) || i >= s.size() || s[i++] != ':'
        || !digits(s, i, 2, 2))
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
    }
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
    if (i == s.size())
        return true;
    if (s[i] == 'Z')
        return i + 1 == s.size();
    if (s[i] != '+' && s[i] != '-')
        return false;
    ++i;
    if (!digits(s, i, 1, 2))
        return false;
    if (i < s.size() && s[i] == ':')
        ++i;
    if (i < s.size())
        if (!digits(s, i, 2, 2))
            return false;
    return i == s.size();
}

bool isValidDate(const std::string& s)
{
    // ^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$, then Date.strptime must accept it.
    std::size_t i = 0;
    if (!digits(s, i, 4, 4) || i >= s.size() || s[i++] != '-')
        return false;
    std::size_t m0 = i;
    if (!digits(s, i, 1, 2) || i >= s.size() || s[i++] != '-')
        return false;
    std::size_t d0 = i;
    if (!digits(s, i, 1, 2) || i != s.size())
        return false;
    const int year = std::atoi(s.substr(0, 4).c_str());
    const int month = std::atoi(s.substr(m0, d0 - 1 - m0).c_str());
    const int day = std::atoi(s.substr(d0).c_str());
    if (month < 1 || month > 12 || day < 1)
        return false;
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= days[month - 1] + (month == 2 && leap ? 1 : 0);
}

// [-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}  then optionally \.[0-9_]* (float form).
enum class Sexagesimal { No, Int, Float };
Sexagesimal sexagesimalKind(const std::string& s)
{
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (i >= s.size() || !isDigit(s[i]))
        return Sexagesimal::No;
    while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
        ++i;
    int groups = 0;
    while (i < s.size() && s[i] == ':' && groups < 2) {
        ++i;
        std::size_t b = i;
        if (i < s.size() && s[i] >= '0' && s[i] <= '5' && i + 1 < s.size() && isDigit(s[i + 1]))
            i += 2;
        else if (i < s.size() && isDigit(s[i]))
            ++i;
        if (i == b)
            return Sexagesimal::No;
        ++groups;
    }
    if (groups == 0)
        return Sexagesimal::No;
    if (i == s.size())
        return Sexagesimal::Int;
    if (s[i] != '.')
        return Sexagesimal::No;
    for (++i; i < s.size(); ++i)
        if (!isDigit(s[i]) && s[i] != '_')
            return Sexagesimal::No;
    return Sexagesimal::Float;
}

// Ruby String#to_i / #to_f on one part: leading blanks, sign, digits with single underscores.
double rubyToF(const std::string& part)
{
    std::string t;
    for (char c : part)
        if (c != '_')
            t += c;
    return std::strtod(t.c_str(), nullptr);
}

// ^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$
bool looksLikeFloat(const std::string& s)
{
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (i < s.size() && isDigit(s[i]))
        while (i < s.size() && (isDigit(s[i]) || s[i] == '_' || s[i] == ','))
            ++i;
    if (i >= s.size() || s[i] != '.')
        return false;
    ++i;
    while (i < s.size() && isDigit(s[i]))
        ++i;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i >= s.size() || (s[i] != '+' && s[i] != '-'))
            return false;
        ++i;
        if (!digits(s, i, 1, std::string::npos))
            return false;
    }
    return i == s.size();
}

bool allOf(const std::string& s, std::size_t from, bool (*pred)(char))
{
    if (from >= s.size())
        return false;
    for (std::size_t i = from; i < s.size(); ++i)
        if (!pred(s[i]))
            return false;
    return true;
}

} // namespace

std::optional<Value> parsePsychInteger(const std::string& s, std::optional<ScalarProblem>& problem)
{
    std::size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    int base = 10;
    std::size_t digitsFrom = i;
    auto isBin = [](char c) { return c == '0' || c == '1' || c == '_' || c == ','; };
    auto isOct = [](char c) { return (c >= '0' && c <= '7') || c == '_' || c == ','; };
    auto isHex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == '_' || c == ','; };
    if (s.compare(i, 2, "0b") == 0 && allOf(s, i + 2, isBin)) {
        base = 2;
        digitsFrom = i + 2;
    } else if (s.compare(i, 2, "0x") == 0 && allOf(s, i + 2, isHex)) {
        base = 16;
        digitsFrom = i + 2;
    } else if (i < s.size() && s[i] == '0' && allOf(s, i + 1, isOct)) {
        base = 8;
        digitsFrom = i + 1;
    } else {
        // (?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)
        if (i >= s.size())
            return std::nullopt;
        if (s[i] == '0') {
            if (i + 1 != s.size())
                return std::nullopt;
        } else {
            if (s[i] < '1' || s[i] > '9')
                return std::nullopt;
            for (std::size_t j = i + 1; j < s.size(); ++j) {
                if (isDigit(s[j]))
                    continue;
                if ((s[j] == ',' || s[j] == '_') && j + 1 < s.size() && isDigit(s[j + 1])) {
                    ++j;
                    continue;
                }
                return std::nullopt;
            }
        }
    }
    std::string clean;
    for (std::size_t j = digitsFrom; j < s.size(); ++j)
        if (s[j] != '_' && s[j] != ',')
            clean += s[j];
    if (clean.empty()) {
        if (base == 8)
            return Value(std::int64_t(0));
        return std::nullopt; // "0b_": Ruby's Integer() refuses it; Psych then keeps the string
    }
    unsigned long long magnitude = 0;
    auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), magnitude, base);
    const unsigned long long limit = negative ? 9223372036854775808ull : 9223372036854775807ull;
    if (ec == std::errc::result_out_of_range || magnitude > limit) {
        problem = ScalarProblem{"integer " + s + " is out of the 64-bit range this engine supports"};
        return Value();
    }
    if (ec != std::errc() || ptr != clean.data() + clean.size())
        return std::nullopt;
    if (negative)
        return Value(magnitude == limit ? std::numeric_limits<std::int64_t>::min()
                                        : -static_cast<std::int64_t>(magnitude));
    return Value(static_cast<std::int64_t>(magnitude));
}

bool isSymbol(const std::string& s)
{
    return s.size() >= 2 && s[0] == ':';
}

namespace {
thread_local RefusedValues* t_refusedValues = nullptr;
}

RefusedValues::RefusedValues() : m_previous(t_refusedValues)
{
    t_refusedValues = this;
}

RefusedValues::~RefusedValues()
{
    t_refusedValues = m_previous;
}

RefusedValues* RefusedValues::active()
{
    return t_refusedValues;
}

Value resolvePsychScalar(const std::string& s, std::optional<ScalarProblem>& problem)
{
    if (s.empty())
        return Value();
    if (looksLikeString(s) || s.find('\n') != std::string::npos) {
        if (s.size() > 5)
            return Value(s);
        switch (lower(s[0])) {
        case 'y':
        case 't':
        case 'o':
        case 'n':
        case 'f':
        case '~':
            break;
        default:
            return Value(s);
        }
        if (s == "~" || equalsNoCase(s, "null"))
            return Value();
        if (equalsNoCase(s, "yes") || equalsNoCase(s, "true") || equalsNoCase(s, "on"))
            return Value(true);
        if (equalsNoCase(s, "no") || equalsNoCase(s, "false") || equalsNoCase(s, "off"))
            return Value(false);
        return Value(s);
    }
    if (looksLikeTime(s)) {
        problem = ScalarProblem{"Tried to load unspecified class: Time ('" + s
                                + "' is read as a timestamp; quote it to keep a string)"};
        return Value();
    }
    if (isValidDate(s)) {
        problem = ScalarProblem{"Tried to load unspecified class: Date ('" + s
                                + "' is read as a date; quote it to keep a string)"};
        return Value();
    }
    if (equalsNoCase(s, ".inf") || equalsNoCase(s, "+.inf"))
        return Value(std::numeric_limits<double>::infinity());
    if (equalsNoCase(s, "-.inf"))
        return Value(-std::numeric_limits<double>::infinity());
    if (equalsNoCase(s, ".nan"))
        return Value(std::numeric_limits<double>::quiet_NaN());
    if (isSymbol(s)) {
        problem = ScalarProblem{"a Ruby symbol (" + s + ") is not a value Puppet can look up; quote it"};
        return Value();
    }
    switch (sexagesimalKind(s)) {
    case Sexagesimal::Int: {
        // Psych weighs part e by 60^|e-2|, so two-part values are "wrong" (1:30 = 5400); Puppet shows it.
        // Ruby's integers are unbounded; ours are 64-bit, so a sum beyond that is the same DataType
        // error as any other out-of-range integer (found by fuzzing: a double-to-int64 cast overflowed).
        std::int64_t total = 0;
        std::size_t start = 0, e = 0;
        bool overflow = false;
        while (!overflow) {
            std::size_t colon = s.find(':', start);
            std::string part = s.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
            // String#to_i: optional sign, then digits (single underscores between them are ignored).
            std::int64_t n = 0;
            std::size_t i = 0;
            const bool negative = !part.empty() && part[0] == '-';
            if (!part.empty() && (part[0] == '-' || part[0] == '+'))
                ++i;
            for (; i < part.size() && !overflow; ++i) {
                if (part[i] == '_')
                    continue;
                if (!isDigit(part[i]))
                    break;
                overflow = __builtin_mul_overflow(n, 10, &n)
                    || __builtin_add_overflow(n, negative ? -(part[i] - '0') : part[i] - '0', &n);
            }
            std::int64_t w = 1;
            for (std::size_t k = 0; k < (e > 2 ? e - 2 : 2 - e) && !overflow; ++k)
                overflow = __builtin_mul_overflow(w, 60, &w);
            std::int64_t term = 0;
            overflow = overflow || __builtin_mul_overflow(n, w, &term) || __builtin_add_overflow(total, term, &total);
            if (colon == std::string::npos)
                break;
            start = colon + 1;
            ++e;
        }
        if (overflow) {
            problem = ScalarProblem{"integer " + s + " is out of the 64-bit range this engine supports"};
            return Value();
        }
        return Value(total);
    }
    case Sexagesimal::Float: {
        double total = 0;
        std::size_t start = 0, e = 0;
        while (true) {
            std::size_t colon = s.find(':', start);
            std::string part = s.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
            double w = 1;
            for (std::size_t k = 0; k < (e > 2 ? e - 2 : 2 - e); ++k)
                w *= 60;
            total += rubyToF(part) * w;
            if (colon == std::string::npos)
                break;
            start = colon + 1;
            ++e;
        }
        return Value(total);
    }
    case Sexagesimal::No:
        break;
    }
    if (looksLikeFloat(s)) {
        if (s == "." || s == "+." || s == "-.")
            return Value(s);
        // Float(string.gsub(/[,_]|\.([Ee]|$)/, '\1'))
        std::string t;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == ',' || s[i] == '_')
                continue;
            if (s[i] == '.' && (i + 1 == s.size() || s[i + 1] == 'e' || s[i + 1] == 'E'))
                continue;
            t += s[i];
        }
        return Value(std::strtod(t.c_str(), nullptr));
    }
    if (auto i = parsePsychInteger(s, problem))
        return *i;
    return Value(s);
}

Value resolveJsonScalar(const std::string& s, std::optional<ScalarProblem>& problem)
{
    if (s == "true")
        return Value(true);
    if (s == "false")
        return Value(false);
    if (s == "null")
        return Value();
    // -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?
    std::size_t i = 0;
    if (i < s.size() && s[i] == '-')
        ++i;
    const std::size_t intStart = i;
    if (i < s.size() && s[i] == '0')
        ++i;
    else if (i < s.size() && s[i] >= '1' && s[i] <= '9')
        while (i < s.size() && isDigit(s[i]))
            ++i;
    bool isFloat = false;
    bool ok = i > intStart;
    if (ok && i < s.size() && s[i] == '.') {
        isFloat = true;
        ++i;
        ok = i < s.size() && isDigit(s[i]);
        while (i < s.size() && isDigit(s[i]))
            ++i;
    }
    if (ok && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        isFloat = true;
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        ok = i < s.size() && isDigit(s[i]);
        while (i < s.size() && isDigit(s[i]))
            ++i;
    }
    if (!ok || i != s.size()) {
        problem = ScalarProblem{"unexpected token '" + s + "' (JSON values are strings, numbers, true, false or null)"};
        return Value();
    }
    if (isFloat)
        return Value(std::strtod(s.c_str(), nullptr));
    std::int64_t n = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || ptr != s.data() + s.size()) {
        problem = ScalarProblem{"integer " + s + " is out of the 64-bit range this engine supports"};
        return Value();
    }
    return Value(n);
}

} // namespace hiera::detail
