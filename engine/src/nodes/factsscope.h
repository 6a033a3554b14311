#pragma once

// A node library's scope: what NodeScope (hiera/nodescope.h) answers for the node, read from the
// library's FactStore. Nothing is copied per node: `facts`, the facts' own names and a dotted walk into
// them are answered from the store (only the value found is decoded), by the walk NodeScope runs over
// decoded facts (hiera/topscopewalk.h).

#include "nodes/factstore.h"

#include <hiera/scope.h>

#include <memory>
#include <string>

namespace hiera::detail {

class FactsScope : public Scope
{
public:
    // `facts`: a hash cell of `store`; `mark`: what every value read here is marked with (the node's
    // file); `certname`: the trusted overlay's (empty: none); `environment`: $environment (empty: none).
    FactsScope(std::shared_ptr<const FactStore> store, FactStore::Cell facts, SourceMark mark, std::string certname,
               std::string environment);

    std::optional<Value> lookup(std::string_view ref) const override;
    // The node's facts, decoded (a Hash).
    Value facts() const { return m_store->value(m_facts, m_mark); }

private:
    std::shared_ptr<const FactStore> m_store;
    FactStore::Cell m_facts;
    SourceMark m_mark;
    std::string m_certname;
    Value m_environment; // null: none
};

} // namespace hiera::detail
