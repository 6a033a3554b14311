#pragma once

// A list written between brackets, shared by the inspect form (core/valueformat.cpp) and YAML's flow
// form (parse/yamlwriter.cpp).

#include <string>

namespace hiera::detail {

// Writes `open`, the items through `write` separated by ", ", then `close`. Stops, returning false,
// at the first item `write` refuses.
template <typename Items, typename Write>
bool writeDelimited(std::string& out, char open, const Items& items, char close, Write write)
{
    out += open;
    bool first = true;
    for (const auto& item : items) {
        if (!first)
            out += ", ";
        first = false;
        if (!write(item))
            return false;
    }
    out += close;
    return true;
}

} // namespace hiera::detail
