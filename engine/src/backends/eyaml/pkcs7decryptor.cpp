#include "backends/eyaml/pkcs7decryptor.h"

#include "backends/eyaml/eyamlkeys.h"
#include "backends/eyaml/opensslerrors.h"
#include "backends/eyaml/rubybase64.h"

#include <hiera/error.h>

#include <openssl/bio.h>
#include <openssl/buffer.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>

#include <climits>
#include <stdexcept>

namespace hiera::detail {

namespace {

[[noreturn]] void fail(const std::string& message)
{
    throw Error(ErrorCode::EyamlDecrypt, message);
}

struct CmsDeleter
{
    void operator()(CMS_ContentInfo* p) const { CMS_ContentInfo_free(p); }
};
struct BioDeleter
{
    void operator()(BIO* p) const
    {
        // The memory BIO holds plaintext: wipe it before it goes back to the allocator.
        BUF_MEM* mem = nullptr;
        if (BIO_get_mem_ptr(p, &mem) == 1 && mem && mem->data)
            OPENSSL_cleanse(mem->data, mem->max);
        BIO_free(p);
    }
};

} // namespace

Pkcs7Decryptor::Pkcs7Decryptor(std::shared_ptr<const PrivateKey> key) : m_key(std::move(key))
{
    if (!m_key)
        throw std::invalid_argument("Pkcs7Decryptor needs a key");
}

std::string Pkcs7Decryptor::decrypt(std::string_view payload) const
{
    if (payload.size() > kMaxPayloadBytes)
        fail("the ENC payload is " + std::to_string(payload.size()) + " bytes, more than the "
             + std::to_string(kMaxPayloadBytes >> 20) + " MiB an eyaml value may have");
    const std::string der = decodeBase64Lenient(payload);
    if (der.empty())
        fail("the ENC payload holds no base64 data");

    ERR_clear_error();
    // The CMS API reads PKCS#7 envelopedData (CMS is its successor) and, unlike PKCS7_decrypt, can be
    // told to report a key that does not fit (CMS_DEBUG_DECRYPT) instead of decrypting with a random
    // key. Without it a wrong key gives garbage plaintext about once in 256 tries. The random key
    // defends servers against padding oracles; a lookup is no oracle for anyone but the key's owner.
    const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
    std::unique_ptr<CMS_ContentInfo, CmsDeleter> cms(d2i_CMS_ContentInfo(nullptr, &p, static_cast<long>(der.size())));
    if (!cms)
        fail("the ENC payload is not a DER PKCS#7 message (" + takeOpenSslErrors() + ")");
    const int type = OBJ_obj2nid(CMS_get0_type(cms.get()));
    if (type != NID_pkcs7_enveloped)
        fail(std::string("the ENC payload is a PKCS#7 ")
             + (type == NID_undef ? "message of unknown type" : OBJ_nid2sn(type)) + ", not envelopedData");

    std::unique_ptr<BIO, BioDeleter> out(BIO_new(BIO_s_mem()));
    if (!out)
        fail(takeOpenSslErrors());
    if (CMS_decrypt(cms.get(), m_key->get(), nullptr, nullptr, out.get(), CMS_BINARY | CMS_DEBUG_DECRYPT) != 1)
        fail(takeOpenSslErrors());
    BUF_MEM* mem = nullptr;
    BIO_get_mem_ptr(out.get(), &mem);
    return mem && mem->length ? std::string(mem->data, mem->length) : std::string();
}

} // namespace hiera::detail
