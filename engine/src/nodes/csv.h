#pragma once

// RFC 4180 fields for the CSV exports: a field with a comma, quote or line break is quoted, its
// quotes doubled. Rows end with CRLF, as the RFC and spreadsheets expect.

#include <initializer_list>
#include <string>
#include <string_view>

namespace hiera::detail {

inline void appendCsvField(std::string& out, std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

inline void appendCsvRow(std::string& out, std::initializer_list<std::string_view> fields)
{
    bool first = true;
    for (std::string_view f : fields) {
        if (!first)
            out += ',';
        first = false;
        appendCsvField(out, f);
    }
    out += "\r\n";
}

} // namespace hiera::detail
