// hiera.yaml parsing: hiera::Config::parse on arbitrary text, as an environment's and as a module's
// hiera.yaml (which may have a default_hierarchy). Every rejection must be a hiera::Error with a code;
// an accepted config must be internally consistent.

#include "fuzz_common.h"

#include <hiera/config.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

void checkLevels(const std::vector<hiera::Level>& levels)
{
    for (const hiera::Level& level : levels) {
        if (level.name.empty())
            fuzz::violated("accepted a level without a name");
        // A lookup_key or data_dig level may have none (hiera_vault); a data_hash level may not.
        if (level.locations.empty() && level.kind == hiera::BackendKind::DataHash)
            fuzz::violated("accepted a data_hash level without locations", level.name);
        (void)hiera::backendKindName(level.kind);
        if (!level.options.isNull() && !level.options.isHash())
            fuzz::violated("level options neither null nor a hash", level.name);
        fuzz::renderAll(level.options);
        for (const hiera::LocationSpec& loc : level.locations)
            if (loc.kind == hiera::LocationSpec::Kind::MappedPaths && loc.loopVariable.empty())
                fuzz::violated("mapped_paths without a loop variable", level.name);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (auto use : {hiera::Config::Use::Environment, hiera::Config::Use::Module}) {
        try {
            const hiera::Config config =
                hiera::Config::parse(text, "/nonexistent/fuzz", "/nonexistent/fuzz/hiera.yaml", use);
            checkLevels(config.hierarchy);
            checkLevels(config.defaultHierarchy);
            if (use != hiera::Config::Use::Module && !config.defaultHierarchy.empty())
                fuzz::violated("a default_hierarchy accepted outside a module");
        } catch (const hiera::Error& e) {
            fuzz::checkMessage(e);
            if (e.code() == hiera::ErrorCode::None)
                fuzz::violated("an Error without a code", e.what());
        }
    }
    return 0;
}
