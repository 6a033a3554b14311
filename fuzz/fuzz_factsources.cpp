// Node library files: parseFactsSource (facter, puppet facts, PuppetDB exports in both facts shapes),
// then two differential checks per node: the library's FactsScope (over its FactStore) against
// MapScope(scopeFromFacts) on the same references, and the store's decoded facts against the parsed
// ones (same value, same key order, same float signs, equal subtrees stored once).

#include "fuzz_common.h"

#include "nodes/factsources.h"
#include "nodes/factsscope.h"
#include "nodes/factstore.h"

#include <hiera/facts.h>
#include <hiera/nodescope.h>
#include <hiera/scope.h>
#include <hiera/valueformat.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

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
    auto store = std::make_shared<hiera::detail::FactStore>();
    std::vector<hiera::detail::FactStore::Cell> cells;
    for (const auto& node : source.nodes) {
        if (!node.facts.isHash())
            fuzz::violated("a node whose facts are not a hash", node.facts.typeName());
        cells.push_back(store->add(node.facts));
        if (store->add(node.facts) != cells.back())
            fuzz::violated("the same facts stored twice", hiera::rubyInspect(node.facts));
    }
    store->finishBuilding();
    for (std::size_t i = 0; i < source.nodes.size(); ++i) {
        const auto& node = source.nodes[i];
        const hiera::Value decoded = store->value(cells[i]);
        if (hiera::rubyInspect(decoded) != hiera::rubyInspect(node.facts) || !(decoded == node.facts))
            fuzz::violated("the store changed the facts", hiera::rubyInspect(node.facts));
        std::string certname;
        try {
            certname = hiera::certnameFor(node.facts, node.name);
        } catch (const hiera::Error& e) { // a certname that is no node's name: the library skips the node
            fuzz::checkMessage(e);
            if (e.code() != hiera::ErrorCode::FactsSyntax)
                fuzz::violated("certnameFor failed with another error than a bad node name", e.what());
            continue;
        }
        const hiera::detail::FactsScope scope(store, cells[i], {}, certname, "production");
        // The tree NodeScope's order describes (hiera/nodescope.h): $environment under everything.
        hiera::Value tree = hiera::scopeFromFacts(node.facts, node.name);
        if (!tree.asHash().contains("environment"))
            tree.mutableHash().set("environment", hiera::Value("production"));
        const hiera::MapScope expected(tree);
        auto check = [&](std::string_view ref) {
            if (shown(scope.lookup(ref)) != shown(expected.lookup(ref)))
                fuzz::violated("FactsScope and scopeFromFacts disagree", std::string(ref));
        };
        for (const char* ref : {"facts", "trusted", "trusted.certname", "::clientcert", "environment",
                                "facts.os.family", "os.release.major", "facts.trusted.certname", "facts.environment"})
            check(ref);
        for (const char* ref :
             {"trusted.'certname'", "trusted.0", "facts.0", "'facts'", "trusted.certname.x", "facts.a.0.b", "a.1"})
            check(ref);
        std::size_t n = 0;
        for (const auto& e : node.facts.asHash()) {
            if (++n > 16)
                break;
            if (e.key.isString()) {
                check(e.key.asString());
                check("::" + e.key.asString());
                check("facts." + e.key.asString());
                if (e.value.isHash()) { // a dotted walk into the store, decoding only what it finds
                    std::size_t m = 0;
                    for (const auto& child : e.value.asHash()) {
                        if (++m > 4 || !child.key.isString())
                            break;
                        check(e.key.asString() + "." + child.key.asString());
                        check("facts." + e.key.asString() + "." + child.key.asString() + ".x");
                    }
                }
            }
        }
    }
    return 0;
}
