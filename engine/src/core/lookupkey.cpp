#include <hiera/error.h>
#include <hiera/lookupkey.h>
#include <hiera/value.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace hiera {

namespace {

bool isBlank(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

[[noreturn]] void syntaxError(std::string_view key)
{
    throw Error(ErrorCode::KeySyntax, "Syntax error in key: '" + std::string(key) + "'");
}

// The integer an unquoted segment of the shape [+-]?[0-9]+ stands for, as Puppet reads it (Ruby's
// to_i, lookup_key.rb): leading zeros do not count (`servers.0001` is index 1), a sign is allowed
// (`h.-1` finds the YAML integer key -1; a negative array index finds nothing). Nothing for any other
// text, or a number beyond int64 (no array is that long, and no YAML integer key that large): the
// segment then only matches a string key of the same text.
std::optional<long long> decimalIndex(const std::string& s)
{
    const bool negative = !s.empty() && s[0] == '-';
    const std::string_view digits = std::string_view(s).substr(!s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    const std::size_t first = std::min(digits.find_first_not_of('0'), digits.size() - 1);
    long long n = 0;
    for (std::size_t i = first; i < digits.size(); ++i) {
        const int digit = digits[i] - '0';
        if (n > (std::numeric_limits<long long>::max() - digit) / 10)
            return std::nullopt;
        n = n * 10 + digit;
    }
    return negative ? -n : n;
}

} // namespace

bool LookupKey::isSingleSegment(std::string_view key)
{
    // Not find_first_of: libstdc++ runs a memchr over the set for every character of the key.
    for (const char c : key)
        if (c == '.' || c == '\'' || c == '"')
            return false;
    return true;
}

std::string LookupKey::forRoot(std::string_view root)
{
    if (!root.empty() && isSingleSegment(root))
        return std::string(root);
    const char quote = root.find('"') == std::string_view::npos ? '"' : '\'';
    return quote + std::string(root) + quote;
}

LookupKey LookupKey::parse(std::string_view key)
{
    LookupKey k;
    // A key with none of . ' " is one segment, taken verbatim (blanks included); its original is its
    // root, not stored twice.
    if (isSingleSegment(key)) {
        k.m_root = std::string(key);
        return k;
    }
    k.m_original = std::string(key);
    std::vector<KeySegment> segments;
    std::size_t i = 0;
    const std::size_t n = key.size();
    while (true) {
        while (i < n && isBlank(key[i]))
            ++i;
        KeySegment seg;
        if (i < n && (key[i] == '"' || key[i] == '\'')) {
            const char q = key[i++];
            const std::size_t start = i;
            while (i < n && key[i] != q)
                ++i;
            if (i >= n || i == start)
                syntaxError(key); // unbalanced or empty quotes
            seg.text = std::string(key.substr(start, i - start));
            seg.quoted = true;
            ++i;
            while (i < n && isBlank(key[i]))
                ++i;
        } else {
            const std::size_t start = i;
            while (i < n && key[i] != '.' && key[i] != '\'' && key[i] != '"')
                ++i;
            if (i < n && key[i] != '.')
                syntaxError(key); // a quote inside an unquoted segment
            std::string_view text = key.substr(start, i - start);
            while (!text.empty() && isBlank(text.back()))
                text.remove_suffix(1);
            if (text.empty())
                syntaxError(key); // empty segment, leading or trailing dot
            seg.text = std::string(text);
            seg.index = decimalIndex(seg.text);
        }
        segments.push_back(std::move(seg));
        if (i >= n)
            break;
        if (key[i] != '.')
            syntaxError(key);
        ++i;
        if (i >= n)
            syntaxError(key); // trailing dot
    }
    k.m_root = std::move(segments.front().text); // the root is always a string
    segments.erase(segments.begin());
    k.m_segments = std::move(segments);
    return k;
}

std::optional<LookupKey> LookupKey::tryParse(std::string_view key)
{
    try {
        return parse(key);
    } catch (const Error&) {
        return std::nullopt;
    }
}

std::string LookupKey::subKey() const
{
    std::string s;
    for (const auto& seg : m_segments) {
        if (!s.empty())
            s += '.';
        s += seg.quoted ? '"' + seg.text + '"' : seg.text;
    }
    return s;
}

const Value* dig(const Value& root, const std::vector<KeySegment>& segments)
{
    const Value* v = &root;
    for (const auto& seg : segments) {
        if (v->isHash()) {
            const Hash& h = v->asHash();
            const Value* next = h.find(std::string_view(seg.text));
            if (!next && seg.index)
                next = h.find(Value(static_cast<std::int64_t>(*seg.index))); // YAML integer keys (`1:`)
            v = next;
        } else if (v->isArray()) {
            if (!seg.index || seg.quoted)
                return nullptr;
            const Array& a = v->asArray();
            if (*seg.index < 0 || static_cast<std::size_t>(*seg.index) >= a.size())
                return nullptr;
            v = &a[static_cast<std::size_t>(*seg.index)];
        } else {
            return nullptr; // a scalar or null in the way: not found, never an error (docs/seed-rules.md §1)
        }
        if (!v)
            return nullptr;
    }
    return v;
}

} // namespace hiera
