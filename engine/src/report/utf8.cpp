#include "report/utf8.h"

#include "core/bytes.h"

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

} // namespace hiera::detail
