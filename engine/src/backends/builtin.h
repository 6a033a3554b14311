#pragma once

// The engine's own backend functions. Each lives in its own file and is registered by one line in
// registry.cpp; a host registers its own the same way through BackendRegistry::add.

#include <hiera/backend.h>
#include <hiera/yaml.h>

#include <memory>

namespace hiera::detail {

std::shared_ptr<const DataHashBackend> makeYamlData();
std::shared_ptr<const DataHashBackend> makeJsonData();

// The reader a lookup_key function's locations are parsed with (LookupKeyBackend::fileFormat): the
// yaml_data / json_data parse, so that a file read by both kinds of level is parsed once.
const DataHashBackend& fileReader(DataFormat format);

} // namespace hiera::detail
