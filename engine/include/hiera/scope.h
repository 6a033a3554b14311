#pragma once

// The Scope seam (docs/seed-rules.md §3). The engine never resolves fact or variable references itself: every
// variable inside %{...}, every scope('x') argument and every mapped_paths scope key is handed, raw, to
// the host's Scope. How facts., trusted. and top-scope variables are organised is the Scope's business.

#include <hiera/value.h>

#include <optional>
#include <string_view>

namespace hiera {

class Scope
{
public:
    virtual ~Scope() = default;
    // `ref` is the reference as written inside %{...} after trimming blanks, e.g. "certname",
    // "facts.os.name", "::role". Returns the value, or nullopt when it is not present (the engine then
    // interpolates the empty string). Must be safe to call from several threads at once.
    virtual std::optional<Value> lookup(std::string_view ref) const = 0;
};

// A Scope over one nested hash. A dotted reference digs through hashes and arrays with the same dig
// walk as the data side (quoted segments allowed: facts.'os'.name); a leading "::" is ignored.
class MapScope : public Scope
{
public:
    MapScope() = default;
    explicit MapScope(Value root);

    std::optional<Value> lookup(std::string_view ref) const override;

    const Value& root() const { return m_root; }

private:
    Value m_root; // a Hash (anything else behaves as an empty scope)
};

// A Scope that binds one extra variable over another Scope (mapped_paths loop variables): `name` and
// `name.sub.key` resolve against `value`; everything else goes to the parent, and so do `::name` and
// `::name.sub` (a top-scope reference does not see a local binding, as in Puppet).
class BoundScope : public Scope
{
public:
    BoundScope(const Scope& parent, std::string name, Value value);
    std::optional<Value> lookup(std::string_view ref) const override;

private:
    const Scope& m_parent;
    std::string m_name;
    Value m_value;
};

} // namespace hiera
