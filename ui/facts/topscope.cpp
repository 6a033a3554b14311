#include "facts/topscope.h"
#include "models/snapshots.h"

TopScope::TopScope(hiera::Value scope, const std::string& environment) : m_scope(std::move(scope))
{
    if (!environment.empty())
        m_environment = hiera::Value(environment);
}

std::optional<hiera::Value> TopScope::lookup(std::string_view ref) const
{
    if (auto value = m_scope.lookup(ref))
        return value;
    // `environment` and `::environment` alike: both name the top-scope variable. A dotted reference
    // into it (a String) finds nothing, as in Puppet.
    if (ref.substr(0, 2) == "::")
        ref.remove_prefix(2);
    if (ref == "environment")
        return m_environment;
    return std::nullopt;
}

std::shared_ptr<const hiera::Scope> ScopeSnapshot::topScope() const
{
    return std::make_shared<TopScope>(scope, environment);
}
