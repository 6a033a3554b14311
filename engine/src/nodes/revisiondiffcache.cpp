// RevisionDiffCache (hiera/nodes/revisiondiffcache.h): the sides and nodes a revision diff keeps
// between runs, and when a kept one still names the same engine and node.

#include "nodes/revisiondiffkept.h"

#include <hiera/nodes/revisiondiffcache.h>

namespace hiera {

namespace detail {

KeptNode& KeptSide::node(std::size_t index, const std::shared_ptr<const Scope>& scope)
{
    KeptNode& k = nodes[index];
    if (k.scope != scope) {
        k = KeptNode{};
        k.scope = scope;
    }
    return k;
}

KeptSide* RevisionDiffKept::side(const Engine& engine, const KeptSide* other, std::size_t nodes)
{
    // The working tree (no tree) is never fixed; another tree says path by path (KeptNode::fixed).
    if (!engine.options().tree)
        return nullptr;
    KeptSide* found = nullptr;
    for (KeptSide& s : sides)
        if (s.engine.get() == &engine)
            found = &s;
    if (!found) {
        std::shared_ptr<const Engine> held;
        try {
            held = engine.shared_from_this();
        } catch (const std::bad_weak_ptr&) {
            return nullptr; // not owned by a shared_ptr: its address could be reused by another
        }
        found = &sides[0] == other                 ? &sides[1]
            : &sides[1] == other                   ? &sides[0]
            : sides[0].lastUse <= sides[1].lastUse ? &sides[0]
                                                   : &sides[1];
        *found = KeptSide{};
        found->engine = std::move(held);
        comparison.reset(); // it may name the side replaced
    }
    found->lastUse = ++uses;
    if (found->nodes.size() != nodes)
        found->nodes.resize(nodes); // entries keyed by scope: a node moved in the library is made anew
    return found;
}

std::shared_ptr<const KeptComparison> RevisionDiffKept::comparisonOf(const Engine& before, const Engine& after,
                                                                     const std::vector<Node>& nodes) const
{
    if (!comparison || comparison->before.get() != &before || comparison->after.get() != &after
        || comparison->scopes.size() != nodes.size())
        return nullptr;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (comparison->scopes[i] != nodes[i].scope)
            return nullptr;
    return comparison;
}

} // namespace detail

RevisionDiffCache::RevisionDiffCache() : m_kept(std::make_unique<detail::RevisionDiffKept>())
{
}

RevisionDiffCache::~RevisionDiffCache() = default;

void RevisionDiffCache::clear()
{
    m_kept = std::make_unique<detail::RevisionDiffKept>();
}

std::size_t RevisionDiffCache::keptNodes() const
{
    std::size_t n = 0;
    for (const detail::KeptSide& side : m_kept->sides)
        for (const detail::KeptNode& k : side.nodes)
            n += k.lookups ? 1 : 0;
    return n;
}

} // namespace hiera
