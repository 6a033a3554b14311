#pragma once

// A strict reader of the HTML the exports write, for their tests and fuzz targets (no Qt). It accepts
// only what the writers mean to write: the elements html head meta title style body h1 h2 p pre table tr
// th td code span br, the attributes charset, http-equiv and content (meta) and class (span), every
// element closed in order, text with & < > " ' and CR as character references and nothing else raw
// that would need one, valid UTF-8 without NUL, and a style sheet that names nothing (no url(), no
// @import). So a key or a value that opened a tag, an attribute or a link, or loaded anything, is an
// error here, not a rendering. It gives back the title, the text of the headings, paragraphs and <pre>
// blocks and every table's cells, as a browser would read them (<br> a line feed).

#include "utf8normalise.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testsupport {

struct HtmlDocument
{
    std::string title;
    std::string contentSecurityPolicy; // the meta element's
    std::string styleSheet;
    std::vector<std::string> headings, paragraphs, pres;
    std::vector<std::vector<std::vector<std::string>>> tables; // table, row, cell text
};

class StrictHtmlReader
{
public:
    explicit StrictHtmlReader(std::string_view text) : m_s(text) { }

    std::optional<HtmlDocument> read(std::string* error)
    {
        if (validUtf8Replaced(m_s) != m_s)
            return fail(error, "bytes that are not UTF-8");
        if (m_s.find('\0') != std::string_view::npos)
            return fail(error, "a NUL byte");
        if (!eat("<!DOCTYPE html>\n"))
            return fail(error, "no <!DOCTYPE html> first");
        while (m_i < m_s.size()) {
            if (m_s[m_i] == '<') {
                if (!tag())
                    return fail(error, m_error);
            } else if (!text()) {
                return fail(error, m_error);
            }
        }
        if (!m_open.empty())
            return fail(error, "<" + m_open.back() + "> not closed");
        if (!m_sawHtml)
            return fail(error, "no <html> element");
        return m_doc;
    }

private:
    std::optional<HtmlDocument> fail(std::string* error, const std::string& why)
    {
        if (error)
            *error = why + " at byte " + std::to_string(m_i);
        return std::nullopt;
    }
    bool error(const std::string& why)
    {
        m_error = why;
        return false;
    }
    bool eat(std::string_view s)
    {
        if (m_s.substr(m_i, s.size()) != s)
            return false;
        m_i += s.size();
        return true;
    }
    static bool allowed(std::string_view name)
    {
        for (std::string_view n : {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "pre", "table",
                                   "tr", "th", "td", "code", "span", "br"})
            if (n == name)
                return true;
        return false;
    }
    static bool isVoid(std::string_view name) { return name == "meta" || name == "br"; }
    bool inside(std::string_view name) const
    {
        for (const std::string& open : m_open)
            if (open == name)
                return true;
        return false;
    }
    // Decodes the character references the writers use.
    bool reference(std::string& out)
    {
        static const std::pair<std::string_view, char> kRefs[] = {{"&amp;", '&'},  {"&lt;", '<'},   {"&gt;", '>'},
                                                                  {"&quot;", '"'}, {"&#39;", '\''}, {"&#13;", '\r'}};
        for (const auto& [ref, c] : kRefs)
            if (eat(ref)) {
                out += c;
                return true;
            }
        return error("an unknown or raw '&'");
    }
    bool text()
    {
        std::string out;
        while (m_i < m_s.size() && m_s[m_i] != '<') {
            const char c = m_s[m_i];
            if (c == '&') {
                if (!reference(out))
                    return false;
                continue;
            }
            if (c == '>' || c == '"' || c == '\'' || c == '\r')
                return error(std::string("a raw '") + (c == '\r' ? "\\r" : std::string(1, c)) + "' in text");
            out += c;
            ++m_i;
        }
        if (!m_cell && !m_block) {
            if (out.find_first_not_of(" \n\t") != std::string::npos)
                return error("text outside of a cell, a heading, a paragraph or a <pre>");
            return true;
        }
        append(out);
        return true;
    }
    void append(const std::string& text)
    {
        if (m_cell)
            *m_cell += text;
        else if (m_block)
            *m_block += text;
    }
    bool tag()
    {
        ++m_i; // '<'
        const bool closing = eat("/");
        std::string name;
        while (m_i < m_s.size() && ((m_s[m_i] >= 'a' && m_s[m_i] <= 'z') || (m_s[m_i] >= '0' && m_s[m_i] <= '9')))
            name += m_s[m_i++];
        if (name.empty() || !allowed(name))
            return error("a tag that is not one of the writers' (<" + name + ">)");
        if (closing) {
            if (!eat(">"))
                return error("a malformed end tag");
            if (m_open.empty() || m_open.back() != name)
                return error("</" + name + "> does not close the open element");
            m_open.pop_back();
            if (name == "td" || name == "th")
                m_cell = nullptr;
            if (name == "h1" || name == "h2" || name == "p" || name == "pre")
                m_block = nullptr;
            return true;
        }
        std::vector<std::pair<std::string, std::string>> attributes;
        for (;;) {
            if (eat(">"))
                break;
            if (!eat(" "))
                return error("a malformed tag <" + name + ">");
            std::string attribute;
            while (m_i < m_s.size() && ((m_s[m_i] >= 'a' && m_s[m_i] <= 'z') || m_s[m_i] == '-'))
                attribute += m_s[m_i++];
            if (!eat("=\""))
                return error("an attribute without a quoted value in <" + name + ">");
            std::string value;
            while (m_i < m_s.size() && m_s[m_i] != '"') {
                if (m_s[m_i] == '&') {
                    if (!reference(value))
                        return false;
                    continue;
                }
                if (m_s[m_i] == '<' || m_s[m_i] == '>' || m_s[m_i] == '\'')
                    return error("a raw '<', '>' or quote in an attribute");
                value += m_s[m_i++];
            }
            if (!eat("\""))
                return error("an unterminated attribute");
            const bool known =
                (name == "meta" && (attribute == "charset" || attribute == "http-equiv" || attribute == "content"))
                || (name == "span" && attribute == "class");
            if (!known)
                return error("the attribute " + attribute + " on <" + name + ">");
            attributes.emplace_back(attribute, value);
        }
        if (name == "html")
            m_sawHtml = true;
        if (name == "meta") {
            if (attributes.size() == 2
                && attributes[0] == std::pair<std::string, std::string>("http-equiv", "Content-Security-Policy")
                && attributes[1].first == "content")
                m_doc.contentSecurityPolicy = attributes[1].second;
            return true;
        }
        if (name == "br") {
            append("\n");
            return true;
        }
        if (name == "title" || name == "style")
            return rawText(name);
        if ((name == "td" || name == "th") && (m_open.empty() || m_open.back() != "tr"))
            return error("a cell outside of a row");
        if (name == "tr" && (m_open.empty() || m_open.back() != "table"))
            return error("a row outside of a table");
        m_open.push_back(name);
        if (name == "table") {
            m_doc.tables.emplace_back();
        } else if (name == "tr") {
            m_doc.tables.back().emplace_back();
        } else if (name == "td" || name == "th") {
            m_doc.tables.back().back().emplace_back();
            m_cell = &m_doc.tables.back().back().back();
        } else if (name == "h1" || name == "h2" || name == "p" || name == "pre") {
            auto& list = name == "pre" ? m_doc.pres : name == "p" ? m_doc.paragraphs : m_doc.headings;
            list.emplace_back();
            m_block = &list.back();
            if (name == "pre")
                eat("\n"); // the line feed right after <pre> is not content
        }
        return true;
    }
    // <title> (entities, no tags) and <style> (CSS: nothing that names a resource).
    bool rawText(const std::string& name)
    {
        const std::string end = "</" + name + ">";
        const std::size_t close = m_s.find(end, m_i);
        if (close == std::string_view::npos)
            return error("<" + name + "> not closed");
        if (name == "style") {
            m_doc.styleSheet = std::string(m_s.substr(m_i, close - m_i));
            for (std::string_view bad : {"url(", "@import", "expression(", "<", "\\"})
                if (m_doc.styleSheet.find(bad) != std::string::npos)
                    return error("the style sheet holds " + std::string(bad));
            m_i = close + end.size();
            return true;
        }
        std::string out;
        while (m_i < close) {
            if (m_s[m_i] == '&') {
                if (!reference(out))
                    return false;
                continue;
            }
            if (m_s[m_i] == '<' || m_s[m_i] == '>' || m_s[m_i] == '"' || m_s[m_i] == '\'' || m_s[m_i] == '\r')
                return error("a raw character that needs a reference in <title>");
            out += m_s[m_i++];
        }
        m_doc.title = out;
        m_i = close + end.size();
        return true;
    }

    std::string_view m_s;
    std::size_t m_i = 0;
    std::string m_error;
    std::vector<std::string> m_open;
    HtmlDocument m_doc;
    std::string* m_cell = nullptr;
    std::string* m_block = nullptr;
    bool m_sawHtml = false;
};

inline std::optional<HtmlDocument> readHtml(std::string_view text, std::string* error = nullptr)
{
    return StrictHtmlReader(text).read(error);
}

// What a browser reads from text the writers were given: bytes that are not UTF-8 and NUL as U+FFFD.
inline std::string htmlNormalised(std::string_view text)
{
    std::string out;
    for (char c : controlsShown(validUtf8Replaced(text))) {
        if (c == '\0')
            out += "\xEF\xBF\xBD";
        else
            out += c;
    }
    return out;
}

} // namespace testsupport
