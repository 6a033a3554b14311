// Differential: a deep merge without knockout_prefix runs on plain values (ValueDeepMerger), and with a
// prefix on the port of the deep_merge gem that keeps Ruby's object identity (DeepMerger). With a prefix
// that no string contains, the two must agree on every fold: the same value in the same order, or the
// same error. The input is a flags byte (merge_hash_arrays, sort_merged_arrays) and a YAML sequence of
// found values, highest priority first.

#include "fuzz_common.h"

#include <hiera/merge.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

const std::string kNeverPrefix = "\x01never";

// The fold as the engine does it, as text (JSON keeps hash order), or the error.
std::string fold(const hiera::MergeSpec& spec, const hiera::Array& found)
{
    try {
        hiera::Value acc = hiera::normalizeFirst(spec, found[0]);
        for (std::size_t i = 1; i < found.size(); ++i)
            acc = hiera::mergeStep(spec, acc, found[i]);
        return "value " + hiera::toJson(acc);
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        return "error " + std::to_string(static_cast<int>(e.code())) + " " + e.what();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (text.find(kNeverPrefix) != std::string_view::npos)
        return 0; // the prefix would then match, and the two mergers rightly differ
    hiera::Value levels;
    try {
        levels = hiera::parseData(text, "levels.yaml", hiera::DataFormat::Yaml, fuzz::smallLimits());
    } catch (const hiera::Error&) {
        return 0;
    }
    if (!levels.isArray() || levels.asArray().empty() || levels.asArray().size() > 8)
        return 0;
    hiera::MergeSpec plain;
    plain.strategy = hiera::MergeStrategy::Deep;
    plain.mergeHashArrays = (data[0] & 1) != 0;
    plain.sortMergedArrays = (data[0] & 2) != 0;
    hiera::MergeSpec port = plain;
    port.knockoutPrefix = kNeverPrefix;
    const std::string a = fold(plain, levels.asArray());
    const std::string b = fold(port, levels.asArray());
    if (a != b)
        fuzz::violated("deep merge on values differs from the gem port", "values: " + a + "\nport:   " + b);
    return 0;
}
