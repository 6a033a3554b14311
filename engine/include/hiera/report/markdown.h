#pragma once

// Text from data (keys, values, file names, node names, messages) in the Markdown exports: it reads back
// as that text, whatever characters it holds, and cannot make markup, a link, an image or raw HTML
// (docs/bad-input.md, "What goes out"). For CommonMark with GitHub's tables (GFM):
// - bytes that are not UTF-8 and NUL become U+FFFD (CommonMark turns NUL into it anyway);
// - terminal controls and bidirectional overrides become the visible escapes hiera::printableLine
//   writes (`\e`, `\u202E`);
// - line breaks (LF, CR, CRLF) become <br>: a table row is one line, and a list item's next line
//   could start a heading;
// - in a table cell, '|' is written \| (GFM splits cells before anything else, code spans included).
//
// markdownText escapes with a backslash what could start markup or a link (\ ` * _ [ ] < > & | ! ~ $ @,
// the ':' of "://" and the '.' of "www."), and writes spaces and tabs at its ends as character
// references (a cell is trimmed).
// markdownCode writes code spans, their fence longer than any run of backticks inside, padded with a
// space where CommonMark would otherwise strip one or join the fence. A line holding a backslash before
// a '|' is written as text in a table cell instead: GFM's cell splitter pairs that backslash with the
// one escaping the pipe, and no code span can hold the pair.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

enum class MarkdownContext { Inline, TableCell };

std::string markdownText(std::string_view text); // the same in a table cell and inline
std::string markdownCode(std::string_view text, MarkdownContext context = MarkdownContext::TableCell);
// A fenced code block (```yaml … ```) of `text`, its fence longer than any run of backticks in it.
std::string markdownCodeBlock(std::string_view text, std::string_view infoString);
// A table cell of names: the first `shown` listed; a longer list as "N nodes: a, b <details><summary>and
// M more</summary>c, d</details>" (folded in a merge-request comment).
std::string markdownFoldedList(const std::vector<std::string>& names, std::size_t shown);

} // namespace hiera
