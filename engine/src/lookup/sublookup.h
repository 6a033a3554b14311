#pragma once

// The sub-lookups of one top-level lookup: lookup(), hiera() and alias() inside data (docs/hiera-reference.md
// §5), as the interpolation host. A nested key is looked up by the lookup it is nested in
// (NestedLookups), under the invocation's name stack, which catches a recursion; answers can be kept
// across the lookups of one node (SubLookupMemo).

#include "interpolate/interpolation.h"
#include "lookup/invocation.h"

#include <hiera/lookupkey.h>

#include <optional>
#include <string>
#include <unordered_map>

namespace hiera::detail {

// Answers of sub-lookups by key, kept across the lookups of one node by hosts that look up many of its
// keys (the all-keys view, the node diff). Only answers that completed are kept: an answer does not
// depend on which lookup asked for it (a recursion through the key would fail it everywhere, so it is
// never kept), except for the nesting limit (EngineOptions::maxInterpolationDepth), which a kept answer
// no longer meets deeper down. The warnings of a kept answer come with the lookup that made it only.
// Not thread-safe: one per thread.
using SubLookupMemo = std::unordered_map<std::string, std::optional<Value>>;

// What a sub-lookup asks of the lookup it is nested in: `key` looked up with its own lookup_options
// and no caller's merge; nullopt when not found. Throws hiera::Error.
class NestedLookups
{
public:
    virtual std::optional<Value> lookupNested(const LookupKey& key, TraceCursor trace) = 0;

protected:
    ~NestedLookups() = default;
};

class SubLookup final : public InterpolationHost
{
public:
    SubLookup(Invocation& invocation, NestedLookups& lookups) : m_invocation(invocation), m_lookups(lookups) { }
    SubLookup(const SubLookup&) = delete;
    SubLookup& operator=(const SubLookup&) = delete;

    void setMemo(SubLookupMemo* memo) { m_memo = memo; }

    // InterpolationHost
    const Scope& scope() const override { return m_invocation.scope(); }
    std::optional<Value> subLookup(const std::string& key, TraceCursor trace) override;
    bool pushName(const std::string& name) override { return m_invocation.pushName(name); }
    void popName() override { m_invocation.popName(); }
    std::string nameChain(const std::string&) const override { return m_invocation.nameChain(); }
    std::size_t maxDepth() const override { return m_invocation.maxDepth(); }
    std::size_t maxBytes() const override { return m_invocation.maxBytes(); }
    void warn(const std::string& message) override { m_invocation.warn(message); }

private:
    Invocation& m_invocation;
    NestedLookups& m_lookups;
    SubLookupMemo* m_memo = nullptr;
};

} // namespace hiera::detail
