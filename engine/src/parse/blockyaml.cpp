// The plain block subset of YAML, read line by line. See blockyaml.h for why it exists and how it
// stays identical to yaml-cpp. The subset:
//   - an optional `---` line, then one block mapping or block sequence (at any indentation);
//   - block mappings whose keys are one-line plain or quoted scalars followed by `: ` or `:` at the
//     end of the line; block sequences, compact `- key: value` entries and indentless sequences;
//   - values that are one-line plain scalars, one-line quoted scalars without backslashes, literal
//     blocks (`|`, `|-`, `|+`) and folded ones (`>`, `>-`) with detected indentation, and flow
//     collections on one line (`[a, 'b', {k: v}]`, `{}`);
//   - comments and blank lines anywhere between nodes.
// Everything else throws OutsideSubset, and the caller hands the file to yaml-cpp.
//
// Marks follow yaml-cpp: 0-based line, byte column and byte offset of the token; an empty value's
// null is marked at the next token (or at the end of the input, column 0).

#include "parse/blockyaml.h"

#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace hiera::detail {

namespace {

struct OutsideSubset
{
};

[[noreturn]] void giveUp()
{
    throw OutsideSubset{};
}

struct Line
{
    std::size_t start; // offset of the first byte
    std::size_t end; // offset of the line break, '\n' or "\r\n" (or of the end of the text)
    std::size_t content; // offset of the first non-space byte (== end for an all-space line)
};

// yaml-cpp reports empty, `~`, `null`, `Null` and `NULL` plain scalars as OnNull.
bool isNullText(std::string_view s)
{
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// A character no plain scalar of the subset may start with (YAML's indicators; `-` only before a space).
bool isIndicator(char c)
{
    return std::strchr("-?:,[]{}#&*!|>'\"%@`", c) != nullptr;
}

// Tabs, a lone CR, other control characters, NEL, U+2028/U+2029 and a byte-order mark inside the text: each
// has its own rules (indentation, line breaks, what counts as white space) that yaml-cpp applies.
// Whether none of the eight bytes of `w` is a control character, DEL or a non-ASCII byte: such words
// (most of a file, all but the one holding a line break) need no byte-by-byte look.
bool plainAsciiWord(std::uint64_t w)
{
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const std::uint64_t below0x20 = (w - 0x20 * ones) & ~w & highs; // exact once no byte has its high bit
    const std::uint64_t x = w ^ (0x7F * ones);
    const std::uint64_t del = (x - ones) & ~x & highs;
    return (w & highs) == 0 && below0x20 == 0 && del == 0;
}

bool hasUnusualCharacters(std::string_view s)
{
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (std::uint64_t w = 0; i % 8 == 0 && i + 8 <= n) {
            std::memcpy(&w, p + i, 8);
            if (plainAsciiWord(w)) {
                i += 7;
                continue;
            }
        }
        const unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7F)
            continue;
        if (c == '\n' || (c == '\r' && i + 1 < n && p[i + 1] == '\n'))
            continue; // LF and CRLF line breaks
        if (c < 0x80)
            return true; // C0 controls (tab and a lone CR included) and DEL
        const unsigned char c1 = i + 1 < n ? p[i + 1] : 0, c2 = i + 2 < n ? p[i + 2] : 0;
        if (c == 0xC2 && c1 >= 0x80 && c1 <= 0x9F)
            return true; // C1 controls, NEL among them
        if (c == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9))
            return true;
        if (c == 0xEF && c1 == 0xBB && c2 == 0xBF)
            return true;
    }
    return false;
}

class BlockReader
{
public:
    BlockReader(std::string_view text, YAML::EventHandler& out) : m_text(text), m_out(out)
    {
        if (hasUnusualCharacters(text))
            giveUp();
        std::size_t start = 0;
        while (start < text.size()) {
            const char* nl = static_cast<const char*>(std::memchr(text.data() + start, '\n', text.size() - start));
            const std::size_t lineBreak = nl ? static_cast<std::size_t>(nl - text.data()) : text.size();
            const std::size_t end = nl && lineBreak > start && text[lineBreak - 1] == '\r' ? lineBreak - 1 : lineBreak;
            std::size_t content = start;
            while (content < end && text[content] == ' ')
                ++content;
            m_lines.push_back({start, end, content});
            start = lineBreak + 1;
        }
    }

    void document()
    {
        std::size_t li = nextContent(/*markerAllowed=*/true);
        if (li == npos)
            return; // only comments and blank lines: yaml-cpp reports no document
        const bool atColumn0 = indent(li) == 0; // markers and directives count only there
        if (atColumn0 && (startsWith(li, "%") || startsWith(li, "...")))
            giveUp();
        if (atColumn0 && startsWith(li, "---")
            && (m_lines[li].content + 3 == m_lines[li].end || at(m_lines[li].content + 3) == ' ')) {
            if (!restIsEmpty(m_lines[li].content + 3, li))
                giveUp(); // `--- value`
            m_next = li + 1;
            li = nextContent();
            if (li == npos) {
                m_out.OnDocumentStart(markAt(m_lines[m_lines.size() - 1].start));
                m_out.OnNull(endMark(), YAML::NullAnchor);
                m_out.OnDocumentEnd();
                return;
            }
        }
        m_out.OnDocumentStart(markAt(m_lines[li].content));
        if (isSequenceEntry(li))
            sequence(li);
        else if (isKeyAt(li, m_lines[li].content))
            mapping(li, m_lines[li].content);
        else
            giveUp();
        if (nextContent() != npos)
            giveUp(); // a second document, or something yaml-cpp would read differently
        m_out.OnDocumentEnd();
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    char at(std::size_t offset) const { return offset < m_text.size() ? m_text[offset] : '\0'; }
    std::size_t indent(std::size_t li) const { return m_lines[li].content - m_lines[li].start; }
    bool allSpace(std::size_t li) const { return m_lines[li].content == m_lines[li].end; }
    bool blankOrComment(std::size_t li) const { return allSpace(li) || m_text[m_lines[li].content] == '#'; }

    bool startsWith(std::size_t li, std::string_view prefix) const
    {
        return m_text.substr(m_lines[li].content, m_lines[li].end - m_lines[li].content).substr(0, prefix.size())
            == prefix;
    }

    // The first line from m_next on that holds a node, or npos. A document marker (`---` or `...` at
    // column 0) ends the document for yaml-cpp; only the one opening it is within the subset.
    std::size_t nextContent(bool markerAllowed = false) const
    {
        for (std::size_t li = m_next; li < m_lines.size(); ++li) {
            if (blankOrComment(li))
                continue;
            if (!markerAllowed && isDocumentMarker(li))
                giveUp();
            return li;
        }
        return npos;
    }

    bool isDocumentMarker(std::size_t li) const
    {
        const Line& l = m_lines[li];
        return indent(li) == 0 && (startsWith(li, "---") || startsWith(li, "..."))
            && (l.content + 3 == l.end || m_text[l.content + 3] == ' ');
    }

    YAML::Mark markAt(std::size_t offset) const
    {
        // Lines are few per file and searched from the one being read, so a backwards scan is cheap.
        std::size_t li = m_markLine;
        while (li > 0 && m_lines[li].start > offset)
            --li;
        while (li + 1 < m_lines.size() && m_lines[li + 1].start <= offset)
            ++li;
        YAML::Mark m;
        m.pos = static_cast<int>(offset);
        m.line = static_cast<int>(li);
        m.column = static_cast<int>(offset - m_lines[li].start);
        return m;
    }

    YAML::Mark endMark() const
    {
        // After a last line without a line break, yaml-cpp marks the end at that line's length or at
        // column 0, depending on which collections its scanner closes there.
        if (!m_text.empty() && m_text.back() != '\n')
            giveUp();
        YAML::Mark m;
        m.pos = static_cast<int>(m_text.size());
        m.line = static_cast<int>(std::count(m_text.begin(), m_text.end(), '\n'));
        m.column = 0;
        return m;
    }

    std::size_t skipSpaces(std::size_t offset, std::size_t end) const
    {
        while (offset < end && m_text[offset] == ' ')
            ++offset;
        return offset;
    }

    // True when nothing but spaces and a comment (after a space) follows `offset` on line li.
    bool restIsEmpty(std::size_t offset, std::size_t li) const
    {
        const std::size_t end = m_lines[li].end;
        const std::size_t p = skipSpaces(offset, end);
        return p == end || (m_text[p] == '#' && p > offset);
    }

    bool isSequenceEntry(std::size_t li) const
    {
        const Line& l = m_lines[li];
        return m_text[l.content] == '-' && (l.content + 1 == l.end || m_text[l.content + 1] == ' ');
    }

    // A one-line quoted scalar starting at `offset`; returns the offset after the closing quote.
    std::size_t quoted(std::size_t offset, std::size_t end, std::string& out) const
    {
        const char q = m_text[offset];
        for (std::size_t i = offset + 1; i < end; ++i) {
            const char c = m_text[i];
            if (q == '"' && c == '\\')
                giveUp(); // escapes are yaml-cpp's to decode
            if (c == q) {
                if (q == '\'' && i + 1 < end && m_text[i + 1] == '\'') {
                    out += '\'';
                    ++i;
                    continue;
                }
                return i + 1;
            }
            out += c;
        }
        giveUp(); // the scalar goes on to the next line
    }

    // Whether a plain scalar may start at `offset`: not at an indicator, except `-` before a character
    // that cannot follow it there (a space in block context; a space, `,`, `]` or `}` in flow context).
    bool plainMayStart(std::size_t offset, std::size_t end, const char* notAfterDash) const
    {
        const char c = m_text[offset];
        if (!isIndicator(c))
            return true;
        return c == '-' && offset + 1 < end && std::strchr(notAfterDash, m_text[offset + 1]) == nullptr;
    }

    // yaml-cpp (like libyaml) refuses a key whose ':' comes more than 1024 bytes after its start.
    static constexpr std::size_t kMaxKeyBytes = 1000;

    // The ':' of the key starting at `offset` of line li (followed by a space or the end of the line),
    // or npos when the line holds no key there. A quoted key's text goes to `quotedText`.
    std::size_t keyColon(std::size_t li, std::size_t offset, std::string& quotedText) const
    {
        const std::size_t end = m_lines[li].end;
        std::size_t colon = npos;
        if (m_text[offset] == '\'' || m_text[offset] == '"') {
            const std::size_t p = skipSpaces(quoted(offset, end, quotedText), end);
            if (p < end && m_text[p] == ':' && (p + 1 == end || m_text[p + 1] == ' '))
                colon = p;
        } else if (plainMayStart(offset, end, " ")) {
            // The first ':' followed by a space or the line's end, unless a comment (" #") starts
            // before it; memchr jumps from ':' to ':' (keys such as profile::ntp::servers have several).
            const char* const text = m_text.data();
            for (std::size_t i = offset; i < end;) {
                const auto* c = static_cast<const char*>(std::memchr(text + i, ':', end - i));
                const std::size_t at = c ? static_cast<std::size_t>(c - text) : end;
                bool comment = false;
                for (const char* h = text + i; !comment;) {
                    h = static_cast<const char*>(std::memchr(h, '#', static_cast<std::size_t>(text + at - h)));
                    if (!h)
                        break;
                    const auto pos = static_cast<std::size_t>(h - text);
                    comment = pos > offset && text[pos - 1] == ' ';
                    ++h;
                }
                if (comment || at == end)
                    break;
                if (at + 1 == end || text[at + 1] == ' ') {
                    colon = at;
                    break;
                }
                i = at + 1;
            }
        }
        if (colon != npos && colon - offset > kMaxKeyBytes)
            giveUp();
        return colon;
    }

    bool isKeyAt(std::size_t li, std::size_t offset) const
    {
        std::string ignored;
        return keyColon(li, offset, ignored) != npos;
    }

    // Emits the key at `offset` of line li; returns the offset after its ':'.
    std::size_t key(std::size_t li, std::size_t offset)
    {
        std::string text;
        const std::size_t colon = keyColon(li, offset, text);
        if (colon == npos)
            giveUp();
        if (m_text[offset] == '\'' || m_text[offset] == '"') {
            m_out.OnScalar(markAt(offset), nonPlainTag(), YAML::NullAnchor, text);
            return colon + 1;
        }
        std::size_t last = colon;
        while (last > offset && m_text[last - 1] == ' ')
            --last;
        plain(offset, m_text.substr(offset, last - offset));
        return colon + 1;
    }

    void plain(std::size_t offset, std::string_view text)
    {
        if (isNullText(text))
            m_out.OnNull(markAt(offset), YAML::NullAnchor);
        else
            m_out.OnScalar(markAt(offset), plainTag(), YAML::NullAnchor, std::string(text));
    }

    static const std::string& plainTag()
    {
        static const std::string tag = "?";
        return tag;
    }
    static const std::string& nonPlainTag()
    {
        static const std::string tag = "!";
        return tag;
    }

    // A block mapping whose first key is at `offset` of line li.
    void mapping(std::size_t li, std::size_t offset)
    {
        const std::size_t n = offset - m_lines[li].start;
        m_markLine = li;
        m_out.OnMapStart(markAt(offset), plainTag(), YAML::NullAnchor, YAML::EmitterStyle::Block);
        while (true) {
            m_markLine = li;
            const std::size_t afterColon = key(li, offset);
            value(li, afterColon, n, /*indentlessSequence=*/true);
            const std::size_t next = nextContent();
            if (next == npos || indent(next) < n)
                break;
            if (indent(next) > n || isSequenceEntry(next))
                giveUp();
            li = next;
            offset = m_lines[li].content;
        }
        m_out.OnMapEnd();
    }

    // A block sequence whose first '-' starts line li.
    void sequence(std::size_t li)
    {
        const std::size_t n = indent(li);
        m_markLine = li;
        m_out.OnSequenceStart(markAt(m_lines[li].content), plainTag(), YAML::NullAnchor, YAML::EmitterStyle::Block);
        while (true) {
            m_markLine = li;
            const std::size_t end = m_lines[li].end;
            const std::size_t p = skipSpaces(m_lines[li].content + 1, end);
            if (p == end || m_text[p] == '#') {
                m_next = li + 1;
                below(n, /*indentlessSequence=*/false);
            } else if (m_text[p] == '-' && (p + 1 == end || m_text[p + 1] == ' ')) {
                giveUp(); // `- - x`
            } else if (isKeyAt(li, p)) {
                mapping(li, p);
            } else {
                inlineValue(li, p, n);
            }
            const std::size_t next = nextContent();
            if (next == npos || indent(next) < n)
                break;
            if (indent(next) > n)
                giveUp();
            if (!isSequenceEntry(next))
                break; // an indentless sequence ends at its mapping's next key
            li = next;
        }
        m_out.OnSequenceEnd();
    }

    // The value after a key's ':' at `offset` of line li, in a collection indented by n.
    void value(std::size_t li, std::size_t offset, std::size_t n, bool indentlessSequence)
    {
        const std::size_t end = m_lines[li].end;
        const std::size_t p = skipSpaces(offset, end);
        if (p == end || m_text[p] == '#') {
            m_next = li + 1;
            below(n, indentlessSequence);
            return;
        }
        if (m_text[p] == '-' && (p + 1 == end || m_text[p + 1] == ' '))
            giveUp(); // `key: - x`
        inlineValue(li, p, n);
    }

    // A value written on the lines after its key or dash, in a collection indented by n.
    void below(std::size_t n, bool indentlessSequence)
    {
        const std::size_t li = nextContent();
        if (li == npos) {
            m_out.OnNull(endMark(), YAML::NullAnchor);
            return;
        }
        m_markLine = li;
        const std::size_t ind = indent(li);
        if (ind < n || (ind == n && !(indentlessSequence && isSequenceEntry(li)))) {
            m_out.OnNull(markAt(m_lines[li].content), YAML::NullAnchor);
            return;
        }
        if (isSequenceEntry(li))
            sequence(li);
        else if (isKeyAt(li, m_lines[li].content))
            mapping(li, m_lines[li].content);
        else
            giveUp(); // a scalar on its own line (maybe continued): yaml-cpp's to fold
    }

    // A value that starts at `offset` of line li, in a collection indented by n.
    void inlineValue(std::size_t li, std::size_t offset, std::size_t n)
    {
        const std::size_t end = m_lines[li].end;
        const char c = m_text[offset];
        std::size_t after = 0;
        if (c == '|' || c == '>') {
            blockScalar(li, offset, n);
            return;
        }
        if (c == '\'' || c == '"') {
            std::string text;
            after = quoted(offset, end, text);
            m_out.OnScalar(markAt(offset), nonPlainTag(), YAML::NullAnchor, text);
        } else if (c == '[' || c == '{') {
            after = flowCollection(offset, end, 0);
        } else {
            if (!plainMayStart(offset, end, " "))
                giveUp();
            std::size_t last = offset;
            for (std::size_t i = offset; i < end; ++i) {
                const char ch = m_text[i];
                if (ch == ':' && (i + 1 == end || m_text[i + 1] == ' '))
                    giveUp(); // `a: b: c`
                if (ch == '#' && m_text[i - 1] == ' ')
                    break;
                if (ch != ' ')
                    last = i + 1;
            }
            plain(offset, m_text.substr(offset, last - offset));
            after = last;
        }
        if (!restIsEmpty(after, li))
            giveUp();
        m_next = li + 1;
    }

    // `[a, 'b', {k: v}]` or `{k: v, l: [w]}` on one line; returns the offset after its closing bracket.
    std::size_t flowCollection(std::size_t offset, std::size_t end, int depth)
    {
        if (depth > 32)
            giveUp();
        const bool isMap = m_text[offset] == '{';
        const char close = isMap ? '}' : ']';
        if (isMap)
            m_out.OnMapStart(markAt(offset), plainTag(), YAML::NullAnchor, YAML::EmitterStyle::Flow);
        else
            m_out.OnSequenceStart(markAt(offset), plainTag(), YAML::NullAnchor, YAML::EmitterStyle::Flow);
        std::size_t i = skipSpaces(offset + 1, end);
        if (i < end && m_text[i] == close) {
            isMap ? m_out.OnMapEnd() : m_out.OnSequenceEnd();
            return i + 1;
        }
        while (true) {
            if (isMap) {
                const std::size_t keyStart = i;
                i = skipSpaces(flowItem(i, end, depth, /*key=*/true), end);
                // `k: v` only: `k:v`, `{k}` and `{k: }` have readings of their own in yaml-cpp.
                if (i + 1 >= end || m_text[i] != ':' || m_text[i + 1] != ' ' || i - keyStart > kMaxKeyBytes)
                    giveUp();
                i = skipSpaces(i + 1, end);
            }
            i = skipSpaces(flowItem(i, end, depth, /*key=*/false), end);
            if (i < end && m_text[i] == ',') {
                i = skipSpaces(i + 1, end);
                if (i < end && (m_text[i] == ']' || m_text[i] == '}'))
                    giveUp(); // a trailing comma
                continue;
            }
            if (i < end && m_text[i] == close)
                break;
            giveUp();
        }
        isMap ? m_out.OnMapEnd() : m_out.OnSequenceEnd();
        return i + 1;
    }

    // One node inside a flow collection at `offset`; returns the offset after it. A plain key ends at
    // `: `; a plain value may not contain one (`[a: b]` is a one-pair mapping, yaml-cpp's to read).
    std::size_t flowItem(std::size_t i, std::size_t end, int depth, bool key)
    {
        if (i >= end)
            giveUp();
        const char c = m_text[i];
        if (c == '[' || c == '{')
            return flowCollection(i, end, depth + 1);
        if (c == '\'' || c == '"') {
            std::string text;
            const std::size_t after = quoted(i, end, text);
            m_out.OnScalar(markAt(i), nonPlainTag(), YAML::NullAnchor, text);
            return after;
        }
        if (!plainMayStart(i, end, " ,]}"))
            giveUp();
        const std::size_t start = i;
        std::size_t last = i;
        for (; i < end; ++i) {
            const char ch = m_text[i];
            if (ch == ',' || ch == ']' || ch == '}')
                break;
            if (std::strchr("[{?#", ch) != nullptr)
                giveUp();
            if (ch == ':' && (i + 1 == end || std::strchr(" ,]}", m_text[i + 1]) != nullptr)) {
                if (key && i + 1 < end && m_text[i + 1] == ' ')
                    break;
                giveUp();
            }
            if (ch != ' ')
                last = i + 1;
        }
        plain(start, m_text.substr(start, last - start));
        return last;
    }

    // A literal (`|`) or folded (`>`) block with an optional chomping indicator (`-`, `+`) at `offset`
    // of line li, for a collection indented by n; its indentation is the first content line's.
    // Folded blocks are taken only without more-indented lines (which YAML keeps unfolded).
    void blockScalar(std::size_t li, std::size_t offset, std::size_t n)
    {
        const bool folded = m_text[offset] == '>';
        enum class Chomp { Clip, Strip, Keep } chomp = Chomp::Clip;
        std::size_t p = offset + 1;
        if (at(p) == '-' || at(p) == '+') {
            chomp = at(p) == '-' ? Chomp::Strip : Chomp::Keep;
            ++p;
        }
        if (folded && chomp == Chomp::Keep)
            giveUp(); // yaml-cpp folds the kept trailing line breaks too: its reading, not ours to copy
        if (p < m_lines[li].end && m_text[p] != ' ')
            giveUp(); // an indentation indicator, or something stuck to the header
        if (!restIsEmpty(p, li))
            giveUp();
        const YAML::Mark mark = markAt(offset);

        std::size_t j = li + 1;
        std::size_t leading = 0, leadingWidth = 0;
        for (; j < m_lines.size() && allSpace(j); ++j) {
            ++leading;
            leadingWidth = std::max(leadingWidth, m_lines[j].end - m_lines[j].start);
        }
        if (j == m_lines.size() || indent(j) <= n) {
            if (chomp == Chomp::Keep)
                giveUp();
            m_out.OnScalar(mark, nonPlainTag(), YAML::NullAnchor, std::string());
            m_next = li + 1;
            return;
        }
        const std::size_t m = indent(j);
        if (leadingWidth > m)
            giveUp();
        // Built without the last content line's break, which chomping decides on.
        std::string text(leading, '\n');
        std::size_t lastContent = j, empty = 0;
        bool first = true;
        for (; j < m_lines.size(); ++j) {
            const Line& l = m_lines[j];
            if (allSpace(j)) {
                if (l.end - l.start > m)
                    giveUp(); // spaces beyond the indentation are content; yaml-cpp's to judge
                if (l.end < m_text.size())
                    ++empty; // an empty line is its line break; the text's unterminated end has none
                continue;
            }
            if (indent(j) < m)
                break;
            if (folded && indent(j) > m)
                giveUp();
            if (!first) {
                if (!folded)
                    text.append(1 + empty, '\n');
                else if (empty == 0)
                    text += ' '; // folding: one line break between two lines becomes a space
                else
                    text.append(empty, '\n');
            }
            first = false;
            empty = 0;
            text.append(m_text.substr(l.start + m, l.end - l.start - m));
            lastContent = j;
        }
        if (folded && j == m_lines.size() && m_text.back() != '\n' && lastContent + 1 < m_lines.size())
            giveUp(); // yaml-cpp folds the last break into the unterminated blank line after it
        // A block whose last line ends the text without a line break has no final break to keep.
        const bool unterminated = m_lines[lastContent].end == m_text.size();
        if (chomp != Chomp::Strip && !unterminated)
            text += '\n';
        if (chomp == Chomp::Keep)
            text.append(empty, '\n');
        m_out.OnScalar(mark, nonPlainTag(), YAML::NullAnchor, text);
        m_next = lastContent + 1;
    }

    std::string_view m_text;
    YAML::EventHandler& m_out;
    std::vector<Line> m_lines;
    std::size_t m_next = 0; // the first line not read yet
    std::size_t m_markLine = 0; // where markAt starts looking
};

} // namespace

bool parseBlockYaml(std::string_view text, YAML::EventHandler& handler)
{
    try {
        BlockReader reader(text, handler);
        reader.document();
        return true;
    } catch (const OutsideSubset&) {
        return false;
    }
}

} // namespace hiera::detail
