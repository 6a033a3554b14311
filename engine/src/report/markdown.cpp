#include "core/bytes.h"
#include "report/utf8.h"

#include <hiera/report/markdown.h>

#include <algorithm>
#include <vector>

namespace hiera {

using detail::validUtf8;
using detail::visibleControls;

namespace {

// The text as UTF-8 without NUL, split at its line breaks (LF, CR, CRLF: CommonMark's).
std::vector<std::string> lines(std::string_view text)
{
    std::string valid = visibleControls(validUtf8(text));
    std::vector<std::string> out(1);
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const char c = valid[i];
        if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < valid.size() && valid[i + 1] == '\n')
                ++i;
            out.emplace_back();
        } else if (c == '\0') {
            out.back() += "\xEF\xBF\xBD";
        } else {
            out.back() += c;
        }
    }
    return out;
}

// CommonMark's white space, which a table cell and a paragraph lose at their ends (a vertical tab and a
// form feed too: found by fuzz_reports).
bool isEdgeSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

const char* edgeSpaceReference(char c)
{
    return c == ' ' ? "&#32;" : c == '\t' ? "&#9;" : c == '\v' ? "&#11;" : "&#12;";
}

std::string textLine(const std::string& line)
{
    // '@', the ':' of "://" and the '.' of "www." too: GFM makes links of bare addresses, URLs and www.
    // names. (Not every ':': keys are full of "::".)
    static constexpr std::string_view kEscaped = "\\`*_[]<>&|!~$@";
    std::string out;
    std::size_t begin = 0, end = line.size();
    while (begin < end && isEdgeSpace(line[begin]))
        out += edgeSpaceReference(line[begin++]);
    std::size_t trailing = end;
    while (trailing > begin && isEdgeSpace(line[trailing - 1]))
        --trailing;
    for (std::size_t i = begin; i < trailing; ++i) {
        const bool www = line[i] == '.' && i >= begin + 3
            && (line.compare(i - 3, 3, "www") == 0 || line.compare(i - 3, 3, "WWW") == 0);
        const bool url = line[i] == ':' && line.compare(i + 1, 2, "//") == 0;
        if (www || url || kEscaped.find(line[i]) != std::string_view::npos)
            out += '\\';
        out += line[i];
    }
    for (std::size_t i = trailing; i < end; ++i)
        out += edgeSpaceReference(line[i]);
    return out;
}

std::size_t longestRun(std::string_view s, char c)
{
    std::size_t longest = 0, run = 0;
    for (char x : s) {
        run = x == c ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

std::string codeLine(const std::string& line, MarkdownContext context)
{
    if (line.empty())
        return {};
    if (context == MarkdownContext::TableCell && line.find("\\|") != std::string::npos)
        return textLine(line);
    const std::string fence(longestRun(line, '`') + 1, '`');
    // CommonMark strips one space from each end of a span that has one at both ends (and is not all
    // spaces), and a backtick at an end would join the fence: a space on both sides keeps the content.
    const bool allSpaces = line.find_first_not_of(' ') == std::string::npos;
    const bool pad =
        !allSpaces && (line.front() == '`' || line.back() == '`' || (line.front() == ' ' && line.back() == ' '));
    std::string out = fence;
    if (pad)
        out += ' ';
    for (char c : line) {
        if (c == '|' && context == MarkdownContext::TableCell)
            out += '\\';
        out += c;
    }
    if (pad)
        out += ' ';
    return out + fence;
}

// Markdown tables and list items are one line: a line break in the text is written as <br>.
template <typename WriteLine>
std::string joinedWithBreaks(std::string_view text, WriteLine writeLine)
{
    std::string out;
    bool first = true;
    for (const std::string& line : lines(text)) {
        if (!first)
            out += "<br>";
        first = false;
        out += writeLine(line);
    }
    return out;
}

} // namespace

std::string markdownText(std::string_view text)
{
    return joinedWithBreaks(text, [](const std::string& line) { return textLine(line); });
}

std::string markdownCode(std::string_view text, MarkdownContext context)
{
    return joinedWithBreaks(text, [context](const std::string& line) { return codeLine(line, context); });
}

std::string markdownCodeBlock(std::string_view text, std::string_view infoString)
{
    std::string body;
    for (char c : visibleControls(validUtf8(text))) {
        if (c == '\0')
            body += "\xEF\xBF\xBD";
        else
            body += c;
    }
    const std::string fence(std::max<std::size_t>(3, longestRun(body, '`') + 1), '`');
    if (!body.empty() && body.back() != '\n')
        body += '\n';
    return fence + std::string(infoString) + '\n' + body + fence + '\n';
}

std::string markdownFoldedList(const std::vector<std::string>& names, std::size_t shown)
{
    shown = std::min(names.size(), shown);
    std::string out, rest;
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string& list = i < shown ? out : rest;
        list += (list.empty() ? "" : ", ") + markdownText(names[i]);
    }
    if (names.size() == shown)
        return out;
    return std::to_string(names.size()) + " nodes: " + out + " <details><summary>and "
        + std::to_string(names.size() - shown) + " more</summary>" + rest + "</details>";
}

} // namespace hiera
