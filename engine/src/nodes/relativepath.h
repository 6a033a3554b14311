#pragma once

#include <hiera/sourcelocation.h>

namespace hiera::detail {

using hiera::relativePath;

} // namespace hiera::detail
