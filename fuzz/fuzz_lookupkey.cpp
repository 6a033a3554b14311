// Dotted keys: hiera::LookupKey::parse, dig, and MapScope references (the same grammar) on arbitrary
// text.

#include "fuzz_common.h"

#include <hiera/lookupkey.h>
#include <hiera/scope.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

const hiera::Value& sample()
{
    static const hiera::Value v = hiera::parseData(R"(
a:
  b: [1, {c: x, "d.e": y}, [true, ~]]
  "0": zero
  1: one
"a.b": dotted
"": empty
"x y": {" z": [[[]]]}
servers: [ntp1, ntp2]
)",
                                                   "sample.yaml");
    return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::optional<hiera::LookupKey> viaTry = hiera::LookupKey::tryParse(text);
    try {
        const hiera::LookupKey key = hiera::LookupKey::parse(text);
        if (!viaTry)
            fuzz::violated("parse accepts what tryParse refuses");
        if (key.original() != text)
            fuzz::violated("original() differs from the input");
        if (key.isDotted() != !key.segments().empty())
            fuzz::violated("isDotted inconsistent");
        // An index only on an unquoted segment of the shape [+-]?[0-9]+, negative only with a '-'
        // (hiera/lookupkey.h: `h.-1` finds the YAML integer key -1, as Puppet's to_i reads it).
        for (const hiera::KeySegment& s : key.segments()) {
            if (s.index && s.quoted)
                fuzz::violated("index on a quoted segment", s.text);
            if (s.index && (*s.index < 0) != (!s.text.empty() && s.text[0] == '-' && *s.index != 0))
                fuzz::violated("an index whose sign is not the segment's", s.text);
            if (s.index && s.text.find_first_not_of("+-0123456789") != std::string::npos)
                fuzz::violated("index on a segment that is not a number", s.text);
        }
        (void)key.subKey();
        const hiera::Value* root = sample().asHash().find(key.root());
        if (root) {
            if (const hiera::Value* found = hiera::dig(*root, key.segments()))
                fuzz::renderAll(*found);
        }
        (void)hiera::dig(sample(), key.segments());
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        if (viaTry)
            fuzz::violated("tryParse accepts what parse refuses", e.what());
        if (e.code() != hiera::ErrorCode::KeySyntax)
            fuzz::violated("LookupKey::parse threw another code than KeySyntax", e.what());
    }
    // The Scope side of the same grammar (facts.'os'.name, ::role).
    static const hiera::MapScope scope(sample());
    if (auto v = scope.lookup(text))
        fuzz::renderAll(*v);
    hiera::BoundScope bound(scope, "item", hiera::Value("bound"));
    (void)bound.lookup(text);
    return 0;
}
