#pragma once

// The private keys of eyaml levels: read from the file of `pkcs7_private_key`, or from the environment
// variable named by `pkcs7_private_key_env_var` (a PEM) or `pkcs7_b64_private_key_env_var` (a base64
// encoded PEM), as hiera-eyaml does (docs/eyaml.md §1). Keys stay in memory only; the PEM text
// read to make one is wiped once parsed.

#include <hiera/value.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

struct evp_pkey_st; // OpenSSL's EVP_PKEY, kept out of the headers

namespace hiera::detail {

// A loaded RSA private key. Immutable once made: concurrent decryptions share it read-only, which
// OpenSSL 3 allows (each decryption makes its own contexts; the key's internal caches are locked).
class PrivateKey
{
public:
    // Parses a PEM private key (`BEGIN RSA PRIVATE KEY` or PKCS#8 `BEGIN PRIVATE KEY`). `origin` says
    // where the text came from ("file keys/x.pem", "environment variable EYAML_KEY") in the
    // Error(EyamlKey) thrown when it is not one: not PEM, not RSA, or protected by a passphrase (never
    // asked for on the terminal).
    static std::shared_ptr<const PrivateKey> fromPem(std::string_view pem, const std::string& origin);

    ~PrivateKey();
    PrivateKey(const PrivateKey&) = delete;
    PrivateKey& operator=(const PrivateKey&) = delete;

    evp_pkey_st* get() const { return m_pkey; }
    const std::string& origin() const { return m_origin; }
    int bits() const;

private:
    PrivateKey(evp_pkey_st* pkey, std::string origin) : m_pkey(pkey), m_origin(std::move(origin)) { }
    evp_pkey_st* m_pkey;
    std::string m_origin;
};

// The key options of one eyaml level (its interpolated `options` hash).
struct EyamlKeyOptions
{
    std::string privateKeyFile; // pkcs7_private_key
    std::string privateKeyEnvVar; // pkcs7_private_key_env_var
    std::string b64PrivateKeyEnvVar; // pkcs7_b64_private_key_env_var

    // Reads the three options from a level's options hash; other entries and non-string values are
    // ignored (the public key options are not needed to decrypt, hiera-eyaml 4.1+).
    static EyamlKeyOptions fromLevelOptions(const Value& options);
    bool empty() const { return privateKeyFile.empty() && privateKeyEnvVar.empty() && b64PrivateKeyEnvVar.empty(); }
};

// Loads keys and keeps them in memory: file keys by path, reloaded when the file's mtime, size, inode
// or ctime change; environment keys by variable name and a digest of the value. Thread-safe; one store
// is meant to live as long as the loaded engine.
class EyamlKeyStore
{
public:
    // hiera-eyaml's order: the PEM in `privateKeyEnvVar` when that variable is set, then the base64 PEM
    // in `b64PrivateKeyEnvVar` when set, else the file. Throws Error(EyamlKey) with a one-line message
    // naming the file or variable: "pkcs7_private_key is not defined" when nothing applies (Puppet's
    // words), the file is missing, a directory, not a regular file, over kMaxKeyFileBytes, not a key.
    // Relative paths are taken from the process's working directory, as Puppet does.
    std::shared_ptr<const PrivateKey> load(const EyamlKeyOptions& options) const;

    std::shared_ptr<const PrivateKey> loadFile(const std::string& path) const;
    // `base64`: the variable holds the PEM base64-encoded. Throws when the variable is not set.
    std::shared_ptr<const PrivateKey> loadEnv(const std::string& variable, bool base64) const;

    // A PEM RSA key of 16384 bits is 13 KB: anything much larger is not a key file.
    static constexpr std::size_t kMaxKeyFileBytes = 256u << 10;

private:
    struct FileSignature
    {
        std::uint64_t device = 0, inode = 0, size = 0;
        std::int64_t mtimeNs = 0, ctimeNs = 0;
        bool operator==(const FileSignature&) const = default;
    };
    struct FileEntry
    {
        FileSignature signature;
        std::shared_ptr<const PrivateKey> key;
    };
    struct EnvEntry
    {
        std::string digest; // SHA-256 of the variable's value, so the store keeps no second copy of it
        std::shared_ptr<const PrivateKey> key;
    };
    mutable std::mutex m_mutex;
    mutable std::unordered_map<std::string, FileEntry> m_files;
    mutable std::unordered_map<std::string, EnvEntry> m_env;
};

} // namespace hiera::detail
