#pragma once

// One top-level lookup's invocation (Puppet's pops/lookup/invocation.rb): the engine and scope it runs
// against, whether it is explained, the stack of names being looked up (a name met again is a
// recursion; docs/hiera-reference.md §5), the nesting and size limits of its interpolations, and the
// warnings it collects. Shared by the layer search and the sub-lookups of that one lookup; nothing of
// it outlives the lookup.

#include <hiera/engine.h>

#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

class Invocation
{
public:
    Invocation(const Engine& engine, const Scope& scope, bool explain)
        : m_engine(engine)
        , m_scope(scope)
        , m_explain(explain)
    {
    }

    const Engine& engine() const { return m_engine; }
    const EngineOptions& options() const { return m_engine.options(); }
    const Scope& scope() const { return m_scope; }
    bool explain() const { return m_explain; }

    // The name stack. push returns false when `name` is already on it (a recursion) and throws past
    // EngineOptions::maxInterpolationDepth. The names are owned by the callers, which pop them.
    bool pushName(std::string_view name);
    void popName() { m_names.pop_back(); }
    // "[a, b, c]": the names on the stack, for the recursion and depth errors.
    std::string nameChain() const;
    std::size_t depth() const { return m_names.size(); }

    std::size_t maxDepth() const { return options().maxInterpolationDepth; }
    std::size_t maxBytes() const { return options().maxInterpolatedBytes; }

    // Each distinct warning once, in the order first met.
    void warn(const std::string& message);
    const std::vector<std::string>& warnings() const { return m_warnings; }
    // For a second look that must leave the first one's warnings as they were.
    void restoreWarnings(std::vector<std::string> warnings) { m_warnings = std::move(warnings); }
    std::vector<std::string> takeWarnings() { return std::move(m_warnings); }

private:
    const Engine& m_engine;
    const Scope& m_scope;
    bool m_explain;
    std::vector<std::string_view> m_names;
    std::vector<std::string> m_warnings;
};

} // namespace hiera::detail
