// The eyaml ENC[...] block scanner (engine/src/backends/eyaml/encblock.cpp) against std::regex running
// Puppet's and hiera-eyaml's own patterns, then the whole value walk with and without a key. Invariants:
// the pieces give the input back, every block is exactly what /ENC\[(\w+,)?([A-Za-z0-9+\/ =\n]+?)\]/
// finds, left to right, and containsEncBlock agrees with /ENC\[.*?\]/ (`.` not matching "\n" as in
// Ruby). Without a key nothing but an unknown scheme is an error; with one, only EyamlDecrypt errors,
// each one printable line that quotes no more than the start of the value.

#include "fuzz_common.h"

#include "backends/eyaml/encblock.h" // engine/src, through hiera::engine_internals
#include "backends/eyaml/eyamlkeys.h"
#include "backends/eyaml/eyamlvalue.h"
#include "backends/eyaml/pkcs7decryptor.h"
#include "backends/eyaml/rubybase64.h"

#include <openssl/bio.h>
#include <openssl/buffer.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <string_view>

using namespace hiera::detail;

namespace {

// A key made once per process: the decryption path runs on every input whose payload parses.
const Pkcs7Decryptor& decryptor()
{
    static const std::unique_ptr<Pkcs7Decryptor> d = [] {
        EVP_PKEY* pkey = EVP_RSA_gen(1024);
        BIO* bio = BIO_new(BIO_s_mem());
        PEM_write_bio_PrivateKey(bio, pkey, nullptr, nullptr, 0, nullptr, nullptr);
        BUF_MEM* mem = nullptr;
        BIO_get_mem_ptr(bio, &mem);
        auto key = PrivateKey::fromPem(std::string_view(mem->data, mem->length), "fuzz key");
        BIO_free(bio);
        EVP_PKEY_free(pkey);
        return std::make_unique<Pkcs7Decryptor>(key);
    }();
    return *d;
}

std::string describe(const std::vector<EncPiece>& pieces)
{
    std::string out;
    for (const EncPiece& p : pieces)
        if (p.kind == EncPiece::Kind::Block)
            out += "[" + std::string(p.text) + "]";
    return out;
}

// The blocks std::regex finds with hiera-eyaml's pattern (ECMAScript backtracking is Ruby's here: no
// `.`, ASCII classes). Only on short inputs: std::regex recurses per character.
std::string regexBlocks(const std::string& text)
{
    static const std::regex block(R"(ENC\[(\w+,)?([A-Za-z0-9+/ =\n]+?)\])");
    std::string out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), block); it != std::sregex_iterator(); ++it)
        out += "[" + it->str(0) + "]";
    return out;
}

void checkPieces(std::string_view text, const std::vector<EncPiece>& pieces)
{
    std::string joined;
    for (const EncPiece& p : pieces) {
        joined += p.text;
        if (p.kind == EncPiece::Kind::Text) {
            if (p.text.empty())
                fuzz::violated("an empty text piece");
            // Text alone holds no block either: cutting a string never makes a `]` appear.
            const auto again = splitEncBlocks(p.text);
            if (again.size() != 1 || again[0].kind != EncPiece::Kind::Text)
                fuzz::violated("a text piece that holds a block", std::string(p.text));
            continue;
        }
        const std::string rebuilt =
            "ENC[" + (p.schemeWritten ? std::string(p.scheme) + "," : std::string()) + std::string(p.payload) + "]";
        if (rebuilt != p.text || p.payload.empty() || p.scheme.empty())
            fuzz::violated("a block that is not tag + payload", std::string(p.text));
    }
    if (joined != text)
        fuzz::violated("the pieces do not give the input back", std::string(text));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto pieces = splitEncBlocks(text);
    checkPieces(text, pieces);
    const bool contains = containsEncBlock(text);

    if (size <= 1024) {
        try {
            if (describe(pieces) != regexBlocks(text))
                fuzz::violated("splitEncBlocks and hiera-eyaml's regex disagree",
                               text + "\n--- scanner: " + describe(pieces) + "\n--- regex: " + regexBlocks(text));
            static const std::regex sameLine(R"(ENC\[[^\n]*?\])");
            if (contains != std::regex_search(text, sameLine))
                fuzz::violated("containsEncBlock and Puppet's regex disagree", text);
        } catch (const std::regex_error&) {
            // std::regex's own complexity or stack limit: no verdict
        }
    }

    const std::string decoded = decodeBase64Lenient(text);
    if (decoded.size() > size / 4 * 3 + 2)
        fuzz::violated("base64 gave more bytes than it can", text);

    bool unknownScheme = false;
    if (contains)
        for (const EncPiece& p : pieces)
            if (p.kind == EncPiece::Kind::Block) {
                std::string s(p.scheme);
                for (char& c : s)
                    c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
                if (s != "pkcs7" && s != "gpg") {
                    unknownScheme = true;
                    break; // blocks are handled left to right: a bad PKCS7 block before it fails first
                }
            }

    const hiera::Value value(text);
    EyamlDecryptContext noKey;
    noKey.key = "fuzz";
    noKey.path = "fuzz.eyaml";
    try {
        const EyamlValue r = decryptEyamlValue(value, noKey);
        if (unknownScheme)
            fuzz::violated("an unknown scheme accepted", text);
        if (r.decrypted || !r.value.isString())
            fuzz::violated("decrypted without a key", text);
        if (r.keptEncrypted && r.value != value)
            fuzz::violated("a value kept encrypted is not as written", text);
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        if (!unknownScheme || e.code() != hiera::ErrorCode::EyamlDecrypt)
            fuzz::violated("an error without a key", e.what());
    }

    EyamlDecryptContext withKey = noKey;
    withKey.pkcs7 = &decryptor();
    try {
        (void)decryptEyamlValue(value, withKey);
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        if (e.code() != hiera::ErrorCode::EyamlDecrypt || e.message().size() > 4096)
            fuzz::violated("an unexpected error with a key", e.what());
    }
    return 0;
}
