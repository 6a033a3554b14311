#pragma once

// hiera::Context — one hierarchy bound to one Scope (a node), for many lookups.
//
//   hiera::Context node(engine, std::make_shared<hiera::MapScope>(facts));
//   node.lookup("profile::ntp.servers.0");
//
// The first lookup resolves every level's locations for this scope, takes the parsed files from the
// engine's cache and merges lookup_options; later lookups reuse all of that, so a warm lookup costs
// little more than the hash lookups of the root key. The files are checked again (stat, and globs
// re-expanded) once EngineOptions::revalidateInterval has passed since the last check (0 = before
// every lookup), or after invalidate().
//
// A Context may be shared between threads; lookups run concurrently once it is warm.
// This is also the seed's façade: hiera.Load(path, scope) then h.Lookup(key).

#include <hiera/engine.h>

#include <memory>
#include <mutex>
#include <string_view>

namespace hiera {

namespace detail {
struct NodeSnapshot;
}

class Context
{
public:
    Context(std::shared_ptr<const Engine> engine, std::shared_ptr<const Scope> scope);
    ~Context();

    // hiera.Load(path, scope): loads the hiera.yaml and binds the scope. Throws hiera::Error.
    static Context load(const std::string& hieraYaml, std::shared_ptr<const Scope> scope, EngineOptions options = {});

    LookupResult lookup(std::string_view key, const LookupRequest& request = {}) const;

    // Forget what was resolved, so that the next lookup checks the files again.
    void invalidate() const;

    const Engine& engine() const { return *m_engine; }
    const std::shared_ptr<const Engine>& enginePtr() const { return m_engine; }
    const Scope& scope() const { return *m_scope; }

private:
    std::shared_ptr<const detail::NodeSnapshot> snapshot(bool explain) const;

    std::shared_ptr<const Engine> m_engine;
    std::shared_ptr<const Scope> m_scope;
    mutable std::mutex m_mutex;
    mutable std::shared_ptr<const detail::NodeSnapshot> m_snapshot;
    mutable std::shared_ptr<const detail::NodeSnapshot> m_explainSnapshot;
};

// The seed's name for the same thing.
using Hiera = Context;

} // namespace hiera
