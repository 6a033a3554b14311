#include "nodes/factsscope.h"

#include <hiera/lookupkey.h>

#include <cctype>

namespace hiera::detail {

FactsScope::FactsScope(std::shared_ptr<const FactStore> store, FactStore::Cell facts, SourceMark mark,
                       std::string certname, Value extra)
    : m_store(std::move(store))
    , m_facts(facts)
    , m_mark(mark)
    , m_certname(std::move(certname))
    , m_extra(std::move(extra))
{
}

std::string FactsScope::certnameFor(const Value& facts, const std::string& node)
{
    // scopeFromFacts (facts.cpp): the node's name, else the facts' clientcert when it is a string.
    if (!node.empty() || !facts.isHash())
        return node;
    if (const Value* c = facts.asHash().find("clientcert"); c && c->isString())
        return c->asString();
    return {};
}

FactsScope::Root FactsScope::root(std::string_view name) const
{
    // scopeFromFacts' order: `facts` and `trusted` are set over the facts' own names, the extras over all.
    if (m_extra.isHash())
        if (const Value* v = m_extra.asHash().find(name))
            return {v, false, std::nullopt};
    if (name == "trusted" && !m_certname.empty())
        return {nullptr, true, std::nullopt};
    if (name == "facts")
        return {nullptr, false, m_facts};
    return {nullptr, false, m_store->find(m_facts, name)};
}

Value FactsScope::trusted() const
{
    Value t = Value(Hash());
    if (const auto stored = m_store->find(m_facts, "trusted"); stored && m_store->type(*stored) == Value::Type::Hash)
        t = m_store->value(*stored, m_mark);
    t.mutableHash().set("certname", Value(m_certname));
    t.setMark(m_mark);
    return t;
}

std::optional<Value> FactsScope::decoded(std::optional<FactStore::Cell> cell) const
{
    if (!cell)
        return std::nullopt;
    return m_store->value(*cell, m_mark);
}

namespace {

// A dotted reference of plain segments (facts.os.family, trusted.certname): what every hierarchy path
// of a fleet interpolates, once a level a node. Such a reference needs no LookupKey (parsing one costs
// more than the walk): no quotes or blanks, so segments are verbatim, and no all-digit segment, so each
// step is a string key of a hash. Anything else returns false and takes the general path.
bool isPlainDotted(std::string_view ref)
{
    bool first = true, digitsOnly = true;
    std::size_t length = 0;
    for (const char c : ref) {
        if (c == '.') {
            if (length == 0 || (digitsOnly && !first))
                return false;
            first = false;
            digitsOnly = true;
            length = 0;
            continue;
        }
        if (c == '\'' || c == '"' || std::isspace(static_cast<unsigned char>(c)))
            return false;
        digitsOnly = digitsOnly && c >= '0' && c <= '9';
        ++length;
    }
    return length != 0 && !digitsOnly && !first;
}

// Splits a plain dotted reference's segments after the first, in order.
class Segments
{
public:
    explicit Segments(std::string_view rest) : m_rest(rest) { }
    bool next(std::string_view& segment)
    {
        if (m_done)
            return false;
        const std::size_t dot = m_rest.find('.');
        segment = m_rest.substr(0, dot);
        if (dot == std::string_view::npos)
            m_done = true;
        else
            m_rest.remove_prefix(dot + 1);
        return true;
    }

private:
    std::string_view m_rest;
    bool m_done = false;
};

} // namespace

std::optional<Value> FactsScope::lookup(std::string_view ref) const
{
    // MapScope::lookup's walk (scope.cpp) over what root() answers.
    if (ref.substr(0, 2) == "::")
        ref.remove_prefix(2);
    if (ref.empty())
        return std::nullopt;
    if (LookupKey::isSingleSegment(ref)) {
        const Root r = root(ref);
        if (r.value)
            return *r.value;
        if (r.trusted)
            return trusted();
        return decoded(r.cell);
    }
    if (isPlainDotted(ref)) {
        const std::size_t dot = ref.find('.');
        Segments segments(ref.substr(dot + 1));
        std::string_view segment;
        const Root r = root(ref.substr(0, dot));
        if (r.value) {
            const Value* v = r.value;
            while (v && segments.next(segment))
                v = v->isHash() ? v->asHash().find(segment)
                                : nullptr; // as dig: a scalar or an unindexed array is not found
            return v ? std::optional<Value>(*v) : std::nullopt;
        }
        std::optional<FactStore::Cell> c = r.cell;
        if (r.trusted) {
            segments.next(segment);
            if (segment == "certname")
                return segments.next(segment) ? std::nullopt : std::optional<Value>(Value(m_certname).withMark(m_mark));
            c = m_store->find(m_facts, "trusted");
            c = c ? m_store->find(*c, segment) : std::nullopt;
        }
        while (c && segments.next(segment))
            c = m_store->find(*c, segment);
        return decoded(c);
    }
    auto key = LookupKey::tryParse(ref);
    if (!key)
        return std::nullopt;
    const Root r = root(key->root());
    if (r.value) {
        if (const Value* v = dig(*r.value, key->segments()))
            return *v;
        return std::nullopt;
    }
    if (r.trusted) {
        const std::vector<KeySegment>& segments = key->segments();
        if (segments.empty())
            return trusted();
        if (segments.front().text == "certname") {
            if (segments.size() == 1)
                return Value(m_certname).withMark(m_mark);
            return std::nullopt; // a string in the way
        }
        // The facts' trusted hash under the certname; a trusted fact that is not a hash is replaced.
        const auto stored = m_store->find(m_facts, "trusted");
        if (!stored || m_store->type(*stored) != Value::Type::Hash)
            return std::nullopt;
        return decoded(m_store->dig(*stored, segments));
    }
    return decoded(r.cell ? m_store->dig(*r.cell, key->segments()) : std::nullopt);
}

} // namespace hiera::detail
