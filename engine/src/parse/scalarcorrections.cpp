#include "parse/scalarcorrections.h"

#include "core/bytes.h"

#include <cstdint>

namespace hiera::detail {

namespace {

// Past a scalar's node properties (`&anchor`, `!tag`), wherever yaml-cpp's mark put the start.
std::size_t skipProperties(std::string_view text, std::size_t pos)
{
    while (pos < text.size() && (text[pos] == '&' || text[pos] == '!')) {
        while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t' && text[pos] != '\n' && text[pos] != '\r')
            ++pos;
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
            ++pos;
    }
    return pos;
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isBreak(char c)
{
    return c == '\n' || c == '\r';
}

// The length of the line break at `i` (CR LF counts as one).
std::size_t breakLength(std::string_view text, std::size_t i)
{
    return text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? 2 : 1;
}

// Whether the double-quoted scalar opening at `open` uses \N, \_ or \x8..\xF: the escapes yaml-cpp
// writes as one raw byte.
bool hasByteEscape(std::string_view text, std::size_t open)
{
    for (std::size_t i = open + 1; i < text.size(); ++i) {
        if (text[i] == '"')
            return false;
        if (text[i] != '\\' || i + 1 >= text.size())
            continue;
        const char e = text[++i];
        if (e == 'N' || e == '_')
            return true;
        if (e == 'x' && i + 1 < text.size() && hexDigit(text[i + 1]) >= 8)
            return true;
    }
    return false;
}

} // namespace

std::optional<std::string> redecodedDoubleQuoted(std::string_view text, std::size_t pos)
{
    const std::size_t open = skipProperties(text, pos);
    if (open >= text.size() || text[open] != '"' || !hasByteEscape(text, open))
        return std::nullopt;
    // YAML 1.2 §7.3.1: escapes, and line folding of raw line breaks (trailing white space of a line
    // dropped, a single break read as a space, n empty lines as n line feeds).
    std::string out;
    std::size_t rawBlanksFrom = std::string::npos; // where raw trailing blanks start in `out`
    std::size_t i = open + 1;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"')
            return out;
        if (c == '\\') {
            rawBlanksFrom = std::string::npos;
            if (i + 1 >= text.size())
                return std::nullopt;
            const char e = text[i + 1];
            i += 2;
            int digits = 0;
            switch (e) {
            case '0':
                out += '\0';
                break;
            case 'a':
                out += '\a';
                break;
            case 'b':
                out += '\b';
                break;
            case 't':
            case '\t':
                out += '\t';
                break;
            case 'n':
                out += '\n';
                break;
            case 'v':
                out += '\v';
                break;
            case 'f':
                out += '\f';
                break;
            case 'r':
                out += '\r';
                break;
            case 'e':
                out += '\x1b';
                break;
            case ' ':
                out += ' ';
                break;
            case '"':
                out += '"';
                break;
            case '/':
                out += '/';
                break;
            case '\\':
                out += '\\';
                break;
            case 'N':
                appendUtf8(out, 0x85);
                break;
            case '_':
                appendUtf8(out, 0xA0);
                break;
            case 'L':
                appendUtf8(out, 0x2028);
                break;
            case 'P':
                appendUtf8(out, 0x2029);
                break;
            case 'x':
                digits = 2;
                break;
            case 'u':
                digits = 4;
                break;
            case 'U':
                digits = 8;
                break;
            case '\r':
            case '\n':
                // An escaped line break: joined without a space, the next line's indentation dropped.
                i = i - 1 + breakLength(text, i - 1);
                while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
                    ++i;
                break;
            default:
                return std::nullopt;
            }
            if (digits > 0) {
                std::uint32_t cp = 0;
                for (int d = 0; d < digits; ++d, ++i) {
                    const int h = i < text.size() ? hexDigit(text[i]) : -1;
                    if (h < 0)
                        return std::nullopt;
                    cp = cp * 16 + static_cast<std::uint32_t>(h);
                }
                if (!appendUtf8(out, cp))
                    return std::nullopt;
            }
            continue;
        }
        if (isBreak(c)) {
            if (rawBlanksFrom != std::string::npos)
                out.resize(rawBlanksFrom);
            rawBlanksFrom = std::string::npos;
            i += breakLength(text, i);
            std::size_t emptyLines = 0;
            while (true) {
                std::size_t j = i;
                while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
                    ++j;
                if (j < text.size() && isBreak(text[j])) {
                    ++emptyLines;
                    i = j + breakLength(text, j);
                    continue;
                }
                i = j;
                break;
            }
            if (emptyLines == 0)
                out += ' ';
            else
                out.append(emptyLines, '\n');
            continue;
        }
        if (c == ' ' || c == '\t') {
            if (rawBlanksFrom == std::string::npos)
                rawBlanksFrom = out.size();
        } else {
            rawBlanksFrom = std::string::npos;
        }
        out += c;
        ++i;
    }
    return std::nullopt; // not closed: yaml-cpp has said so already
}

std::optional<std::string> keptTrailingBreaks(std::string_view text, std::size_t pos, const std::string& value)
{
    const std::size_t header = skipProperties(text, pos);
    if (header >= text.size() || text[header] != '>')
        return std::nullopt;
    bool keep = false;
    std::size_t i = header + 1;
    for (; i < text.size() && (text[i] == '+' || text[i] == '-' || (text[i] >= '0' && text[i] <= '9')); ++i) {
        if (text[i] >= '0' && text[i] <= '9')
            return std::nullopt; // an indentation indicator: relative to a parent this reader does not know
        keep = keep || text[i] == '+';
    }
    if (!keep)
        return std::nullopt;
    // The parent's indentation: content lines are indented further than the header's line.
    std::size_t lineStart = header;
    while (lineStart > 0 && !isBreak(text[lineStart - 1]))
        --lineStart;
    std::size_t parentIndent = 0;
    while (lineStart + parentIndent < header && text[lineStart + parentIndent] == ' ')
        ++parentIndent;

    while (i < text.size() && !isBreak(text[i]))
        ++i; // the rest of the header line (a comment)
    if (i >= text.size())
        return std::nullopt;
    i += breakLength(text, i);

    std::size_t indent = std::string::npos; // the content's, from its first line
    std::size_t breaks = 0; // line breaks after the last content line
    bool content = false;
    while (i < text.size()) {
        const std::size_t start = i;
        std::size_t j = i;
        while (j < text.size() && text[j] == ' ')
            ++j;
        std::size_t end = j;
        bool blank = true;
        while (end < text.size() && !isBreak(text[end])) {
            blank = blank && text[end] == '\t';
            ++end;
        }
        const bool hasBreak = end < text.size();
        const std::size_t next = hasBreak ? end + breakLength(text, end) : end;
        if (blank) {
            breaks += hasBreak ? 1 : 0;
            i = next;
            continue;
        }
        const std::size_t lineIndent = j - start;
        if (indent == std::string::npos) {
            if (lineIndent <= parentIndent)
                break; // the block is empty: this line is the parent's next entry
            indent = lineIndent;
        }
        if (lineIndent < indent)
            break;
        content = true;
        breaks = hasBreak ? 1 : 0;
        i = next;
    }
    if (!content)
        return std::nullopt;
    std::string out = value;
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    out.append(breaks, '\n');
    return out;
}

} // namespace hiera::detail
