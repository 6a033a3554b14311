#pragma once

// Helpers shared by the fuzz targets. A fuzz target may throw hiera::Error (that is the engine
// refusing bad input, which is fine); anything else escaping, a crash, a sanitizer report, a leak or
// a hang is a bug. Invariants checked here abort() so that libFuzzer saves the input.

#include <hiera/error.h>
#include <hiera/value.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fuzz {

[[noreturn]] inline void violated(const char* what, const std::string& detail = {})
{
    std::fprintf(stderr, "fuzz invariant violated: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// Small limits so that a fuzz input cannot spend its time building huge values legitimately.
inline hiera::ParseLimits smallLimits()
{
    hiera::ParseLimits l;
    l.maxDepth = 64;
    l.maxNodes = 20'000;
    l.maxScalarBytes = 64u << 10;
    l.maxDocumentBytes = 1u << 20;
    return l;
}

// Every message is one printable line whatever the input put into it (docs/bad-input.md: forged
// lines and terminal escapes on stderr): no control byte, and nothing printableLine would change.
inline void checkMessage(const hiera::Error& e)
{
    const std::string what = e.what();
    for (unsigned char c : what)
        if (c < 0x20 || c == 0x7F)
            violated("a control character in an error message", hiera::printableLine(what));
    if (hiera::printableLine(what) != what)
        violated("an error message that is not a printable line", hiera::printableLine(what));
}

// Renders a value every way the engine can; errors (NaN in JSON) are fine.
inline void renderAll(const hiera::Value& v)
{
    try {
        (void)hiera::toJson(v);
        (void)hiera::toJson(v, true);
    } catch (const hiera::Error&) {
    }
    (void)hiera::toYaml(v);
    (void)hiera::interpolationString(v);
    (void)hiera::rubyInspect(v);
}

} // namespace fuzz
