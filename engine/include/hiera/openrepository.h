#pragma once

// Opening a control repository as every host does (hiera-lookup, the explorer's window, its revision
// diff and impact views): Puppet's three layers discovered at a path (Environment::discover) and an
// engine made over them, both reading the same tree (the working directory, or a git revision).
//
//   hiera::OpenedRepository repo = hiera::openRepository("/src/control-repo", environmentOptions,
//                                                        engineOptions, hiera::openRevision(root, "main"));
//   repo.engine->lookup(scope, "profile::ntp::servers");

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/sourcetree.h>

#include <memory>
#include <string>
#include <vector>

namespace hiera {

struct OpenedRepository
{
    std::shared_ptr<Engine> engine;
    std::string root; // the environment's directory: reports name files relative to it
    std::string name; // $environment
    std::vector<std::string> warnings, notices; // Environment's, for the host to show
};

// `path`: the environment directory or a hiera.yaml in it. `tree` (null: the working directory) is set
// on both option sets. Throws hiera::Error as Environment::discover does; with `nameTheTree`, its
// message starts with which tree could not be read ("commit 1a2b3c (revision main): …", "the working
// tree: …"), for hosts that open two.
OpenedRepository openRepository(const std::string& path, EnvironmentOptions environment, EngineOptions engine,
                                std::shared_ptr<const SourceTree> tree = nullptr, bool nameTheTree = false);

} // namespace hiera
