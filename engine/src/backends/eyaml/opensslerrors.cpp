#include "backends/eyaml/opensslerrors.h"

#include <openssl/err.h>

namespace hiera::detail {

std::string takeOpenSslErrors()
{
    std::string text;
    int kept = 0;
    while (const unsigned long code = ERR_get_error()) {
        if (++kept > 4) // the first ones say what went wrong; the rest only where it surfaced
            continue;
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        if (!text.empty())
            text += "; ";
        text += buffer;
    }
    return text.empty() ? "unknown OpenSSL error" : text;
}

} // namespace hiera::detail
