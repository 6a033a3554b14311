#pragma once

// Checks every provider applies to a found value before the lookup uses it.

#include <hiera/error.h>
#include <hiera/value.h>

#include <string_view>

namespace hiera::detail {

// Gives an error without a location the location of the value being processed, and rethrows it.
[[noreturn]] void rethrowAt(const Error& e, const Value& at);

// Puppet refuses a found value whose hashes have boolean, null or collection keys (its type system has
// no such hash: "expects Puppet::LookupValue"). String, integer and float keys are fine.
void checkLookupValue(const Value& v, std::string_view key);

} // namespace hiera::detail
