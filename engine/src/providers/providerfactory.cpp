// The one place that maps a level's backend kind and function name to a provider.

#include "providers/levelprovider.h"
#include "providers/providers.h"

#include <hiera/error.h>

namespace hiera::detail {

namespace {

std::string joined(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
}

} // namespace

std::shared_ptr<const LevelProvider> makeLevelProvider(const Level& level, const BackendRegistry& registry)
{
    switch (level.kind) {
    case BackendKind::DataHash:
        if (const DataHashBackend* backend = registry.dataHash(level.function))
            return makeDataHashProvider(*backend);
        return makeUnrunnableProvider(Error(ErrorCode::UnknownBackend,
                                            "unknown data_hash function '" + level.function + "' in hierarchy entry '"
                                                + level.name + "' (available: " + joined(registry.dataHashNames())
                                                + ")",
                                            level.location));
    case BackendKind::LookupKey:
        if (const LookupKeyBackend* backend = registry.lookupKey(level.function))
            return makeLookupKeyProvider(*backend);
        break;
    case BackendKind::DataDig:
        break;
    }
    // The kinds docs/seed-rules.md §2.5 reserves, and functions no registry entry runs: the message names
    // what this engine does run (the seed's "(v0.1 implements data_hash only)" stopped being true when
    // eyaml_lookup_key came).
    std::string runs = "data_hash: " + joined(registry.dataHashNames());
    if (!registry.lookupKeyNames().empty())
        runs += "; lookup_key: " + joined(registry.lookupKeyNames());
    return makeUnrunnableProvider(Error(
        ErrorCode::UnsupportedBackend,
        std::string("backend kind ") + backendKindName(level.kind) + " is not supported: hierarchy entry '" + level.name
            + "' uses " + backendKindName(level.kind) + ": " + level.function + " (this engine runs " + runs + ")",
        level.location));
}

std::shared_ptr<const DataFile> statOnly(const std::string& path, const SourceTree& tree)
{
    auto file = std::make_shared<DataFile>();
    file->exists = statFile(tree, path).exists;
    return file;
}

} // namespace hiera::detail
