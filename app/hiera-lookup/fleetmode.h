#pragma once

// hiera-lookup --nodes: one key across a node library.

#include "cliargs.h"

#include <hiera/engine.h>
#include <hiera/nodes/executor.h>
#include <hiera/nodes/nodelibrary.h>

#include <string>
#include <vector>

// Loads the library named by args.nodesPath, looks args.key up on every node and prints the result
// in args.format, files named relative to `repositoryRoot`. Bad facts files are named on stderr, one line
// each. Returns the exit status.
int runFleet(const hiera::Engine& engine, const CliArgs& args, const std::string& repositoryRoot);

// The threads the many-node commands run on: every core (hiera::ThreadExecutor), made once.
const hiera::Executor& commandLineExecutor();

// Loads the library named by args.nodesPath (with `names`, only what holds those nodes when it can:
// NodeLibrary::loadNodes); bad facts files are named on stderr, one line each.
// Throws hiera::Error when no node at all could be read.
hiera::NodeLibrary loadNodeLibrary(const CliArgs& args, const std::vector<std::string>& names);
// The library's node of that name. Throws hiera::Error saying that it is not there.
const hiera::Node& libraryNode(const hiera::NodeLibrary& library, const std::string& name);
