#pragma once

// Text that other programs read as UTF-8 (JSON, HTML, Markdown) must be UTF-8, whatever the data held:
// a !!binary value, a facts file named in another encoding, a key with such bytes.

#include <string>
#include <string_view>

namespace hiera::detail {

// `s` with every byte that is not part of a valid UTF-8 sequence (truncated, overlong, a surrogate,
// past U+10FFFF) replaced by U+FFFD, one for each byte; `replaced` (when given) says whether any was.
std::string validUtf8(std::string_view s, bool* replaced = nullptr);

} // namespace hiera::detail
