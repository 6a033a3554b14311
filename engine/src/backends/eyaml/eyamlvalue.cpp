#include "backends/eyaml/eyamlvalue.h"

#include "backends/eyaml/encblock.h"
#include "backends/eyaml/pkcs7decryptor.h"

#include <hiera/error.h>

#include <algorithm>

namespace hiera::detail {

namespace {

// The start of `text`, cut at a UTF-8 character boundary, for quoting in a message.
std::string shortened(std::string_view text)
{
    if (text.size() <= kMaxQuotedValue)
        return std::string(text);
    std::size_t cut = kMaxQuotedValue;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + "...";
}

std::string lowered(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c);
    });
    return out;
}

class Walker
{
public:
    Walker(const EyamlDecryptContext& context, EyamlValue& result) : m_context(context), m_result(result) { }

    // Returns whether `v` changed (then `out` holds the new value).
    bool walk(const Value& v, Value& out)
    {
        switch (v.type()) {
        case Value::Type::String:
            return walkString(v, out);
        case Value::Type::Array: {
            const Array& items = v.asArray();
            bool changed = false;
            for (std::size_t i = 0; i < items.size(); ++i) {
                Value item;
                if (!walk(items[i], item))
                    continue;
                if (!changed) {
                    out = v;
                    changed = true;
                }
                out.mutableArray()[i] = std::move(item);
            }
            return changed;
        }
        case Value::Type::Hash: {
            bool changed = false;
            for (const Hash::Entry& entry : v.asHash()) {
                Value item;
                if (!walk(entry.value, item))
                    continue;
                if (!changed) {
                    out = v;
                    changed = true;
                }
                *out.mutableHash().findMutable(entry.key) = std::move(item);
            }
            return changed;
        }
        default:
            return false;
        }
    }

private:
    bool walkString(const Value& v, Value& out)
    {
        const std::string& s = v.asString();
        if (!containsEncBlock(s))
            return false;
        std::string joined;
        bool anyBlock = false, anyDecrypted = false;
        for (const EncPiece& piece : splitEncBlocks(s)) {
            if (piece.kind == EncPiece::Kind::Text) {
                joined += piece.text;
                continue;
            }
            anyBlock = true;
            // hiera-eyaml finds the encryptor class by a case-insensitive name: `ENC[pkcs7,...]` works too.
            const std::string scheme = lowered(piece.scheme);
            if (scheme == "pkcs7") {
                if (m_context.pkcs7) {
                    joined += decryptOrThrow(s, piece);
                    anyDecrypted = true;
                    continue;
                }
                keep(m_context.noKeyReason);
            } else if (scheme == "gpg") {
                keep(kGpgNotSupported);
            } else {
                throwDecryptError(s,
                                  "Could not find hiera-eyaml encryptor: " + std::string(piece.scheme)
                                      + ". Try gem install hiera-eyaml-" + scheme + " ?");
            }
            joined += piece.text;
        }
        // A string whose candidate blocks were all rejected by the scan is still chomped, as Puppet does;
        // one whose blocks all stay encrypted is shown exactly as written.
        if (anyBlock && !anyDecrypted) {
            out = v; // as written, marked so that hosts show it as encrypted
            SourceMark m = v.mark();
            m.flags |= SourceMark::StillEncrypted;
            out.setMark(m);
            return true;
        }
        // Ruby's chomp: one "\r\n", "\n" or "\r".
        if (joined.ends_with("\r\n"))
            joined.resize(joined.size() - 2);
        else if (joined.ends_with('\n') || joined.ends_with('\r'))
            joined.pop_back();
        m_result.decrypted = m_result.decrypted || anyDecrypted;
        out = Value(std::move(joined));
        SourceMark m = v.mark();
        if (anyDecrypted)
            m.flags |= SourceMark::Decrypted;
        out.setMark(m);
        return true;
    }

    std::string decryptOrThrow(const std::string& s, const EncPiece& piece)
    {
        try {
            return m_context.pkcs7->decrypt(piece.payload);
        } catch (const Error& e) {
            throwDecryptError(s, e.message());
        }
    }

    [[noreturn]] void throwDecryptError(const std::string& s, const std::string& why)
    {
        throw Error(ErrorCode::EyamlDecrypt,
                    "hiera-eyaml backend error decrypting " + shortened(s) + " when looking up "
                        + std::string(m_context.key) + " in " + std::string(m_context.path) + ". Error was " + why);
    }

    void keep(std::string_view reason)
    {
        m_result.keptEncrypted = true;
        if (std::find(m_result.notes.begin(), m_result.notes.end(), reason) == m_result.notes.end())
            m_result.notes.emplace_back(reason);
    }

    const EyamlDecryptContext& m_context;
    EyamlValue& m_result;
};

} // namespace

EyamlValue decryptEyamlValue(const Value& value, const EyamlDecryptContext& context)
{
    EyamlValue result;
    Value changed;
    Walker walker(context, result);
    result.value = walker.walk(value, changed) ? std::move(changed) : value;
    return result;
}

} // namespace hiera::detail
