#pragma once

// hiera::Environment — Puppet's three layers found from a control repository (docs/layers.md §1):
//
//   hiera::Environment env = hiera::Environment::discover("/srv/control-repo");   // or its hiera.yaml
//   auto engine = hiera::Engine::fromLayers(env.layers);
//   scope: set the top-scope variable `environment` to env.name, as `puppet lookup` does
//
// - the global layer: the hiera.yaml named in EnvironmentOptions::globalHieraYaml, if any;
// - the environment layer: <root>/hiera.yaml, if present;
// - one module layer per module on the modulepath that has a hiera.yaml (version 5; others are left out
//   with a warning). The modulepath is EnvironmentOptions::modulepath, else environment.conf's
//   `modulepath`, else `site:site-modules:modules` (see docs/engine-semantics.md). The first module of
//   a name wins, as on Puppet's modulepath.

#include <hiera/layer.h>
#include <hiera/sourcetree.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct EnvironmentOptions
{
    std::string name = "production"; // $environment, as `puppet lookup --environment` (its default)
    // Directories searched for modules, in order; relative ones are relative to the environment root.
    // Unset: environment.conf's modulepath.
    std::optional<std::vector<std::string>> modulepath;
    std::string globalHieraYaml; // the global layer's hiera.yaml (Puppet's hiera_config); empty: none
    // Where Puppet deploys environments (its environmentpath: the directory opened is taken as
    // <dir>/<name>) and its codedir. Empty: Puppet's defaults, /etc/puppetlabs/code/environments
    // (codedir /etc/puppetlabs/code) and Debian's /etc/puppet/code/environments (/etc/puppet/code). An
    // environmentpath given alone implies its parent as codedir; a codedir alone, <codedir>/environments.
    std::vector<std::string> environmentPath;
    std::string codedir;
    // Where hiera.yaml files, environment.conf and module folders are read from (hiera/sourcetree.h).
    // Null: the working tree. An Engine made from the layers is given the same tree in EngineOptions.
    std::shared_ptr<const SourceTree> tree;
};

struct Environment
{
    std::string root; // the environment's directory (absolute)
    std::string name; // $environment
    std::vector<std::string> modulepath; // absolute directories searched, in order
    std::vector<Layer> layers; // global, environment, modules (alphabetical)
    std::vector<std::string> warnings; // layers left out, modulepath entries that cannot be read...
    // One line for each hiera.yaml whose absolute datadirs or paths name the deployed environment and
    // are read from the checkout instead (EnvironmentOptions::environmentPath).
    std::vector<std::string> notices;

    // `path`: the environment directory, or a hiera.yaml in it. Throws hiera::Error when the
    // environment's or the global hiera.yaml cannot be parsed, or when neither exists; a broken module
    // hiera.yaml only makes that module's layer fail (Layer::error).
    static Environment discover(const std::string& path, const EnvironmentOptions& options = {});
};

} // namespace hiera
