// Levels of lookup_key functions (eyaml_lookup_key, a host's own): the function is asked for the root
// key at each existing location, with a context that gives it the location parsed (when it declares a
// file format), the interpolated options, interpolation and a memo per file version (Puppet's
// LookupKeyFunctionProvider and its Context).

#include "providers/providers.h"
#include "providers/valuechecks.h"

#include "backends/builtin.h"
#include "interpolate/interpolation.h"

namespace hiera::detail {

namespace {

class KeyContext : public LookupKeyContext
{
public:
    explicit KeyContext(const LocationQuery& q) : m_q(q) { }

    const std::string& path() const override { return m_q.path; }
    const Value& options() const override { return m_q.options; }
    const ParseLimits& limits() const override { return m_q.limits; }
    std::string read(std::size_t limit) const override { return m_q.tree.read(m_q.path, limit); }
    void warn(const std::string& message) override { m_q.host.warn(message); }
    const Value& data() const override
    {
        static const Value none{Hash()};
        return m_q.file.data.isHash() ? m_q.file.data : none; // a function that reads no file of ours
    }
    Value interpolate(const Value& value) override
    {
        if (!containsInterpolation(value))
            return value;
        m_dependsOnScope = true;
        return interpolateValue(value, m_q.host, m_q.trace);
    }
    LocationMemo& memo() override { return m_q.file.memo; }

    bool dependsOnScope() const { return m_dependsOnScope; }

private:
    const LocationQuery& m_q;
    bool m_dependsOnScope = false;
};

class LookupKeyProvider : public LevelProvider
{
public:
    explicit LookupKeyProvider(const LookupKeyBackend& backend) : m_backend(backend), m_format(backend.fileFormat()) { }

    std::shared_ptr<const DataFile> open(const std::string& path, const Value&,
                                         const ProviderEnvironment& env) const override
    {
        if (!m_format)
            return statOnly(path, env.files.tree());
        // Parsed as yaml_data / json_data would parse it: one parse for both kinds of level.
        return env.files.get(path, fileReader(*m_format), Value(), env.limits);
    }

    std::optional<LocationHit> lookup(const LocationQuery& q) const override
    {
        // A value Puppet loads but cannot return (a Ruby symbol) fails the lookups that reach it.
        const Hash::Entry* entry = q.file.data.isHash() ? q.file.data.asHash().findEntry(q.root) : nullptr;
        if (entry && (q.file.flags(entry) & DataFile::Refused))
            throw q.file.refusal(entry);
        KeyContext context(q);
        std::optional<Value> value;
        try {
            value = m_backend.lookupKey(q.rootKey, context);
        } catch (const Error&) {
            throw;
        } catch (const std::bad_alloc&) {
            throw;
        } catch (const std::exception& e) {
            throw Error(ErrorCode::Internal,
                        "lookup_key function '" + m_backend.name() + "' failed at " + q.path + ": " + e.what());
        }
        if (!value)
            return std::nullopt;
        checkLookupValue(*value, q.root.text());
        LocationHit hit{std::move(*value), {}, context.dependsOnScope()};
        hit.keyMark = entry ? entry->key.mark() : hit.value.mark();
        return hit;
    }

private:
    const LookupKeyBackend& m_backend;
    std::optional<DataFormat> m_format;
};

} // namespace

std::shared_ptr<const LevelProvider> makeLookupKeyProvider(const LookupKeyBackend& backend)
{
    return std::make_shared<LookupKeyProvider>(backend);
}

} // namespace hiera::detail
