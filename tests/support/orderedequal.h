#pragma once

// A deep comparison for tests and fuzz targets (no Qt): like Value::operator==, but hashes must keep
// their key order too (Puppet's results depend on it).

#include <hiera/value.h>

namespace hiera::test {

inline bool orderedEqual(const hiera::Value& a, const hiera::Value& b)
{
    if (a.type() != b.type())
        return false;
    if (a.isArray()) {
        const auto& x = a.asArray();
        const auto& y = b.asArray();
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!orderedEqual(x[i], y[i]))
                return false;
        return true;
    }
    if (a.isHash()) {
        const auto& x = a.asHash().entries();
        const auto& y = b.asHash().entries();
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!orderedEqual(x[i].key, y[i].key) || !orderedEqual(x[i].value, y[i].value))
                return false;
        return true;
    }
    return a == b;
}

} // namespace hiera::test
