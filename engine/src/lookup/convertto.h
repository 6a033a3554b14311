#pragma once

// lookup_options' convert_to (docs/hiera-reference.md §4.10; what each type does, docs/engine-semantics.md
// 4.10): Puppet's `new(Type, value)` on a lookup's final value, after the merge and the dig. Apart from
// lookupoptions.h, which only chooses the entry that carries it: the conversions are a small Puppet
// type system of their own (number patterns, the string formatter) that the choice never needs.

#include <hiera/value.h>

#include <string>

namespace hiera::detail {

// Applies convert_to (Array, Hash, String, Integer, Float, Boolean, Sensitive, or [Array, true|false])
// to a value. `spec` is the entry's convert_to, `key` the key looked up (for messages). Throws
// hiera::Error(ConvertTo) with Puppet's wording, or Error(DataLimit) for an array past 1,000,000 elements.
Value convertTo(const Value& value, const Value& spec, const std::string& key);

} // namespace hiera::detail
