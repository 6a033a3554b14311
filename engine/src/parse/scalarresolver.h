#pragma once

// Psych's (Ruby YAML 1.1) reading of plain scalars, and JSON's; used only by the YAML loader.

#include "core/bytes.h"
#include <hiera/value.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

// What went wrong when a scalar cannot be loaded the way Puppet would (a date, a symbol, ...).
struct ScalarProblem
{
    std::string message;
};

// Resolves a plain YAML scalar. Returns the value, or sets `problem` for values Puppet refuses
// (unquoted dates and times, symbols, integers beyond 64 bits).
Value resolvePsychScalar(const std::string& s, std::optional<ScalarProblem>& problem);
// `:sym` in a key position becomes the string "sym" (Puppet converts symbol keys).
bool isSymbol(const std::string& s);

// Values Puppet loads but refuses to return: a Ruby symbol (`v: :sym`). Puppet reads such a file and
// fails only the lookups that reach the symbol ("has wrong type, expects Puppet::LookupValue, got
// Runtime[ruby, 'Symbol']"). While a RefusedValues is active on a thread, the YAML loader records each
// such value (kept in the data as its text, ":sym") instead of refusing the whole file; without one
// (parseData called directly) the file is refused as before.
struct RefusedValue
{
    SourceMark mark; // where the symbol is written
    std::string message;
};

class RefusedValues
{
public:
    RefusedValues();
    ~RefusedValues();
    RefusedValues(const RefusedValues&) = delete;
    RefusedValues& operator=(const RefusedValues&) = delete;

    std::vector<RefusedValue> values;
    static RefusedValues* active(); // the innermost one on this thread, or null

private:
    RefusedValues* m_previous;
};
// JSON plain scalars: true, false, null, numbers. Anything else is a syntax problem.
Value resolveJsonScalar(const std::string& s, std::optional<ScalarProblem>& problem);
// Psych integer syntax (with sign, 0b, 0x, leading-0 octal, '_' and ','); nullopt if not an integer.
std::optional<Value> parsePsychInteger(const std::string& s, std::optional<ScalarProblem>& problem);

} // namespace hiera::detail
