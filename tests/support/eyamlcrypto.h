#pragma once

// What hiera-eyaml does to make a key pair and encrypt a value, with OpenSSL's C API: shared by the
// eyaml tests (tests/support/eyamltestkey.h) and the eyaml benchmark fixture (bench/eyamlfixture.cpp),
// so both encrypt exactly as the real tool does. No Qt: the benchmark links none.

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include <string>
#include <string_view>

namespace eyamlcrypto {

// A certificate for `key` shaped like `eyaml createkeys`'s (hiera-eyaml 4+: v1, serial 0, empty
// names), valid for `days`. Null when OpenSSL fails; the caller owns it (X509_free).
inline X509* selfSignedCertificate(EVP_PKEY* key, long days)
{
    X509* cert = X509_new();
    if (!cert)
        return nullptr;
    X509_set_version(cert, 0);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 0);
    X509_gmtime_adj(X509_getm_notBefore(cert), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert), days * 24 * 3600);
    X509_set_pubkey(cert, key);
    if (X509_sign(cert, key, EVP_sha256()) <= 0) {
        X509_free(cert);
        return nullptr;
    }
    return cert;
}

// The DER PKCS#7 envelopedData hiera-eyaml writes: aes-256-cbc, binary (no MIME, no CRLF). Empty when
// OpenSSL fails.
inline std::string encryptDer(X509* cert, std::string_view plaintext)
{
    STACK_OF(X509)* certs = sk_X509_new_null();
    sk_X509_push(certs, cert);
    BIO* in = BIO_new_mem_buf(plaintext.data(), static_cast<int>(plaintext.size()));
    PKCS7* p7 = PKCS7_encrypt(certs, in, EVP_aes_256_cbc(), PKCS7_BINARY);
    BIO_free(in);
    sk_X509_free(certs);
    if (!p7)
        return {};
    unsigned char* der = nullptr;
    const int n = i2d_PKCS7(p7, &der);
    PKCS7_free(p7);
    std::string out(reinterpret_cast<const char*>(der), n > 0 ? static_cast<std::size_t>(n) : 0);
    OPENSSL_free(der);
    return out;
}

// Base64 on one line, as `eyaml encrypt -o string` prints the block.
inline std::string base64(std::string_view bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

} // namespace eyamlcrypto
