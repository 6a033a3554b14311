#include <hiera/explain.h>
#include <hiera/report/json.h>
#include <hiera/valueformat.h>

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
            line(indent + 1,
                 "Using lookup_options entry " + quoted(n.lookupOptionsEntry) + ": "
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
            if (n.path.empty() && n.originalPath.empty()) { // a function called without a path
                for (const auto& c : n.children)
                    node(*c, indent);
                switch (n.event) {
                case Event::NotFound:
                    line(indent, "No such key: " + quoted(n.key));
                    break;
                case Event::Found:
                    line(indent, "Found key: " + quoted(n.key) + " value: " + (n.value ? inspect(*n.value) : ""));
                    break;
                case Event::Failed:
                    line(indent, "Failed: " + n.message);
                    break;
                default:
                    break;
                }
                break;
            }
            line(indent, "Path " + quoted(n.path));
            line(indent + 1, "Original path: " + quoted(n.originalPath));
            for (const auto& c : n.children)
                node(*c, indent + 1);
            switch (n.event) {
            case Event::LocationNotFound:
                line(indent + 1, "Path not found");
                break;
            case Event::NotFound:
                line(indent + 1, "No such key: " + quoted(n.key));
                break;
            case Event::Found:
                line(indent + 1,
                     "Found key: " + quoted(n.key) + " value: " + (n.value ? inspect(*n.value) : "") + at(n.location));
                break;
            case Event::Failed:
                line(indent + 1, "Failed: " + n.message);
                break;
            default:
                break;
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
                line(indent,
                     "Found key: " + quoted(n.key) + " value: " + (n.value ? inspect(*n.value) : "") + at(n.location));
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

// The trace as a JSON document's value. Written by the reports' JSON writer, which keeps the document
// valid whatever it holds: bytes that are not UTF-8 (a !!binary value in a key or a path) become
// U+FFFD, NaN and infinities strings, each listed in "json_replacements" (hiera/report/json.h).
Value jsonNode(const TraceNode& n, const ExplainOptions& options)
{
    Hash h;
    h.set("type", Value(traceKindName(n.kind)));
    auto field = [&](const char* name, const std::string& value) {
        if (!value.empty())
            h.set(name, Value(value));
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
        h.set("lookup_options", shown(*n.lookupOptions, options));
    if (n.merge)
        h.set("merge", n.merge->toValue());
    if (n.mergeFromLookupOptions)
        h.set("merge_source", Value("lookup_options"));
    if (n.value)
        h.set("value", shown(*n.value, options));
    if (n.location.isValid()) {
        Hash location;
        location.set("file", Value(n.location.file));
        location.set("line", Value(static_cast<std::int64_t>(n.location.line)));
        location.set("column", Value(static_cast<std::int64_t>(n.location.column)));
        h.set("location", Value(std::move(location)));
    }
    if (!n.children.empty()) {
        Array branches;
        branches.reserve(n.children.size());
        for (const auto& child : n.children)
            branches.push_back(jsonNode(*child, options));
        h.set("branches", Value(std::move(branches)));
    }
    return Value(std::move(h));
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
    return reportJson(jsonNode(root, options), pretty);
}

} // namespace hiera
