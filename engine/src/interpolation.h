#pragma once

// %{...} interpolation (semantics §3): the token grammar, the five methods, variables through the
// Scope, re-interpolation and the recursion guard. Internal to the engine.

#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/value.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

struct Token
{
    std::size_t begin = 0; // offset of "%{"
    std::size_t end = 0;   // offset after "}"
    std::string expression; // trimmed contents
    // Method form NAME('arg'): name and argument; empty name for a variable.
    std::string method;
    std::string argument;
    bool methodSyntaxError = false; // looks like a method call but is malformed (Puppet: syntax error)
};

// Splits a string into its %{...} tokens (no nesting: the first '}' closes).
std::vector<Token> tokenize(std::string_view text);

// Names of lookup methods (lookup, hiera, alias) used in `text`; for the static check of hiera.yaml.
std::vector<std::string> lookupMethodsIn(std::string_view text);

// What interpolation needs from the running lookup.
class InterpolationHost
{
public:
    virtual ~InterpolationHost() = default;
    virtual const Scope& scope() const = 0;
    // A nested lookup for lookup()/hiera()/alias(); nullopt when not found. Throws on errors.
    virtual std::optional<Value> subLookup(const std::string& key, TraceNode* trace) = 0;
    // Recursion guard: push returns false if `name` is already on the stack.
    virtual bool pushName(const std::string& name) = 0;
    virtual void popName() = 0;
    virtual std::string nameChain(const std::string& last) const = 0;
    virtual std::size_t maxDepth() const = 0;
    virtual std::size_t maxBytes() const = 0;
    virtual void warn(const std::string& message) = 0;
};

enum class InterpolationContext { Data, Location };

struct LocationInterpolation
{
    std::string text;
    std::vector<std::string> undefinedVariables;
};

// Interpolates every string of a value (at any depth, hash keys included). `trace` may be null.
Value interpolateValue(const Value& v, InterpolationHost& host, TraceNode* trace);
// Interpolates one string for a location (path, glob, datadir, option): variables, scope() and
// literal() only; records references that resolved to nothing.
LocationInterpolation interpolateLocation(const std::string& text, const Scope& scope);

bool containsInterpolation(const Value& v);

} // namespace hiera::detail
