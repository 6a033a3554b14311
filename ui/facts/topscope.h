#pragma once

// TopScope — the scope a lookup runs with: the facts' scope tree, plus the top-scope variable Puppet
// sets itself that facts files do not carry: `environment`, the environment's name, as `puppet lookup`
// sets it. A fact or variable of that name in the scope wins, as it does there.
//
// Made on a worker for every job (cheap: it shares the scope tree and adds no copy of it).

#include <hiera/scope.h>

#include <string>

class TopScope final : public hiera::Scope
{
public:
    TopScope(hiera::Value scope, const std::string& environment);

    std::optional<hiera::Value> lookup(std::string_view ref) const override;

private:
    hiera::MapScope m_scope;
    std::optional<hiera::Value> m_environment; // unset for an empty name
};
