// One node of a PuppetDB factsets export read and written back (hiera/nodes/puppetdbexport.h), whose JSON
// path scans the other entries for their brackets instead of parsing them. Input: the first line is
// the certname, the rest the export's text. Checked besides "no crash, hang, leak or UB":
// - only hiera::Error, each one printable line naming the file;
// - differential: where the full parser (the node library's) reads the export too, the entry found
//   has exactly its facts;
// - the previous facts replacePuppetDBFacts reports are the ones findPuppetDBFactset found;
// - round trip: facts written for the node read back as written (as JSON reads them), and a full parse of the new text
//   still reads when one of the old text did.

#include "fuzz_common.h"

#include "nodes/factsources.h"

#include <hiera/nodes/puppetdbexport.h>
#include <hiera/valueformat.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

const hiera::detail::NodeFacts* fullParseNode(const hiera::detail::FactsSource& source, std::string_view certname)
{
    for (const auto& node : source.nodes)
        if (node.name == certname)
            return &node;
    return nullptr;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    if (newline == std::string_view::npos)
        return 0;
    const std::string certname(input.substr(0, newline));
    const std::string_view text = input.substr(newline + 1);
    const std::string file = "factsets.json";

    std::optional<hiera::detail::FactsSource> full;
    try {
        full = hiera::detail::parseFactsSource(text, file, fuzz::smallLimits());
    } catch (const hiera::Error&) {
    }

    std::optional<hiera::PuppetDBFactset> found;
    try {
        found = hiera::findPuppetDBFactset(text, file, certname, fuzz::smallLimits());
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        return 0;
    }
    if (!found)
        return 0;
    if (!found->facts.isHash())
        fuzz::violated("a factset whose facts are not a hash");
    if (full && full->errors.empty())
        if (const auto* node = fullParseNode(*full, certname); node && !(node->facts == found->facts))
            fuzz::violated("the scan and the full parse read different facts",
                           hiera::rubyInspect(found->facts) + " vs " + hiera::rubyInspect(node->facts));

    hiera::Value edited = found->facts;
    edited.mutableHash().set("fuzz_edit", hiera::Value(std::int64_t(42)));
    std::optional<std::string> written;
    hiera::Value previous;
    try {
        written = hiera::replacePuppetDBFacts(text, file, certname, edited, fuzz::smallLimits(), &previous);
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e); // facts with no PuppetDB form (NaN in JSON)
        return 0;
    }
    if (!written)
        fuzz::violated("found by findPuppetDBFactset, not by replacePuppetDBFacts");
    if (!(previous == found->facts))
        fuzz::violated("replacePuppetDBFacts reports other previous facts than findPuppetDBFactset found",
                       hiera::rubyInspect(previous) + " vs " + hiera::rubyInspect(found->facts));
    std::optional<hiera::PuppetDBFactset> reread;
    try {
        reread = hiera::findPuppetDBFactset(*written, file, certname); // one value more than it had: default limits
    } catch (const hiera::Error& e) {
        fuzz::violated("the written export cannot be read back", e.what());
    }
    // As JSON text: an export is JSON, so what only YAML holds (a null or integer hash key in a YAML
    // export's fact) is written in JSON's form, a string.
    if (!reread || hiera::toJson(reread->facts) != hiera::toJson(edited))
        fuzz::violated("the written facts do not read back", *written);
    if (full && full->errors.empty()) {
        try {
            (void)hiera::detail::parseFactsSource(*written, file, hiera::ParseLimits());
        } catch (const hiera::Error& e) {
            fuzz::violated("the written export no longer parses", std::string(e.what()) + "\n" + *written);
        }
    }
    return 0;
}
