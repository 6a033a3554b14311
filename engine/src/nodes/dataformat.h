#pragma once

// The format a data file is parsed in, by its name, for the node library's diffs that parse a file's
// text themselves (the revision diff's changed keys, an unsaved edit): `.yaml`, `.yml` and `.eyaml`
// are YAML, `.json` is JSON, anything else is not data of theirs.

#include <hiera/yaml.h>

#include <optional>
#include <string_view>

namespace hiera::detail {

inline std::optional<DataFormat> dataFormatOf(std::string_view path)
{
    for (const char* ext : {".yaml", ".yml", ".eyaml"})
        if (path.ends_with(ext))
            return DataFormat::Yaml;
    if (path.ends_with(".json"))
        return DataFormat::Json;
    return std::nullopt;
}

} // namespace hiera::detail
