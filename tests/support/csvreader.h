#pragma once

// A strict RFC 4180 reader for the tests and fuzz targets of the CSV exports (no Qt): every record ends
// with CRLF, a field is either quoted ("…", quotes doubled, anything inside) or holds no comma, quote,
// CR or LF. Anything else is refused, so that a writer's slip shows as an error instead of as a
// spreadsheet's guess. Fields come back as the spreadsheet sees them (the neutralising quote of a
// formula still in front: hiera::csvFieldText removes it).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testsupport {

using CsvRows = std::vector<std::vector<std::string>>;

inline std::optional<CsvRows> readCsv(std::string_view text, std::string* error = nullptr)
{
    auto fail = [&](const std::string& why, std::size_t at) -> std::optional<CsvRows> {
        if (error)
            *error = why + " at byte " + std::to_string(at);
        return std::nullopt;
    };
    CsvRows rows;
    std::size_t i = 0;
    while (i < text.size()) {
        std::vector<std::string> row;
        for (;;) {
            std::string field;
            if (i < text.size() && text[i] == '"') {
                ++i;
                for (;;) {
                    if (i >= text.size())
                        return fail("unterminated quoted field", i);
                    if (text[i] == '"') {
                        if (i + 1 < text.size() && text[i + 1] == '"') {
                            field += '"';
                            i += 2;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    field += text[i++];
                }
            } else {
                while (i < text.size() && text[i] != ',' && text[i] != '\r') {
                    if (text[i] == '"' || text[i] == '\n')
                        return fail("a quote or a line feed in an unquoted field", i);
                    field += text[i++];
                }
            }
            row.push_back(std::move(field));
            if (i < text.size() && text[i] == ',') {
                ++i;
                continue;
            }
            if (text.substr(i, 2) != "\r\n")
                return fail("a record that does not end with CRLF", i);
            i += 2;
            break;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

// The first field a spreadsheet would take for a formula (it starts with = + - @ tab CR or NUL and is
// not a plain negative number), or nullopt: OWASP's rule, checked on what the reader got.
inline std::optional<std::string> csvFormulaField(const CsvRows& rows)
{
    for (const auto& row : rows) {
        for (const std::string& f : row) {
            if (f.empty() || (std::string_view("=+-@\t\r").find(f[0]) == std::string_view::npos && f[0] != '\0'))
                continue;
            // -5, -0.25, -1.5e+20
            std::size_t i = f[0] == '-' ? 1 : f.size() + 1;
            auto digits = [&] {
                const std::size_t from = i;
                while (i < f.size() && f[i] >= '0' && f[i] <= '9')
                    ++i;
                return i > from;
            };
            bool number = i == 1 && digits();
            if (number && i < f.size() && f[i] == '.')
                number = (++i, digits());
            if (number && i < f.size() && (f[i] == 'e' || f[i] == 'E')) {
                ++i;
                if (i < f.size() && (f[i] == '+' || f[i] == '-'))
                    ++i;
                number = digits();
            }
            if (!number || i != f.size())
                return f;
        }
    }
    return std::nullopt;
}

} // namespace testsupport
