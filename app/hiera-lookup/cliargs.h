#pragma once

// Command-line arguments of hiera-lookup, parsed without any library so that the command stays a
// plain engine host.

#include <hiera/merge.h>

#include <optional>
#include <string>
#include <vector>

struct CliArgs
{
    std::string config;       // the environment: a control repository's directory or its hiera.yaml
    std::string globalConfig; // the global layer's hiera.yaml (puppet lookup's --hiera_config)
    std::string environment = "production";
    std::optional<std::vector<std::string>> modulepath;
    bool skipUnsupported = false;
    std::string eyamlPrivateKey;
    bool showSecrets = false;
    std::string factsFile;
    std::string scopeFile;
    std::string node;
    std::optional<hiera::MergeSpec> merge;
    bool explain = false;
    bool noCache = false;
    enum class Format { Yaml, Json, Table, Csv, Markdown } format = Format::Yaml;
    bool formatGiven = false;
    std::string nodesPath; // --nodes: a node library (directory of facts files or a PuppetDB export)
    std::string key;
    bool help = false;
    bool version = false;
};

// Throws std::invalid_argument with a message for the user.
CliArgs parseCliArgs(const std::vector<std::string>& args);

extern const char* const kUsage;
