#include "backends/builtin.h"

#include <hiera/backend.h>

namespace hiera {

std::shared_ptr<BackendRegistry> BackendRegistry::withDefaults()
{
    auto r = std::make_shared<BackendRegistry>();
    // The built-in functions, one line each.
    r->add(detail::makeYamlData());
    r->add(detail::makeJsonData());
    return r;
}

std::shared_ptr<const BackendRegistry> BackendRegistry::defaultRegistry()
{
    static const std::shared_ptr<const BackendRegistry> registry = withDefaults();
    return registry;
}

void BackendRegistry::add(std::shared_ptr<const DataHashBackend> backend)
{
    m_dataHash.push_back(std::move(backend));
}

void BackendRegistry::add(std::shared_ptr<const LookupKeyBackend> backend)
{
    m_lookupKey.push_back(std::move(backend));
}

// A later registration of a name wins, so that a host can replace a built-in function.
const DataHashBackend* BackendRegistry::dataHash(const std::string& name) const
{
    for (auto it = m_dataHash.rbegin(); it != m_dataHash.rend(); ++it)
        if ((*it)->name() == name)
            return it->get();
    return nullptr;
}

const LookupKeyBackend* BackendRegistry::lookupKey(const std::string& name) const
{
    for (auto it = m_lookupKey.rbegin(); it != m_lookupKey.rend(); ++it)
        if ((*it)->name() == name)
            return it->get();
    return nullptr;
}

std::vector<std::string> BackendRegistry::dataHashNames() const
{
    std::vector<std::string> names;
    for (const auto& b : m_dataHash)
        names.push_back(b->name());
    return names;
}

std::vector<std::string> BackendRegistry::lookupKeyNames() const
{
    std::vector<std::string> names;
    for (const auto& b : m_lookupKey)
        names.push_back(b->name());
    return names;
}

namespace detail {

const DataHashBackend& fileReader(DataFormat format)
{
    static const auto yaml = makeYamlData();
    static const auto json = makeJsonData();
    return format == DataFormat::Json ? *json : *yaml;
}

} // namespace detail

} // namespace hiera
