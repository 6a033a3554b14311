#pragma once

// hiera-lookup --nodes: one key across a node library.

#include "cliargs.h"

#include <hiera/engine.h>

// Loads the library named by args.nodesPath, looks args.key up on every node and prints the result
// in args.format. Bad facts files are named on stderr, one line each. Returns the exit status.
int runFleet(const hiera::Engine& engine, const CliArgs& args);
