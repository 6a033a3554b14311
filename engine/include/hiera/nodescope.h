#pragma once

// A node's top scope as Puppet hands it to Hiera, built the same way for every host: hiera-lookup's
// --facts/--node/--scope, each node of a node library, and the explorer's fact tree
// (docs/hiera-reference.md, "The node's scope"). What a lookup sees, highest first:
//
//   the host's variables    a --scope file, the fact tree's own top-level rows: win over everything
//   environment             the environment's name (a fact called `environment` never answers for
//                           it: that one is facts.environment only, as in Puppet)
//   trusted                 the facts' `trusted` hash (when it is one) with `certname` set to the
//                           node's certname; without one, Puppet's local trusted hash (certname,
//                           hostname and domain split at its first dot, authenticated: local);
//                           absent when there is no certname
//   facts                   the facts hash
//   <name>                  each fact, as the top-scope variable of the same name
//
// NodeScope answers these lookups without building that tree: it is an overlay over the facts, as the
// node library's compact store is (both run the one walk in hiera/topscopewalk.h). scopeFromFacts
// (below) builds the tree itself, for a host that shows or saves it.

#include <hiera/scope.h>
#include <hiera/valuediff.h>

#include <string>

namespace hiera {

// The scope tree for facts, materialised: {<each fact but `environment`>: value, facts: F, trusted:
// {...}}, then the entries of `extra` over all; trusted.certname is certnameFor(facts, node), and
// without a `trusted` hash in the facts, trusted is Puppet's local one (hostname and domain split from
// the certname). $environment is not in it: NodeScope::ofTree adds the environment's name. A lookup in
// it answers as NodeScope does, for a host that shows or saves the tree (the explorer's fact tree).
Value scopeFromFacts(const Value& facts, const std::string& node = {}, const Value& extra = {});

// The certname Puppet would give a node whose facts these are: `node` when given (puppet lookup
// --node), else the clientcert fact, else the fqdn fact, else networking.fqdn (what an agent's
// certname defaults to). Empty when none is a string. Throws hiera::Error (FactsSyntax) when the name
// it finds, or the facts' own trusted.certname, fails checkCertname: one rule for a node's name,
// wherever it comes from (a facts file, --node, a node library, a PuppetDB export).
std::string certnameFor(const Value& facts, const std::string& node = {});

// Throws hiera::Error (FactsSyntax) at `at` when `name` cannot be a node's certname: Puppet's rule
// (printable ASCII, no '/'), and not `.` or `..`. A certname becomes part of data file paths
// (`nodes/%{trusted.certname}.yaml`, `nodes/%{trusted.certname}/common.yaml`), so a name that is a path
// of its own would read outside the repository; an empty name passes (no certname).
void checkCertname(const std::string& name, const SourceLocation& at = {});

struct NodeFacts
{
    Value facts; // a Hash (anything else is no facts)
    std::string certname; // empty: no `trusted` overlay (certnameFor finds the usual one)
    std::string environment; // empty: no $environment
    Value variables; // a Hash of top-scope variables that win over everything (or null)
};

class NodeScope final : public Scope
{
public:
    explicit NodeScope(NodeFacts node);

    // The scope of a materialised scope tree (what scopeFromFacts builds and the explorer's fact tree
    // edits): its rows are the variables, plus $environment.
    static NodeScope ofTree(Value tree, std::string environment);

    std::optional<Value> lookup(std::string_view ref) const override;

    const NodeFacts& node() const { return m_node; }

private:
    NodeFacts m_node;
    Value m_environment; // m_node.environment as a Value (null when empty), made once
};

// How two scope trees (scopeFromFacts') differ, fact by fact: the facts' leaves as facts.<path>, then
// the variables of their own (a top-level row that is not its fact's copy) by name. A fact changed is
// listed once, not again as its top-scope copy. What an explanation report lists for edited facts.
std::vector<LeafDifference> scopeDifferences(const Value& before, const Value& after);

} // namespace hiera
