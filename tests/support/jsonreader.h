#pragma once

// A strict RFC 8259 reader for the tests and fuzz targets of the JSON exports (no Qt), into
// hiera::Value: UTF-8 only (a byte that is not, a raw control character, a lone surrogate escape, a
// leading zero, a trailing comma or anything after the document is refused). Numbers without a
// fraction or an exponent that fit 64 bits are Integers; others Floats. A repeated name replaces the
// earlier member's value where it stands (hiera::Hash::set).

#include <hiera/value.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace testsupport {

class StrictJsonReader
{
public:
    explicit StrictJsonReader(std::string_view text) : m_s(text) { }

    std::optional<hiera::Value> read(std::string* error = nullptr)
    {
        std::optional<hiera::Value> v;
        ws();
        v = value(0);
        ws();
        if (v && m_i != m_s.size())
            v = fail("text after the document");
        if (!v && error)
            *error = m_error + " at byte " + std::to_string(m_i);
        return v;
    }

private:
    std::optional<hiera::Value> fail(const char* why)
    {
        if (m_error.empty())
            m_error = why;
        return std::nullopt;
    }
    void ws()
    {
        while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\n' || m_s[m_i] == '\r'))
            ++m_i;
    }
    bool literal(std::string_view word)
    {
        if (m_s.substr(m_i, word.size()) != word)
            return false;
        m_i += word.size();
        return true;
    }
    std::optional<hiera::Value> value(int depth)
    {
        if (depth > 1000)
            return fail("nested too deeply");
        if (m_i >= m_s.size())
            return fail("end of text where a value was expected");
        const char c = m_s[m_i];
        if (c == '{')
            return object(depth);
        if (c == '[')
            return array(depth);
        if (c == '"') {
            std::optional<std::string> s = string();
            return s ? std::optional<hiera::Value>(hiera::Value(*s)) : std::nullopt;
        }
        if (literal("true"))
            return hiera::Value(true);
        if (literal("false"))
            return hiera::Value(false);
        if (literal("null"))
            return hiera::Value();
        return number();
    }
    std::optional<hiera::Value> object(int depth)
    {
        ++m_i;
        hiera::Hash h;
        ws();
        if (m_i < m_s.size() && m_s[m_i] == '}') {
            ++m_i;
            return hiera::Value(std::move(h));
        }
        for (;;) {
            ws();
            if (m_i >= m_s.size() || m_s[m_i] != '"')
                return fail("a member without a string name");
            std::optional<std::string> name = string();
            if (!name)
                return std::nullopt;
            ws();
            if (m_i >= m_s.size() || m_s[m_i] != ':')
                return fail("a member without ':'");
            ++m_i;
            ws();
            std::optional<hiera::Value> v = value(depth + 1);
            if (!v)
                return std::nullopt;
            h.set(hiera::Value(*name), std::move(*v));
            ws();
            if (m_i < m_s.size() && m_s[m_i] == ',') {
                ++m_i;
                continue;
            }
            if (m_i < m_s.size() && m_s[m_i] == '}') {
                ++m_i;
                return hiera::Value(std::move(h));
            }
            return fail("an object not closed by '}'");
        }
    }
    std::optional<hiera::Value> array(int depth)
    {
        ++m_i;
        hiera::Array a;
        ws();
        if (m_i < m_s.size() && m_s[m_i] == ']') {
            ++m_i;
            return hiera::Value(std::move(a));
        }
        for (;;) {
            ws();
            std::optional<hiera::Value> v = value(depth + 1);
            if (!v)
                return std::nullopt;
            a.push_back(std::move(*v));
            ws();
            if (m_i < m_s.size() && m_s[m_i] == ',') {
                ++m_i;
                continue;
            }
            if (m_i < m_s.size() && m_s[m_i] == ']') {
                ++m_i;
                return hiera::Value(std::move(a));
            }
            return fail("an array not closed by ']'");
        }
    }
    static void appendUtf8(std::string& out, std::uint32_t cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    std::optional<std::uint32_t> hex4()
    {
        if (m_i + 4 > m_s.size())
            return std::nullopt;
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char h = m_s[m_i++];
            v <<= 4;
            if (h >= '0' && h <= '9')
                v |= static_cast<std::uint32_t>(h - '0');
            else if (h >= 'a' && h <= 'f')
                v |= static_cast<std::uint32_t>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                v |= static_cast<std::uint32_t>(h - 'A' + 10);
            else
                return std::nullopt;
        }
        return v;
    }
    // One UTF-8 sequence of the text (RFC 3629: no overlong form, surrogate or code point past U+10FFFF).
    bool utf8Sequence(std::string& out)
    {
        const auto b = static_cast<unsigned char>(m_s[m_i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || m_i + n > m_s.size())
            return false;
        std::uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
        for (std::size_t k = 1; k < n; ++k) {
            const auto c = static_cast<unsigned char>(m_s[m_i + k]);
            if ((c & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (c & 0x3Fu);
        }
        static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        out.append(m_s.substr(m_i, n));
        m_i += n;
        return true;
    }
    std::optional<std::string> string()
    {
        ++m_i; // the opening quote
        std::string out;
        for (;;) {
            if (m_i >= m_s.size()) {
                fail("an unterminated string");
                return std::nullopt;
            }
            const auto c = static_cast<unsigned char>(m_s[m_i]);
            if (c == '"') {
                ++m_i;
                return out;
            }
            if (c < 0x20) {
                fail("a raw control character in a string");
                return std::nullopt;
            }
            if (c != '\\') {
                if (!utf8Sequence(out)) {
                    fail("a byte that is not UTF-8");
                    return std::nullopt;
                }
                continue;
            }
            if (++m_i >= m_s.size()) {
                fail("an unterminated escape");
                return std::nullopt;
            }
            const char e = m_s[m_i++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                std::optional<std::uint32_t> cp = hex4();
                if (cp && *cp >= 0xD800 && *cp <= 0xDBFF) {
                    std::optional<std::uint32_t> low;
                    if (literal("\\u"))
                        low = hex4();
                    cp = low && *low >= 0xDC00 && *low <= 0xDFFF
                        ? std::optional(0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00))
                        : std::nullopt;
                } else if (cp && *cp >= 0xDC00 && *cp <= 0xDFFF) {
                    cp.reset();
                }
                if (!cp) {
                    fail("a bad \\u escape or a lone surrogate");
                    return std::nullopt;
                }
                appendUtf8(out, *cp);
                break;
            }
            default:
                fail("an unknown escape");
                return std::nullopt;
            }
        }
    }
    std::optional<hiera::Value> number()
    {
        const std::size_t start = m_i;
        auto digits = [&] {
            const std::size_t from = m_i;
            while (m_i < m_s.size() && m_s[m_i] >= '0' && m_s[m_i] <= '9')
                ++m_i;
            return m_i - from;
        };
        if (m_i < m_s.size() && m_s[m_i] == '-')
            ++m_i;
        const std::size_t intStart = m_i;
        const std::size_t intDigits = digits();
        if (intDigits == 0 || (intDigits > 1 && m_s[intStart] == '0'))
            return fail("a bad number");
        bool integer = true;
        if (m_i < m_s.size() && m_s[m_i] == '.') {
            ++m_i;
            integer = false;
            if (digits() == 0)
                return fail("a bad fraction");
        }
        if (m_i < m_s.size() && (m_s[m_i] == 'e' || m_s[m_i] == 'E')) {
            ++m_i;
            integer = false;
            if (m_i < m_s.size() && (m_s[m_i] == '+' || m_s[m_i] == '-'))
                ++m_i;
            if (digits() == 0)
                return fail("a bad exponent");
        }
        const std::string text(m_s.substr(start, m_i - start));
        if (integer) {
            errno = 0;
            char* end = nullptr;
            const long long v = std::strtoll(text.c_str(), &end, 10);
            if (errno == 0)
                return hiera::Value(static_cast<std::int64_t>(v));
        }
        return hiera::Value(std::strtod(text.c_str(), nullptr));
    }

    std::string_view m_s;
    std::size_t m_i = 0;
    std::string m_error;
};

inline std::optional<hiera::Value> readJson(std::string_view text, std::string* error = nullptr)
{
    return StrictJsonReader(text).read(error);
}

} // namespace testsupport
