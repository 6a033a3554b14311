#include "backends/eyaml/eyamlkeys.h"

#include "backends/eyaml/opensslerrors.h"
#include "backends/eyaml/rubybase64.h"

#include <hiera/error.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hiera::detail {

namespace {

[[noreturn]] void fail(const std::string& message)
{
    throw Error(ErrorCode::EyamlKey, message);
}

// Wipes a buffer that held key material before it is freed.
struct Wiped
{
    std::string& text;
    ~Wiped() { OPENSSL_cleanse(text.data(), text.size()); }
};

// Refuses every passphrase prompt: an encrypted key must fail to load, never wait on the terminal.
int noPassphrase(char*, int, int, void* asked)
{
    *static_cast<bool*>(asked) = true;
    return -1;
}

std::int64_t nanoseconds(const timespec& t)
{
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

std::string sha256(std::string_view text)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr) != 1)
        fail("cannot hash an environment key: " + takeOpenSslErrors());
    return std::string(reinterpret_cast<const char*>(digest), size);
}

const std::string* stringOption(const Hash& options, std::string_view name)
{
    const Value* v = options.find(name);
    return v && v->isString() && !v->asString().empty() ? &v->asString() : nullptr;
}

} // namespace

std::shared_ptr<const PrivateKey> PrivateKey::fromPem(std::string_view pem, const std::string& origin)
{
    if (pem.size() > 2 * EyamlKeyStore::kMaxKeyFileBytes)
        fail("the eyaml private key in " + origin + " is " + std::to_string(pem.size())
             + " bytes, too large for a key");
    ERR_clear_error();
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    if (!bio)
        fail("cannot read the eyaml private key from " + origin + ": " + takeOpenSslErrors());
    bool askedForPassphrase = false;
    EVP_PKEY* pkey = PEM_read_bio_PrivateKey(bio, nullptr, noPassphrase, &askedForPassphrase);
    BIO_free(bio);
    if (!pkey) {
        const std::string why = takeOpenSslErrors();
        if (askedForPassphrase)
            fail("the eyaml private key in " + origin + " is protected by a passphrase, which is not supported");
        fail("the eyaml private key in " + origin + " is not a PEM private key (" + why + ")");
    }
    if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_RSA) {
        EVP_PKEY_free(pkey);
        fail("the eyaml private key in " + origin + " is not an RSA key (PKCS7 needs RSA)");
    }
    return std::shared_ptr<const PrivateKey>(new PrivateKey(pkey, origin));
}

PrivateKey::~PrivateKey()
{
    EVP_PKEY_free(m_pkey);
}

int PrivateKey::bits() const
{
    return EVP_PKEY_get_bits(m_pkey);
}

EyamlKeyOptions EyamlKeyOptions::fromLevelOptions(const Value& options)
{
    EyamlKeyOptions o;
    if (!options.isHash())
        return o;
    const Hash& h = options.asHash();
    if (const std::string* s = stringOption(h, "pkcs7_private_key"))
        o.privateKeyFile = *s;
    if (const std::string* s = stringOption(h, "pkcs7_private_key_env_var"))
        o.privateKeyEnvVar = *s;
    if (const std::string* s = stringOption(h, "pkcs7_b64_private_key_env_var"))
        o.b64PrivateKeyEnvVar = *s;
    return o;
}

std::shared_ptr<const PrivateKey> EyamlKeyStore::load(const EyamlKeyOptions& options) const
{
    // hiera-eyaml reads a variable only when it is set, and otherwise falls back to the file.
    if (!options.privateKeyEnvVar.empty() && std::getenv(options.privateKeyEnvVar.c_str()))
        return loadEnv(options.privateKeyEnvVar, false);
    if (!options.b64PrivateKeyEnvVar.empty() && std::getenv(options.b64PrivateKeyEnvVar.c_str()))
        return loadEnv(options.b64PrivateKeyEnvVar, true);
    if (!options.privateKeyFile.empty())
        return loadFile(options.privateKeyFile);
    if (!options.privateKeyEnvVar.empty() || !options.b64PrivateKeyEnvVar.empty())
        fail("pkcs7_private_key is not defined and the environment variable "
             + (options.privateKeyEnvVar.empty() ? options.b64PrivateKeyEnvVar : options.privateKeyEnvVar)
             + " is not set");
    fail("pkcs7_private_key is not defined");
}

std::shared_ptr<const PrivateKey> EyamlKeyStore::loadFile(const std::string& path) const
{
    const std::string origin = "file " + path;
    if (path.find('\0') != std::string::npos)
        fail("cannot read the eyaml private key " + path + ": the path holds a NUL byte");
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked right after.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        fail("cannot read the eyaml private key " + path + ": " + std::strerror(errno));
    struct Closer
    {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        fail("cannot read the eyaml private key " + path + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        fail("cannot read the eyaml private key " + path + ": it is a directory");
    if (!S_ISREG(st.st_mode))
        fail("cannot read the eyaml private key " + path + ": not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > kMaxKeyFileBytes)
        fail("the eyaml private key " + path + " is " + std::to_string(st.st_size) + " bytes, more than the "
             + std::to_string(kMaxKeyFileBytes / 1024) + " KiB a key file may have");

    const FileSignature signature{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                                  static_cast<std::uint64_t>(st.st_size), nanoseconds(st.st_mtim),
                                  nanoseconds(st.st_ctim)};
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_files.find(path);
        if (it != m_files.end() && it->second.signature == signature)
            return it->second.key;
    }

    // Read at most one byte past the bound, whatever the size said (the file may grow meanwhile).
    std::string pem(kMaxKeyFileBytes + 1, '\0');
    Wiped wiped{pem};
    std::size_t got = 0;
    while (got < pem.size()) {
        const ssize_t n = ::read(fd, pem.data() + got, pem.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("cannot read the eyaml private key " + path + ": " + std::strerror(errno));
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    if (got > kMaxKeyFileBytes)
        fail("the eyaml private key " + path + " is more than the " + std::to_string(kMaxKeyFileBytes / 1024)
             + " KiB a key file may have");
    auto key = PrivateKey::fromPem(std::string_view(pem.data(), got), origin);

    std::lock_guard lock(m_mutex);
    m_files[path] = FileEntry{signature, key};
    return key;
}

std::shared_ptr<const PrivateKey> EyamlKeyStore::loadEnv(const std::string& variable, bool base64) const
{
    const std::string origin = "environment variable " + variable;
    const char* value = variable.find('\0') == std::string::npos ? std::getenv(variable.c_str()) : nullptr;
    if (!value)
        fail("the environment variable " + variable + " that should hold the eyaml private key is not set");
    const std::string_view text(value);
    if (text.size() > kMaxKeyFileBytes * 2)
        fail("the eyaml private key in " + origin + " is " + std::to_string(text.size())
             + " bytes, too large for a key");
    const std::string digest = sha256(text) + (base64 ? "b" : "p");
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_env.find(variable);
        if (it != m_env.end() && it->second.digest == digest)
            return it->second.key;
    }
    std::shared_ptr<const PrivateKey> key;
    if (base64) {
        std::string pem = decodeBase64Lenient(text);
        Wiped wiped{pem};
        key = PrivateKey::fromPem(pem, origin + " (base64)");
    } else {
        key = PrivateKey::fromPem(text, origin);
    }
    std::lock_guard lock(m_mutex);
    m_env[variable] = EnvEntry{digest, key};
    return key;
}

} // namespace hiera::detail
