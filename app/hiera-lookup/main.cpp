// hiera-lookup: `puppet lookup` for people without Puppet. A thin host of the engine: it builds a
// MapScope from facts files and prints the result; all semantics live in engine/.

#include "cliargs.h"

#include <hiera/engine.h>
#include <hiera/explain.h>
#include <hiera/facts.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <iostream>

namespace {

int fail(const std::string& message)
{
    std::cerr << "hiera-lookup: error: " << message << '\n';
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    CliArgs args;
    try {
        args = parseCliArgs(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::invalid_argument& e) {
        std::cerr << "hiera-lookup: " << e.what() << "\n\n" << kUsage;
        return 2;
    }
    if (args.help) {
        std::cout << kUsage;
        return 0;
    }
    if (args.version) {
        std::cout << "hiera-lookup " << HIERA_VERSION << '\n';
        return 0;
    }

    try {
        hiera::Value facts{hiera::Hash()};
        if (!args.factsFile.empty())
            facts = hiera::loadFactsFile(args.factsFile);
        hiera::Value extra;
        if (!args.scopeFile.empty()) {
            extra = hiera::parseFacts(hiera::readFile(args.scopeFile), args.scopeFile);
        }
        hiera::MapScope scope(hiera::scopeFromFacts(facts, args.node, extra));

        auto engine = hiera::Engine::load(args.config);
        hiera::LookupOptions options;
        options.merge = args.merge;
        options.explain = args.explain;
        const hiera::LookupResult r = engine->lookup(scope, args.key, options);

        if (args.explain && r.trace) {
            if (args.format == CliArgs::Format::Json)
                std::cout << hiera::explainJson(*r.trace) << '\n';
            else
                std::cout << hiera::explainText(*r.trace);
        }
        for (const auto& w : r.warnings)
            std::cerr << "hiera-lookup: warning: " << w << '\n';
        switch (r.status) {
        case hiera::LookupResult::Status::Error:
            return fail(r.error->what());
        case hiera::LookupResult::Status::NotFound:
            return 1;
        case hiera::LookupResult::Status::Found:
            break;
        }
        if (!args.explain) {
            if (args.format == CliArgs::Format::Json)
                std::cout << hiera::toJson(r.value) << '\n';
            else
                std::cout << hiera::toYaml(r.value);
        }
        std::cout.flush();
        return std::cout ? 0 : 2;
    } catch (const hiera::Error& e) {
        return fail(e.what());
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
