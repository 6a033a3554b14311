#pragma once

// Where yaml-cpp 0.7 reads a scalar differently from the YAML spec (and from libyaml, which Puppet's
// Psych uses), the value is read again here from the source text (docs/engine-semantics.md, "YAML that
// yaml-cpp gets wrong"):
//
// - double-quoted escapes of code points U+0080..U+00FF (`\N`, `\_`, `\xHH`) come out of yaml-cpp as
//   one raw byte instead of the character's UTF-8, so "a\Nb" is refused as not UTF-8 and "\xC3\xA9" is
//   "é" instead of "Ã©";
// - a folded block scalar with keep chomping (`>+`) loses one of its trailing line breaks when blank
//   lines follow it.
//
// Written by hand because no maintained YAML library for C++ gets these right and yaml-cpp stays the
// parser of record: both functions only correct a scalar yaml-cpp has already accepted.

#include <optional>
#include <string>
#include <string_view>

namespace hiera::detail {

// The scalar starting at `pos` in `text` (its node properties, `&anchor` and `!tag`, may come first), when
// it is double-quoted and uses an escape yaml-cpp decodes wrongly: decoded as the spec says. Nothing
// otherwise (yaml-cpp's value is right), or when the text is not a well-formed double-quoted scalar.
std::optional<std::string> redecodedDoubleQuoted(std::string_view text, std::size_t pos);

// The scalar starting at `pos`, when it is a folded block scalar with keep chomping (`>+`): yaml-cpp's
// `value` with the trailing line breaks the source has. Nothing for any other scalar, or when the
// block's indentation is given by an indicator (`>+2`): then yaml-cpp's value stands.
std::optional<std::string> keptTrailingBreaks(std::string_view text, std::size_t pos, const std::string& value);

} // namespace hiera::detail
