#pragma once

// What an eyaml lookup_key provider does with a found value: every ENC block in it decrypted, as
// Puppet's eyaml_lookup_key does before it interpolates (docs/eyaml.md §1), except that a value
// nobody can decrypt here stays visibly encrypted instead of failing the lookup.

#include <hiera/value.h>

#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

class Pkcs7Decryptor;

struct EyamlDecryptContext
{
    // Null when no PKCS7 key is usable: PKCS7 blocks then stay as written, with `noKeyReason` as their
    // note (for example the Error(EyamlKey) message of EyamlKeyStore::load).
    const Pkcs7Decryptor* pkcs7 = nullptr;
    std::string_view noKeyReason = "no eyaml private key";
    // For the error message: the key looked up and the file it was found in.
    std::string_view key;
    std::string_view path;
};

struct EyamlValue
{
    Value value;
    // At least one block was decrypted: `value` holds plaintext (the explorer masks it; logs, traces and
    // caches must not keep it).
    bool decrypted = false;
    // At least one block was left as written (no usable key, or GPG): `value` holds its raw `ENC[...]`.
    bool keptEncrypted = false;
    // Why blocks were left encrypted, each reason once: "GPG not supported", or the no-key reason.
    std::vector<std::string> notes;
};

// Walks `value`: strings at any depth of arrays and hash values (never hash keys; other scalars
// unchanged). A string that passes containsEncBlock has its ENC blocks replaced by their plaintext,
// text around them kept, and loses one trailing newline (Ruby's chomp), as in Puppet; a string in which
// no block was decrypted is returned exactly as written. Source marks are kept; unchanged arrays and
// hashes keep sharing their storage.
//
// Throws Error(EyamlDecrypt) — which the lookup reports as Puppet does, as an error — when a key is
// present but a block does not decrypt (wrong key, damaged payload), or a block's scheme is neither
// PKCS7 nor GPG (in any case, as hiera-eyaml finds encryptors), with or without a key:
//   "hiera-eyaml backend error decrypting <value> when looking up <key> in <path>. Error was <why>"
// with <value> the string as written, shortened to its first kMaxQuotedValue bytes, and <why> OpenSSL's
// error or "Could not find hiera-eyaml encryptor: FOO. Try gem install hiera-eyaml-foo ?". The message
// never holds plaintext.
EyamlValue decryptEyamlValue(const Value& value, const EyamlDecryptContext& context);

inline constexpr std::size_t kMaxQuotedValue = 60;

// The note of GPG blocks (hiera-eyaml-gpg's scheme: OpenPGP, not something OpenSSL reads).
inline constexpr std::string_view kGpgNotSupported = "GPG not supported";

} // namespace hiera::detail
