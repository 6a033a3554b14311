#include "lookup/nodesnapshot.h"
#include "lookup/snapshotbuilder.h"

#include "lookup/lookuprun.h"

#include <hiera/context.h>

#include <chrono>

namespace hiera {

Context::Context(std::shared_ptr<const Engine> engine, std::shared_ptr<const Scope> scope)
    : m_engine(std::move(engine))
    , m_scope(scope ? std::move(scope) : std::make_shared<MapScope>())
{
}

Context::~Context() = default;

Context Context::load(const std::string& hieraYaml, std::shared_ptr<const Scope> scope, EngineOptions options)
{
    return Context(Engine::load(hieraYaml, std::move(options)), std::move(scope));
}

std::shared_ptr<const detail::NodeSnapshot> Context::snapshot(bool explain) const
{
    const long long now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    const long long interval = m_engine->options().revalidateInterval.count() * 1000000LL;
    std::lock_guard lock(m_mutex);
    auto& slot = explain ? m_explainSnapshot : m_snapshot;
    if (slot && interval > 0 && now - slot->checkedAtNs < interval)
        return slot;
    slot = detail::buildSnapshot(*m_engine, *m_scope, explain, slot.get());
    return slot;
}

LookupResult Context::lookup(std::string_view key, const LookupRequest& request) const
{
    auto snap = snapshot(request.explain);
    detail::LookupRun run(*m_engine, *m_scope, *snap, request.explain);
    return run.run(key, request);
}

void Context::invalidate() const
{
    std::lock_guard lock(m_mutex);
    m_snapshot.reset();
    m_explainSnapshot.reset();
}

} // namespace hiera
