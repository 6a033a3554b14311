#pragma once

// The eyaml variant of a bench fixture: the same hierarchy with every level read by
// eyaml_lookup_key, and the string leaves of the sample keys' values encrypted as hiera-eyaml
// encrypts them (PKCS#7, aes-256-cbc) with a key pair made for the run.

#include <filesystem>
#include <string>
#include <vector>

// Writes the variant into `out` (created) and returns the private key's path. `roots`: the root keys
// whose values are encrypted. Throws std::runtime_error.
std::string makeEyamlFixture(const std::filesystem::path& fixture, const std::filesystem::path& out,
                             const std::vector<std::string>& roots);
