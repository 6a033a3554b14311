#pragma once

// A test key pair for eyaml, made at run time with OpenSSL's C API (the tests never run `eyaml` or
// `openssl`), and values encrypted with it as hiera-eyaml encrypts them.

#include <openssl/bio.h>
#include <openssl/buffer.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <QtTest>

#include <string>
#include <string_view>

// An RSA key pair with a certificate shaped like hiera-eyaml 4.x+'s (v1, serial 0, empty names).
struct TestKey
{
    std::string keyPem;
    X509* cert = nullptr;
    EVP_PKEY* pkey = nullptr;

    TestKey() = default;
    TestKey(const TestKey&) = delete;
    TestKey& operator=(const TestKey&) = delete;
    ~TestKey()
    {
        X509_free(cert);
        EVP_PKEY_free(pkey);
    }

    void generate(int bits = 2048)
    {
        pkey = EVP_RSA_gen(static_cast<unsigned>(bits));
        QVERIFY(pkey);
        BIO* bio = BIO_new(BIO_s_mem());
        QVERIFY(PEM_write_bio_PrivateKey(bio, pkey, nullptr, nullptr, 0, nullptr, nullptr) == 1);
        keyPem = bioText(bio);
        BIO_free(bio);

        cert = X509_new();
        QVERIFY(cert);
        X509_set_version(cert, 0);
        ASN1_INTEGER_set(X509_get_serialNumber(cert), 0);
        X509_gmtime_adj(X509_getm_notBefore(cert), 0);
        X509_gmtime_adj(X509_getm_notAfter(cert), 50L * 365 * 24 * 3600);
        X509_set_pubkey(cert, pkey);
        QVERIFY(X509_sign(cert, pkey, EVP_sha256()) > 0);
    }

    // The DER PKCS#7 envelopedData hiera-eyaml writes: aes-256-cbc, binary (no MIME, no CRLF).
    std::string encryptDer(std::string_view plaintext) const
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

    std::string encryptB64(std::string_view plaintext) const { return base64(encryptDer(plaintext)); }

    // `ENC[PKCS7,...]` on one line, as `eyaml encrypt -o string` prints it.
    std::string enc(std::string_view plaintext) const { return "ENC[PKCS7," + encryptB64(plaintext) + "]"; }

    static std::string bioText(BIO* bio)
    {
        BUF_MEM* mem = nullptr;
        BIO_get_mem_ptr(bio, &mem);
        return std::string(mem->data, mem->length);
    }

    static std::string base64(std::string_view bytes)
    {
        std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
        const int n =
            EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
        out.resize(static_cast<std::size_t>(n));
        return out;
    }
};
