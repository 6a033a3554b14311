#include "nodes/factsscope.h"

#include <hiera/topscopewalk.h>

namespace hiera::detail {

namespace {

// The facts of one node in the store: a position is a cell.
struct StoredFacts
{
    using Handle = FactStore::Cell;

    const FactStore& store;
    Handle facts;
    SourceMark mark;

    Handle whole() const { return facts; }
    std::optional<Handle> find(Handle hash, std::string_view key) const { return store.find(hash, key); }
    std::optional<Handle> dig(Handle root, const std::vector<KeySegment>& segments) const
    {
        return store.dig(root, segments);
    }
    bool isHash(Handle h) const { return store.type(h) == Value::Type::Hash; }
    Value value(Handle h) const { return store.value(h, mark); }
};

const Value& noVariables()
{
    static const Value none;
    return none;
}

} // namespace

FactsScope::FactsScope(std::shared_ptr<const FactStore> store, FactStore::Cell facts, SourceMark mark,
                       std::string certname, std::string environment)
    : m_store(std::move(store))
    , m_facts(facts)
    , m_mark(mark)
    , m_certname(std::move(certname))
    , m_environment(environment.empty() ? Value() : Value(std::move(environment)))
{
}

std::optional<Value> FactsScope::lookup(std::string_view ref) const
{
    const StoredFacts facts{*m_store, m_facts, m_mark};
    return TopScopeWalk<StoredFacts>(facts, noVariables(), m_certname, m_environment, m_mark).lookup(ref);
}

} // namespace hiera::detail
