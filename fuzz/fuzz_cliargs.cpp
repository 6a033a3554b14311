// hiera-lookup's command line (app/hiera-lookup/cliargs.cpp) on arbitrary argument vectors: one
// argument per line of the input. Every vector is either refused with a usage message
// (std::invalid_argument) or parsed into a mode whose arguments are all there, so that main() never
// reads past them.

#include "fuzz_common.h"

#include "../app/hiera-lookup/cliargs.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string> args;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    while (!text.empty() && args.size() < 64) {
        const std::size_t end = text.find('\n');
        args.emplace_back(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    CliArgs a;
    try {
        a = parseCliArgs(args);
    } catch (const std::invalid_argument& e) {
        if (std::string_view(e.what()).empty())
            fuzz::violated("a usage error without a message");
        return 0;
    }
    if (a.help || a.version)
        return 0;
    if (a.config.empty() && a.globalConfig.empty())
        fuzz::violated("parsed without --config or --hiera_config");
    switch (a.mode) {
    case CliArgs::Mode::Lookup:
        if (a.key.empty() || (!a.nodesPath.empty() && a.node.empty()))
            fuzz::violated("a lookup without its key or its library node");
        break;
    case CliArgs::Mode::AllKeys:
        if (!a.key.empty() || (!a.nodesPath.empty() && a.node.empty()))
            fuzz::violated("--all-keys with a key, or from a library without --node");
        break;
    case CliArgs::Mode::DiffFacts:
        if (a.diffFacts.size() != 2 || !a.nodesPath.empty())
            fuzz::violated("--diff-facts without its two files");
        break;
    case CliArgs::Mode::DiffNodes:
        if (a.diffNodes.size() != 2 || a.nodesPath.empty() || !a.node.empty())
            fuzz::violated("--diff without its two nodes or its library");
        break;
    case CliArgs::Mode::Fleet:
        if (a.nodesPath.empty() || a.key.empty() || !a.node.empty())
            fuzz::violated("--nodes without its library or its key");
        break;
    case CliArgs::Mode::RevisionDiff:
        if (a.revisionDiffFrom.empty() || a.nodesPath.empty() || a.config.empty() || !a.key.empty() || !a.node.empty())
            fuzz::violated("--revision-diff without its revision, its library or its repository");
        break;
    case CliArgs::Mode::Impact:
        if (a.impactFile.empty() || a.nodesPath.empty() || !a.key.empty() || !a.node.empty()
            || !a.revisionDiffFrom.empty())
            fuzz::violated("--impact without its file or its library");
        break;
    }
    return 0;
}
