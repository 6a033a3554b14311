#pragma once

// What an Engine keeps besides its layers and options, private to the engine: the shared caches and
// one provider per level (made once, from the backend registry).

#include "cache/filecache.h"
#include "config/locationresolver.h"
#include "lookup/nodesnapshot.h"
#include "providers/levelprovider.h"

#include <hiera/engine.h>

#include <memory>
#include <vector>

namespace hiera::detail {

struct EngineState
{
    EngineState(const std::vector<Layer>& layers, const EngineOptions& options);

    std::shared_ptr<const BackendRegistry> backends;
    mutable FileCache files;
    mutable LookupOptionsCache lookupOptions;
    mutable GlobCache globs;
    std::vector<std::vector<std::shared_ptr<const LevelProvider>>> providers; // [layer][level]
};

} // namespace hiera::detail
