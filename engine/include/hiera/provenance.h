#pragma once

// Where an answer comes from, source by source. Decided from the answer itself: every value the engine
// reads keeps the file:line it was written at (its SourceMark) through merges, digs and knockouts, so a
// source contributed exactly when some leaf of the answer carries its file. Every view that says which
// files contributed (the Sources tab, the summary, the source pane, the override chain, reports, the
// CLI) asks here, so that they cannot disagree (docs/provenance.md).
//
//   const hiera::LookupResult r = engine.lookup(scope, "profile::ntp.servers.1", {.explain = true});
//   for (const hiera::SourceContribution& s : hiera::sourceContributions(*r.trace)) ...

#include <hiera/trace.h>
#include <hiera/value.h>

#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct SourceContribution
{
    enum class Outcome {
        Won, // first found: this source's value is the answer
        Merged, // a merge: some leaf of the answer comes from here
        Shadowed, // first found: found, but a source above won
        Overridden, // a merge: found, but no leaf of the answer is its own (replaced, or a duplicate)
        Removed, // a deep merge: what it holds at the key was knocked out by a source above
        RootOnly, // a dotted key: holds the root key, nothing at the dotted path
        NotFound, // the file has no such key
        Missing, // the file does not exist
        Failed, // the file could not be used (message says why)
        NoFiles, // the level yields no candidate files for this node
    };

    std::string layer; // the data provider: "global", "environment", a module's name
    std::string level; // the hierarchy entry
    std::string path; // the file (resolved); empty for a level without files
    std::string originalPath; // as written in hiera.yaml (a glob: the pattern)
    Outcome outcome = Outcome::NotFound;
    std::optional<Value> value; // found: the source's value of the root key
    SourceLocation location; // where that value (or the error) is written
    std::string message; // Failed: the error
    std::size_t leaves = 0; // how many leaves of the answer come from this file
    SourceLocation leafLocation; // where the first of them is written (contributed sources)
    // Where every view points for this source: the dug leaf for a dotted key's contributing source
    // (the root key's line says nothing about servers.1), else `location`.
    SourceLocation shownAt;

    bool contributed() const { return outcome == Outcome::Won || outcome == Outcome::Merged; }
};

// Every source the lookup of `lookup` (a trace's root) consulted, in the order it read them. The key's
// own sources only: lookup_options, interpolations and sub-lookups are other keys.
std::vector<SourceContribution> sourceContributions(const TraceNode& lookup);

// The files the leaves of `v` were written in, each with how many leaves (a leaf: a scalar, or an empty
// array or hash), in the order first met. Leaves without a mark are not counted.
std::vector<std::pair<std::string, std::size_t>> filesOf(const Value& v);

const char* outcomeName(SourceContribution::Outcome outcome); // "won", "merged", "root key only" ...

} // namespace hiera
