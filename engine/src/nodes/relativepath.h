#pragma once

#include <string>
#include <string_view>

namespace hiera::detail {

// `path` relative to `base` when it lies below it (exports name files from the repository's root).
inline std::string relativePath(const std::string& path, std::string_view base)
{
    while (base.size() > 1 && base.back() == '/')
        base.remove_suffix(1);
    if (!base.empty() && path.size() > base.size() && path.compare(0, base.size(), base) == 0
        && path[base.size()] == '/')
        return path.substr(base.size() + 1);
    return path;
}

} // namespace hiera::detail
