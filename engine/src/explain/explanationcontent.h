#pragma once

// What the explanation report says, collected once from the lookup's result, its trace, the scope and
// the override chain; the Markdown, HTML and JSON writers only lay it out.

#include <hiera/explanationreport.h>

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
    Value value;
    bool found = false;
    bool redacted = false;
    std::vector<std::pair<std::string, Value>> facts; // the scope references the hierarchy read
    struct Consulted
    {
        std::string level, file, outcome;
        int line = 0; // 0: none
    };
    std::vector<Consulted> consulted;
    struct Leaf
    {
        std::string path; // inside the answer ("ssh.source"); empty for a scalar answer
        Value value;
        std::string origin;
        std::vector<std::pair<Value, std::string>> overrode; // value, file:line
    };
    std::vector<Leaf> leaves;
    std::vector<std::string> warnings;
};

ExplanationContent collectExplanation(const ExplanationReport& report);

} // namespace hiera::detail
