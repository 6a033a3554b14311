#pragma once

// A node library's scope: what MapScope(scopeFromFacts(facts, name, extra)) answers, read from the
// library's FactStore. Nothing is copied per node: `facts`, the facts' own names and a dotted walk into
// them are answered from the store (only the value found is decoded); `trusted` is the facts' trusted
// hash with the node's certname set; the extras (a Hash shared by every node) win over everything.

#include "nodes/factstore.h"

#include <hiera/scope.h>

#include <memory>
#include <string>

namespace hiera::detail {

class FactsScope : public Scope
{
public:
    // `facts`: a hash cell of `store`; `mark`: what every value read here is marked with (the node's
    // file); `extra`: a Hash of variables that win over everything (or null).
    FactsScope(std::shared_ptr<const FactStore> store, FactStore::Cell facts, SourceMark mark, std::string certname,
               Value extra);

    // The certname scopeFromFacts gives `trusted`: the node's name, else the facts' clientcert.
    static std::string certnameFor(const Value& facts, const std::string& node);

    std::optional<Value> lookup(std::string_view ref) const override;
    // The node's facts, decoded (a Hash).
    Value facts() const { return m_store->value(m_facts, m_mark); }

private:
    // Where a top-scope name is answered from: one of the extras, the trusted hash, or a stored cell.
    struct Root
    {
        const Value* value = nullptr;
        bool trusted = false;
        std::optional<FactStore::Cell> cell;
    };
    Root root(std::string_view name) const;
    Value trusted() const;
    std::optional<Value> decoded(std::optional<FactStore::Cell> cell) const;

    std::shared_ptr<const FactStore> m_store;
    FactStore::Cell m_facts;
    SourceMark m_mark;
    std::string m_certname; // empty: no trusted overlay
    Value m_extra;
};

} // namespace hiera::detail
