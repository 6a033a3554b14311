#include "parse/jsonloader.h"

#include "core/bytes.h"

#include <hiera/error.h>
#include <hiera/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace hiera::detail {

namespace {

class JsonParser
{
public:
    JsonParser(std::string_view text, const std::string& fileName, const ParseLimits& limits)
        : m_text(text)
        , m_file(fileName)
        , m_fileId(SourceFiles::intern(fileName))
        , m_limits(limits)
    {
    }

    Value parseDocument()
    {
        skipBlanks();
        if (atEnd())
            fail("unexpected end of input (empty JSON document)");
        Value v = parseValue(0);
        skipBlanks();
        if (!atEnd())
            fail(std::string("unexpected '") + peek() + "' after the JSON value");
        return v;
    }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    SourceMark markHere() const
    {
        return {m_fileId, static_cast<std::uint32_t>(m_line), static_cast<std::uint32_t>(column())};
    }
    // Columns count characters (UTF-8 lead bytes) from the line start. Rescanning the line for each
    // value made a minified file (one long line) quadratic: 1.4 MB took 25 s. So the last position
    // whose column is known is remembered and only the bytes since then are counted; positions only
    // move forward, and a new line (m_lineStart past the remembered position) restarts the count.
    int column() const
    {
        const std::size_t end = std::min(m_pos, m_text.size());
        if (m_colPos < m_lineStart || m_colPos > end) {
            m_colPos = m_lineStart;
            m_col = 1;
        }
        for (; m_colPos < end; ++m_colPos)
            if ((static_cast<unsigned char>(m_text[m_colPos]) & 0xC0) != 0x80)
                ++m_col;
        return m_col;
    }

    [[noreturn]] void fail(const std::string& message, ErrorCode code = ErrorCode::DataSyntax) const
    {
        throw Error(code, "Unable to parse JSON: " + message, {m_file, m_line, column()});
    }

    void skipBlanks()
    {
        while (!atEnd()) {
            const char c = peek();
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            ++m_pos;
        }
    }

    void expect(char c)
    {
        skipBlanks();
        if (atEnd())
            fail(std::string("unexpected end of input, expected '") + c + "'");
        if (peek() != c)
            fail(std::string("expected '") + c + "', found '" + peek() + "'");
        ++m_pos;
    }

    Value parseValue(std::size_t depth)
    {
        skipBlanks();
        if (atEnd())
            fail("unexpected end of input, expected a value");
        // Only arrays and objects count, as in the YAML loader: maxDepth 3 takes [[[1]]].
        if (depth >= m_limits.maxDepth && (peek() == '[' || peek() == '{'))
            fail("nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels", ErrorCode::DataLimit);
        const SourceMark mark = markHere();
        Value v;
        switch (peek()) {
        case '{':
            v = parseObject(depth);
            break;
        case '[':
            v = parseArray(depth);
            break;
        case '"':
            v = Value(parseString());
            break;
        case 't':
            literal("true");
            v = Value(true);
            break;
        case 'f':
            literal("false");
            v = Value(false);
            break;
        case 'n':
            literal("null");
            break;
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
                v = parseNumber();
            else
                fail(std::string("unexpected '") + peek() + "', expected a value");
        }
        v.setMark(mark);
        if (++m_nodes > m_limits.maxNodes)
            fail("more than " + std::to_string(m_limits.maxNodes) + " values", ErrorCode::DataLimit);
        return v;
    }

    void literal(const char* word)
    {
        const std::string_view w(word);
        if (m_text.substr(m_pos, w.size()) != w)
            fail("unexpected token, expected '" + std::string(w) + "'");
        m_pos += w.size();
    }

    Value parseObject(std::size_t depth)
    {
        ++m_pos; // '{'
        Hash h;
        skipBlanks();
        if (!atEnd() && peek() == '}') {
            ++m_pos;
            return Value(std::move(h));
        }
        while (true) {
            skipBlanks();
            if (atEnd() || peek() != '"')
                fail(atEnd() ? "unexpected end of input in an object" : "object keys must be double-quoted strings");
            const SourceMark keyMark = markHere();
            Value key(parseString());
            key.setMark(keyMark);
            expect(':');
            Value value = parseValue(depth + 1);
            h.set(std::move(key), std::move(value)); // duplicate keys: the last one wins
            skipBlanks();
            if (atEnd())
                fail("unexpected end of input in an object");
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == '}') {
                ++m_pos;
                return Value(std::move(h));
            }
            fail(std::string("expected ',' or '}', found '") + peek() + "'");
        }
    }

    Value parseArray(std::size_t depth)
    {
        ++m_pos; // '['
        Array a;
        skipBlanks();
        if (!atEnd() && peek() == ']') {
            ++m_pos;
            return Value(std::move(a));
        }
        while (true) {
            a.push_back(parseValue(depth + 1));
            skipBlanks();
            if (atEnd())
                fail("unexpected end of input in an array");
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == ']') {
                ++m_pos;
                return Value(std::move(a));
            }
            fail(std::string("expected ',' or ']', found '") + peek() + "'");
        }
    }

    std::uint32_t hex4()
    {
        if (m_pos + 4 > m_text.size())
            fail("incomplete \\u escape");
        std::uint32_t v = 0;
        auto [ptr, ec] = std::from_chars(m_text.data() + m_pos, m_text.data() + m_pos + 4, v, 16);
        if (ec != std::errc() || ptr != m_text.data() + m_pos + 4)
            fail("invalid \\u escape");
        m_pos += 4;
        return v;
    }

    std::string parseString()
    {
        ++m_pos; // '"'
        std::string out;
        while (true) {
            // Checked for escapes too: "\u00e9" writes two bytes for six read.
            if (out.size() > m_limits.maxScalarBytes)
                fail("string longer than " + std::to_string(m_limits.maxScalarBytes) + " bytes", ErrorCode::DataLimit);
            if (atEnd())
                fail("unterminated string");
            const char c = peek();
            if (c == '"') {
                ++m_pos;
                break;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character in a string (escape it)");
            if (c != '\\') {
                out += c;
                ++m_pos;
                continue;
            }
            ++m_pos;
            if (atEnd())
                fail("unterminated string");
            const char e = peek();
            ++m_pos;
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                std::uint32_t cp = hex4();
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (m_text.substr(m_pos, 2) != "\\u")
                        fail("unpaired surrogate in \\u escape");
                    m_pos += 2;
                    const std::uint32_t low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        fail("invalid low surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail("unpaired surrogate in \\u escape");
                }
                appendUtf8(out, cp); // surrogates were refused above
                break;
            }
            default:
                fail(std::string("invalid escape '\\") + e + "'");
            }
        }
        return out;
    }

    Value parseNumber()
    {
        const std::size_t start = m_pos;
        if (peek() == '-')
            ++m_pos;
        auto digit = [&] { return !atEnd() && peek() >= '0' && peek() <= '9'; };
        if (!digit())
            fail("invalid number");
        if (peek() == '0') {
            ++m_pos;
            if (digit())
                fail("numbers may not have leading zeros");
        } else {
            while (digit())
                ++m_pos;
        }
        bool isFloat = false;
        if (!atEnd() && peek() == '.') {
            isFloat = true;
            ++m_pos;
            if (!digit())
                fail("invalid number: digits must follow '.'");
            while (digit())
                ++m_pos;
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            isFloat = true;
            ++m_pos;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_pos;
            if (!digit())
                fail("invalid number: digits must follow the exponent");
            while (digit())
                ++m_pos;
        }
        const std::string text(m_text.substr(start, m_pos - start));
        if (isFloat)
            return Value(std::strtod(text.c_str(), nullptr));
        std::int64_t n = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc() || ptr != text.data() + text.size())
            fail("integer " + text + " is out of the 64-bit range this engine supports", ErrorCode::DataType);
        return Value(n);
    }

    std::string_view m_text;
    const std::string& m_file;
    std::uint32_t m_fileId;
    const ParseLimits& m_limits;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_lineStart = 0;
    mutable std::size_t m_colPos = 0; // column() cache: m_col is the column at m_colPos
    mutable int m_col = 1;
    std::size_t m_nodes = 0;
};

} // namespace

Value parseJson(std::string_view text, const std::string& fileName, const ParseLimits& limits)
{
    return JsonParser(text, fileName, limits).parseDocument();
}

} // namespace hiera::detail
