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
//   or else one facts file (one node). (hiera/nodes/puppetdbexport.h reads and rewrites one node of an export.)
//
// A node's name is PuppetDB's `certname`, else `puppet facts`' `name`, else the facts' `clientcert`,
// `trusted.certname` or `fqdn`, else the file's name without its extension. When two files give the
// same name the first (in file name order) is kept and a warning names both.
//
// A file that cannot be used (unreadable, too big for ParseLimits, not YAML/JSON, empty, not a hash)
// is skipped and becomes one Error naming it (file:line:col where known); the rest still loads.
//
// Memory: the facts are held in a compact store shared by the whole library (engine/src/nodes/
// factstore.h): 8 bytes a value, each distinct string and each distinct array or hash stored once for
// every node that has it (the os hash, a processor list, the same mount options). A node's scope reads
// it in place; Node::facts() decodes a copy. Decoded facts are marked with the node's file (no line):
// facts only feed interpolation, where a mark is not reported.

#include <hiera/error.h>
#include <hiera/nodes/executor.h>
#include <hiera/scope.h>
#include <hiera/value.h>
#include <hiera/yaml.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hiera {

namespace detail {
class FactStore;
class FactsScope;
}

// Where a node's facts came from.
enum class FactsFormat {
    FacterYaml, // facter -y (or any YAML hash of facts)
    FacterJson, // facter -j (or any JSON object of facts)
    PuppetFacts, // puppet facts: {"name": certname, "values": {...}}, YAML or JSON
    PuppetDB, // one entry of a PuppetDB factsets export
};

// "facter-yaml", "facter-json", "puppet-facts", "puppetdb".
const char* factsFormatName(FactsFormat format);

struct Node
{
    std::string name;
    std::string sourceFile; // the file it was read from (a PuppetDB export holds many nodes)
    FactsFormat format = FactsFormat::FacterYaml;
    std::string environment; // PuppetDB's `environment`; empty for other formats
    // The scope `hiera-lookup --facts FILE --node NAME` builds for this node (hiera/nodescope.h: the
    // node's name as certname, $environment when the facts have none), so that both answer alike.
    std::shared_ptr<const Scope> scope;
    // The node's facts (a Hash), decoded from the library's store: a new copy each call, so keep it
    // while it is used (`const Value facts = node.facts();`).
    Value facts() const;

    // The same object as `scope`, with the node's stored facts.
    std::shared_ptr<const detail::FactsScope> storedFacts;
};

struct NodeLibraryOptions
{
    // Where the nodes are worked on (hiera/nodes/executor.h); null: the calling thread only.
    const Executor* executor = nullptr;
    // Called after each file with how many of `total` files are done (a PuppetDB export is one file:
    // it is parsed as one document, on one thread). Called from the worker threads, possibly from several at once: it
    // must be thread-safe and quick (a GUI posts it to its own thread).
    std::function<void(std::size_t done, std::size_t total)> progress;
    // Once a stop is requested, the load stops within one file per thread and returns the nodes read so
    // far, with cancelled() set. May be null.
    std::stop_token stop;
    ParseLimits limits;
    // The top-scope $environment of nodes whose facts do not set one (hiera-lookup's --environment).
    std::string environment = "production";
};

class NodeLibrary
{
public:
    NodeLibrary() = default;

    // Reads `path` (a directory or a file, see above). Never throws for a bad facts file; throws
    // hiera::Error(Io) only when `path` itself cannot be read as a directory or a file.
    static NodeLibrary load(const std::string& path, const NodeLibraryOptions& options = {});
    // A library holding at least the nodes named `names`, reading as little as it can: in a directory,
    // the files named after them (NAME.yaml, NAME.yml, NAME.json) when each of those names its node;
    // else (a name with no such file, a file that names another node, a PuppetDB export) the whole
    // library, as load() does. A name that is not a plain file name (a '/', a leading '.') never picks a
    // file. What `hiera-lookup --nodes DIR --node NAME` reads: one file, not 20,000.
    static NodeLibrary loadNodes(const std::string& path, const std::vector<std::string>& names,
                                 const NodeLibraryOptions& options = {});

    // Nodes in file name order (a PuppetDB export's in the export's order).
    const std::vector<Node>& nodes() const { return m_nodes; }
    std::size_t size() const { return m_nodes.size(); }
    bool empty() const { return m_nodes.empty(); }
    const Node* find(std::string_view name) const;
    // The nodes at `indices` (ascending, each below size()), sharing this library's stored facts: what
    // a job that knows which nodes matter runs over (the nodes reading an edited file,
    // hiera/nodes/editimpact.h). Errors and warnings are not copied.
    NodeLibrary subset(const std::vector<std::size_t>& indices) const;

    // One per skipped file (or skipped PuppetDB entry): what() is "file:line:col: message".
    const std::vector<Error>& errors() const { return m_errors; }
    // Duplicate node names, one line each.
    const std::vector<std::string>& warnings() const { return m_warnings; }
    bool cancelled() const { return m_cancelled; }
    const std::string& path() const { return m_path; }
    // Bytes of the facts files that were read.
    std::uint64_t factBytes() const { return m_factBytes; }
    // Bytes the library's facts take in memory (its store).
    std::size_t storedBytes() const;

private:
    static NodeLibrary loadFiles(const std::string& path, const std::vector<std::string>& files,
                                 const NodeLibraryOptions& options);

    std::string m_path;
    std::vector<Node> m_nodes;
    std::unordered_map<std::string, std::size_t> m_byName;
    std::vector<Error> m_errors;
    std::vector<std::string> m_warnings;
    bool m_cancelled = false;
    std::uint64_t m_factBytes = 0;
    std::shared_ptr<const detail::FactStore> m_store;
};

} // namespace hiera
