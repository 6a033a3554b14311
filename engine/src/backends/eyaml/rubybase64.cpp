#include "backends/eyaml/rubybase64.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>

namespace hiera::detail {

namespace {
bool inAlphabet(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}
} // namespace

std::string decodeBase64Lenient(std::string_view text)
{
    // First bring the text to the canonical form Ruby's decoder effectively reads, then let OpenSSL
    // decode that.
    std::string canonical;
    canonical.reserve(text.size() + 3);
    std::size_t inGroup = 0;
    for (char c : text) {
        if (inAlphabet(c)) {
            canonical += c;
            inGroup = (inGroup + 1) % 4;
        } else if (c == '=' && inGroup >= 2) {
            break;
        }
    }
    if (inGroup == 1) {
        canonical.pop_back();
        inGroup = 0;
    }
    std::size_t padding = inGroup == 0 ? 0 : 4 - inGroup;
    canonical.append(padding, '=');
    if (canonical.empty())
        return {};

    // In chunks, so that no length overflows EVP_DecodeBlock's int. Canonical text cannot fail to decode;
    // EVP_DecodeBlock counts the padding as zero bytes.
    constexpr std::size_t kChunk = 4 * 16384;
    std::string bytes(canonical.size() / 4 * 3, '\0');
    std::size_t written = 0;
    for (std::size_t at = 0; at < canonical.size(); at += kChunk) {
        const std::size_t len = std::min(kChunk, canonical.size() - at);
        const int n =
            EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data() + written),
                            reinterpret_cast<const unsigned char*>(canonical.data() + at), static_cast<int>(len));
        if (n < 0) {
            written = padding = 0;
            break;
        }
        written += static_cast<std::size_t>(n);
    }
    bytes.resize(written - padding);
    // The text may be a key (pkcs7_b64_private_key_env_var): leave no copy of it behind.
    OPENSSL_cleanse(canonical.data(), canonical.size());
    return bytes;
}

} // namespace hiera::detail
