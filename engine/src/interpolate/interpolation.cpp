#include "interpolate/interpolation.h"

#include <hiera/error.h>
#include <hiera/lookupkey.h>
#include <hiera/valueformat.h>

#include <cctype>

namespace hiera::detail {

namespace {

bool isBlank(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string trim(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return std::string(s);
}

bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// NAME('arg') / NAME("arg") with one non-empty argument and nothing else (docs/hiera-reference.md §3.1).
void classify(Token& t)
{
    const std::string& e = t.expression;
    std::size_t i = 0;
    while (i < e.size() && isNameChar(e[i]))
        ++i;
    if (i == 0 || i >= e.size() || e[i] != '(')
        return; // a variable
    const std::string name = e.substr(0, i);
    if (e.size() >= i + 5 && (e[i + 1] == '\'' || e[i + 1] == '"') && e.back() == ')') {
        const char q = e[i + 1];
        const std::size_t argStart = i + 2;
        const std::size_t close = e.find(q, argStart);
        if (close != std::string::npos && close > argStart && close + 2 == e.size()) {
            t.method = name;
            t.argument = e.substr(argStart, close - argStart);
            return;
        }
    }
    // NAME( ... ) that is not a proper call: Puppet reads it as a variable name, which is a syntax
    // error as soon as it contains quotes (`lookup( 'o' )`), and an ordinary (undefined) variable
    // otherwise (`lookup(other)`).
    if (e.find_first_of("'\"") != std::string::npos) {
        t.method = name;
        t.methodSyntaxError = true;
    }
}

bool isEmptyReference(const std::string& e)
{
    return e.empty() || e == "::" || e == "''" || e == "\"\"" || e == "'::'" || e == "\"::\"";
}

// What a message may quote of a string being interpolated: the text itself, or, when the string is or
// came from a decrypted eyaml value, only that it is one (docs/bad-input.md, "Secrets in messages").
// Every message below that quotes the template, a piece of it, or a name written in it goes through
// this.
constexpr std::string_view kRedacted = "<sensitive>";
std::string quotable(std::string_view piece, const Value& original)
{
    return original.isSecret() ? std::string(kRedacted) : std::string(piece);
}

[[noreturn]] void syntaxError(const Value& original)
{
    throw Error(
        ErrorCode::InterpolationSyntax,
        "Syntax error in string: "
            + (original.isSecret() ? std::string("<sensitive> (a decrypted eyaml value)") : original.asString()),
        SourceFiles::locate(original.mark()));
}

// A variable reference with quotes must be a well-formed key (facts.'os'.name).
void checkVariableSyntax(const std::string& ref, const Value& original)
{
    std::string_view r = ref;
    if (r.substr(0, 2) == "::")
        r.remove_prefix(2);
    if (r.find_first_of("'\"") != std::string_view::npos && !LookupKey::tryParse(r))
        syntaxError(original);
}

// The mark a string rendered from `v` carries while it is interpolated again: decrypted when `v` held
// a secret, so that the messages of that interpolation redact it as well.
SourceMark secretMark(const Value& v)
{
    SourceMark m = v.mark();
    if (containsSecret(v))
        m.flags |= SourceMark::Decrypted;
    return m;
}

// An error raised while interpolating a decrypted template (a nested lookup's, say) may quote a name
// the template wrote: every piece of the template is cut out of its message.
Error scrubbed(const Error& e, const std::string& text, const std::vector<Token>& tokens)
{
    std::string message = e.message();
    auto cut = [&](const std::string& piece) {
        if (piece.size() < 2) // a single character would blank unrelated text; it tells nothing alone
            return;
        for (std::size_t at = message.find(piece); at != std::string::npos;
             at = message.find(piece, at + kRedacted.size()))
            message.replace(at, piece.size(), kRedacted);
    };
    cut(text);
    for (const Token& t : tokens) {
        cut(t.expression);
        cut(t.argument);
    }
    std::size_t pos = 0;
    for (const Token& t : tokens) { // the literal text between the tokens
        cut(text.substr(pos, t.begin - pos));
        pos = t.end;
    }
    cut(text.substr(pos));
    return Error(e.code(), std::move(message), e.location());
}

class Interpolator
{
public:
    Interpolator(InterpolationHost& host) : m_host(host) { }

    Value interpolate(const Value& v, TraceCursor trace, bool& changed)
    {
        if (trace.recording() || v.isScalar())
            return interpolateUncached(v, trace, changed);
        // Aliased YAML nodes share their storage: interpolate each shared array or hash once, so that
        // an alias bomb with %{...} leaves costs its distinct nodes, not its expansion, and the result
        // shares storage the same way.
        const void* storage = v.isArray() ? static_cast<const void*>(&v.asArray()) : &v.asHash();
        if (auto it = m_collectionMemo.find(storage); it != m_collectionMemo.end()) {
            changed = changed || it->second.second;
            return it->second.second ? it->second.first.withMark(v.mark()) : v;
        }
        bool any = false;
        Value r = interpolateUncached(v, trace, any);
        m_collectionMemo.emplace(storage, std::make_pair(r, any));
        changed = changed || any;
        return r;
    }

private:
    Value interpolateUncached(const Value& v, TraceCursor trace, bool& changed)
    {
        switch (v.type()) {
        case Value::Type::String:
            if (v.asString().find("%{") == std::string::npos)
                return v;
            changed = true;
            return interpolateString(v, trace);
        case Value::Type::Array: {
            bool any = false;
            Array out;
            const Array& in = v.asArray();
            out.reserve(in.size());
            for (const Value& e : in)
                out.push_back(interpolate(e, trace, any));
            if (!any)
                return v;
            changed = true;
            Value r(std::move(out));
            r.setMark(v.mark());
            return r;
        }
        case Value::Type::Hash: {
            bool any = false;
            Hash out;
            out.reserve(v.asHash().size());
            for (const auto& e : v.asHash()) {
                Value key = interpolate(e.key, trace, any);
                Value val = interpolate(e.value, trace, any);
                out.set(std::move(key), std::move(val)); // colliding keys: later value, first position
            }
            if (!any)
                return v;
            changed = true;
            Value r(std::move(out));
            r.setMark(v.mark());
            return r;
        }
        default:
            return v;
        }
    }

    [[noreturn]] void tooLarge(const std::string& text, const Value& original) const
    {
        throw Error(ErrorCode::InterpolationLimit,
                    "interpolation of '" + quotable(std::string_view(text).substr(0, 80), original)
                        + "' expands to more than " + std::to_string(m_host.maxBytes()) + " bytes",
                    SourceFiles::locate(original.mark()));
    }

    Value interpolateString(const Value& original, TraceCursor parentTrace)
    {
        const std::string& text = original.asString();
        std::vector<Token> tokens = tokenize(text);
        if (tokens.empty())
            return original;
        if (!original.isSecret())
            return interpolateTemplate(original, tokens, parentTrace);
        // A decrypted template is itself a secret: the trace holds neither its text nor the steps that
        // name what it wrote (the variables and keys it reads), and no error quotes any of it.
        const TraceCursor trace = parentTrace.child(TraceNode::Kind::Interpolation);
        struct Seal
        {
            const TraceCursor& trace;
            ~Seal()
            {
                trace.with([](TraceNode& n) {
                    n.expression = std::string(kRedacted);
                    n.children.clear();
                });
            }
        } seal{trace};
        try {
            return interpolateTemplate(original, tokens, trace, /*own node*/ true);
        } catch (const Error& e) {
            throw scrubbed(e, text, tokens);
        }
    }

    Value interpolateTemplate(const Value& original, const std::vector<Token>& tokens, TraceCursor parentTrace,
                              bool ownNode = false)
    {
        const std::string& text = original.asString();
        const TraceCursor trace = ownNode ? parentTrace : parentTrace.child(TraceNode::Kind::Interpolation);
        trace.with([&](TraceNode& n) { n.expression = text; });
        const std::size_t max = m_host.maxBytes();
        std::string out;
        bool secret = false;
        // Every append is checked before it is made, so the limit holds however large the pieces.
        auto append = [&](std::string_view piece) {
            if (piece.size() > max || out.size() > max - piece.size())
                tooLarge(text, original);
            out += piece;
        };
        std::size_t pos = 0;
        for (const Token& t : tokens) {
            append(std::string_view(text).substr(pos, t.begin - pos));
            pos = t.end;
            if (t.methodSyntaxError)
                syntaxError(original);
            if (t.method.empty() || t.method == "scope") {
                const std::string ref = t.method.empty() ? t.expression : t.argument;
                if (t.method.empty() && isEmptyReference(ref))
                    continue;
                checkVariableSyntax(ref, original);
                append(variable(ref, trace, text, original));
            } else if (t.method == "literal") {
                append(t.argument);
            } else if (t.method == "lookup" || t.method == "hiera") {
                if (auto v = subLookup(t, trace)) {
                    secret = secret || containsSecret(*v); // a secret put into a string keeps it one
                    // Rendered with the limit: a found hash or array (an alias bomb) is not rendered
                    // whole before the check.
                    std::string s;
                    if (!appendInterpolationString(s, *v, max))
                        tooLarge(text, original);
                    if (s.find("%{") != std::string::npos) {
                        // The string a lookup returns is interpolated again (docs/hiera-reference.md §3.7).
                        // A string that came from a decrypted value stays one while it is interpolated.
                        bool changed = false;
                        Value again = interpolate(Value(std::move(s)).withMark(secretMark(*v)), trace, changed);
                        s = rendered(again, text, original);
                    }
                    append(s);
                }
            } else if (t.method == "alias") {
                if (tokens.size() != 1 || t.begin != 0 || t.end != text.size())
                    throw Error(ErrorCode::AliasNotEntireString,
                                "'alias' interpolation is only permitted if the expression is equal to the entire "
                                "string: "
                                    + quotable(text, original),
                                SourceFiles::locate(original.mark()));
                auto v = subLookup(t, trace);
                if (!v)
                    return Value(std::string()).withMark(original.mark()); // not found: "" (a string)
                return *v; // type preserved, not re-interpolated; keeps the aliased value's origin
            } else {
                throw Error(ErrorCode::UnknownMethod,
                            "Unknown interpolation method '" + quotable(t.method, original) + "'",
                            SourceFiles::locate(original.mark()));
            }
        }
        append(std::string_view(text).substr(pos));
        countProduced(out.size(), original);
        SourceMark mark = original.mark();
        if (secret)
            mark.flags |= SourceMark::Decrypted;
        trace.with([&](TraceNode& n) { n.value = Value(out).withMark(mark); });
        return Value(std::move(out)).withMark(mark);
    }

    // interpolationString(v), failing as soon as it passes maxBytes.
    std::string rendered(const Value& v, const std::string& text, const Value& original) const
    {
        if (v.isString())
            return v.asString();
        std::string s;
        if (!appendInterpolationString(s, v, m_host.maxBytes()))
            tooLarge(text, original);
        return s;
    }

    void countProduced(std::size_t bytes, const Value& original)
    {
        m_host.producedBytes += bytes;
        if (m_host.producedBytes > m_host.maxTotalBytes())
            throw Error(ErrorCode::InterpolationLimit,
                        "the interpolations of this lookup produce more than " + std::to_string(m_host.maxTotalBytes())
                            + " bytes in total (runaway expansion through nested lookups?)",
                        SourceFiles::locate(original.mark()));
    }

    // Memos are used only when not tracing: a trace shows every occurrence in full.
    std::string variable(const std::string& ref, TraceCursor trace, const std::string& text, const Value& original)
    {
        if (!trace.recording())
            if (auto it = m_host.variableMemo.find(ref); it != m_host.variableMemo.end())
                return it->second;
        std::optional<Value> v = m_host.scope().lookup(ref);
        const TraceCursor node = trace.child(TraceNode::Kind::ScopeRead);
        node.with([&](TraceNode& n) { n.name = ref; });
        if (v)
            node.outcome(TraceNode::Event::Found, *v);
        else
            node.event(TraceNode::Event::NotFound);
        if (!v) {
            // Where the value interpolates it, first: a report of many keys lists the warnings apart.
            const SourceLocation where = SourceFiles::locate(original.mark());
            m_host.warn((where.isValid() ? where.toString() + ": " : std::string()) + "Undefined variable '"
                        + quotable(ref, original) + "'");
            return {};
        }
        std::string s;
        if (!appendInterpolationString(s, *v, m_host.maxBytes()))
            tooLarge(text, original);
        if (v->isString() && s.find("%{") != std::string::npos) {
            // A variable whose value itself contains %{...} is interpolated again, guarded against cycles.
            const std::string name = "scope:" + ref;
            if (!m_host.pushName(name))
                throw Error(ErrorCode::RecursiveLookup,
                            "Recursive lookup detected in "
                                + (original.isSecret() ? std::string(kRedacted) : m_host.nameChain(name)));
            struct Pop
            {
                InterpolationHost& h;
                ~Pop() { h.popName(); }
            } pop{m_host};
            bool changed = false;
            Value again = interpolate(Value(std::move(s)), node, changed);
            s = rendered(again, text, original);
            if (!trace.recording())
                m_host.variableMemo.emplace(ref, s);
        }
        return s;
    }

    std::optional<Value> subLookup(const Token& t, TraceCursor trace)
    {
        const TraceCursor node = trace.child(TraceNode::Kind::SubLookup);
        node.with([&](TraceNode& n) {
            n.name = t.method;
            n.key = t.argument;
        });
        if (!trace.recording())
            if (auto it = m_host.subLookupMemo.find(t.argument); it != m_host.subLookupMemo.end())
                return it->second;
        std::optional<Value> v = m_host.subLookup(t.argument, node);
        if (!trace.recording())
            m_host.subLookupMemo.emplace(t.argument, v);
        if (v)
            node.outcome(TraceNode::Event::Found, *v);
        else
            node.event(TraceNode::Event::NotFound);
        return v;
    }

    InterpolationHost& m_host;
    // Shared array/hash storage -> (its interpolation, whether anything changed), for one walk.
    std::unordered_map<const void*, std::pair<Value, bool>> m_collectionMemo;
};

} // namespace

std::vector<Token> tokenize(std::string_view text)
{
    std::vector<Token> tokens;
    std::size_t pos = 0;
    while (true) {
        const std::size_t start = text.find("%{", pos);
        if (start == std::string_view::npos)
            break;
        const std::size_t close = text.find('}', start + 2);
        if (close == std::string_view::npos)
            break; // "%{" without "}" is literal text
        Token t;
        t.begin = start;
        t.end = close + 1;
        t.expression = trim(text.substr(start + 2, close - start - 2));
        classify(t);
        tokens.push_back(std::move(t));
        pos = close + 1;
    }
    return tokens;
}

std::vector<Token> methodTokensIn(std::string_view text)
{
    std::vector<Token> out;
    for (Token& t : tokenize(text))
        if (!t.method.empty() || t.methodSyntaxError)
            out.push_back(std::move(t));
    return out;
}

Value interpolateValue(const Value& v, InterpolationHost& host, TraceCursor trace)
{
    bool changed = false;
    return Interpolator(host).interpolate(v, trace, changed);
}

bool containsInterpolation(const Value& v)
{
    switch (v.type()) {
    case Value::Type::String:
        return v.asString().find("%{") != std::string::npos;
    case Value::Type::Array:
        for (const auto& e : v.asArray())
            if (containsInterpolation(e))
                return true;
        return false;
    case Value::Type::Hash:
        for (const auto& e : v.asHash())
            if (containsInterpolation(e.key) || containsInterpolation(e.value))
                return true;
        return false;
    default:
        return false;
    }
}

LocationInterpolation interpolateLocation(const std::string& text, const Scope& scope)
{
    LocationInterpolation result;
    std::vector<Token> tokens = tokenize(text);
    if (tokens.empty()) {
        result.text = text;
        return result;
    }
    std::size_t pos = 0;
    for (const Token& t : tokens) {
        result.text.append(text, pos, t.begin - pos);
        pos = t.end;
        if (t.methodSyntaxError)
            syntaxError(text);
        if (t.method == "literal") {
            result.text += t.argument;
            continue;
        }
        if (!t.method.empty() && t.method != "scope") {
            if (t.method == "lookup" || t.method == "hiera" || t.method == "alias")
                throw Error(ErrorCode::ConfigMethodInPath,
                            "Interpolation using method syntax is not allowed in this context: " + text);
            throw Error(ErrorCode::UnknownMethod, "Unknown interpolation method '" + t.method + "'");
        }
        const std::string ref = t.method.empty() ? t.expression : t.argument;
        if (t.method.empty() && isEmptyReference(ref))
            continue;
        checkVariableSyntax(ref, text);
        std::optional<Value> v = scope.lookup(ref);
        const std::string s = v ? interpolationString(*v) : std::string();
        if (s.empty())
            result.undefinedVariables.push_back(ref);
        result.text += s;
    }
    result.text.append(text, pos, std::string::npos);
    return result;
}

Value interpolateOptions(const Value& options, const Scope& scope)
{
    if (options.isString()) {
        if (options.asString().find("%{") == std::string::npos)
            return options;
        return Value(interpolateLocation(options.asString(), scope).text).withMark(options.mark());
    }
    if (options.isArray()) {
        Value out = options;
        for (Value& e : out.mutableArray())
            e = interpolateOptions(e, scope);
        return out;
    }
    if (options.isHash()) {
        Value out = options;
        Hash& h = out.mutableHash();
        for (const auto& e : options.asHash())
            if (containsInterpolation(e.value))
                h.set(e.key, interpolateOptions(e.value, scope));
        return out;
    }
    return options;
}

} // namespace hiera::detail
