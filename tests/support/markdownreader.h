#pragma once

// A strict reader of the Markdown the exports write (CommonMark with GitHub's tables), for their tests
// and fuzz targets (no Qt). It reads table rows as cmark-gfm splits them and inline text as CommonMark
// decodes it, but only the subset the writers use: code spans, backslash escapes of punctuation, <br>,
// the character references &#32;, &#9;, &#11; and &#12;, and (where the caller allows it) the writers' own *emphasis*.
// Anything else that CommonMark would turn into markup — an unescaped [ ] ! _ ~ $ @ < &, a bare URL or
// www. name, an unmatched backtick, a backslash before a letter — is refused: it would mean data made
// markup, a link or HTML.

#include "utf8normalise.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testsupport {

inline bool markdownPunctuation(char c)
{
    return std::string_view("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~").find(c) != std::string_view::npos && c != '\0';
}

// The cells of a table row "| a | b |", as cmark-gfm cuts them: a backslash and the punctuation after it
// stay together (so "\|" is no boundary), "\|" then becomes "|", and each cell is trimmed.
inline std::optional<std::vector<std::string>> markdownRowCells(std::string_view line, std::string* error = nullptr)
{
    if (line.size() < 2 || line.front() != '|' || line.back() != '|') {
        if (error)
            *error = "not a table row: " + std::string(line);
        return std::nullopt;
    }
    std::vector<std::string> cells;
    std::string raw;
    for (std::size_t i = 1; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\\' && i + 1 < line.size() && markdownPunctuation(line[i + 1])) {
            raw += c;
            raw += line[++i];
            continue;
        }
        if (c != '|') {
            raw += c;
            continue;
        }
        std::string cell;
        for (std::size_t k = 0; k < raw.size(); ++k) {
            if (raw[k] == '\\' && k + 1 < raw.size() && raw[k + 1] == '|')
                ++k;
            cell += raw[k];
        }
        const auto space = [](char x) {
            return x == ' ' || x == '\t' || x == '\n' || x == '\r' || x == '\f' || x == '\v';
        };
        std::size_t b = 0, e = cell.size();
        while (b < e && space(cell[b]))
            ++b;
        while (e > b && space(cell[e - 1]))
            --e;
        cells.push_back(cell.substr(b, e - b));
        raw.clear();
    }
    return cells;
}

// Inline content decoded (see above); nullopt with `error` when it holds markup the writers never write.
inline std::optional<std::string> markdownInline(std::string_view s, bool allowEmphasis = false,
                                                 std::string* error = nullptr)
{
    auto fail = [&](const std::string& why, std::size_t at) -> std::optional<std::string> {
        if (error)
            *error = why + " at " + std::to_string(at) + " in: " + std::string(s);
        return std::nullopt;
    };
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '`') {
            std::size_t run = 0;
            while (i + run < s.size() && s[i + run] == '`')
                ++run;
            std::size_t close = i + run, found = std::string_view::npos;
            while (close < s.size()) {
                if (s[close] != '`') {
                    ++close;
                    continue;
                }
                std::size_t n = 0;
                while (close + n < s.size() && s[close + n] == '`')
                    ++n;
                if (n == run) {
                    found = close;
                    break;
                }
                close += n;
            }
            if (found == std::string_view::npos)
                return fail("a backtick run that no code span closes", i);
            std::string content(s.substr(i + run, found - i - run));
            if (content.size() >= 2 && content.front() == ' ' && content.back() == ' '
                && content.find_first_not_of(' ') != std::string::npos)
                content = content.substr(1, content.size() - 2);
            out += content;
            i = found + run;
        } else if (c == '\\') {
            if (i + 1 >= s.size() || !markdownPunctuation(s[i + 1]))
                return fail("a backslash before no punctuation", i);
            out += s[i + 1];
            i += 2;
        } else if (c == '&') {
            if (s.substr(i, 5) == "&#32;") {
                out += ' ';
                i += 5;
            } else if (s.substr(i, 4) == "&#9;") {
                out += '\t';
                i += 4;
            } else if (s.substr(i, 5) == "&#11;" || s.substr(i, 5) == "&#12;") {
                out += s[i + 3] == '1' ? '\v' : '\f';
                i += 5;
            } else {
                return fail("a raw '&'", i);
            }
        } else if (c == '<') {
            if (s.substr(i, 4) != "<br>")
                return fail("raw HTML", i);
            out += '\n';
            i += 4;
        } else if (c == '*' && allowEmphasis) {
            ++i;
        } else if (std::string_view("*[]!_~$@").find(c) != std::string_view::npos) {
            return fail(std::string("a raw '") + c + "'", i);
        } else if (c == ':' && s.substr(i + 1, 2) == "//") {
            return fail("a bare URL", i);
        } else if ((c == 'w' || c == 'W') && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '(')
                   && (s.substr(i, 4) == "www." || s.substr(i, 4) == "WWW.")) {
            return fail("a bare www. name", i);
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

// The lines of a text (LF; the writers end lines with LF only).
inline std::vector<std::string_view> markdownLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return lines;
}

// How CommonMark reads a cell or a line written from `text`: line breaks are <br> (LF, CR and CRLF
// alike), bytes that are not UTF-8 and NUL are U+FFFD. For comparing what a reader got with the data.
inline std::string markdownNormalised(std::string_view text)
{
    std::string out;
    const std::string valid = controlsShown(validUtf8Replaced(text));
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const char c = valid[i];
        if (c == '\r') {
            if (i + 1 < valid.size() && valid[i + 1] == '\n')
                ++i;
            out += '\n';
        } else if (c == '\0') {
            out += "\xEF\xBF\xBD";
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace testsupport
