#include "core/bytes.h"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace hiera::detail {

std::optional<std::string> decodeBase64(const std::string& s)
{
    auto val = [](char c) -> int {
        if (c >= 'A' && c <= 'Z')
            return c - 'A';
        if (c >= 'a' && c <= 'z')
            return c - 'a' + 26;
        if (c >= '0' && c <= '9')
            return c - '0' + 52;
        if (c == '+')
            return 62;
        if (c == '/')
            return 63;
        return -1;
    };
    std::string out;
    int buffer = 0, bits = 0;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c)))
            continue;
        if (c == '=')
            break;
        const int v = val(c);
        if (v < 0)
            return std::nullopt;
        buffer = ((buffer << 6) | v) & 0xffffff; // only the last 24 bits are ever needed
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    return out;
}

std::string encodeBase64(std::string_view bytes)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned n = (static_cast<unsigned char>(bytes[i]) << 16)
            | (static_cast<unsigned char>(bytes[i + 1]) << 8) | static_cast<unsigned char>(bytes[i + 2]);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    if (i < bytes.size()) {
        unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
        if (i + 1 < bytes.size())
            n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// Offset of the first invalid UTF-8 sequence, or npos.
std::size_t invalidUtf8At(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        // Nearly all text is ASCII: skip it eight bytes at a time.
        for (std::uint64_t word = 0; i + 8 <= s.size(); i += 8) {
            std::memcpy(&word, s.data() + i, 8);
            if ((word & 0x8080808080808080ull) != 0)
                break;
        }
        if (i >= s.size())
            break;
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return i;
        }
        for (std::size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size())
                return i;
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (cc & 0x3F);
        }
        const bool overlong = (n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n + 1;
    }
    return std::string_view::npos;
}

std::string validUtf8(std::string_view s, bool* replaced)
{
    std::size_t bad = invalidUtf8At(s);
    if (replaced)
        *replaced = bad != std::string_view::npos;
    if (bad == std::string_view::npos)
        return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    while (bad != std::string_view::npos) {
        out.append(s.substr(0, bad));
        out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        s.remove_prefix(bad + 1);
        bad = invalidUtf8At(s);
    }
    out.append(s);
    return out;
}

// Characters a YAML 1.1 reader does not take literally inside a scalar, plain or quoted: C1 controls,
// NEL, LINE and PARAGRAPH SEPARATOR (line breaks in YAML 1.1: libyaml folds them), the byte-order mark
// and the non-characters U+FFFE/U+FFFF (not printable: libyaml refuses them). Returns the code point
// of the multi-byte sequence at `i` if it is one of them (the string is valid UTF-8 here).
std::optional<std::uint32_t> unprintableAt(const std::string& s, std::size_t i)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    if (b(0) == 0xC2 && i + 1 < s.size() && b(1) >= 0x80 && b(1) <= 0x9F)
        return 0x80u + (b(1) - 0x80u);
    if (b(0) == 0xE2 && i + 2 < s.size() && b(1) == 0x80 && (b(2) == 0xA8 || b(2) == 0xA9))
        return 0x2000u + (b(2) - 0x80u);
    if (b(0) == 0xEF && i + 2 < s.size() && b(1) == 0xBB && b(2) == 0xBF)
        return 0xFEFFu;
    if (b(0) == 0xEF && i + 2 < s.size() && b(1) == 0xBF && (b(2) == 0xBE || b(2) == 0xBF))
        return b(2) == 0xBE ? 0xFFFEu : 0xFFFFu;
    return std::nullopt;
}

bool appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return false;
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
    return true;
}

} // namespace hiera::detail
