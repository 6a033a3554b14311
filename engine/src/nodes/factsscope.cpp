#include "nodes/factsscope.h"

#include <hiera/lookupkey.h>

#include <cctype>

namespace hiera::detail {

FactsScope::FactsScope(Value facts, const std::string& node, const Value& extra) : m_facts(std::move(facts))
{
    // The same steps, in the same order, as scopeFromFacts (facts.cpp) after it copies the facts.
    Hash overlay;
    overlay.set("facts", m_facts);
    std::string certname = node;
    if (certname.empty())
        if (const Value* c = m_facts.asHash().find("clientcert"); c && c->isString())
            certname = c->asString();
    if (!certname.empty()) {
        Hash trusted;
        if (const Value* t = m_facts.asHash().find("trusted"); t && t->isHash())
            trusted = t->asHash();
        trusted.set("certname", Value(certname));
        overlay.set("trusted", Value(std::move(trusted)));
    }
    if (extra.isHash())
        for (const auto& e : extra.asHash())
            overlay.set(e.key, e.value);
    m_overlay = Value(std::move(overlay));
}

const Value* FactsScope::root(std::string_view name) const
{
    if (const Value* v = m_overlay.asHash().find(name))
        return v;
    return m_facts.asHash().find(name);
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

} // namespace

std::optional<Value> FactsScope::lookup(std::string_view ref) const
{
    // MapScope::lookup's walk (scope.cpp), with the root taken from the overlay first.
    if (ref.substr(0, 2) == "::")
        ref.remove_prefix(2);
    if (ref.empty())
        return std::nullopt;
    if (LookupKey::isSingleSegment(ref)) {
        if (const Value* v = root(ref))
            return *v;
        return std::nullopt;
    }
    if (isPlainDotted(ref)) {
        const std::size_t dot = ref.find('.');
        const Value* v = root(ref.substr(0, dot));
        for (std::size_t start = dot + 1; v && start <= ref.size();) {
            if (!v->isHash())
                return std::nullopt; // as dig: a scalar, or an array without an index, is not found
            std::size_t end = ref.find('.', start);
            if (end == std::string_view::npos)
                end = ref.size();
            v = v->asHash().find(ref.substr(start, end - start));
            start = end + 1;
        }
        if (v)
            return *v;
        return std::nullopt;
    }
    auto key = LookupKey::tryParse(ref);
    if (!key)
        return std::nullopt;
    const Value* r = root(key->root());
    if (!r)
        return std::nullopt;
    if (const Value* v = dig(*r, key->segments()))
        return *v;
    return std::nullopt;
}

} // namespace hiera::detail
