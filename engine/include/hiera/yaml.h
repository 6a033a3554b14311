#pragma once

// Reading YAML and JSON into hiera::Value, typed the way Puppet reads them.
//
// YAML follows Psych (Ruby's YAML 1.1 loader) as Puppet 7 uses it: yes/no/on/off booleans, 0755 octal,
// 0x1F hex, 1_000 and 1,000 integers, sexagesimal 1:30, .inf/.nan, anchors and aliases, `<<` merge
// keys, duplicate keys (last wins, first position), explicit tags (!!str, !!int, !!binary, ...).
// Unquoted dates and times, symbols and Ruby objects are errors, as in Puppet. Only the first document
// of a stream is read. A UTF-8 byte-order mark is accepted; invalid UTF-8 is an error.
//
// JSON is read by a strict RFC 8259 parser with JSON's own typing (1e3 is a float, "yes" a string).
//
// Errors are hiera::Error with the file, line and column.

#include <hiera/sourcetree.h>
#include <hiera/value.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace hiera {

struct ParseLimits
{
    std::size_t maxDepth = 512; // nesting of arrays and hashes
    std::size_t maxNodes = 20'000'000; // nodes after alias expansion ("billion laughs")
    std::size_t maxScalarBytes = 64u << 20; // one scalar
    std::size_t maxDocumentBytes = kMaxFileBytes;
};

enum class DataFormat { Yaml, Json };

// Parses `text`. `fileName` is used for marks and messages. An empty document (or only comments) is
// null.
Value parseData(std::string_view text, const std::string& fileName, DataFormat format = DataFormat::Yaml,
                const ParseLimits& limits = {});

// Reads and parses a file. Throws DataUnreadable if it cannot be read (including a directory).
Value loadDataFile(const std::string& path, DataFormat format = DataFormat::Yaml, const ParseLimits& limits = {});

// The Psych scalar resolver on its own: what a plain (unquoted) YAML scalar means. Throws DataType for
// dates, times and symbols. Exposed for tests and for the fact editor's "parse as YAML" input.
Value resolvePlainScalar(const std::string& text);

} // namespace hiera
