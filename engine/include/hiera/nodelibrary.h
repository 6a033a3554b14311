#pragma once

// hiera::NodeLibrary — the facts of many nodes, loaded once, for looking keys up across a fleet.
//
//   hiera::NodeLibraryOptions options;
//   options.progress = [](std::size_t done, std::size_t total) { ... }; // from worker threads
//   hiera::NodeLibrary library = hiera::NodeLibrary::load("facts/", options);
//   for (const auto& e : library.errors()) std::cerr << e.what() << '\n'; // file:line:col: message
//   const hiera::Node* web = library.find("web01.example.com");
//   engine->lookup(*web->scope, "profile::ntp::servers");
//
// What it reads (the formats `puppet lookup --facts` takes, plus PuppetDB's):
// - a directory: every *.yaml, *.yml and *.json file in it (not recursive), one node per file:
//   `facter -y` / `facter -j` output, `puppet facts` output ({"name": ..., "values": {...}}) and
//   onceover-style factsets; a .json file in it holding a PuppetDB export adds all its nodes;
// - a file: a PuppetDB factsets export — the array `/pdb/query/v4/factsets` returns and
//   `puppet query 'factsets {}'` prints, objects with `certname`, `environment` and `facts`, the facts
//   either as {"data": [{"name": ..., "value": ...}], "href": ...} or as a plain [{name, value}] array —
//   or else one facts file (one node). (hiera/puppetdbexport.h reads and rewrites one node of an export.)
//
// A node's name is PuppetDB's `certname`, else `puppet facts`' `name`, else the facts' `clientcert`,
// `trusted.certname` or `fqdn`, else the file's name without its extension. When two files give the
// same name the first (in file name order) is kept and a warning names both.
//
// A file that cannot be used (unreadable, too big for ParseLimits, not YAML/JSON, empty, not a hash)
// is skipped and becomes one Error naming it (file:line:col where known); the rest still loads.
//
// Memory: identical array and hash subtrees of different nodes (the os hash, a processor list, the
// same mount options) are stored once and shared (hiera::Value shares its storage on copy). A shared
// subtree keeps the marks of the node that was read first, so the SourceMark of a value *inside* a
// node's facts may name another node's file (with that file's line); the facts hash itself and each
// fact's top-level value keep their own file's marks. Facts only feed interpolation, where a mark is
// not reported, so lookups are not affected.

#include <hiera/error.h>
#include <hiera/scope.h>
#include <hiera/value.h>
#include <hiera/yaml.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hiera {

// Where a node's facts came from.
enum class FactsFormat {
    FacterYaml,  // facter -y (or any YAML hash of facts)
    FacterJson,  // facter -j (or any JSON object of facts)
    PuppetFacts, // puppet facts: {"name": certname, "values": {...}}, YAML or JSON
    PuppetDB,    // one entry of a PuppetDB factsets export
};

// "facter-yaml", "facter-json", "puppet-facts", "puppetdb".
const char* factsFormatName(FactsFormat format);

struct Node
{
    std::string name;
    std::string sourceFile; // the file it was read from (a PuppetDB export holds many nodes)
    FactsFormat format = FactsFormat::FacterYaml;
    std::string environment; // PuppetDB's `environment`; empty for other formats
    Value facts;             // a Hash
    // The scope `hiera-lookup --facts FILE --node NAME` builds for this node (scopeFromFacts with the
    // node's name, plus $environment when the facts have none), so that both answer alike.
    std::shared_ptr<const Scope> scope;
};

struct NodeLibraryOptions
{
    unsigned threads = 0; // 0 = every core
    // Called after each file with how many of `total` files are done (a PuppetDB export is one file:
    // it is parsed as one document, on one thread). Called from the worker threads, possibly from several at once: it must be thread-safe
    // and quick (a GUI posts it to its own thread).
    std::function<void(std::size_t done, std::size_t total)> progress;
    // When it becomes true, the load stops within one file per thread and returns the nodes read so
    // far, with cancelled() set. May be null.
    const std::atomic<bool>* cancel = nullptr;
    ParseLimits limits;
    // The top-scope $environment of nodes whose facts do not set one (hiera-lookup's --environment).
    std::string environment = "production";
    // Share identical subtrees between nodes (see above). Off: each node owns all of its facts.
    bool shareSubtrees = true;
};

class NodeLibrary
{
public:
    NodeLibrary() = default;

    // Reads `path` (a directory or a file, see above). Never throws for a bad facts file; throws
    // hiera::Error(Io) only when `path` itself cannot be read as a directory or a file.
    static NodeLibrary load(const std::string& path, const NodeLibraryOptions& options = {});

    // Nodes in file name order (a PuppetDB export's in the export's order).
    const std::vector<Node>& nodes() const { return m_nodes; }
    std::size_t size() const { return m_nodes.size(); }
    bool empty() const { return m_nodes.empty(); }
    const Node* find(std::string_view name) const;

    // One per skipped file (or skipped PuppetDB entry): what() is "file:line:col: message".
    const std::vector<Error>& errors() const { return m_errors; }
    // Duplicate node names, one line each.
    const std::vector<std::string>& warnings() const { return m_warnings; }
    bool cancelled() const { return m_cancelled; }
    const std::string& path() const { return m_path; }
    // Bytes of the facts files that were read.
    std::uint64_t factBytes() const { return m_factBytes; }

private:
    std::string m_path;
    std::vector<Node> m_nodes;
    std::unordered_map<std::string, std::size_t> m_byName;
    std::vector<Error> m_errors;
    std::vector<std::string> m_warnings;
    bool m_cancelled = false;
    std::uint64_t m_factBytes = 0;
};

} // namespace hiera
