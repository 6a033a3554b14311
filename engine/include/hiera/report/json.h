#pragma once

// The JSON writer of every JSON report and export (the fleet, all keys, a node diff, the explain trace,
// the explanation report): valid JSON (RFC 8259, UTF-8) for any value, where hiera::toJson refuses
// what JSON cannot hold (docs/bad-input.md, "What goes out"):
// - a string (or a hash key) with bytes that are not UTF-8 (a !!binary value, a file name in another
//   encoding) is written with each such byte replaced by U+FFFD;
// - NaN, Infinity and -Infinity are written as the strings "NaN", "Infinity", "-Infinity";
// - each replacement is listed, when the document is a hash, in a last member
//   "json_replacements": [{"pointer": "/nodes/0/node", "reason": "not UTF-8"}, …], the pointer an
//   RFC 6901 JSON Pointer to the value (for a key: to its member, "reason": "key not UTF-8"), so that a
//   reader knows which strings are not the data's own. Absent when nothing was replaced.
// Everything else is toJson's (hiera/valueformat.h): the layout, hash keys that are not strings written
// as strings, floats in Ruby's form. The two are one writer with two policies for what JSON cannot hold,
// and write the same bytes for every value both can write.

#include <hiera/value.h>
#include <hiera/valueformat.h> // kJsonReplacementsKey

#include <string>

namespace hiera {

std::string reportJson(const Value& document, bool pretty = true);

} // namespace hiera
