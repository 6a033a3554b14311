#pragma once

// Node against node: every key either node's hierarchy defines, resolved on both (each with its
// lookup_options merge), and the ones whose answers differ.
//
//   hiera::NodeDiff diff = hiera::diffNodes(*engine, web01, web02, {.prefix = "profile::"});
//   for (const hiera::KeyDifference& d : diff.keys)
//       report(d.key, d.a.value, d.b.value, d.a.files, d.b.files);
//   std::string md = hiera::nodeDiffMarkdown(diff, {.nameA = "web01", .nameB = "web02"});
//
// Two answers are the same when both are found with equal values (Value::operator==: hash key order
// ignored, as Ruby's Hash#== does), both not found, or both errors with the same message. A key found
// on one side only, or an error against a value, is a difference.

#include <hiera/engine.h>
#include <hiera/valuediff.h>

#include <cstddef>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace hiera {

struct KeyDifference
{
    struct Side
    {
        LookupResult::Status status = LookupResult::Status::NotFound;
        Value value; // Found
        std::string error; // Error: one printable line
        // The data files the value's leaves were written in (every scalar's and empty collection's
        // mark), highest-priority level first: for a merged value, every file that contributed.
        std::vector<std::string> files;
        std::optional<MergeUsed> merge;

        bool found() const { return status == LookupResult::Status::Found; }
    };
    std::string key; // root key, unquoted
    Side a, b;
    // Where two found collections differ, leaf by leaf (leafDifferences, A before B): set when both
    // sides are found and one is a hash or an array, arrays walked only where both have the same
    // length (else one leaf for the whole array); empty when the values differ as a whole. Each leaf's mark is the
    // file:line that wrote it on its side; a secret leaf keeps its Decrypted mark, so a host can say "differs" without
    // it.
    std::vector<LeafDifference> leaves;
};

struct NodeDiff
{
    std::vector<KeyDifference> keys; // the keys that differ, sorted by key
    std::size_t keysCompared = 0; // keys of the union (after the prefix filter) resolved on both sides
    // Keys that failed on both sides with the same error: not a difference, but not compared either
    // (a broken file of the hierarchy fails every key on every node). Key and error, sorted by key.
    std::vector<std::pair<std::string, std::string>> failedOnBoth;
    std::vector<std::string> warnings;
    bool cancelled = false; // stopped early: `keys` holds what was compared until then
};

struct DiffOptions
{
    std::string prefix; // only root keys starting with it (e.g. "profile::"); empty: all
    std::stop_token stop; // checked between keys
};

// Never throws for data problems: they are the keys' errors (and compared as such).
NodeDiff diffNodes(const Engine& engine, const Scope& a, const Scope& b, const DiffOptions& options = {});

struct DiffExportOptions
{
    std::string nameA = "A"; // the column / field names of the two nodes (their certnames)
    std::string nameB = "B";
    bool revealSecrets = false; // decrypted eyaml values are "<sensitive>" unless set
    // File paths below this directory are written relative to it (a control repository's root); empty:
    // absolute paths.
    std::string relativeTo;
};

// A Markdown table: | key | A | B | A's files | B's files |, values as compact JSON ("(not found)",
// "error: ..."), with a one-line summary above.
std::string nodeDiffMarkdown(const NodeDiff& diff, const DiffExportOptions& options = {});
// {"a": NAME, "b": NAME, "keys_compared": N, "differences": [{"key", "a": {"status", "value"|"error",
// "files"}, "b": {...}}...]}
std::string nodeDiffJson(const NodeDiff& diff, const DiffExportOptions& options = {});
// key,a_node,a_status,a_value,a_files,b_node,b_status,b_value,b_files: the node columns are nameA and
// nameB, status found / not found / error, the value as JSON text or the error message, files
// ';'-separated.
std::string nodeDiffCsv(const NodeDiff& diff, const DiffExportOptions& options = {});
// Plain text for a terminal: per key, the key, then each side's answer and files, indented.
std::string nodeDiffText(const NodeDiff& diff, const DiffExportOptions& options = {});

} // namespace hiera
