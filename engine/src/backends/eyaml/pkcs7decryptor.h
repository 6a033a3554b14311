#pragma once

// Decryption of ENC[PKCS7,...] payloads with OpenSSL: base64 of a DER PKCS#7 envelopedData (RSA key
// transport, aes-256-cbc content), docs/eyaml.md §3 and §6.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace hiera::detail {

class PrivateKey;

class Pkcs7Decryptor
{
public:
    explicit Pkcs7Decryptor(std::shared_ptr<const PrivateKey> key);

    // The plaintext bytes of one payload, as written in the block (whitespace allowed; decoded as
    // Ruby's Base64.decode64 does). Only the private key is used, no certificate (hiera-eyaml 4.1+): the
    // key is tried on the message's recipients. Throws Error(EyamlDecrypt) whose message is OpenSSL's
    // error text or says what is wrong with the payload (too large, empty, not envelopedData); the
    // message never holds plaintext. const and thread-safe: concurrent lookups share one decryptor.
    std::string decrypt(std::string_view payload) const;

    const PrivateKey& key() const { return *m_key; }

    // An eyaml value is a few hundred bytes to a few KiB; a payload (as written) over 1 MiB is refused
    // before it is decoded.
    static constexpr std::size_t kMaxPayloadBytes = 1u << 20;

private:
    std::shared_ptr<const PrivateKey> m_key;
};

} // namespace hiera::detail
