#pragma once

// What the explanation report says, collected once from the lookup's result, its trace, the scope and
// the override chain; the Markdown, HTML and JSON writers only lay it out.

#include <hiera/explanationreport.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hiera::detail {

struct ExplanationContent
{
    std::string baseDirectory; // the hierarchy's: files below it are named from there
    std::string key, merge, status, valueYaml, error, tool, time, hieraYaml;
    std::string factsFile; // as given (the JSON's field)
    std::string factsFileShown; // factsFile, or the report's noFactsFile
    bool factsEdited = false;
    std::vector<FactDifference> factsChanged; // values redacted as the rest
    std::string revision;
    Value value;
    bool found = false;
    bool redacted = false;
    std::vector<std::pair<std::string, Value>> facts; // the scope references the hierarchy read
    struct Consulted
    {
        std::string level, file, outcome; // outcome: as the Sources tab says it (hiera/provenance.h)
        int line = 0; // 0: none
        std::optional<Value> value; // the level's value of the root key, when found
    };
    std::vector<Consulted> consulted;
    struct Leaf
    {
        std::string path; // inside the answer ("ssh.source"); empty for a scalar answer
        Value value;
        std::string origin; // every file:line it came from, "; "-separated (a merged array: each file's)
        std::vector<std::string> from; // the same, one per file
        std::vector<std::pair<Value, std::string>> overrode; // value, file:line
        struct Removed
        {
            Value value;
            std::string at, by; // file:line of the value, and of the knockout entry
        };
        std::vector<Removed> removed;
    };
    std::vector<Leaf> leaves;
    std::vector<std::string> warnings;
};

ExplanationContent collectExplanation(const ExplanationReport& report);

} // namespace hiera::detail
