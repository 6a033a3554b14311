#include <hiera/error.h>
#include <hiera/nodescope.h>
#include <hiera/sourcelocation.h>
#include <hiera/topscopewalk.h>

#include <algorithm>

namespace hiera {

namespace {

// Facts held as a decoded Value: a position is the Value itself.
struct DecodedFacts
{
    using Handle = const Value*;

    explicit DecodedFacts(const Value& facts) : m_facts(facts.isHash() ? &facts : &empty()) { }

    Handle whole() const { return m_facts; }
    std::optional<Handle> find(Handle hash, std::string_view key) const
    {
        if (!hash->isHash())
            return std::nullopt;
        const Value* v = hash->asHash().find(key);
        return v ? std::optional<Handle>(v) : std::nullopt;
    }
    std::optional<Handle> dig(Handle root, const std::vector<KeySegment>& segments) const
    {
        const Value* v = hiera::dig(*root, segments);
        return v ? std::optional<Handle>(v) : std::nullopt;
    }
    bool isHash(Handle h) const { return h->isHash(); }
    Value value(Handle h) const { return *h; }

private:
    static const Value& empty()
    {
        static const Value none{Hash()};
        return none;
    }
    const Value* m_facts;
};

} // namespace

void checkCertname(const std::string& name, const SourceLocation& at)
{
    // Puppet's VALID_CERTNAME, /\A[ -.0-~]+\Z/: the bytes 0x20-0x7E except '/' (0x2F).
    const auto bad = std::find_if(name.begin(), name.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u > 0x7E || c == '/';
    });
    if (bad != name.end()) {
        const auto u = static_cast<unsigned char>(*bad);
        const std::string what = *bad == '/' ? "a '/'"
            : u >= 0x80                      ? "a character that is not ASCII"
                                             : "a control character";
        throw Error(ErrorCode::FactsSyntax,
                    "the node name '" + printableLine(name) + "' holds " + what
                        + ", which Puppet never allows in a certname (printable ASCII other than '/')",
                    at);
    }
    if (name == "." || name == "..")
        throw Error(ErrorCode::FactsSyntax,
                    "the node name '" + name
                        + "' is a path of its own (nodes/%{trusted.certname}/... would leave "
                          "the directory); no host is named so",
                    at);
}

std::string certnameFor(const Value& facts, const std::string& node)
{
    std::string found = node;
    const Value* from = nullptr; // the fact it came from, whose file:line an error names
    if (found.empty() && facts.isHash()) {
        const Hash& h = facts.asHash();
        for (const std::string_view name : {"clientcert", "fqdn"})
            if (const Value* v = h.find(name); v && v->isString() && !v->asString().empty()) {
                from = v;
                break;
            }
        if (!from)
            if (const Value* networking = h.find("networking"); networking && networking->isHash())
                if (const Value* v = networking->asHash().find("fqdn"); v && v->isString())
                    from = v;
        if (from)
            found = from->asString();
    }
    checkCertname(found, from ? SourceFiles::locate(from->mark()) : SourceLocation{});
    // Without a certname the facts' own trusted hash answers for trusted.certname (hiera/nodescope.h).
    if (facts.isHash())
        if (const Value* trusted = facts.asHash().find("trusted"); trusted && trusted->isHash())
            if (const Value* c = trusted->asHash().find("certname"); c && c->isString())
                checkCertname(c->asString(), SourceFiles::locate(c->mark()));
    return found;
}

NodeScope::NodeScope(NodeFacts node)
    : m_node(std::move(node))
    , m_environment(m_node.environment.empty() ? Value() : Value(m_node.environment))
{
}

NodeScope NodeScope::ofTree(Value tree, std::string environment)
{
    return NodeScope(NodeFacts{Value(), {}, std::move(environment), std::move(tree)});
}

std::optional<Value> NodeScope::lookup(std::string_view ref) const
{
    const DecodedFacts facts(m_node.facts);
    return detail::TopScopeWalk<DecodedFacts>(facts, m_node.variables, m_node.certname, m_environment, SourceMark{})
        .lookup(ref);
}

namespace {

// A tree's own variables: its rows other than `facts` and the facts' copies (NodeScope's order).
Value ownVariables(const Value& tree)
{
    Hash own;
    if (!tree.isHash())
        return Value(std::move(own));
    const Value* facts = tree.asHash().find("facts");
    for (const auto& e : tree.asHash()) {
        if (e.key == Value("facts"))
            continue;
        const Value* fact = facts && facts->isHash() ? facts->asHash().find(e.key) : nullptr;
        if (!fact || !(*fact == e.value))
            own.set(e.key, e.value);
    }
    return Value(std::move(own));
}

const Value& factsOf(const Value& tree)
{
    static const Value none{Hash()};
    const Value* facts = tree.isHash() ? tree.asHash().find("facts") : nullptr;
    return facts ? *facts : none;
}

} // namespace

std::vector<LeafDifference> scopeDifferences(const Value& before, const Value& after)
{
    std::vector<LeafDifference> out;
    for (LeafDifference& d : leafDifferences(factsOf(before), factsOf(after))) {
        d.path = d.path.empty() ? "facts" : "facts." + d.path;
        out.push_back(std::move(d));
    }
    for (LeafDifference& d : leafDifferences(ownVariables(before), ownVariables(after)))
        out.push_back(std::move(d));
    return out;
}

Value scopeFromFacts(const Value& facts, const std::string& node, const Value& extra)
{
    // The tree NodeScope(NodeFacts{facts, certnameFor(facts, node), {}, extra}) answers from, row by
    // row in the order of hiera/nodescope.h.
    Hash scope;
    // A fact named `environment` is not copied: $environment is the environment's name, which the
    // host adds (NodeScope::ofTree), and the fact stays facts.environment.
    if (facts.isHash())
        for (const auto& e : facts.asHash())
            if (!(e.key == Value("environment")))
                scope.set(e.key, e.value);
    scope.set("facts", facts.isHash() ? facts : Value(Hash()));
    if (const std::string certname = certnameFor(facts, node); !certname.empty()) {
        if (const Value* t = scope.find("trusted"); t && t->isHash()) {
            Hash trusted = t->asHash();
            trusted.set("certname", Value(certname));
            scope.set("trusted", Value(std::move(trusted)));
        } else {
            scope.set("trusted", detail::localTrusted(certname));
        }
    }
    if (extra.isHash())
        for (const auto& e : extra.asHash())
            scope.set(e.key, e.value);
    return Value(std::move(scope));
}

} // namespace hiera
