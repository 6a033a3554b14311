// Differential target for the fast block-YAML reader (engine/src/parse/blockyaml.cpp): whenever it accepts
// a text, yaml-cpp must accept it too and emit exactly the same events, marks included. The input is
// first brought to what parseData hands the reader: valid UTF-8, no NUL, no byte-order mark.

#include "../tests/support/yamleventlog.h"
#include "fuzz_common.h"
#include "parse/blockyaml.h" // engine/src, through hiera::engine_internals
#include "parse/scalarresolver.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (hiera::detail::invalidUtf8At(text) != std::string_view::npos || text.find('\0') != std::string_view::npos
        || text.substr(0, 3) == "\xEF\xBB\xBF")
        return 0;
    hiera::testing::YamlEventLog fast;
    if (!hiera::detail::parseBlockYaml(text, fast))
        return 0;
    bool ok = false;
    const std::string expected = hiera::testing::yamlCppEvents(text, ok);
    if (!ok || expected != fast.text)
        fuzz::violated("the block reader and yaml-cpp disagree",
                       "input:\n" + std::string(text) + "\n--- yaml-cpp:" + expected
                           + "\n--- block reader:" + fast.text);
    return 0;
}
