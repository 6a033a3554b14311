#pragma once

// Rendering values as text: JSON, YAML, Puppet's interpolation string form and Ruby's inspect form
// (used by explain texts, as Puppet prints them).

#include <hiera/value.h>

#include <string>

namespace hiera {

// One JSON document. Floats keep a fraction (1000.0); NaN and infinities have no JSON form and throw
// hiera::Error (Puppet: "Infinity not allowed in JSON"). Non-string hash keys are written as strings.
std::string toJson(const Value& v, bool pretty = false);
// The member a JSON report lists its replacements in (hiera/report/json.h): named here, with the one
// JSON writer's policies, so that the writer below the reports can name it.
inline constexpr const char* kJsonReplacementsKey = "json_replacements";

// YAML that reads back, through Puppet's YAML 1.1 typing, as the same value: strings that would read
// as something else are quoted. Ends with a newline.
std::string toYaml(const Value& v);

// How Puppet interpolates a non-string value into a string (Ruby to_s): 5, 1.5, 1.0e+20, true, "" for
// null, arrays and hashes in inspect form (["a", "b"], {"k"=>"v"}).
std::string interpolationString(const Value& v);

// Ruby's inspect form: strings quoted, nil for null.
std::string rubyInspect(const Value& v);

// A value in one cell of a view or a report: a string as it is, anything else as compact JSON, and
// what JSON cannot hold (NaN, infinities, bytes that are not UTF-8) in Ruby's inspect form. Never
// throws.
std::string cellText(const Value& v);

// Ruby's Float#to_s.
std::string rubyFloat(double d);

} // namespace hiera
