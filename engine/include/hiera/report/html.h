#pragma once

// Text from data in the HTML exports (docs/bad-input.md, "What goes out"): every key, value, file name,
// fact and message goes through htmlText, in element text and in attribute values alike, so that none
// can close an element or an attribute, start a tag, or name a resource. The documents carry their
// style inline and a Content-Security-Policy that forbids scripts and every resource from elsewhere
// (htmlDocumentStart), so nothing that slipped through could load or run.

#include <string>
#include <string_view>

namespace hiera {

// & < > " ' as character references; bytes that are not UTF-8 and NUL (which HTML parsers drop) as
// U+FFFD; CR as &#13; (a parser turns a raw CR into LF); terminal controls and bidirectional overrides
// as the visible escapes hiera::printableLine writes (`\e`, `\u202E`). Everything else as it is.
std::string htmlText(std::string_view text);

// "<!DOCTYPE html>…<body>": UTF-8, the policy, the title (escaped) and the inline style sheet.
std::string htmlDocumentStart(std::string_view title, std::string_view styleSheet);
// The Content-Security-Policy of the exports: no script, no resource from anywhere but the inline style.
inline constexpr std::string_view kHtmlContentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

} // namespace hiera
