// Levels whose function this engine cannot run (a custom data_hash such as terraform_self, hiera_vault,
// any data_dig). As Puppet without that function, strictly: loading the hierarchy and resolving its
// locations work, a location whose file does not exist is never consulted, and a lookup that consults
// an existing one fails (or skips the level, under EngineOptions::skipUnsupportedLevels). The lookup
// (lookuprun.cpp) asks unrunnable() before it would call lookup().

#include "providers/providers.h"

namespace hiera::detail {

namespace {

class UnrunnableProvider : public LevelProvider
{
public:
    explicit UnrunnableProvider(Error why) : m_why(std::move(why)) { }

    std::shared_ptr<const DataFile> open(const std::string& path, const Value&,
                                         const ProviderEnvironment& env) const override
    {
        return statOnly(path, env.files.tree());
    }

    std::optional<LocationHit> lookup(const LocationQuery&) const override { throw m_why; }

    const Error* unrunnable() const override { return &m_why; }

private:
    Error m_why;
};

} // namespace

std::shared_ptr<const LevelProvider> makeUnrunnableProvider(Error why)
{
    return std::make_shared<UnrunnableProvider>(std::move(why));
}

} // namespace hiera::detail
