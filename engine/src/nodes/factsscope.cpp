#include "nodes/factsscope.h"

#include <hiera/lookupkey.h>

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
