// Levels of data_hash functions (yaml_data, json_data, a host's own): each existing location is parsed
// whole, once per file version, through the engine's shared cache; a lookup is a hash lookup in it,
// then interpolation of the found value (Puppet's DataHashFunctionProvider).

#include "providers/providers.h"
#include "providers/valuechecks.h"

#include "interpolate/interpolation.h"

namespace hiera::detail {

namespace {

class DataHashProvider : public LevelProvider
{
public:
    explicit DataHashProvider(const DataHashBackend& backend) : m_backend(backend) { }

    std::shared_ptr<const DataFile> open(const std::string& path, const Value& options,
                                         const ProviderEnvironment& env) const override
    {
        return env.files.get(path, m_backend, options, env.limits);
    }

    bool answersFromDataHash() const override { return true; }

    std::optional<LocationHit> lookup(const LocationQuery& q) const override
    {
        const DataFile& file = q.file;
        const Hash::Entry* entry = file.data.isHash() ? file.data.asHash().findEntry(q.root) : nullptr;
        if (!entry)
            return std::nullopt;
        // Flags computed once per parse: most values have nothing to interpolate and no key Puppet refuses.
        const std::uint8_t flags = file.flags(entry);
        if (flags & DataFile::Refused)
            throw file.refusal(entry); // a value Puppet loads but cannot return (a Ruby symbol), reached
        // The value as written is checked, before interpolation, as Puppet's data_value checks it: an
        // alias() written as a hash key may then make any key (null, an array, a hash), which Puppet
        // keeps and renders as its string form (docs/engine-semantics.md, "alias() as a hash key").
        if (flags & DataFile::InvalidKey)
            checkLookupValue(entry->value, q.root.text());
        LocationHit hit{entry->value, entry->key.mark(), (flags & DataFile::Interpolates) != 0};
        if (flags & DataFile::Interpolates) {
            try {
                hit.value = interpolateValue(entry->value, q.host, q.trace);
            } catch (const Error& e) {
                rethrowAt(e, entry->value);
            }
        }
        return hit;
    }

private:
    const DataHashBackend& m_backend;
};

} // namespace

std::shared_ptr<const LevelProvider> makeDataHashProvider(const DataHashBackend& backend)
{
    return std::make_shared<DataHashProvider>(backend);
}

} // namespace hiera::detail
