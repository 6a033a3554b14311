#pragma once

// Command-line arguments of hiera-lookup, parsed without any library so that the command stays a
// plain engine host.

#include <hiera/merge.h>

#include <optional>
#include <string>
#include <vector>

struct CliArgs
{
    std::string config; // the environment: a control repository's directory or its hiera.yaml
    std::string globalConfig; // the global layer's hiera.yaml (puppet lookup's --hiera_config)
    std::string environment = "production";
    std::optional<std::vector<std::string>> modulepath;
    std::vector<std::string> environmentPath; // Puppet's environmentpath (empty: its defaults)
    std::string codedir; // Puppet's codedir (empty: its defaults)
    // --revision REV: the hierarchy and its data read from that commit of the repository holding
    // --config (hiera/gitrevisiontree.h); facts still from the file system. Empty: the files on disk.
    std::string revision;
    bool skipUnsupported = false;
    std::string eyamlPrivateKey;
    bool showSecrets = false;
    std::string factsFile;
    std::string scopeFile;
    std::string node;
    std::optional<hiera::MergeSpec> merge;
    bool explain = false;
    bool noCache = false;
    enum class Format { Yaml, Json, Csv, Table, Markdown, Html } format = Format::Yaml;
    std::string key;
    // What the run does: look KEY up, print every key of the node (--all-keys), or compare the nodes of
    // two facts files key by key (--diff-facts A B; --prefix limits the keys), or look KEY up on every
    // node of a library (--nodes DIR|FILE: a directory of facts files or a PuppetDB export), or compare
    // two nodes of the library (--nodes ... --diff A B). With --nodes, --node NAME picks the node of a
    // lookup or of --all-keys from the library (as puppet lookup --node takes its facts from PuppetDB).
    // --revision-diff OLD [--to NEW]: every key whose answer changes on some node of the library
    // between two revisions (NEW: the working tree when not given); hiera/nodes/revisiondiff.h.
    // --impact FILE: which nodes of the library read a data file, and the keys it decides for them;
    // hiera/nodes/fileimpact.h.
    enum class Mode { Lookup, AllKeys, DiffFacts, Fleet, DiffNodes, RevisionDiff, Impact } mode = Mode::Lookup;
    std::string nodesPath;
    std::vector<std::string> diffFacts;
    std::vector<std::string> diffNodes; // --diff A B: two node names of the library
    std::string prefix;
    std::string revisionDiffFrom; // --revision-diff OLD
    std::string revisionDiffTo; // --to NEW; empty: the working tree
    bool failOnChange = false; // --fail-on-change: exit 3 when anything changed
    std::string impactFile; // --impact FILE
    bool help = false;
    bool version = false;
};

// Throws std::invalid_argument with a message for the user.
CliArgs parseCliArgs(const std::vector<std::string>& args);

extern const char* const kUsage;
