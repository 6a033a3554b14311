#pragma once

// The body of a JSON string: quotes, backslashes and control characters escaped as RFC 8259 asks,
// every other byte as it is. The caller has checked (or made) the text UTF-8: the JSON writer
// (core/jsonwriter.cpp) refuses bytes that are not for toJson and replaces them for the reports.

#include <cstdio>
#include <string>
#include <string_view>

namespace hiera::detail {

inline void appendJsonEscaped(std::string& out, std::string_view s)
{
    for (unsigned char c : s) {
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
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
}

} // namespace hiera::detail
