#pragma once

// The test side's own replacement of bytes that are not UTF-8 (one U+FFFD each), written apart from the
// engine's so that a test of the writers does not compare them with themselves.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace testsupport {

inline std::string validUtf8Replaced(std::string_view s)
{
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        bool ok = n != 0 && i + n <= s.size();
        std::uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
        for (std::size_t k = 1; ok && k < n; ++k) {
            const auto c = static_cast<unsigned char>(s[i + k]);
            ok = (c & 0xC0) == 0x80;
            cp = (cp << 6) | (c & 0x3Fu);
        }
        static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        ok = ok && cp >= kMin[n] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (ok) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

// What a report shows of valid UTF-8 text: every character that moves the cursor or reorders text (C0
// and C1 controls but LF, CR, tab and NUL, DEL, U+2028/2029, the bidirectional overrides, isolates and
// marks) as a visible escape: ESC as \e, others below U+0100 as \xHH, the rest as \uHHHH.
inline std::string controlsShown(std::string_view valid)
{
    std::string out;
    for (std::size_t i = 0; i < valid.size();) {
        const auto b = static_cast<unsigned char>(valid[i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : 4;
        std::uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
        for (std::size_t k = 1; k < n && i + k < valid.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(valid[i + k]) & 0x3Fu);
        const bool kept = cp == '\n' || cp == '\r' || cp == '\t' || cp == 0;
        const bool shown = !kept
            && (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029
                || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F
                || cp == 0x061C);
        if (!shown) {
            out.append(valid.substr(i, n));
        } else if (cp == 0x1B) {
            out += "\\e";
        } else {
            char hex[12];
            std::snprintf(hex, sizeof hex, cp < 0x100 ? "\\x%02X" : "\\u%04X", static_cast<unsigned>(cp));
            out += hex;
        }
        i += n;
    }
    return out;
}

} // namespace testsupport
