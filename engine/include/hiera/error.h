#pragma once

// hiera::Error — every failure the engine reports: a code a program can test, a message a person can
// read, and where it happened. "Not found" is never an Error: it is a normal lookup outcome.

#include <hiera/sourcelocation.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace hiera {

enum class ErrorCode {
    None = 0,
    // hiera.yaml
    ConfigUnreadable,
    ConfigSyntax, // the YAML of hiera.yaml does not parse
    ConfigVersion, // missing, non-integer or other version
    ConfigUnknownKey, // unknown key at top level, in defaults or in a level
    ConfigInvalidValue, // a key with the wrong type or an empty value
    ConfigMissingName, // a level without name
    ConfigDuplicateName, // two levels with the same name
    ConfigNoLocation, // a level without path/paths/glob/globs/mapped_paths
    ConfigMultipleBackends,
    ConfigMappedPaths, // mapped_paths is not exactly three strings
    ConfigDefaultHierarchy, // default_hierarchy is not supported
    ConfigMethodInPath, // lookup()/hiera()/alias() in a path, glob, datadir or option
    // data files
    DataUnreadable, // exists but cannot be read (permissions, a directory, ...)
    DataSyntax, // YAML/JSON syntax error
    DataType, // a value Puppet cannot load (dates, symbols, Ruby objects, int overflow)
    DataLimit, // a limit against exhaustion was hit (depth, size, alias expansion)
    DataNotHash, // json_data file whose top level is not an object
    // lookup
    UnsupportedBackend, // a data_dig or lookup_key function this engine cannot run, consulted by a lookup
    UnknownBackend, // a data_hash function this engine cannot run, consulted by a lookup
    KeySyntax, // bad dotted key
    InterpolationSyntax, // bad %{...}
    UnknownMethod, // %{foo('x')}
    AliasNotEntireString,
    RecursiveLookup,
    InterpolationLimit, // expansion too large or too deep
    MergeType, // values of the wrong type for the merge strategy
    MergeOptions, // bad merge strategy name or options
    LookupOptions, // bad lookup_options content (non-hash entry, bad regex, bad convert_to)
    ConvertTo,
    EyamlDecrypt, // eyaml: a present key fails to decrypt an ENC block, or its scheme is unknown
    EyamlKey, // eyaml: the private key cannot be loaded (not defined, unreadable, not a key)
    // hosts
    FactsSyntax,
    Io,
    Internal, // a fault of the engine itself (an unexpected exception): never the data's fault
};

const char* errorCodeName(ErrorCode code);

// `text` as one printable line: control characters (newlines and terminal escapes included), Unicode
// line separators and bidirectional overrides become `\n`, `\e`, `\xHH` or `\uHHHH`, and bytes that
// are not UTF-8 become `\xHH`; other UTF-8 text is kept. Every Error's message and what() are made
// with it; hosts use it for any other text from data they print (warnings, names).
std::string printableLine(std::string_view text);

class Error : public std::runtime_error
{
public:
    Error(ErrorCode code, std::string message, SourceLocation location = {});

    ErrorCode code() const { return m_code; }
    // The message without the location prefix.
    const std::string& message() const { return m_message; }
    const SourceLocation& location() const { return m_location; }
    // what(): "file:line:col: message" (or just the message if the location is unknown).

private:
    ErrorCode m_code;
    std::string m_message;
    SourceLocation m_location;
};

} // namespace hiera
