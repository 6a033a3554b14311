#pragma once

// hiera-lookup --revision-diff: what a change to the data does to every node of a library.

#include "cliargs.h"
#include "nodecommands.h"

#include <hiera/engine.h>
#include <hiera/nodes/nodelibrary.h>

#include <string>

// Diffs every node's answers of `library` (the one named by args.nodesPath) between `before` and
// `after` (hiera/nodes/revisiondiff.h) and prints the result in args.format, files named relative to
// `repositoryRoot`. `from` and `to` name the two revisions. Exit 0, or 3 with --fail-on-change when
// an answer changed. The library is the caller's, so that the process can end without freeing it
// (main.cpp, exitWithoutFreeing).
CommandOutput runRevisionDiff(const hiera::Engine& before, const hiera::Engine& after,
                              const hiera::NodeLibrary& library, const std::string& from, const std::string& to,
                              const CliArgs& args, const std::string& repositoryRoot);
