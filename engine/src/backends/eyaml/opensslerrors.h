#pragma once

#include <string>

namespace hiera::detail {

// Empties this thread's OpenSSL error queue into one line, oldest first, joined with "; " ("unknown
// OpenSSL error" when it is empty). OpenSSL's queue is per thread, so concurrent lookups do not mix.
std::string takeOpenSslErrors();

} // namespace hiera::detail
