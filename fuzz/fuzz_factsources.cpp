// Node library files: parseFactsSource (facter, puppet facts, PuppetDB exports in both facts shapes),
// then two differential checks per node: the library's FactsScope against MapScope(scopeFromFacts)
// on the same references, and the subtree interner's output against its input (same value, same key
// order, same float signs).

#include "fuzz_common.h"

#include "nodes/factsources.h"
#include "nodes/factsscope.h"
#include "nodes/subtreeinterner.h"

#include <hiera/facts.h>
#include <hiera/scope.h>
#include <hiera/valueformat.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

std::string shown(const std::optional<hiera::Value>& v)
{
    return v ? hiera::rubyInspect(*v) + " " + v->typeName() : std::string("<absent>");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    hiera::detail::FactsSource source;
    try {
        source = hiera::detail::parseFactsSource(text, "facts.json", fuzz::smallLimits());
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        if (e.location().file != "facts.json")
            fuzz::violated("a facts file error that does not name the file", e.what());
        return 0;
    }
    for (const hiera::Error& e : source.errors) {
        fuzz::checkMessage(e);
        if (e.location().file != "facts.json" || e.location().line < 1)
            fuzz::violated("a skipped PuppetDB entry without its file and line", e.what());
    }
    hiera::detail::SubtreeInterner interner;
    const hiera::Value extra = hiera::makeHash({{"environment", hiera::Value("production")}});
    for (const auto& node : source.nodes) {
        if (!node.facts.isHash())
            fuzz::violated("a node whose facts are not a hash", node.facts.typeName());
        const hiera::Value shared = interner.intern(node.facts);
        if (hiera::rubyInspect(shared) != hiera::rubyInspect(node.facts))
            fuzz::violated("interning changed the facts", hiera::rubyInspect(node.facts));
        const hiera::detail::FactsScope scope(shared, node.name, extra);
        const hiera::MapScope expected(hiera::scopeFromFacts(node.facts, node.name, extra));
        auto check = [&](std::string_view ref) {
            if (shown(scope.lookup(ref)) != shown(expected.lookup(ref)))
                fuzz::violated("FactsScope and scopeFromFacts disagree", std::string(ref));
        };
        for (const char* ref : {"facts", "trusted", "trusted.certname", "::clientcert", "environment", "facts.os.family",
                                "os.release.major", "facts.trusted.certname", "facts.environment"})
            check(ref);
        std::size_t n = 0;
        for (const auto& e : node.facts.asHash()) {
            if (++n > 16)
                break;
            if (e.key.isString()) {
                check(e.key.asString());
                check("::" + e.key.asString());
                check("facts." + e.key.asString());
            }
        }
    }
    return 0;
}
