#pragma once

// A strict RFC 8259 JSON reader for json_data files and `facter -j` facts. yaml-cpp would accept JSON
// too, but leniently (trailing commas, single quotes, comments) and with YAML's typing; Puppet reads
// json_data with a real JSON parser, so we do as well.

#include <hiera/value.h>

#include <string>
#include <string_view>

namespace hiera {
struct ParseLimits;
}

namespace hiera::detail {

// Throws hiera::Error(DataSyntax / DataType / DataLimit) with the file, line and column.
Value parseJson(std::string_view text, const std::string& fileName, const ParseLimits& limits);

} // namespace hiera::detail
