// hiera-lookup: `puppet lookup` for people without Puppet. A thin host of the engine: it builds a
// MapScope from facts files and prints the result; all semantics live in engine/.

#include "cliargs.h"

#include <hiera/engine.h>
#include <hiera/explain.h>
#include <hiera/facts.h>
#include <hiera/valueformat.h>
#include <hiera/version.h>
#include <hiera/yaml.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <thread>

namespace {

// Parses the node's data files on every core before the lookup: a cold lookup is mostly YAML parsing.
void preloadInParallel(const hiera::Engine& engine, const hiera::Scope& scope)
{
    std::vector<std::function<void()>> tasks = engine.preloadTasks(scope);
    const unsigned workers = std::min<unsigned>(std::max(1u, std::thread::hardware_concurrency()), 8);
    if (tasks.size() < 2 || workers < 2)
        return; // the lookup reads the files itself
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < tasks.size(); i = next++)
            tasks[i]();
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < workers; ++w)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

// Where parsed data files are kept between runs: $HIERA_CACHE_DIR (empty: no cache), else the XDG
// cache directory.
std::string cacheDirectory()
{
    if (const char* dir = std::getenv("HIERA_CACHE_DIR"))
        return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/hiera-explorer/parsed";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/hiera-explorer/parsed";
    return {};
}

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

        hiera::EngineOptions engineOptions;
        if (!args.noCache)
            engineOptions.diskCacheDirectory = cacheDirectory();
        auto engine = hiera::Engine::load(args.config, engineOptions);
        preloadInParallel(*engine, scope);
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
