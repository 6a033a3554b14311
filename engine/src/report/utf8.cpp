#include "report/utf8.h"

#include <hiera/error.h>

namespace hiera::detail {

std::string visibleControls(std::string_view s)
{
    // printableLine escapes every such character; the four each writer handles itself are kept by
    // writing the text between them through it.
    std::string out;
    out.reserve(s.size());
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\n' || c == '\r' || c == '\t' || c == '\0') {
            out += printableLine(s.substr(start, i - start));
            out += c;
            start = i + 1;
        }
    }
    out += printableLine(s.substr(start));
    return out;
}

} // namespace hiera::detail
