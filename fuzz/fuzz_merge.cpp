// Differential, two ways. MergeFold (a lookup's fold, all at once where it can) must give what folding
// mergeStep gives, for deep, unique and hash. And a deep merge without knockout_prefix runs on plain
// values (ValueDeepMerger), with a prefix on the port of the deep_merge gem that keeps Ruby's object
// identity (DeepMerger): with a prefix that no string contains, the two must agree on every fold: the
// same value in the same order, or the same error. The input is a flags byte (merge_hash_arrays,
// sort_merged_arrays) and a YAML sequence of found values, highest priority first.

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

// The fold as a lookup does it (MergeFold: all at once where it can), in the same form.
std::string foldAtOnce(const hiera::MergeSpec& spec, const hiera::Array& found)
{
    try {
        hiera::MergeFold fold(spec);
        for (const hiera::Value& v : found)
            fold.add(v);
        return "value " + hiera::toJson(fold.result());
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
    // MergeFold must give what folding mergeStep gives, for every strategy.
    hiera::MergeSpec unique, hash;
    unique.strategy = hiera::MergeStrategy::Unique;
    hash.strategy = hiera::MergeStrategy::Hash;
    for (const hiera::MergeSpec& spec : {plain, port, unique, hash}) {
        const std::string stepped = fold(spec, levels.asArray());
        const std::string atOnce = foldAtOnce(spec, levels.asArray());
        if (stepped != atOnce)
            fuzz::violated("MergeFold differs from folding mergeStep",
                           "step by step: " + stepped + "\nat once:      " + atOnce);
    }
    return 0;
}
