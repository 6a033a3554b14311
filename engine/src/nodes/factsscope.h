#pragma once

// A node library's scope: what MapScope(scopeFromFacts(facts, name, extra)) answers, without copying
// every top-level fact into a second hash per node (a fifth of a fleet's memory). The few entries
// scopeFromFacts adds or replaces (facts, trusted, the extras) sit in a small overlay that wins; every
// other name is read from the facts hash itself.

#include <hiera/scope.h>

#include <string>

namespace hiera::detail {

class FactsScope : public Scope
{
public:
    // `facts` must be a Hash. `extra`: a Hash of variables that win over everything (or null).
    FactsScope(Value facts, const std::string& node, const Value& extra);

    std::optional<Value> lookup(std::string_view ref) const override;

private:
    const Value* root(std::string_view name) const;

    Value m_facts;
    Value m_overlay; // a Hash
};

} // namespace hiera::detail
