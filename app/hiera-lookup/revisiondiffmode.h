#pragma once

// hiera-lookup --revision-diff: what a change to the data does to every node of a library.

#include "cliargs.h"
#include "nodecommands.h"

#include <hiera/engine.h>

#include <string>

// Loads the library named by args.nodesPath, diffs every node's answers between `before` and `after`
// (hiera/nodes/revisiondiff.h) and prints the result in args.format, files named relative to
// `repositoryRoot`. `from` and `to` name the two revisions. Exit 0, or 3 with --fail-on-change when
// an answer changed.
CommandOutput runRevisionDiff(const hiera::Engine& before, const hiera::Engine& after, const std::string& from,
                              const std::string& to, const CliArgs& args, const std::string& repositoryRoot);
