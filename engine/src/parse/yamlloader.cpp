// The YAML loader. It drives yaml-cpp's event parser (not its Node tree), or for plain block YAML the
// fast reader of blockyaml.cpp that emits the same events, and builds hiera::Values directly: scalars
// typed by our own resolvers (yaml-cpp's as<bool>()/as<int>() differ from Puppet), anchors and merge
// keys handled here, limits enforced as we go.

#include "parse/blockyaml.h"
#include "parse/jsonloader.h"
#include "parse/scalarcorrections.h"
#include "parse/scalarresolver.h"

#include <hiera/error.h>
#include <hiera/yaml.h>

#if __has_include(<yaml-cpp/depthguard.h>)
#include <yaml-cpp/depthguard.h> // yaml-cpp >= 0.7: its parser stops recursing at 500 levels
#define HIERA_YAML_CPP_DEPTH_GUARD 1
#endif
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <cstring>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace hiera {

namespace {

// Thrown inside the event handler; converted into hiera::Error with the file name by parseData.
struct BuildError
{
    ErrorCode code;
    std::string message;
    YAML::Mark mark;
};

// "tag:yaml.org,2002:str" and "!!str" both name the core schema's `str`.
std::string coreTag(const std::string& tag)
{
    static const std::string prefix = "tag:yaml.org,2002:";
    if (tag.compare(0, prefix.size(), prefix) == 0)
        return tag.substr(prefix.size());
    if (tag.compare(0, 2, "!!") == 0)
        return tag.substr(2);
    return {};
}

bool isRubyTag(const std::string& tag)
{
    return tag.rfind("!ruby/", 0) == 0 || tag.find(":ruby/") != std::string::npos;
}

class ValueBuilder : public YAML::EventHandler
{
public:
    ValueBuilder(std::string_view text, std::uint32_t fileId, DataFormat format, const ParseLimits& limits)
        : m_text(text)
        , m_fileId(fileId)
        , m_format(format)
        , m_limits(limits)
    {
    }

    bool hasResult() const { return m_haveResult; }
    // The collections open now, and where the innermost one starts (for yaml-cpp's depth error).
    std::size_t depth() const { return m_stack.size(); }
    std::pair<int, int> innermostStart() const
    {
        if (m_stack.empty())
            return {0, 0};
        return {m_stack.back().mark.line + 1, m_stack.back().mark.column + 1};
    }
    Value takeResult() { return std::move(m_result); }

    void OnDocumentStart(const YAML::Mark&) override { }
    void OnDocumentEnd() override { }

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (!m_stack.empty()) {
            // yaml-cpp reads a line of a block mapping that holds no ':' ("a: 1\nx\n") as a key with a
            // null value; Psych refuses it, and so does Puppet's lookup.
            const Frame& parent = m_stack.back();
            if (parent.kind == Frame::Kind::Map && parent.block && parent.haveKey && parent.keyIsScalar
                && !keyHasColon(parent.keyMark))
                fail(ErrorCode::DataSyntax, "could not find expected ':' while scanning a simple key", parent.keyMark);
        }
        Value v;
        v.setMark(toMark(mark));
        deliver(std::move(v), anchor, 1, mark, NodeKind::Scalar, /*mergeKey=*/false);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (m_open.count(anchor))
            fail(ErrorCode::DataLimit, "recursive alias: the anchor refers to a node that contains it", mark);
        auto it = m_anchors.find(anchor);
        if (it == m_anchors.end())
            fail(ErrorCode::DataSyntax, "Unknown alias", mark);
        // An alias node has no tag of its own in Psych, so an alias of "<<" is a merge key too.
        deliver(it->second.value, YAML::NullAnchor, it->second.nodes, mark, NodeKind::Alias,
                isMergeKeyText(it->second.value));
    }

    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& text) override
    {
        if (text.size() > m_limits.maxScalarBytes)
            fail(ErrorCode::DataLimit,
                 "scalar of " + std::to_string(text.size()) + " bytes exceeds the limit of "
                     + std::to_string(m_limits.maxScalarBytes),
                 mark);
        if (tag == "!")
            checkQuoteClosed(mark);
        const bool inKeyPosition = expectingKey();
        // yaml-cpp's few misreadings of a scalar, read again from the source (parse/scalarcorrections.h).
        std::optional<std::string> corrected;
        if (mark.pos >= 0 && static_cast<std::size_t>(mark.pos) < m_text.size()) {
            const auto pos = static_cast<std::size_t>(mark.pos);
            corrected = detail::redecodedDoubleQuoted(m_text, pos);
            if (!corrected)
                corrected = detail::keptTrailingBreaks(m_text, pos, text);
        }
        Value v = resolve(mark, tag, corrected ? *corrected : text, inKeyPosition);
        v.setMark(toMark(mark));
        // Psych takes any key that reads as the string "<<" for a merge key, plain or quoted, unless it
        // is tagged !!str (psych/visitors/to_ruby.rb, revive_hash).
        const bool mergeKey = coreTag(tag) != "str" && isMergeKeyText(v);
        deliver(std::move(v), anchor, 1, mark, NodeKind::Scalar, mergeKey);
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        checkCollectionTag(tag, mark);
        push(Frame::Kind::Sequence, mark, anchor, coreTag(tag) == "omap" || coreTag(tag) == "pairs");
    }

    void OnSequenceEnd() override { pop(); }

    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override
    {
        checkCollectionTag(tag, mark);
        push(Frame::Kind::Map, mark, anchor, false);
        m_stack.back().block = style != YAML::EmitterStyle::Flow;
    }

    void OnMapEnd() override { pop(); }

private:
    // What a node was written as: Psych decides what a `<<` value does by it (see mergeValue).
    enum class NodeKind { Scalar, Alias, Map, Sequence };

    bool isMergeKeyText(const Value& v) const
    {
        return m_format != DataFormat::Json && v.isString() && v.asString() == "<<";
    }

    struct Frame
    {
        enum class Kind { Sequence, Map };
        Kind kind = Kind::Sequence;
        Value value;
        YAML::anchor_t anchor = YAML::NullAnchor;
        YAML::Mark mark;
        std::size_t nodes = 1;
        bool omap = false;
        bool haveKey = false;
        bool keyIsMerge = false;
        Value key;
        bool block = false; // a block mapping (not `{...}`)
        bool keyIsScalar = false; // the pending key was written as a scalar (not an alias or a collection)
        YAML::Mark keyMark;
    };

    struct Anchored
    {
        Value value;
        std::size_t nodes;
    };

    SourceMark toMark(const YAML::Mark& m) const
    {
        // yaml-cpp marks are 0-based; ours are 1-based.
        return {m_fileId, static_cast<std::uint32_t>(m.line + 1), static_cast<std::uint32_t>(m.column + 1)};
    }

    // Whether the scalar key at `mark` is followed by ':' on its line (after its closing quote, if
    // quoted), or is an explicit `? key`. Unknown positions are given the benefit of the doubt.
    bool keyHasColon(const YAML::Mark& mark) const
    {
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= m_text.size())
            return true;
        std::size_t i = static_cast<std::size_t>(mark.pos);
        for (std::size_t b = i; b > 0 && m_text[b - 1] != '\n';) {
            --b;
            if (m_text[b] == '?')
                return true; // `? key`: a value may be left out
            if (m_text[b] != ' ' && m_text[b] != '\t' && m_text[b] != '-')
                break;
        }
        const char q = m_text[i];
        if (q == '\'' || q == '"') {
            for (++i; i < m_text.size(); ++i) {
                if (q == '"' && m_text[i] == '\\') {
                    ++i;
                } else if (m_text[i] == q) {
                    if (q == '\'' && i + 1 < m_text.size() && m_text[i + 1] == '\'') {
                        ++i;
                        continue;
                    }
                    ++i;
                    break;
                }
            }
            while (i < m_text.size() && (m_text[i] == ' ' || m_text[i] == '\t'))
                ++i;
            return i < m_text.size() && m_text[i] == ':';
        }
        for (; i < m_text.size() && m_text[i] != '\n'; ++i) {
            if (m_text[i] == ':' && (i + 1 == m_text.size() || std::strchr(" \t\r\n", m_text[i + 1])))
                return true;
            if (m_text[i] == '#' && i > 0 && (m_text[i - 1] == ' ' || m_text[i - 1] == '\t'))
                return false;
        }
        return false;
    }

    [[noreturn]] void fail(ErrorCode code, std::string message, const YAML::Mark& mark) const
    {
        throw BuildError{code, std::move(message), mark};
    }

    bool expectingKey() const
    {
        return !m_stack.empty() && m_stack.back().kind == Frame::Kind::Map && !m_stack.back().haveKey;
    }

    Value resolve(const YAML::Mark& mark, const std::string& tag, const std::string& text, bool keyPosition)
    {
        std::optional<detail::ScalarProblem> problem;
        Value v;
        if (tag == "!") {
            v = Value(text); // quoted: always a string
        } else if (tag == "?" || tag.empty()) {
            if (m_format == DataFormat::Json) {
                v = detail::resolveJsonScalar(text, problem);
            } else if (keyPosition && detail::isSymbol(text)) {
                // Puppet turns symbol keys (:foo:) into strings.
                v = Value(text.substr(1));
            } else {
                v = detail::resolvePsychScalar(text, problem);
                if (problem && detail::isSymbol(text) && detail::RefusedValues::active()) {
                    // Kept, so that the rest of the file answers; a lookup that reaches it fails.
                    detail::RefusedValues::active()->values.push_back({toMark(mark), problem->message});
                    problem.reset();
                    v = Value(text);
                }
            }
        } else if (isRubyTag(tag)) {
            problem = detail::ScalarProblem{"Tried to load unspecified class: " + tag};
        } else if (const std::string core = coreTag(tag); core == "str") {
            v = Value(text);
        } else if (core == "int") {
            auto i = detail::parsePsychInteger(text, problem);
            v = i ? *i : Value(text);
        } else if (core == "float") {
            char* end = nullptr;
            std::string t;
            for (char c : text)
                if (c != '_' && c != ',')
                    t += c;
            const double d = std::strtod(t.c_str(), &end);
            v = (end && *end == '\0' && !t.empty()) ? Value(d) : Value(text);
        } else if (core == "bool") {
            v = detail::resolvePsychScalar(text, problem);
            if (!v.isBoolean())
                v = Value(text);
        } else if (core == "binary") {
            auto decoded = detail::decodeBase64(text);
            if (!decoded)
                problem = detail::ScalarProblem{"invalid base64 in !!binary scalar"};
            else
                v = Value(*decoded);
        } else if (core == "timestamp" || core == "set") {
            problem = detail::ScalarProblem{"Tried to load unspecified class: " + core};
        } else if (core == "null") {
            v = detail::resolvePsychScalar(text, problem);
        } else {
            v = Value(text); // an unknown local tag (!foo bar) is ignored: the text stays a string
        }
        if (problem)
            fail(ErrorCode::DataType, problem->message, mark);
        return v;
    }

    void checkCollectionTag(const std::string& tag, const YAML::Mark& mark) const
    {
        const std::string core = coreTag(tag);
        if (isRubyTag(tag))
            fail(ErrorCode::DataType, "Tried to load unspecified class: " + tag, mark);
        if (core == "set")
            fail(ErrorCode::DataType, "Tried to load unspecified class: Psych::Set", mark);
    }

    void push(Frame::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor, bool omap)
    {
        if (m_stack.size() >= m_limits.maxDepth)
            fail(ErrorCode::DataLimit, "nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels", mark);
        Frame f;
        f.kind = kind;
        f.value = kind == Frame::Kind::Map ? Value(Hash()) : Value(Array());
        f.anchor = anchor;
        f.mark = mark;
        f.omap = omap;
        f.value.setMark(toMark(mark));
        if (anchor != YAML::NullAnchor)
            m_open.insert(anchor);
        m_stack.push_back(std::move(f));
    }

    void pop()
    {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        if (f.anchor != YAML::NullAnchor)
            m_open.erase(f.anchor);
        if (f.omap) {
            // !!omap [a: 1, b: 2] reads as the hash {a: 1, b: 2}.
            Hash h;
            for (const Value& pair : f.value.asArray()) {
                if (!pair.isHash())
                    fail(ErrorCode::DataType, "!!omap entries must be single-key mappings", f.mark);
                for (const auto& e : pair.asHash())
                    h.set(e.key, e.value);
            }
            Value v(std::move(h));
            v.setMark(f.value.mark());
            f.value = std::move(v);
        }
        deliver(std::move(f.value), f.anchor, f.nodes, f.mark,
                f.kind == Frame::Kind::Map ? NodeKind::Map : NodeKind::Sequence, false);
    }

    void countNodes(std::size_t n, const YAML::Mark& mark)
    {
        m_totalNodes += n;
        if (m_totalNodes > m_limits.maxNodes)
            fail(ErrorCode::DataLimit,
                 "the document expands to more than " + std::to_string(m_limits.maxNodes) + " nodes (an alias bomb?)",
                 mark);
    }

    // Hands a finished node to its parent (or makes it the document).
    void deliver(Value v, YAML::anchor_t anchor, std::size_t nodes, const YAML::Mark& mark, NodeKind kind,
                 bool mergeKey)
    {
        if (anchor != YAML::NullAnchor)
            m_anchors[anchor] = Anchored{v, nodes};
        if (m_stack.empty()) {
            countNodes(nodes, mark);
            m_result = std::move(v);
            m_haveResult = true;
            return;
        }
        Frame& parent = m_stack.back();
        parent.nodes += nodes;
        if (parent.kind == Frame::Kind::Sequence) {
            countNodes(nodes, mark);
            parent.value.mutableArray().push_back(std::move(v));
            return;
        }
        if (!parent.haveKey) {
            // Keys count too: a key is hashed by its content, so `? *bomb` a thousand times would
            // otherwise hash a thousand expanded bombs without ever reaching the limit.
            countNodes(nodes, mark);
            parent.key = std::move(v);
            parent.keyIsMerge = mergeKey;
            parent.haveKey = true;
            parent.keyIsScalar = kind == NodeKind::Scalar;
            parent.keyMark = mark;
            return;
        }
        countNodes(nodes, mark);
        parent.haveKey = false;
        Hash& h = parent.value.mutableHash();
        if (parent.keyIsMerge && mergeValue(h, v, kind))
            return;
        h.set(std::move(parent.key), std::move(v));
    }

    // A `<<` key's value, as Psych's revive_hash treats it (docs/engine-semantics.md, "YAML merge
    // keys"): `<<: *b` or `<<: {..}` sets the hash's entries at this point (overriding keys written
    // before, keeping their place); `<<: [*b1, *b2]` merges the list, the first map winning (Psych
    // merges it in reverse). What Ruby's Hash#merge! refuses with a TypeError — an alias of a list or of
    // a scalar, a list holding anything but hashes, a scalar — is kept as an ordinary key named `<<`:
    // returns false then.
    bool mergeValue(Hash& target, const Value& source, NodeKind kind) const
    {
        if (kind == NodeKind::Alias || kind == NodeKind::Map) {
            if (!source.isHash())
                return false;
            for (const auto& e : source.asHash())
                target.set(e.key, e.value);
            return true;
        }
        if (kind != NodeKind::Sequence)
            return false;
        if (source.isHash()) // a !!omap list: Ruby yields its [key, value] pairs, which are no hashes
            return source.asHash().empty();
        const Array& list = source.asArray();
        for (const Value& e : list)
            if (!e.isHash())
                return false;
        Hash combined;
        for (auto it = list.rbegin(); it != list.rend(); ++it)
            for (const auto& e : it->asHash())
                combined.set(e.key, e.value);
        for (const auto& e : combined)
            target.set(e.key, e.value);
        return true;
    }

    // yaml-cpp accepts a quoted scalar that runs into the end of the file ("abc<EOF>); libyaml, and so
    // Puppet, refuse it. Check that the quote that starts at `mark` is closed.
    void checkQuoteClosed(const YAML::Mark& mark) const
    {
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= m_text.size())
            return;
        const char q = m_text[static_cast<std::size_t>(mark.pos)];
        if (q != '"' && q != '\'')
            return; // a block scalar (| or >)
        for (std::size_t i = static_cast<std::size_t>(mark.pos) + 1; i < m_text.size(); ++i) {
            if (q == '"' && m_text[i] == '\\') {
                ++i;
                continue;
            }
            if (m_text[i] == q) {
                if (q == '\'' && i + 1 < m_text.size() && m_text[i + 1] == '\'') {
                    ++i; // '' is an escaped quote
                    continue;
                }
                return;
            }
        }
        fail(ErrorCode::DataSyntax, "found unexpected end of stream while scanning a quoted scalar", mark);
    }

    std::string_view m_text;
    std::uint32_t m_fileId;
    DataFormat m_format;
    const ParseLimits& m_limits;
    std::vector<Frame> m_stack;
    std::unordered_map<YAML::anchor_t, Anchored> m_anchors;
    std::unordered_set<YAML::anchor_t> m_open;
    std::size_t m_totalNodes = 0;
    Value m_result;
    bool m_haveResult = false;
};

// Returns the 1-based line and column of byte offset `pos`.
std::pair<int, int> lineColumn(std::string_view text, std::size_t pos)
{
    int line = 1, column = 1;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

} // namespace

namespace {

Value parseDataUnguarded(std::string_view text, const std::string& fileName, DataFormat format,
                         const ParseLimits& limits)
{
    if (text.size() > limits.maxDocumentBytes)
        throw Error(ErrorCode::DataLimit,
                    "file of " + std::to_string(text.size()) + " bytes exceeds the limit of "
                        + std::to_string(limits.maxDocumentBytes),
                    {fileName, 0, 0});
    if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0)
        text.remove_prefix(3); // a UTF-8 byte-order mark is accepted
    if (const std::size_t bad = detail::invalidUtf8At(text); bad != std::string_view::npos) {
        auto [line, column] = lineColumn(text, bad);
        throw Error(ErrorCode::DataSyntax, "Unable to parse: invalid UTF-8 byte sequence", {fileName, line, column});
    }
    if (text.find('\0') != std::string_view::npos) {
        auto [line, column] = lineColumn(text, text.find('\0'));
        throw Error(ErrorCode::DataSyntax, "Unable to parse: NUL byte in file", {fileName, line, column});
    }

    if (format == DataFormat::Json)
        return detail::parseJson(text, fileName, limits);

    // A lone CR is a line break in YAML (and for libyaml, so for Puppet); yaml-cpp only knows LF and
    // CRLF. Same length, so offsets and columns do not move.
    std::string normalized;
    if (const std::size_t cr = text.find('\r'); cr != std::string_view::npos) {
        for (std::size_t i = cr; i < text.size(); ++i) {
            if (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')) {
                if (normalized.empty())
                    normalized.assign(text);
                normalized[i] = '\n';
            }
        }
        if (!normalized.empty())
            text = normalized;
    }
    const std::uint32_t fileId = SourceFiles::intern(fileName);
    {
        // Most data files are plain block YAML: read those without yaml-cpp's scanner. Anything the
        // fast reader does not take, including every error, is parsed again below by yaml-cpp.
        ValueBuilder fast(text, fileId, format, limits);
        detail::RefusedValues* refused = detail::RefusedValues::active();
        const std::size_t refusedBefore = refused ? refused->values.size() : 0;
        bool done = false;
        try {
            done = detail::parseBlockYaml(text, fast);
        } catch (const BuildError&) {
            done = false; // yaml-cpp reports it, with its own marks
        } catch (const std::bad_alloc&) {
            done = false; // and this too, as the limit error below
        }
        if (done)
            return fast.hasResult() ? fast.takeResult() : Value();
        if (refused) // yaml-cpp reads the file again and records them again
            refused->values.resize(refusedBefore);
    }
    std::istringstream in{std::string(text)};
    ValueBuilder builder(text, fileId, format, limits);
    try {
        YAML::Parser parser(in);
        parser.HandleNextDocument(builder); // only the first document is used, as Puppet does
    } catch (const BuildError& e) {
        throw Error(e.code, e.message, {fileName, e.mark.line + 1, e.mark.column + 1});
    }
#ifdef HIERA_YAML_CPP_DEPTH_GUARD
    catch (const YAML::DeepRecursion&) {
        // yaml-cpp's own guard (500 recursions) can stop before ParseLimits::maxDepth; it says only
        // "bad file" at 1:1. Report it as the depth limit it is, where the innermost collection starts.
        auto [line, column] = builder.innermostStart();
        throw Error(ErrorCode::DataLimit,
                    "nesting deeper than " + std::to_string(builder.depth()) + " levels (the YAML parser's limit)",
                    {fileName, line, column});
    }
#endif
    catch (const YAML::Exception& e) {
        const bool known = e.mark.line >= 0;
        throw Error(ErrorCode::DataSyntax, "Unable to parse: " + e.msg,
                    {fileName, known ? e.mark.line + 1 : 0, known ? e.mark.column + 1 : 0});
    }
    if (!builder.hasResult()) {
        if (format == DataFormat::Json)
            throw Error(ErrorCode::DataSyntax, "Unable to parse: unexpected end of input (empty JSON document)",
                        {fileName, 1, 1});
        return Value();
    }
    return builder.takeResult();
}

} // namespace

Value parseData(std::string_view text, const std::string& fileName, DataFormat format, const ParseLimits& limits)
{
    // Every reader (YAML, the block reader, JSON) allocates as it goes; whichever runs out of memory,
    // the message names the file, and the process goes on.
    try {
        return parseDataUnguarded(text, fileName, format, limits);
    } catch (const std::bad_alloc&) {
        throw Error(ErrorCode::DataLimit, "out of memory while parsing", {fileName, 0, 0});
    }
}

Value loadDataFile(const std::string& path, DataFormat format, const ParseLimits& limits)
{
    return parseData(readFile(path, limits.maxDocumentBytes), path, format, limits);
}

Value resolvePlainScalar(const std::string& text)
{
    std::optional<detail::ScalarProblem> problem;
    Value v = detail::resolvePsychScalar(text, problem);
    if (problem)
        throw Error(ErrorCode::DataType, problem->message);
    return v;
}

} // namespace hiera
