#pragma once

// Bytes, not YAML: base64 (YAML's !!binary, reports that must carry bytes that are not UTF-8) and finding
// bytes that are not UTF-8. At the bottom of the engine, so that every room may use them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hiera::detail {

// Standard base64 (RFC 4648), white space ignored, decoding stops at the first '='; nullopt for a
// character outside the alphabet.
std::optional<std::string> decodeBase64(const std::string& s);
std::string encodeBase64(std::string_view bytes);
// Offset of the first invalid UTF-8 sequence (overlong, surrogate, beyond U+10FFFF, truncated), or npos.
std::size_t invalidUtf8At(std::string_view s);
// `s` with every byte that is not part of a valid UTF-8 sequence (truncated, overlong, a surrogate,
// past U+10FFFF) replaced by U+FFFD, one for each byte; `replaced` (when given) says whether any was.
// For text that other programs read as UTF-8 (JSON, HTML, Markdown), whatever the data held.
std::string validUtf8(std::string_view s, bool* replaced = nullptr);
// Characters a YAML 1.1 reader does not take literally inside a scalar, plain or quoted: C1 controls,
// NEL, LINE and PARAGRAPH SEPARATOR (line breaks in YAML 1.1: libyaml folds them), the byte-order mark
// and the non-characters U+FFFE/U+FFFF (not printable: libyaml refuses them). Returns the code point
// of the multi-byte sequence at `i` if it is one of them (the string is valid UTF-8 here).
std::optional<std::uint32_t> unprintableAt(const std::string& s, std::size_t i);
// Appends the UTF-8 of code point `cp`; false (nothing appended) for a surrogate or beyond U+10FFFF.
bool appendUtf8(std::string& out, std::uint32_t cp);

} // namespace hiera::detail
