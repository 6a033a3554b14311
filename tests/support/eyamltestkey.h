#pragma once

// A test key pair for eyaml, made at run time with OpenSSL's C API (the tests never run `eyaml` or
// `openssl`), and values encrypted with it as hiera-eyaml encrypts them.

#include "eyamlcrypto.h"

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

        cert = eyamlcrypto::selfSignedCertificate(pkey, 50L * 365);
        QVERIFY(cert);
    }

    std::string encryptDer(std::string_view plaintext) const { return eyamlcrypto::encryptDer(cert, plaintext); }

    std::string encryptB64(std::string_view plaintext) const { return base64(encryptDer(plaintext)); }

    // `ENC[PKCS7,...]` on one line, as `eyaml encrypt -o string` prints it.
    std::string enc(std::string_view plaintext) const { return "ENC[PKCS7," + encryptB64(plaintext) + "]"; }

    static std::string bioText(BIO* bio)
    {
        BUF_MEM* mem = nullptr;
        BIO_get_mem_ptr(bio, &mem);
        return std::string(mem->data, mem->length);
    }

    static std::string base64(std::string_view bytes) { return eyamlcrypto::base64(bytes); }
};
