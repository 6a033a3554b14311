#include "report/utf8.h"

#include "core/bytes.h"

#include <hiera/error.h>

namespace hiera::detail {

std::string validUtf8(std::string_view s, bool* replaced)
{
    std::size_t bad = invalidUtf8At(s);
    if (replaced)
        *replaced = bad != std::string_view::npos;
    if (bad == std::string_view::npos)
        return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    while (bad != std::string_view::npos) {
        out.append(s.substr(0, bad));
        out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        s.remove_prefix(bad + 1);
        bad = invalidUtf8At(s);
    }
    out.append(s);
    return out;
}

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
