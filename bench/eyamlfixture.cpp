#include "eyamlfixture.h"

#include "eyamlcrypto.h"

#include <hiera/value.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include <fstream>
#include <memory>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace {

template <typename T, void (*Free)(T*)>
struct Deleter
{
    void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;

Cert selfSigned(EVP_PKEY* key)
{
    Cert cert(eyamlcrypto::selfSignedCertificate(key, 365));
    if (!cert)
        throw std::runtime_error("cannot sign the bench certificate");
    return cert;
}

std::string encrypt(X509* cert, const std::string& plaintext)
{
    const std::string der = eyamlcrypto::encryptDer(cert, plaintext);
    if (der.empty())
        throw std::runtime_error("PKCS7_encrypt failed");
    return "ENC[PKCS7," + eyamlcrypto::base64(der) + "]";
}

hiera::Value encryptLeaves(const hiera::Value& v, X509* cert)
{
    if (v.isString()) {
        // Puppet chomps one newline off a decrypted string: one more keeps the plain fixture's answer.
        const std::string& s = v.asString();
        return hiera::Value(encrypt(cert, !s.empty() && s.back() == '\n' ? s + '\n' : s));
    }
    if (v.isArray()) {
        hiera::Array out;
        for (const auto& e : v.asArray())
            out.push_back(encryptLeaves(e, cert));
        return hiera::Value(std::move(out));
    }
    if (v.isHash()) {
        hiera::Hash out;
        for (const auto& e : v.asHash())
            out.set(e.key, encryptLeaves(e.value, cert));
        return hiera::Value(std::move(out));
    }
    return v;
}

void writeText(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary);
    f << text;
    if (!f)
        throw std::runtime_error("cannot write " + p.string());
}

} // namespace

std::string makeEyamlFixture(const fs::path& fixture, const fs::path& out, const std::vector<std::string>& roots)
{
    Key key(EVP_RSA_gen(2048));
    if (!key)
        throw std::runtime_error("cannot make an RSA key");
    Cert cert = selfSigned(key.get());
    const fs::path keyFile = out / "keys" / "private_key.pkcs7.pem";
    fs::create_directories(keyFile.parent_path());
    {
        BIO* bio = BIO_new_file(keyFile.c_str(), "w");
        if (!bio || PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
            throw std::runtime_error("cannot write " + keyFile.string());
        BIO_free(bio);
    }
    // hiera.yaml: the same levels, all read by eyaml_lookup_key with this run's key.
    std::string config = hiera::readFile((fixture / "hiera.yaml").string());
    const std::string from = "  data_hash: yaml_data\n";
    const auto at = config.find(from);
    if (at == std::string::npos)
        throw std::runtime_error("the fixture's hiera.yaml has no `data_hash: yaml_data` default");
    config.replace(at, from.size(),
                   "  lookup_key: eyaml_lookup_key\n  options:\n    pkcs7_private_key: '" + keyFile.string() + "'\n");
    writeText(out / "hiera.yaml", config);
    for (const char* dir : {"facts"})
        fs::create_directory_symlink(fs::absolute(fixture / dir), out / dir);
    for (const char* file : {"sample.tsv", "nodes.txt"})
        fs::copy_file(fixture / file, out / file);
    // data/: the files holding a sample key get those keys' string leaves encrypted; the others are
    // linked as they are.
    const std::set<std::string> encrypted(roots.begin(), roots.end());
    for (const auto& entry : fs::recursive_directory_iterator(fixture / "data")) {
        const fs::path rel = fs::relative(entry.path(), fixture);
        if (entry.is_directory()) {
            fs::create_directories(out / rel);
            continue;
        }
        hiera::Value data = hiera::loadDataFile(entry.path().string());
        bool touched = false;
        if (data.isHash()) {
            hiera::Hash h;
            for (const auto& e : data.asHash()) {
                const bool secret = e.key.isString() && encrypted.count(e.key.asString());
                touched = touched || secret;
                h.set(e.key, secret ? encryptLeaves(e.value, cert.get()) : e.value);
            }
            data = hiera::Value(std::move(h));
        }
        if (touched)
            writeText(out / rel, hiera::toYaml(data));
        else
            fs::create_symlink(fs::absolute(entry.path()), out / rel);
    }
    return keyFile.string();
}
