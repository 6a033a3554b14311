#pragma once

// hiera-lookup --impact: which nodes of a library read a data file, and the keys it decides for them.

#include "cliargs.h"
#include "nodecommands.h"

#include <hiera/engine.h>

#include <string>

// Loads the library named by args.nodesPath and prints hiera::fileImpact of args.impactFile (a path
// from the current directory, or else from `repositoryRoot`) in args.format, files named relative to
// `repositoryRoot`. Exit 0; 2 when the file does not exist, is a directory or does not parse (the
// document is printed all the same: the nodes that read it).
CommandOutput runImpact(const hiera::Engine& engine, const CliArgs& args, const std::string& repositoryRoot);
