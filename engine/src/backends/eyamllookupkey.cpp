// eyaml_lookup_key: Puppet's lookup_key function for hiera-eyaml files (docs/eyaml.md). Each
// location is parsed as YAML through the engine's shared cache (ENC[...] strings and all, so no
// plaintext reaches the disk cache); a found value has its ENC blocks decrypted with the level's
// private key, or the host's (EngineOptions::eyamlPrivateKey) when the level's cannot be read, and is
// then interpolated, as Puppet does. Without a usable key the value stays as written, marked
// StillEncrypted, with a warning: never an empty string, never an error that sinks the lookup.
// Decrypted values are marked Decrypted (hosts mask them) and memoised per file version, in memory.

#include "backends/builtin.h"
#include "backends/eyaml/encblock.h"
#include "backends/eyaml/eyamlkeys.h"
#include "backends/eyaml/eyamlvalue.h"
#include "backends/eyaml/pkcs7decryptor.h"

#include <hiera/backend.h>
#include <hiera/error.h>

namespace hiera::detail {

namespace {

bool hasEncBlock(const Value& v)
{
    switch (v.type()) {
    case Value::Type::String:
        return containsEncBlock(v.asString());
    case Value::Type::Array:
        for (const auto& e : v.asArray())
            if (hasEncBlock(e))
                return true;
        return false;
    case Value::Type::Hash:
        for (const auto& e : v.asHash())
            if (hasEncBlock(e.value))
                return true;
        return false;
    default:
        return false;
    }
}

class EyamlLookupKey : public LookupKeyBackend
{
public:
    explicit EyamlLookupKey(std::string hostKeyFile) : m_hostKeyFile(std::move(hostKeyFile)) { }

    std::string name() const override { return "eyaml_lookup_key"; }
    std::optional<DataFormat> fileFormat() const override { return DataFormat::Yaml; }

    std::optional<Value> lookupKey(const std::string& key, LookupKeyContext& context) const override
    {
        if (context.path().empty())
            throw Error(ErrorCode::ConfigNoLocation,
                        "'eyaml_lookup_key': one of 'path', 'paths' 'glob', 'globs' or "
                        "'mapped_paths' must be declared in hiera.yaml when using this "
                        "lookup_key function");
        const Value* raw = context.data().isHash() ? context.data().asHash().find(key) : nullptr;
        if (!raw)
            return std::nullopt;
        if (auto memo = context.memo().find(key))
            return context.interpolate(*memo);
        if (!hasEncBlock(*raw)) {
            context.memo().store(key, *raw); // plain data: no key needed, and no walk next time
            return context.interpolate(*raw);
        }
        std::string noKeyReason;
        const std::shared_ptr<const PrivateKey> privateKey = loadKey(context.options(), noKeyReason);
        std::optional<Pkcs7Decryptor> decryptor;
        if (privateKey)
            decryptor.emplace(privateKey);
        EyamlDecryptContext dc;
        dc.pkcs7 = decryptor ? &*decryptor : nullptr;
        dc.noKeyReason = noKeyReason;
        dc.key = key;
        dc.path = context.path();
        EyamlValue ev = decryptEyamlValue(*raw, dc);
        for (const std::string& note : ev.notes)
            context.warn(context.path() + ": the value of '" + key + "' stays encrypted: " + note);
        if (ev.notes.empty())
            context.memo().store(key, ev.value); // decrypted once per file version (a key may change too)
        return context.interpolate(ev.value);
    }

private:
    // The level's key when it can be loaded, else the host's; null (with the reasons) when neither.
    std::shared_ptr<const PrivateKey> loadKey(const Value& options, std::string& reason) const
    {
        try {
            return m_keys.load(EyamlKeyOptions::fromLevelOptions(options));
        } catch (const Error& e) {
            reason = e.message();
        }
        if (m_hostKeyFile.empty()) {
            reason += " (no other key given: hiera-lookup --eyaml-private-key, or the explorer's Repository > Choose "
                      "eyaml Private Key)";
            return nullptr;
        }
        try {
            return m_keys.loadFile(m_hostKeyFile);
        } catch (const Error& e) {
            reason += "; " + withHostKeyNamed(e.message());
        }
        return nullptr;
    }

    // The host's key is the user's own file, most often outside the repository (~/.eyaml/prod.pem):
    // the level's key path is written in hiera.yaml for anyone to read, this one is not. Warnings go
    // into traces and exported reports, so it is named by its file name only (docs/bad-input.md,
    // "eyaml").
    std::string withHostKeyNamed(std::string message) const
    {
        const std::size_t slash = m_hostKeyFile.find_last_of('/');
        const std::string shown =
            (slash == std::string::npos ? m_hostKeyFile : "…/" + m_hostKeyFile.substr(slash + 1)) + " (the host's key)";
        for (std::size_t at = message.find(m_hostKeyFile); at != std::string::npos;
             at = message.find(m_hostKeyFile, at + shown.size()))
            message.replace(at, m_hostKeyFile.size(), shown);
        return message;
    }

    std::string m_hostKeyFile;
    EyamlKeyStore m_keys;
};

} // namespace

std::shared_ptr<const LookupKeyBackend> makeEyamlLookupKey(const std::string& hostKeyFile)
{
    return std::make_shared<const EyamlLookupKey>(hostKeyFile);
}

} // namespace hiera::detail
