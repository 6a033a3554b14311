// Facts files: hiera::parseFacts (YAML, JSON, the `puppet facts` wrapper) and scopeFromFacts, then a
// few references through MapScope.

#include "fuzz_common.h"

#include <hiera/facts.h>
#include <hiera/scope.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    hiera::Value facts;
    try {
        facts = hiera::parseFacts(text, "facts.yaml");
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        if (e.code() == hiera::ErrorCode::None)
            fuzz::violated("an Error without a code", e.what());
        return 0;
    }
    if (!facts.isHash())
        fuzz::violated("parseFacts returned a non-hash", facts.typeName());
    hiera::Value scopeTree;
    try {
        scopeTree = hiera::scopeFromFacts(facts, size % 2 ? "node.example.com" : "",
                                          hiera::makeHash({{"extra", hiera::Value(1)}}));
    } catch (const hiera::Error& e) { // a certname that is no node's name (hiera::checkCertname)
        fuzz::checkMessage(e);
        if (e.code() != hiera::ErrorCode::FactsSyntax)
            fuzz::violated("scopeFromFacts failed with another error than a bad node name", e.what());
        return 0;
    }
    if (!scopeTree.isHash() || !scopeTree.asHash().find("facts"))
        fuzz::violated("scopeFromFacts has no facts entry");
    const hiera::MapScope scope(scopeTree);
    for (const char* ref : {"facts", "trusted.certname", "::clientcert", "facts.os.family", "os.release.major",
                            "facts.networking.interfaces.0", "extra"})
        if (auto v = scope.lookup(ref))
            fuzz::renderAll(*v);
    std::size_t n = 0;
    for (const auto& e : facts.asHash()) {
        if (++n > 16)
            break;
        if (e.key.isString()) {
            (void)scope.lookup(e.key.asString());
            (void)scope.lookup("facts." + e.key.asString());
        }
    }
    fuzz::renderAll(facts);
    return 0;
}
