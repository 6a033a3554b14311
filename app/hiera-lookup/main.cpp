// hiera-lookup: `puppet lookup` for people without Puppet. A thin host of the engine: it builds a
// NodeScope from facts files and prints the result; all semantics live in engine/.

#include "cliargs.h"
#include "fleetmode.h"
#include "impactmode.h"
#include "nodecommands.h"
#include "revisiondiffmode.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/error.h>
#include <hiera/explain.h>
#include <hiera/explanationreport.h>
#include <hiera/facts.h>
#include <hiera/gitrevision.h>
#include <hiera/gitrevisiontree.h>
#include <hiera/nodescope.h>
#include <hiera/openrepository.h>
#include <hiera/valueformat.h>
#include <hiera/version.h>
#include <hiera/yaml.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <optional>
#include <string_view>
#include <unistd.h>

namespace {

// Parses the node's data files on every core before the lookup: a cold lookup is mostly YAML parsing.
void preloadInParallel(const hiera::Engine& engine, const hiera::Scope& scope)
{
    const std::vector<std::function<void()>> tasks = engine.preloadTasks(scope);
    if (tasks.size() < 2)
        return; // the lookup reads the file itself
    commandLineExecutor().forEach(tasks.size(), [&](std::size_t i) { tasks[i](); }, {});
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
    std::cerr << "hiera-lookup: error: " << hiera::printableLine(message) << '\n';
    return 2;
}

// Writes all of `text` to standard output. Through write(2) rather than std::cout, so that a failure
// (a full disk: `> /dev/full`; a closed descriptor) is known with its errno and said on stderr.
int writeStdout(std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(std::string("cannot write to standard output: ") + std::strerror(n < 0 ? errno : EIO));
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

// The scope of one node: its facts, trusted.certname (`node`, else the facts' own certname), the
// --scope file's variables over all, and $environment (hiera/nodescope.h).
hiera::NodeScope nodeScope(const std::string& factsFile, const std::string& node, const std::string& scopeFile,
                           const std::string& environment)
{
    hiera::Value facts{hiera::Hash()};
    if (!factsFile.empty())
        facts = hiera::loadFactsFile(factsFile);
    hiera::Value variables;
    if (!scopeFile.empty())
        variables = hiera::parseFacts(hiera::readFile(scopeFile), scopeFile);
    std::string certname = hiera::certnameFor(facts, node);
    return hiera::NodeScope({std::move(facts), std::move(certname), environment, std::move(variables)});
}

// What a report calls a node: its certname, else the facts file's name.
std::string nodeName(const hiera::Scope& scope, const std::string& factsFile)
{
    if (auto certname = scope.lookup("trusted.certname");
        certname && certname->isString() && !certname->asString().empty())
        return certname->asString();
    return factsFile.substr(factsFile.find_last_of('/') + 1);
}

// Now, in ISO 8601 with the zone's offset and its name (2025-03-01T14:05:09+01:00 (CET)), as the
// explorer dates its reports.
std::string isoTimeNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    char text[40];
    char zone[16];
    if (!localtime_r(&now, &local) || std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &local) == 0)
        return {};
    std::string iso = text; // ...+0100: the offset's colon is ISO 8601's extended form
    iso.insert(iso.size() - 2, 1, ':');
    if (std::strftime(zone, sizeof zone, "%Z", &local) > 0)
        iso += std::string(" (") + zone + ")";
    return iso;
}

// The explanation report of `--explain --format markdown|html`: what the explorer's File ▸ Export
// Explanation writes, the override chain of every leaf included (two lookups more).
std::string explanationReport(const hiera::Engine& engine, const hiera::Scope& scope, const hiera::LookupResult& result,
                              const CliArgs& args)
{
    const hiera::OverrideChain chain = hiera::overrideChain(engine, scope, args.key, args.merge);
    hiera::ExplanationReport report;
    report.engine = &engine;
    report.key = args.key;
    report.merge = args.merge;
    report.mergeChosenBy = "--merge";
    report.result = &result;
    report.scope = &scope;
    report.overrides = &chain;
    // The environment's hiera.yaml names the hierarchy (the global layer's when it is the only one).
    for (const hiera::Layer& layer : engine.layers())
        if (report.hieraYaml.empty() || layer.kind == hiera::Layer::Kind::Environment)
            report.hieraYaml = layer.config.path;
    report.factsFile = !args.factsFile.empty() ? args.factsFile
        : !args.nodesPath.empty()              ? args.nodesPath + " (node " + args.node + ")"
                                               : args.scopeFile;
    report.noFactsFile = "(none)";
    report.tool = std::string("hiera-lookup ") + HIERA_VERSION;
    report.time = isoTimeNow();
    // The data's revision: the commit read (--revision), else the work tree's state.
    if (const auto tree = engine.options().tree) {
        report.revision = tree->describe();
        report.revealSecrets = args.showSecrets;
        return args.format == CliArgs::Format::Html ? hiera::explanationHtml(report)
                                                    : hiera::explanationMarkdown(report);
    }
    const std::string directory = report.hieraYaml.substr(0, report.hieraYaml.find_last_of('/') + 1);
    if (const std::optional<hiera::GitRevision> revision = hiera::gitRevision(directory.empty() ? "." : directory))
        report.revision = hiera::describe(*revision);
    report.revealSecrets = args.showSecrets;
    return args.format == CliArgs::Format::Html ? hiera::explanationHtml(report) : hiera::explanationMarkdown(report);
}

// The engine of --config (its layers found as Puppet finds them) reading `tree` (null: the files on
// disk); `repositoryRoot` is set to the directory reports name files relative to.
std::shared_ptr<hiera::Engine> makeEngine(const CliArgs& args, std::shared_ptr<const hiera::SourceTree> tree,
                                          std::string& repositoryRoot,
                                          std::shared_ptr<hiera::ContentParseCache> contentParses = {},
                                          bool nameTheTree = false)
{
    hiera::EngineOptions engineOptions;
    if (!args.noCache)
        engineOptions.diskCacheDirectory = cacheDirectory();
    engineOptions.skipUnsupportedLevels = args.skipUnsupported;
    engineOptions.eyamlPrivateKey = args.eyamlPrivateKey;
    engineOptions.contentParses = std::move(contentParses);
    // One run answers for one state of the files: each file and glob is checked once, not again on
    // every lookup of every node (the engine's default, for hosts that live while files change).
    engineOptions.revalidateInterval = std::chrono::hours(24);
    if (!args.config.empty()) {
        hiera::EnvironmentOptions envOptions;
        envOptions.name = args.environment;
        envOptions.modulepath = args.modulepath;
        envOptions.globalHieraYaml = args.globalConfig;
        envOptions.environmentPath = args.environmentPath;
        envOptions.codedir = args.codedir;
        hiera::OpenedRepository opened =
            hiera::openRepository(args.config, std::move(envOptions), std::move(engineOptions), tree, nameTheTree);
        for (const auto& w : opened.warnings)
            std::cerr << "hiera-lookup: warning: " << hiera::printableLine(w) << '\n';
        for (const auto& n : opened.notices)
            std::cerr << "hiera-lookup: note: " << hiera::printableLine(n) << '\n';
        repositoryRoot = opened.root;
        return opened.engine;
    }
    // --hiera_config alone: the global layer only.
    hiera::Layer global;
    global.config = hiera::Config::load(args.globalConfig);
    repositoryRoot = global.config.directory;
    engineOptions.tree = tree;
    std::vector<hiera::Layer> layers;
    layers.push_back(std::move(global));
    return hiera::Engine::fromLayers(std::move(layers), engineOptions);
}

// Ends the process once its output is written, without running the destructors: a revision diff of
// 20,000 nodes holds some 700 MB of parsed facts and data, which glibc's malloc frees one allocation
// at a time for seconds (docs/performance.md, "Revision diff, second pass"). Nothing is lost: standard
// output was written with write(2) (writeStdout), std::cerr is unbuffered, std::cout is flushed here,
// and the process holds no file that needs closing or temporary file to remove.
[[noreturn]] void exitWithoutFreeing(int status)
{
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(status);
}

int finish(const CommandOutput& o)
{
    for (const auto& w : o.warnings)
        std::cerr << "hiera-lookup: warning: " << hiera::printableLine(w) << '\n';
    if (const int status = writeStdout(o.out); status != 0)
        return status;
    for (const auto& e : o.errors)
        std::cerr << "hiera-lookup: error: " << hiera::printableLine(e) << '\n';
    return o.exitCode;
}

} // namespace

int main(int argc, char** argv)
{
    CliArgs args;
    try {
        args = parseCliArgs(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::invalid_argument& e) {
        // One line, as every error: the whole usage after it buried the message under 75 lines.
        std::cerr << "hiera-lookup: " << hiera::printableLine(e.what()) << " (hiera-lookup --help shows the usage)\n";
        return 2;
    }
    if (args.help)
        return writeStdout(kUsage);
    if (args.version)
        return writeStdout(std::string("hiera-lookup ") + HIERA_VERSION + '\n');

    try {
        // The node: from --facts / --scope / --node, or (with --nodes) the library's node of --node.
        std::optional<hiera::NodeLibrary> library;
        if (!args.nodesPath.empty() && args.mode != CliArgs::Mode::Fleet && args.mode != CliArgs::Mode::RevisionDiff
            && args.mode != CliArgs::Mode::Impact)
            library = loadNodeLibrary(args,
                                      args.mode == CliArgs::Mode::DiffNodes ? args.diffNodes
                                          : args.node.empty()               ? std::vector<std::string>()
                                                                            : std::vector<std::string>{args.node});
        std::optional<hiera::NodeScope> ownScope;
        const hiera::Scope* node = nullptr; // unset for --diff and for --nodes alone (every node)
        if (!library) {
            ownScope.emplace(nodeScope(args.factsFile, args.node, args.scopeFile, args.environment));
            node = &*ownScope;
        } else if (!args.node.empty()) {
            node = libraryNode(*library, args.node).scope.get();
        }
        std::vector<hiera::NodeScope> diffScopes; // --diff-facts: both nodes, read before the engine loads
        for (const std::string& file : args.diffFacts)
            diffScopes.emplace_back(nodeScope(file, {}, {}, args.environment));

        // --revision: every file of the hierarchy from that commit (the facts above came from disk).
        std::shared_ptr<const hiera::SourceTree> tree;
        if (!args.revision.empty())
            tree = hiera::openRevision(args.config, args.revision);
        std::string repositoryRoot; // reports name files relative to it
        if (args.mode == CliArgs::Mode::RevisionDiff) {
            // Both revisions opened before anything is resolved: a bad one is said at once.
            const auto from = hiera::openRevision(args.config, args.revisionDiffFrom);
            const auto to =
                args.revisionDiffTo.empty() ? nullptr : hiera::openRevision(args.config, args.revisionDiffTo);
            // A file both revisions hold as the same blob is parsed once, for both engines.
            const auto parses = hiera::makeContentParseCache();
            // A side whose hierarchy cannot be read is named: the path in the message is where the
            // revision's file would be checked out, its line the revision's.
            const auto before = makeEngine(args, from, repositoryRoot, parses, /*nameTheTree=*/true);
            const auto after = makeEngine(args, to, repositoryRoot, parses, /*nameTheTree=*/true);
            const hiera::NodeLibrary nodes = loadNodeLibrary(args, {});
            exitWithoutFreeing(finish(runRevisionDiff(
                *before, *after, nodes, from->describe(),
                to ? to->describe() : hiera::SourceTree::workingTree()->describe(), args, repositoryRoot)));
        }
        auto engine = makeEngine(args, tree, repositoryRoot);
        if (args.mode == CliArgs::Mode::Fleet)
            return runFleet(*engine, args, repositoryRoot);
        if (args.mode == CliArgs::Mode::Impact)
            return finish(runImpact(*engine, args, repositoryRoot));
        if (args.mode == CliArgs::Mode::DiffFacts) {
            for (const auto& s : diffScopes)
                preloadInParallel(*engine, s);
            return finish(runDiff(*engine, {nodeName(diffScopes[0], args.diffFacts[0]), &diffScopes[0]},
                                  {nodeName(diffScopes[1], args.diffFacts[1]), &diffScopes[1]}, args, repositoryRoot));
        }
        if (args.mode == CliArgs::Mode::DiffNodes) {
            const hiera::Node& a = libraryNode(*library, args.diffNodes[0]);
            const hiera::Node& b = libraryNode(*library, args.diffNodes[1]);
            preloadInParallel(*engine, *a.scope);
            preloadInParallel(*engine, *b.scope);
            return finish(runDiff(*engine, {a.name, a.scope.get()}, {b.name, b.scope.get()}, args, repositoryRoot));
        }
        const hiera::Scope& scope = *node;
        preloadInParallel(*engine, scope);
        if (args.mode == CliArgs::Mode::AllKeys)
            return finish(runAllKeys(*engine, scope, args, repositoryRoot));
        hiera::LookupRequest options;
        options.merge = args.merge;
        options.explain = args.explain;
        const hiera::LookupResult r = engine->lookup(scope, args.key, options);

        std::string out;
        if (args.explain && r.trace) {
            hiera::ExplainOptions explain;
            explain.revealSecrets = args.showSecrets;
            if (args.format == CliArgs::Format::Markdown || args.format == CliArgs::Format::Html)
                out = explanationReport(*engine, scope, r, args);
            else
                out = args.format == CliArgs::Format::Json ? hiera::explainJson(*r.trace, true, explain) + '\n'
                                                           : hiera::explainText(*r.trace, explain);
        }
        for (const auto& w : r.warnings)
            std::cerr << "hiera-lookup: warning: " << hiera::printableLine(w) << '\n';
        if (r.status == hiera::LookupResult::Status::Found && !args.explain)
            out = args.format == CliArgs::Format::Json ? hiera::toJson(r.value) + '\n' : hiera::toYaml(r.value);
        if (const int status = writeStdout(out); status != 0)
            return status;
        switch (r.status) {
        case hiera::LookupResult::Status::Error:
            return fail(r.error->what());
        case hiera::LookupResult::Status::NotFound:
            // Silence is the contract for scripts (exit 1, nothing printed); a person at a terminal gets
            // one line saying so, and how to see why.
            if (!args.explain && isatty(STDERR_FILENO))
                std::cerr << "hiera-lookup: " << hiera::printableLine(args.key)
                          << " not found (--explain shows every level and file consulted)\n";
            return 1;
        case hiera::LookupResult::Status::Found:
            break;
        }
        return 0;
    } catch (const hiera::Error& e) {
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        return fail("out of memory");
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
