#pragma once

// What one file of a node library holds: the facts of one node (facter, puppet facts, onceover), or
// of many (a PuppetDB factsets export). Recognising the formats and naming the nodes, nothing else.

#include <hiera/error.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/value.h>
#include <hiera/yaml.h>

#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

struct NodeFacts
{
    std::string name; // empty: the caller names the node after the file
    FactsFormat format = FactsFormat::FacterYaml;
    std::string environment;
    Value facts;
    SourceLocation at; // where the node's entry starts (a PuppetDB factset), else the file
};

struct FactsSource
{
    std::vector<NodeFacts> nodes;
    std::vector<Error> errors; // entries of a PuppetDB export that were skipped
};

// The document of a facts file's text: JSON when it starts like JSON (`json` is set), else YAML; as
// hiera::parseFacts does, JSON-looking text that is not strict JSON is read again as YAML (then
// `strictJson`, if given, is false).
Value parseFactsDocument(std::string_view text, const std::string& file, const ParseLimits& limits, bool& json,
                         bool* strictJson = nullptr);

// Parses a file's text. Throws hiera::Error naming `file` when the file as a whole cannot be used.
FactsSource parseFactsSource(std::string_view text, const std::string& file, const ParseLimits& limits);

// The facts of one PuppetDB factset's `facts` member: {"data": [{name, value}...], "href": ...} or
// the bare array. Throws hiera::Error (FactsSyntax) at the offending value.
Value factsFromPuppetDB(const Value& facts);

// The name facts give a node: the certname hiera-lookup --facts gives it (clientcert, fqdn,
// networking.fqdn), else trusted.certname (empty if none).
std::string nameFromFacts(const Value& facts);

// "web01.example.com" for ".../web01.example.com.yaml".
std::string nameFromFile(const std::string& file);

// Throws hiera::Error (FactsSyntax) at `at` when `name` is not a name Puppet gives a node: Puppet's
// certname rule (printable ASCII, no '/'). A node name becomes $trusted.certname and $clientcert, and
// so part of data file paths (`nodes/%{trusted.certname}.yaml`) and of every table and export: a
// PuppetDB export or a facts file naming a node `../../x`, or with a newline or a control byte, is
// refused at the door instead of being read as a path or printed as a row.
void checkNodeName(const std::string& name, const SourceLocation& at);

} // namespace hiera::detail
