#pragma once

// Ruby's lenient Base64.decode64 (String#unpack1("m")), which hiera-eyaml uses on ENC payloads and on
// base64 key variables. The bytes are decoded by OpenSSL; only Ruby's tolerance is written here.

#include <string>
#include <string_view>

namespace hiera::detail {

// Characters outside the base64 alphabet are skipped (spaces, newlines, anything else); `=` ends the
// data when it comes third or fourth in a group of four and is skipped elsewhere; a last group of two
// or three characters still gives its one or two bytes, a last lone character none. Never fails.
std::string decodeBase64Lenient(std::string_view text);

} // namespace hiera::detail
