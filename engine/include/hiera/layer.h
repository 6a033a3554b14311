#pragma once

// hiera::Layer — one hiera.yaml in Puppet's three layers (docs/layers.md): the global layer (the
// `hiera_config` file), the environment layer (the control repository's hiera.yaml) and one layer per
// module that ships a hiera.yaml. A lookup searches global → environment → module.

#include <hiera/config.h>
#include <hiera/error.h>

#include <optional>

#include <string>

namespace hiera {

struct Layer
{
    enum class Kind { Global, Environment, Module };
    Kind kind = Kind::Global;
    std::string module; // Module layers: the module's name, which is also its key namespace (`ntp::`)
    Config config;
    // A module layer whose hiera.yaml cannot be used: a lookup of a key in its namespace fails with
    // this (as Puppet's does), other keys are not affected.
    std::optional<Error> error;

    // "global", "environment", "module ntp"
    std::string displayName() const;
    // The title Puppet's explain gives the layer's data provider, e.g.
    // `Module "ntp" Data Provider (hiera configuration version 5)`.
    std::string providerTitle() const;
};

const char* layerKindName(Layer::Kind kind); // "global", "environment", "module"

} // namespace hiera
