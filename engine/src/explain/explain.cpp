#include <hiera/explain.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

namespace hiera {

namespace {

using Kind = TraceNode::Kind;
using Event = TraceNode::Event;

std::string quoted(const std::string& s)
{
    return '"' + s + '"';
}

std::string at(const SourceLocation& loc)
{
    return loc.isValid() ? " (" + loc.toString() + ")" : std::string();
}

// What an explanation shows of a value: secrets redacted unless the caller asked for them.
Value shown(const Value& v, const ExplainOptions& options)
{
    return options.revealSecrets ? v : redactSecrets(v);
}

class TextWriter
{
public:
    explicit TextWriter(const ExplainOptions& options) : m_options(options) { }
    std::string out;

    std::string inspect(const Value& v) const { return rubyInspect(shown(v, m_options)); }

    // Each line quotes keys, paths and names that come from facts and data: written as one printable
    // line, so that a fact cannot forge lines or send escape sequences to the terminal.
    void line(int indent, const std::string& text)
    {
        out.append(static_cast<std::size_t>(indent) * 2, ' ');
        out += printableLine(text);
        out += '\n';
    }

    // How lookup_options were merged: the global and environment layers', then a module's own.
    void lookupOptions(const TraceNode& n, int indent)
    {
        line(indent, "Searching for \"lookup_options\"" + (n.name.empty() ? "" : " of module " + quoted(n.name)));
        for (const auto& c : n.children)
            node(*c, indent + 1);
        if (n.event == Event::Failed)
            line(indent + 1, "Failed: " + n.message);
    }

    void lookup(const TraceNode& n, int indent)
    {
        line(indent, "Searching for " + quoted(n.key));
        if (n.event == Event::InvalidKey) {
            line(indent + 1, "Invalid key " + quoted(n.key));
            return;
        }
        if (!n.lookupOptionsEntry.empty())
            line(indent + 1, "Using lookup_options entry " + quoted(n.lookupOptionsEntry) + ": "
                                 + (n.lookupOptions ? inspect(*n.lookupOptions) : std::string()));
        if (n.mergeFromLookupOptions)
            line(indent + 1, "Using merge options from \"lookup_options\" hash");
        for (const auto& c : n.children)
            if (c->kind != Kind::LookupOptions)
                node(*c, indent + 1);
    }

    void node(const TraceNode& n, int indent)
    {
        switch (n.kind) {
        case Kind::Lookup:
            lookup(n, indent);
            break;
        case Kind::LookupOptions:
            if (indent > 0)
                lookupOptions(n, indent); // a module's default_hierarchy's own (the others are printed first)
            break;
        case Kind::Layer: {
            line(indent, n.name);
            if (!n.path.empty())
                line(indent + 1, "Using configuration " + quoted(n.path));
            int inner = indent + 1;
            if (n.merge && n.merge->strategy != MergeStrategy::First) {
                line(indent + 1, std::string("Merge strategy ") + mergeStrategyName(n.merge->strategy));
                Value opts = n.merge->toValue();
                if (opts.asHash().size() > 1) {
                    Hash h;
                    for (const auto& e : opts.asHash())
                        if (!(e.key == Value("strategy")))
                            h.set(e.key, e.value);
                    line(indent + 2, "Options: " + rubyInspect(Value(h)));
                }
                inner = indent + 2;
            }
            for (const auto& c : n.children)
                node(*c, inner);
            if (n.merge && n.merge->strategy != MergeStrategy::First && n.event == Event::Result && n.value)
                line(inner, "Merged result: " + inspect(*n.value));
            break;
        }
        case Kind::Level:
            line(indent, "Hierarchy entry " + quoted(n.name));
            for (const auto& c : n.children)
                node(*c, indent + 1);
            if (n.event == Event::Failed)
                line(indent + 1, "Failed: " + n.message);
            else if (n.event == Event::Warning)
                line(indent + 1, "Warning: " + n.message);
            break;
        case Kind::Location:
            line(indent, "Path " + quoted(n.path));
            line(indent + 1, "Original path: " + quoted(n.originalPath));
            for (const auto& c : n.children)
                node(*c, indent + 1);
            switch (n.event) {
            case Event::LocationNotFound: line(indent + 1, "Path not found"); break;
            case Event::NotFound: line(indent + 1, "No such key: " + quoted(n.key)); break;
            case Event::Found:
                line(indent + 1, "Found key: " + quoted(n.key) + " value: " + (n.value ? inspect(*n.value) : "")
                                     + at(n.location));
                break;
            case Event::Failed: line(indent + 1, "Failed: " + n.message); break;
            default: break;
            }
            break;
        case Kind::Interpolation:
            line(indent, "Interpolation on " + quoted(n.expression));
            for (const auto& c : n.children)
                node(*c, indent + 1);
            break;
        case Kind::ScopeRead:
            line(indent, "Global Scope");
            if (n.event == Event::Found)
                line(indent + 1, "Found key: " + quoted(n.name) + " value: " + (n.value ? inspect(*n.value) : ""));
            else
                line(indent + 1, "Undefined variable " + quoted(n.name));
            for (const auto& c : n.children)
                node(*c, indent + 1);
            break;
        case Kind::SubLookup:
            line(indent, "Sub key lookup " + n.name + "(" + quoted(n.key) + ")");
            for (const auto& c : n.children)
                node(*c, indent + 1);
            break;
        case Kind::Dig:
            line(indent, "Sub key: " + quoted(n.key));
            for (const auto& c : n.children)
                node(*c, indent + 1);
            break;
        case Kind::Segment:
            if (n.event == Event::Found)
                line(indent, "Found key: " + quoted(n.key) + " value: " + (n.value ? inspect(*n.value) : "")
                                 + at(n.location));
            else
                line(indent, "No such key: " + quoted(n.key));
            break;
        case Kind::ConvertTo:
            line(indent, n.message);
            break;
        case Kind::Merge:
            if (n.value)
                line(indent, "Merged with " + quoted(n.name) + ": " + inspect(*n.value));
            break;
        case Kind::Message:
            if (!n.message.empty())
                line(indent, n.message);
            for (const auto& c : n.children)
                node(*c, indent + 1);
            break;
        }
    }

private:
    const ExplainOptions& m_options;
};

// A string as JSON; one that is not UTF-8 (a !!binary value in a key or a path) has no JSON form, and
// is written with its bytes escaped rather than failing the whole explanation.
std::string jsonText(const std::string& s)
{
    try {
        return toJson(Value(s));
    } catch (const Error&) {
        return toJson(Value(printableLine(s)));
    }
}

// A value as JSON; NaN, Infinity and strings that are not UTF-8 have no JSON form: as text instead.
std::string safeJson(const Value& v)
{
    try {
        return toJson(v);
    } catch (const std::exception&) {
        return jsonText(interpolationString(v));
    }
}

void jsonNode(std::string& out, const TraceNode& n, const ExplainOptions& options)
{
    out += "{\"type\":";
    out += toJson(Value(traceKindName(n.kind)));
    auto field = [&](const char* name, const std::string& value) {
        if (value.empty())
            return;
        out += ",\"";
        out += name;
        out += "\":";
        out += jsonText(value);
    };
    field("event", traceEventName(n.event));
    field("name", n.name);
    field("key", n.key);
    field("original_path", n.originalPath);
    field("path", n.path);
    field("expression", n.expression);
    field("message", n.message);
    field("lookup_options_entry", n.lookupOptionsEntry);
    if (n.lookupOptions)
        out += ",\"lookup_options\":" + safeJson(shown(*n.lookupOptions, options));
    if (n.merge)
        out += ",\"merge\":" + safeJson(n.merge->toValue());
    if (n.mergeFromLookupOptions)
        out += ",\"merge_source\":\"lookup_options\"";
    if (n.value)
        out += ",\"value\":" + safeJson(shown(*n.value, options));
    if (n.location.isValid()) {
        out += ",\"location\":{\"file\":" + jsonText(n.location.file)
               + ",\"line\":" + std::to_string(n.location.line) + ",\"column\":" + std::to_string(n.location.column)
               + "}";
    }
    if (!n.children.empty()) {
        out += ",\"branches\":[";
        for (std::size_t i = 0; i < n.children.size(); ++i) {
            if (i)
                out += ',';
            jsonNode(out, *n.children[i], options);
        }
        out += ']';
    }
    out += '}';
}

} // namespace

std::string explainText(const TraceNode& root, const ExplainOptions& options)
{
    TextWriter w(options);
    for (const auto& c : root.children)
        if (c->kind == Kind::LookupOptions)
            w.lookupOptions(*c, 0);
    w.node(root, 0);
    if (root.kind == Kind::Lookup) {
        if (root.event == Event::Failed)
            w.out += root.message + "\n";
        else if (root.event == Event::NotFound || root.event == Event::InvalidKey)
            w.out += "Function lookup() did not find a value for the name '" + root.key + "'\n";
    }
    return w.out;
}

std::string explainJson(const TraceNode& root, bool pretty, const ExplainOptions& options)
{
    std::string out;
    jsonNode(out, root, options);
    if (!pretty)
        return out;
    // Indent by reading the document back into a Value (key order is kept) and writing it pretty.
    return toJson(parseData(out, "explain.json", DataFormat::Json), true);
}

} // namespace hiera
