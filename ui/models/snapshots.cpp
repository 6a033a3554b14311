#include "models/snapshots.h"

#include <hiera/nodescope.h>

std::shared_ptr<const hiera::Scope> ScopeSnapshot::topScope() const
{
    return std::make_shared<hiera::NodeScope>(hiera::NodeScope::ofTree(scope, environment));
}
