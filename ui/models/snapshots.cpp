#include "models/snapshots.h"

#include <hiera/nodescope.h>

namespace hiera::ui {

std::shared_ptr<const hiera::Scope> ScopeSnapshot::topScope() const
{
    return std::make_shared<hiera::NodeScope>(hiera::NodeScope::ofTree(scope, environment));
}

} // namespace hiera::ui
