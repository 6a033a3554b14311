// The YAML and JSON loaders: hiera::parseData on arbitrary text, with the default limits and with
// small ones. An accepted document must render (JSON, YAML, inspect) and its YAML form must read back
// as the same value (valueformat.h promises that), hash order included, and so must every string of
// it used as a key.

#include "../tests/support/orderedequal.h"
#include "fuzz_common.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

bool hasNaN(const hiera::Value& v)
{
    if (v.isFloat())
        return std::isnan(v.asFloat());
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            if (hasNaN(e))
                return true;
    } else if (v.isHash()) {
        for (const auto& e : v.asHash())
            if (hasNaN(e.key) || hasNaN(e.value))
                return true;
    }
    return false;
}

using hiera::test::orderedEqual;

void collectStrings(const hiera::Value& v, std::vector<std::string>& out)
{
    if (out.size() >= 64)
        return;
    if (v.isString()) {
        out.push_back(v.asString());
    } else if (v.isArray()) {
        for (const auto& e : v.asArray())
            collectStrings(e, out);
    } else if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            collectStrings(e.key, out);
            collectStrings(e.value, out);
        }
    }
}

void roundTrip(const hiera::Value& v)
{
    const std::string yaml = hiera::toYaml(v);
    hiera::Value back;
    try {
        back = hiera::parseData(yaml, "roundtrip.yaml", hiera::DataFormat::Yaml);
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        fuzz::violated("toYaml output does not parse", std::string(e.what()) + "\n--- yaml:\n" + yaml);
    }
    if (!orderedEqual(back, v))
        fuzz::violated("toYaml output reads back as another value", "--- yaml:\n" + yaml);
}

void check(std::string_view text, hiera::DataFormat format, const hiera::ParseLimits& limits)
{
    hiera::Value v;
    try {
        v = hiera::parseData(text, "fuzz.yaml", format, limits);
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        if (e.code() == hiera::ErrorCode::None)
            fuzz::violated("an Error without a code", e.what());
        return;
    }
    if (v.nodeCount() > limits.maxNodes + 1)
        fuzz::violated("nodeCount above ParseLimits::maxNodes", std::to_string(v.nodeCount()));
    fuzz::renderAll(v);
    if (hasNaN(v))
        return; // NaN != NaN
    roundTrip(v);
    // Each string as a key whose value is a hash: what a `<<` key, plain or quoted, would merge away.
    std::vector<std::string> strings;
    collectStrings(v, strings);
    hiera::Hash keyed;
    for (const auto& s : strings)
        keyed.set(hiera::Value(s), hiera::Value(hiera::Hash{{"x", 1}}));
    roundTrip(hiera::Value(std::move(keyed)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check(text, hiera::DataFormat::Yaml, fuzz::smallLimits());
    check(text, hiera::DataFormat::Json, fuzz::smallLimits());
    check(text, hiera::DataFormat::Yaml, hiera::ParseLimits{});
    return 0;
}
