#pragma once

// The providers, one per backend kind; made only by makeLevelProvider.

#include "providers/levelprovider.h"

namespace hiera::detail {

std::shared_ptr<const LevelProvider> makeDataHashProvider(const DataHashBackend& backend);
std::shared_ptr<const LevelProvider> makeLookupKeyProvider(const LookupKeyBackend& backend);
std::shared_ptr<const LevelProvider> makeUnrunnableProvider(Error why);

} // namespace hiera::detail
