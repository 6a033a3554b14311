#pragma once

// %{...} interpolation (docs/hiera-reference.md §3): the token grammar, the five methods, variables through the
// Scope, re-interpolation and the recursion guard. Internal to the engine.

#include "core/interpolationstring.h"
#include "trace/tracecursor.h"

#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/value.h>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hiera::detail {

struct Token
{
    std::size_t begin = 0; // offset of "%{"
    std::size_t end = 0; // offset after "}"
    std::string expression; // trimmed contents
    // Method form NAME('arg'): name and argument; empty name for a variable.
    std::string method;
    std::string argument;
    bool methodSyntaxError = false; // looks like a method call but is malformed (Puppet: syntax error)
};

// Splits a string into its %{...} tokens (no nesting: the first '}' closes).
std::vector<Token> tokenize(std::string_view text);

// The %{method('arg')} tokens of `text` (any method: lookup, hiera, alias, literal, scope, unknown
// ones), as written; for the static check of hiera.yaml, where Puppet refuses method syntax.
std::vector<Token> methodTokensIn(std::string_view text);

// What interpolation needs from the running lookup.
class InterpolationHost
{
public:
    virtual ~InterpolationHost() = default;
    virtual const Scope& scope() const = 0;
    // A nested lookup for lookup()/hiera()/alias(); nullopt when not found. Throws on errors.
    virtual std::optional<Value> subLookup(const std::string& key, TraceCursor trace) = 0;
    // Recursion guard: push returns false if `name` is already on the stack.
    virtual bool pushName(const std::string& name) = 0;
    virtual void popName() = 0;
    virtual std::string nameChain(const std::string& last) const = 0;
    virtual std::size_t maxDepth() const = 0;
    virtual std::size_t maxBytes() const = 0;
    virtual void warn(const std::string& message) = 0;
    // All the strings the interpolations of one host (one lookup, nested lookups included) produce,
    // together: a hash of a thousand strings each just under maxBytes() must not add up to gigabytes.
    virtual std::size_t maxTotalBytes() const
    {
        const std::size_t one = maxBytes();
        return one > std::numeric_limits<std::size_t>::max() / 4 ? std::numeric_limits<std::size_t>::max() : one * 4;
    }

    // Kept by the interpolation code, per host (so per lookup): the bytes produced so far, and the
    // results of nested lookups and re-interpolated variables. A lookup is deterministic within one
    // run (same scope, same files), so `a: "%{lookup('b')}%{lookup('b')}"` over 40 levels costs 40
    // lookups, not 2^40. Not used while tracing (each occurrence is traced in full).
    std::size_t producedBytes = 0;
    std::unordered_map<std::string, std::optional<Value>> subLookupMemo;
    std::unordered_map<std::string, std::string> variableMemo;
};

enum class InterpolationContext { Data, Location };

struct LocationInterpolation
{
    std::string text;
    std::vector<std::string> undefinedVariables;
};

// Interpolates every string of a value (at any depth, hash keys included).
Value interpolateValue(const Value& v, InterpolationHost& host, TraceCursor trace = {});
// Interpolates one string for a location (path, glob, datadir, option): variables, scope() and
// literal() only; records references that resolved to nothing.
LocationInterpolation interpolateLocation(const std::string& text, const Scope& scope);

// A level's options for a scope: every string (at any depth, not keys) interpolated as a location is.
// Throws hiera::Error.
Value interpolateOptions(const Value& options, const Scope& scope);

bool containsInterpolation(const Value& v);

} // namespace hiera::detail
