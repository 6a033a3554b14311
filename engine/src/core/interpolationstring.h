#pragma once

// Puppet's string form of a value, bounded: what interpolation (interpolate/) appends for %{...}.
// hiera::interpolationString (hiera/valueformat.h) is the unbounded form. Defined with the other value
// formats in core/valueformat.cpp, so that the formats need nothing from the rooms above them.

#include <hiera/value.h>

#include <cstddef>
#include <string>

namespace hiera::detail {

// interpolationString(v) appended to `out`; returns false (out then partly written) as soon as `out`
// would grow past `maxBytes`, without rendering the rest of `v`.
bool appendInterpolationString(std::string& out, const Value& v, std::size_t maxBytes);

} // namespace hiera::detail
