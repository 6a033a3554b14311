#pragma once

// The engine's one JSON writer: one walk of a value, one layout, one way of naming hash keys that are
// not strings (as Puppet's interpolation does: 1, 1.5, true, "" for null, arrays and hashes in inspect
// form) and of escaping (core/jsonescape.h). Floats keep Ruby's form (1000.0, 1.0e+20). What JSON cannot
// hold, bytes that are not UTF-8 and NaN/Infinity, is the one thing its two users treat differently
// (docs/bad-input.md, "What goes out"):
// - JsonInvalid::Refuse (hiera::toJson): the first such value, in document order, throws hiera::Error
//   at its mark: a value must not be silently changed where the JSON is the data (Puppet fails too);
// - JsonInvalid::Replace (hiera::reportJson, <hiera/report/json.h>): bytes that are not UTF-8 become
//   U+FFFD, non-finite floats the strings "NaN", "Infinity", "-Infinity", and when the document is a
//   hash each replacement is listed in a last member hiera::kJsonReplacementsKey as an RFC 6901 JSON Pointer
//   and a reason ("not UTF-8", "key not UTF-8", "NaN", "Infinity", "-Infinity").
// The two write the same bytes for every value both can write.

#include <hiera/value.h>

#include <string>

namespace hiera::detail {

enum class JsonInvalid { Refuse, Replace };

std::string writeJson(const Value& document, bool pretty, JsonInvalid invalid);

} // namespace hiera::detail
