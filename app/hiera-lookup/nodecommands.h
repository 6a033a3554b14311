#pragma once

// hiera-lookup's whole-node commands over a loaded engine: every key of one node (--all-keys) and
// the keys where two nodes differ (--diff-facts). They take Scopes, not files, so that any source of
// nodes (facts files today, a node library tomorrow) can feed them; printing stays with main().

#include "cliargs.h"

#include <hiera/engine.h>

#include <string>
#include <vector>

struct CommandOutput
{
    std::string out; // for stdout
    std::vector<std::string> errors; // one line each, for stderr
    std::vector<std::string> warnings; // one line each, for stderr
    int exitCode = 0;
};

// Every key of the node in args.format (yaml, json, csv). Exit 0, or 2 when some keys failed.
CommandOutput runAllKeys(const hiera::Engine& engine, const hiera::Scope& scope, const CliArgs& args,
                         const std::string& repositoryRoot);

struct NamedScope
{
    std::string name; // the node's certname, as the report names it
    const hiera::Scope* scope = nullptr;
};

// The keys whose answers differ between `a` and `b`, in args.format (table, markdown, json, csv),
// limited to args.prefix. Exit status as diff(1): 0 no differences, 1 differences; 2 when keys failed
// on both nodes (not compared; each one line on stderr).
CommandOutput runDiff(const hiera::Engine& engine, const NamedScope& a, const NamedScope& b, const CliArgs& args,
                      const std::string& repositoryRoot);
