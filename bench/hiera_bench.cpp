// hiera-bench: the engine's speed on the fixtures of shared/bench/gen_fixture.py. Prints figures as
// `name=value` lines for bench/run.py to put in a table; asserts nothing.
//
//   hiera-bench warm  FIXTURE [--repeat N] [--rows] per-lookup time inside one process (sample.tsv rows;
//                                                  each row the median of 5 batches; --rows prints them)
//   hiera-bench fleet FIXTURE KEY [--threads N]   one key on every node of nodes.txt
//   hiera-bench load  FIXTURE [--threads N]       parse every data file (the key inventory)
//   hiera-bench fleet-library FIXTURE KEY [--threads N]  cold, in one process: the node
//                                                  library from FIXTURE/facts, the engine, KEY on every
//                                                  node (parsing the data), then a warm pass; peak memory
//   hiera-bench warm-eyaml FIXTURE [--repeat N]  `warm` on the fixture's eyaml variant: every level
//                                                  eyaml_lookup_key, the sample keys' strings encrypted
//   hiera-bench all-keys FIXTURE [NODE] [--passes N]  every key of one node resolved (hiera/nodes/nodedata.h),
//                                                  engine loaded and files parsed (one pass before)
//   hiera-bench diff FIXTURE [NODE_A NODE_B] [--passes N]  two nodes compared on every key
//                                                  (hiera/nodes/nodediff.h), warm likewise. Nodes default
//                                                  to the first of nodes.txt.
//   hiera-bench puppetdb-save FIXTURE [--nodes N] [--passes N]  a PuppetDB factsets export made of the
//                                                  first N (8000) nodes of FIXTURE/facts; reading one
//                                                  node of it (opening it in the explorer) and writing
//                                                  its facts back (Save), the median of the passes
//   hiera-bench override-chain [--files N] [--passes N]  a generated repository of N (5000) data files
//                                                  under one glob level, all holding the key: the
//                                                  lookup, and the report (explain lookup, the override
//                                                  chain, the Markdown explanation), for a unique and
//                                                  a deep merge
//   hiera-bench merge [--elements N] [--passes N]  one merge step of two N-element (100000) arrays that
//                                                  share half their elements: unique, deep, deep with
//                                                  a knockout_prefix (the gem's port); of strings, then
//                                                  of small hashes

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/explanationreport.h>
#include <hiera/facts.h>
#include <hiera/gitrevisiontree.h>
#include <hiera/merge.h>
#include <hiera/nodes/editimpact.h>
#include <hiera/nodes/fileimpact.h>
#include <hiera/nodes/fleet.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodediff.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodes/puppetdbexport.h>
#include <hiera/nodes/revisiondiff.h>
#include <hiera/overridechain.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include "parse/blockyaml.h" // engine-private: how many files the fast reader takes

#include "eyamlfixture.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

long peakRssKiB()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

// Resident memory now (not the peak), from /proc/self/statm.
double currentRssMiB()
{
    std::ifstream in("/proc/self/statm");
    long pages = 0, resident = 0;
    in >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1 << 20);
}

std::vector<std::vector<std::string>> readTsv(const fs::path& p)
{
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(p);
    std::string line;
    bool header = true;
    while (std::getline(in, line)) {
        if (header) {
            header = false;
            continue;
        }
        std::vector<std::string> cols;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, '\t'))
            cols.push_back(c);
        rows.push_back(cols);
    }
    return rows;
}

std::shared_ptr<const hiera::Scope> nodeScope(const fs::path& fixture, const std::string& node)
{
    auto facts = hiera::loadFactsFile((fixture / "facts" / (node + ".yaml")).string());
    return std::make_shared<hiera::MapScope>(hiera::scopeFromFacts(facts, node));
}

hiera::EngineOptions benchOptions()
{
    hiera::EngineOptions o;
    // A long-running host re-checks files on a timer or a watcher, not before every lookup.
    o.revalidateInterval = std::chrono::milliseconds(60000);
    return o;
}

// `rows`: also print each row's two figures (key, plain, explain), to see which kind of lookup moved.
int warm(const fs::path& fixture, int repeat, bool rows, const std::string& prefix = "warm")
{
    auto engine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    std::vector<double> plain, traced;
    for (const auto& row : readTsv(fixture / "sample.tsv")) {
        if (row.size() < 2)
            continue;
        hiera::Context ctx(engine, nodeScope(fixture, row[0]));
        hiera::LookupRequest explain;
        explain.explain = true;
        ctx.lookup(row[1]);
        ctx.lookup(row[1], explain); // warm both snapshots
        // Each row's figure is the median of 5 batches, so that a burst of other work on the machine
        // moves one batch rather than the row.
        auto perLookupUs = [&](int n, const hiera::LookupRequest& options) {
            std::vector<double> batches;
            for (int b = 0; b < 5; ++b) {
                const auto t0 = Clock::now();
                for (int i = 0; i < n; ++i)
                    ctx.lookup(row[1], options);
                batches.push_back(seconds(Clock::now() - t0) / n * 1e6);
            }
            return median(batches);
        };
        plain.push_back(perLookupUs(repeat / 5 + 1, hiera::LookupRequest{}));
        traced.push_back(perLookupUs(repeat / 20 + 1, explain));
        if (rows)
            std::cout << prefix << "_row\t" << row[1] << "\t" << (row.size() > 2 ? row[2] : std::string()) << "\t"
                      << plain.back() << "\t" << traced.back() << "\n";
    }
    std::cout << prefix << "_rows=" << plain.size() << "\n"
              << prefix << "_us_median=" << median(plain) << "\n"
              << prefix << "_us_max=" << *std::max_element(plain.begin(), plain.end()) << "\n"
              << prefix << "_explain_us_median=" << median(traced) << "\n"
              << prefix << "_explain_us_max=" << *std::max_element(traced.begin(), traced.end()) << "\n";
    return 0;
}

// `warm` on an eyaml variant of the fixture, after checking that every sample lookup decrypts to the
// plain fixture's answer (a figure for lookups that do not decrypt would mean nothing).
int warmEyaml(const fs::path& fixture, int repeat, bool printRows)
{
    const auto rows = readTsv(fixture / "sample.tsv");
    std::vector<std::string> roots;
    for (const auto& row : rows)
        if (row.size() >= 2)
            roots.push_back(row[1].substr(0, row[1].find('.')));
    const fs::path out = fs::temp_directory_path() / ("hiera-bench-eyaml-" + std::to_string(::getpid()));
    fs::remove_all(out);
    struct Cleanup
    {
        fs::path dir;
        ~Cleanup() { fs::remove_all(dir); }
    } cleanup{out};
    makeEyamlFixture(fixture, out, roots);
    auto plainEngine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    auto eyamlEngine = hiera::Engine::load((out / "hiera.yaml").string(), benchOptions());
    std::size_t decrypted = 0;
    for (const auto& row : rows) {
        if (row.size() < 2)
            continue;
        const auto scope = nodeScope(fixture, row[0]);
        const hiera::LookupResult a = plainEngine->lookup(*scope, row[1]);
        const hiera::LookupResult b = eyamlEngine->lookup(*scope, row[1]);
        if (a.status != b.status || !(a.value == b.value)) {
            std::cerr << "hiera-bench: eyaml variant answers " << row[1] << " on " << row[0] << " differently"
                      << (b.error ? std::string(": ") + b.error->what() : std::string()) << "\n";
            return 2;
        }
        decrypted += hiera::containsSecret(b.value) ? 1 : 0;
    }
    std::cout << "warm_eyaml_decrypted_rows=" << decrypted << "\n";
    return warm(out, repeat, printRows, "warm_eyaml");
}

template <typename F>
void parallelFor(std::size_t n, int threads, F f)
{
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (std::size_t i = next++; i < n; i = next++)
                f(i);
        });
    for (auto& th : pool)
        th.join();
}

int fleet(const fs::path& fixture, const std::string& key, int threads, int passCount)
{
    std::vector<std::string> nodes;
    {
        std::ifstream in(fixture / "nodes.txt");
        for (std::string n; std::getline(in, n);)
            if (!n.empty())
                nodes.push_back(n);
    }
    auto t0 = Clock::now();
    std::vector<std::shared_ptr<const hiera::Scope>> scopes(nodes.size());
    parallelFor(nodes.size(), threads, [&](std::size_t i) { scopes[i] = nodeScope(fixture, nodes[i]); });
    const double factsSeconds = seconds(Clock::now() - t0);

    auto engine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    // First pass parses the data files (shared by all nodes); the second is the steady state of a
    // host that keeps the fleet loaded.
    std::vector<double> passes(static_cast<std::size_t>(std::max(2, passCount)), 0.0);
    std::atomic<std::size_t> found{0}, errors{0};
    for (double& pass : passes) {
        found = 0;
        errors = 0;
        t0 = Clock::now();
        parallelFor(nodes.size(), threads, [&](std::size_t i) {
            hiera::Context ctx(engine, scopes[i]);
            auto r = ctx.lookup(key);
            if (r.found())
                ++found;
            else if (r.status == hiera::LookupResult::Status::Error)
                ++errors;
        });
        pass = seconds(Clock::now() - t0);
    }
    std::cout << "fleet_nodes=" << nodes.size() << "\nfleet_threads=" << threads << "\nfleet_found=" << found
              << "\nfleet_errors=" << errors << "\nfleet_facts_load_s=" << factsSeconds
              << "\nfleet_first_pass_s=" << passes[0] << "\nfleet_s=" << passes.back()
              << "\nfleet_us_per_node=" << passes.back() / static_cast<double>(nodes.size()) * 1e6 << "\n";
    return 0;
}

// The node library's end-to-end figures: what the explorer and `hiera-lookup --nodes` do, cold.
int fleetLibrary(const fs::path& fixture, const std::string& key, int threads)
{
    const auto t0 = Clock::now();
    const hiera::ThreadExecutor executor(static_cast<unsigned>(threads));
    hiera::NodeLibraryOptions libraryOptions;
    libraryOptions.executor = &executor;
    const hiera::NodeLibrary library = hiera::NodeLibrary::load((fixture / "facts").string(), libraryOptions);
    const double loadSeconds = seconds(Clock::now() - t0);
    const long loadRssKiB = peakRssKiB();
    const double libraryRssMiB = currentRssMiB();

    auto engine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    hiera::FleetOptions fleetOptions;
    fleetOptions.executor = &executor;
    auto t1 = Clock::now();
    const hiera::FleetResult first = hiera::lookupAcross(*engine, library, key, {}, fleetOptions);
    const double firstSeconds = seconds(Clock::now() - t1);
    const double coldSeconds = seconds(Clock::now() - t0);
    t1 = Clock::now();
    const hiera::FleetResult warm = hiera::lookupAcross(*engine, library, key, {}, fleetOptions);
    const double warmSeconds = seconds(Clock::now() - t1);
    const long peakKiB = peakRssKiB();

    // With per-node contexts kept (FleetContexts): the first run builds each node's snapshot, the
    // next reuses them; more memory, far less time a node.
    const hiera::FleetContexts contexts(engine, library);
    t1 = Clock::now();
    (void)hiera::lookupAcross(contexts, key, {}, fleetOptions);
    const double contextsFirstSeconds = seconds(Clock::now() - t1);
    t1 = Clock::now();
    (void)hiera::lookupAcross(contexts, key, {}, fleetOptions);
    const double contextsWarmSeconds = seconds(Clock::now() - t1);

    const double factsMiB = static_cast<double>(library.factBytes()) / (1 << 20);
    const double peakMiB = static_cast<double>(peakKiB) / 1024;
    std::cout << "fleet_library_nodes=" << library.size() << "\nfleet_library_bad_files=" << library.errors().size()
              << "\nfleet_library_threads=" << threads
              << "\nfleet_library_found=" << warm.count(hiera::LookupResult::Status::Found)
              << "\nfleet_library_errors=" << warm.count(hiera::LookupResult::Status::Error)
              << "\nfleet_library_groups=" << warm.groups.size() << "\nfleet_library_load_s=" << loadSeconds
              << "\nfleet_library_first_pass_s=" << firstSeconds << "\nfleet_library_cold_total_s=" << coldSeconds
              << "\nfleet_library_warm_s=" << warmSeconds << "\nfleet_library_warm_us_per_node="
              << warmSeconds / static_cast<double>(std::max<std::size_t>(1, library.size())) * 1e6
              << "\nfleet_library_load_peak_rss_mib=" << static_cast<double>(loadRssKiB) / 1024
              << "\nfleet_library_loaded_rss_mib=" << libraryRssMiB
              << "\nfleet_library_stored_mib=" << static_cast<double>(library.storedBytes()) / (1 << 20)
              << "\nfleet_library_peak_rss_mib=" << peakMiB << "\nfleet_library_facts_mib=" << factsMiB
              << "\nfleet_library_peak_ratio=" << peakMiB / std::max(factsMiB, 1e-9)
              << "\nfleet_library_contexts_first_pass_s=" << contextsFirstSeconds
              << "\nfleet_library_contexts_warm_s=" << contextsWarmSeconds
              << "\nfleet_library_contexts_peak_rss_mib=" << static_cast<double>(peakRssKiB()) / 1024 << "\n";
    return first.nodes.size() == library.size() ? 0 : 2;
}

// Takes yaml-cpp's events and does nothing with them: what yaml-cpp alone costs.
struct IgnoreEvents : YAML::EventHandler
{
    void OnDocumentStart(const YAML::Mark&) override { }
    void OnDocumentEnd() override { }
    void OnNull(const YAML::Mark&, YAML::anchor_t) override { }
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override { }
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { }
    void OnSequenceEnd() override { }
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { }
    void OnMapEnd() override { }
};

int load(const fs::path& fixture, int threads)
{
    std::vector<std::string> files;
    std::uintmax_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(fixture / "data"))
        if (e.is_regular_file()) {
            files.push_back(e.path().string());
            bytes += e.file_size();
        }
    std::sort(files.begin(), files.end());
    auto t0 = Clock::now();
    std::atomic<std::size_t> readBytes{0};
    parallelFor(files.size(), threads, [&](std::size_t i) { readBytes += hiera::readFile(files[i]).size(); });
    const double readSeconds = seconds(Clock::now() - t0);

    std::vector<hiera::Value> parsed(files.size());
    std::atomic<std::size_t> failures{0};
    t0 = Clock::now();
    parallelFor(files.size(), threads, [&](std::size_t i) {
        try {
            parsed[i] = hiera::loadDataFile(files[i]);
        } catch (const hiera::Error& e) {
            ++failures;
            std::cerr << e.what() << "\n";
        }
    });
    const double parseSeconds = seconds(Clock::now() - t0);
    std::set<std::string> keys;
    for (const auto& v : parsed)
        if (v.isHash())
            for (const auto& e : v.asHash())
                if (e.key.isString())
                    keys.insert(e.key.asString());
    const double totalSeconds = seconds(Clock::now() - t0);
    const double mb = static_cast<double>(bytes) / 1e6;
    std::cout << "load_files=" << files.size() << "\nload_bytes=" << bytes << "\nload_failures=" << failures
              << "\nload_threads=" << threads << "\nload_read_s=" << readSeconds
              << "\nload_read_mb_s=" << mb / readSeconds << "\nload_parse_s=" << parseSeconds
              << "\nload_parse_mb_s=" << mb / parseSeconds << "\nload_inventory_s=" << totalSeconds
              << "\nload_root_keys=" << keys.size() << "\nload_peak_rss_mib=" << peakRssKiB() / 1024.0
              << "\nload_rss_ratio=" << peakRssKiB() * 1024.0 / static_cast<double>(bytes) << "\n";

    // For comparison: the same texts through yaml-cpp's parser alone, events thrown away, and how many
    // of the files the engine's fast block reader took instead of yaml-cpp.
    std::vector<std::string> texts(files.size());
    parallelFor(files.size(), threads, [&](std::size_t i) { texts[i] = hiera::readFile(files[i]); });
    std::atomic<std::size_t> blockFiles{0};
    parallelFor(files.size(), threads, [&](std::size_t i) {
        IgnoreEvents ignore;
        blockFiles += hiera::detail::parseBlockYaml(texts[i], ignore);
    });
    t0 = Clock::now();
    parallelFor(files.size(), threads, [&](std::size_t i) {
        std::istringstream in(texts[i]);
        IgnoreEvents ignore;
        try {
            YAML::Parser parser(in);
            parser.HandleNextDocument(ignore);
        } catch (const YAML::Exception&) {
        }
    });
    const double yamlCppSeconds = seconds(Clock::now() - t0);
    std::cout << "load_block_reader_files=" << blockFiles << "\nload_yamlcpp_only_s=" << yamlCppSeconds
              << "\nload_yamlcpp_only_mb_s=" << mb / yamlCppSeconds << "\n";
    return 0;
}

// A root key as a lookup key (quoted when it holds a dot or a quote).
std::string quotedRoot(const std::string& root)
{
    if (root.find_first_of(".'\"") == std::string::npos)
        return root;
    return root.find('"') == std::string::npos ? '"' + root + '"' : '\'' + root + '\'';
}

std::vector<std::string> firstNodes(const fs::path& fixture, std::size_t n)
{
    std::vector<std::string> nodes;
    std::ifstream in(fixture / "nodes.txt");
    for (std::string line; nodes.size() < n && std::getline(in, line);)
        if (!line.empty())
            nodes.push_back(line);
    if (nodes.size() < n)
        throw std::runtime_error((fixture / "nodes.txt").string() + ": fewer than " + std::to_string(n) + " nodes");
    return nodes;
}

// Runs `pass` once to parse the node's files, then `passes` times; returns the median milliseconds.
template <typename F>
double warmMedianMs(int passes, F pass)
{
    pass();
    std::vector<double> ms;
    for (int i = 0; i < std::max(1, passes); ++i) {
        const auto t0 = Clock::now();
        pass();
        ms.push_back(seconds(Clock::now() - t0) * 1e3);
    }
    return median(ms);
}

int allKeys(const fs::path& fixture, std::string node, int passes)
{
    if (node.empty())
        node = firstNodes(fixture, 1).front();
    auto engine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    const auto scope = nodeScope(fixture, node);
    // Results are kept until the end, so that freeing one pass's result is not timed in the next.
    std::vector<hiera::NodeData> results;
    results.reserve(static_cast<std::size_t>(std::max(1, passes)) + 1);
    const double ms = warmMedianMs(passes, [&] { results.push_back(hiera::resolveAllKeys(*engine, *scope)); });
    const hiera::NodeData& data = results.back();
    // A figure for wrong answers would mean nothing: every key against a plain lookup (not timed).
    hiera::Context plain(engine, scope);
    for (const hiera::ResolvedKey& k : data.keys) {
        const hiera::LookupResult r = plain.lookup(quotedRoot(k.key));
        if (r.status != k.status || !(r.value == k.value)) {
            std::cerr << "hiera-bench: all-keys answers " << k.key << " on " << node << " unlike a lookup\n";
            return 2;
        }
    }
    std::cout << "all_keys_node=" << node << "\nall_keys_ms_median=" << ms << "\nall_keys_count=" << data.keys.size()
              << "\nall_keys_errors=" << data.errorCount() << "\n";
    return 0;
}

int diff(const fs::path& fixture, std::string nodeA, std::string nodeB, int passes)
{
    if (nodeA.empty() || nodeB.empty()) {
        const auto nodes = firstNodes(fixture, 2);
        nodeA = nodes[0];
        nodeB = nodes[1];
    }
    auto engine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    const auto a = nodeScope(fixture, nodeA);
    const auto b = nodeScope(fixture, nodeB);
    std::vector<hiera::NodeDiff> results;
    results.reserve(static_cast<std::size_t>(std::max(1, passes)) + 1);
    const double ms = warmMedianMs(passes, [&] { results.push_back(hiera::diffNodes(*engine, *a, *b)); });
    const hiera::NodeDiff& result = results.back();
    // The differing keys, found again by plain lookups of every key on both nodes (not timed).
    std::set<std::string> keys;
    for (const auto& scope : {a, b})
        for (const std::string& k : engine->keyInventory(*scope, 1))
            keys.insert(k);
    hiera::Context ca(engine, a), cb(engine, b);
    std::size_t differing = 0;
    for (const std::string& k : keys) {
        const hiera::LookupResult x = ca.lookup(k), y = cb.lookup(k);
        const bool same =
            x.status == y.status && x.value == y.value && (!x.error || std::string(x.error->what()) == y.error->what());
        differing += same ? 0 : 1;
    }
    if (differing != result.keys.size() || keys.size() != result.keysCompared) {
        std::cerr << "hiera-bench: diff found " << result.keys.size() << " of " << result.keysCompared
                  << " keys differing, plain lookups " << differing << " of " << keys.size() << "\n";
        return 2;
    }
    std::cout << "diff_nodes=" << nodeA << " " << nodeB << "\ndiff_ms_median=" << ms
              << "\ndiff_keys_compared=" << result.keysCompared << "\ndiff_keys_differing=" << result.keys.size()
              << "\n";
    return 0;
}

int puppetdbSave(const fs::path& fixture, int count, int passes)
{
    // The export as `puppet query` writes it: an array of {certname, environment, facts: [{name, value}]}.
    const hiera::ThreadExecutor executor; // every core, as before the executor was the host's
    hiera::NodeLibraryOptions libraryOptions;
    libraryOptions.executor = &executor;
    const hiera::NodeLibrary library = hiera::NodeLibrary::load((fixture / "facts").string(), libraryOptions);
    hiera::Array entries;
    const std::size_t n = std::min<std::size_t>(library.size(), static_cast<std::size_t>(std::max(1, count)));
    for (std::size_t i = 0; i < n; ++i) {
        hiera::Array list;
        const hiera::Value facts = library.nodes()[i].facts();
        for (const auto& fact : facts.asHash())
            list.push_back(hiera::makeHash({{"name", fact.key}, {"value", fact.value}}));
        entries.push_back(hiera::makeHash({{"certname", hiera::Value(library.nodes()[i].name)},
                                           {"environment", hiera::Value("production")},
                                           {"facts", hiera::Value(std::move(list))}}));
    }
    const std::string text = hiera::toJson(hiera::Value(std::move(entries)), true);
    const std::string node = library.nodes()[n * 7 / 8].name; // towards the end: the scan reads most of it
    std::optional<hiera::PuppetDBFactset> found;
    const double readMs =
        warmMedianMs(passes, [&] { found = hiera::findPuppetDBFactset(text, "factsets.json", node); });
    if (!found) {
        std::cerr << "hiera-bench: " << node << " not found in the export\n";
        return 2;
    }
    hiera::Value edited = found->facts;
    edited.mutableHash().set("bench_edit", hiera::Value(std::int64_t(1)));
    std::optional<std::string> written;
    hiera::Value previous;
    const double saveMs = warmMedianMs(
        passes, [&] { written = hiera::replacePuppetDBFacts(text, "factsets.json", node, edited, {}, &previous); });
    if (!written || !(previous == found->facts)) {
        std::cerr << "hiera-bench: the save did not find the node's facts\n";
        return 2;
    }
    std::cout << "puppetdb_export_nodes=" << n
              << "\npuppetdb_export_mib=" << static_cast<double>(text.size()) / (1 << 20)
              << "\npuppetdb_read_node_ms_median=" << readMs << "\npuppetdb_save_node_ms_median=" << saveMs << "\n";
    return 0;
}

// A repository in a fresh temporary directory: one glob level over `files` data files, each holding
// bench::servers (its own server and one every file shares) and bench::cfg (its own entry, and a
// shared entry whose array every file adds to). Every file contributes to a unique or deep merge.
fs::path makeOverrideRepository(std::size_t files)
{
    const fs::path dir = fs::temp_directory_path() / ("hiera-bench-override-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "data" / "files");
    std::ofstream(dir / "hiera.yaml") << "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\n"
                                         "hierarchy:\n  - name: \"every file\"\n    glob: \"files/*.yaml\"\n";
    for (std::size_t i = 0; i < files; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "f%05zu.yaml", i);
        std::ofstream(dir / "data" / "files" / name)
            << "bench::servers:\n  - server" << i << ".example.com\n  - shared.example.com\n"
            << "bench::cfg:\n  own" << i << ": " << i << "\n  shared:\n    - item" << i << "\n    - common\n";
    }
    return dir;
}

int overrideChainBench(std::size_t files, int passes)
{
    const fs::path repo = makeOverrideRepository(files);
    struct Cleanup
    {
        fs::path dir;
        ~Cleanup() { fs::remove_all(dir); }
    } cleanup{repo};
    auto engine = hiera::Engine::load((repo / "hiera.yaml").string(), benchOptions());
    const hiera::MapScope scope;
    std::cout << "override_chain_files=" << files << "\n";
    const std::pair<const char*, const char*> cases[] = {{"unique", "bench::servers"}, {"deep", "bench::cfg"}};
    for (const auto& [name, key] : cases) {
        hiera::LookupRequest request;
        request.merge = hiera::MergeSpec::fromValue(hiera::Value(name));
        hiera::LookupRequest explain = request;
        explain.explain = true;
        engine->lookup(scope, key, request); // parses the files (not timed)
        std::vector<hiera::LookupResult> results;
        const double lookupMs = warmMedianMs(passes, [&] { results.push_back(engine->lookup(scope, key, request)); });
        std::size_t leaves = 0, elements = 0, reportBytes = 0;
        std::vector<hiera::OverrideChain> chains;
        const double chainMs =
            warmMedianMs(passes, [&] { chains.push_back(hiera::overrideChain(*engine, scope, key, request.merge)); });
        const double reportMs = warmMedianMs(passes, [&] {
            const hiera::LookupResult result = engine->lookup(scope, key, explain);
            const hiera::OverrideChain chain = hiera::overrideChain(*engine, scope, key, request.merge);
            hiera::ExplanationReport report;
            report.engine = engine.get();
            report.key = key;
            report.merge = request.merge;
            report.result = &result;
            report.scope = &scope;
            report.overrides = &chain;
            report.hieraYaml = (repo / "hiera.yaml").string();
            reportBytes = hiera::explanationMarkdown(report).size();
            leaves = chain.leaves.size();
            elements = 0;
            for (const hiera::OverrideLeaf& leaf : chain.leaves)
                elements += leaf.elements.size();
        });
        if (!results.back().found() || chains.back().levels.size() != files) {
            std::cerr << "hiera-bench: override-chain " << name << " found " << chains.back().levels.size()
                      << " levels of " << files << "\n";
            return 2;
        }
        std::cout << "override_chain_" << name << "_lookup_s=" << lookupMs / 1000 << "\noverride_chain_" << name
                  << "_chain_s=" << chainMs / 1000 << "\noverride_chain_" << name << "_report_s=" << reportMs / 1000
                  << "\noverride_chain_" << name << "_leaves=" << leaves << "\noverride_chain_" << name
                  << "_elements=" << elements << "\noverride_chain_" << name << "_report_bytes=" << reportBytes << "\n";
    }
    return 0;
}

// Two N-element arrays that share half their elements (the lower's first half is the higher's second
// half), so the union has 1.5 N elements; each element a string, or a small hash.
int mergeBench(std::size_t n, int passes)
{
    auto element = [](bool hashes, std::size_t i) {
        const std::string name = "element-" + std::to_string(i);
        return hashes ? hiera::makeHash({{"name", hiera::Value(name)}, {"port", hiera::Value(std::int64_t(i))}})
                      : hiera::Value(name);
    };
    for (const bool hashes : {false, true}) {
        hiera::Array higher, lower;
        for (std::size_t i = 0; i < n; ++i) {
            higher.push_back(element(hashes, i));
            lower.push_back(element(hashes, i + n / 2));
        }
        const hiera::Value h(std::move(higher)), l(std::move(lower));
        const std::string of = hashes ? "_hashes" : "";
        const std::pair<const char*, hiera::Value> specs[] = {
            {"unique", hiera::Value("unique")},
            {"deep", hiera::Value("deep")},
            {"deep_knockout", hiera::makeHash({{"strategy", hiera::Value("deep")}, {"knockout_prefix", "--"}})}};
        for (const auto& [name, spec] : specs) {
            const hiera::MergeSpec merge = hiera::MergeSpec::fromValue(spec);
            std::vector<hiera::Value> out;
            const double ms = warmMedianMs(passes, [&] { out.push_back(hiera::mergeStep(merge, h, l)); });
            if (out.back().asArray().size() != n + n / 2) {
                std::cerr << "hiera-bench: merge " << name << " gave " << out.back().asArray().size() << " elements\n";
                return 2;
            }
            std::cout << "merge_" << name << of << "_s=" << ms / 1000 << "\n";
        }
    }
    std::cout << "merge_elements=" << n << "\n";
    return 0;
}

// What a change does to every node (hiera/nodes/revisiondiff.h, docs/revision-diff.md): the library of FACTS, then the
// diff from OLD to NEW of the git repository REPO (NEW "-": its working tree) on two fresh engines
// sharing their parses (what hiera-lookup --revision-diff does, but keeping what a second diff can
// reuse), then again on the same engines with what the first kept (what the explorer does). With --sweep, every key of
// every node resolved on a fresh engine at NEW (resolveAllKeys), the reference a hierarchy change is measured against.
int revisionDiffBench(const std::string& repo, const std::string& facts, const std::string& from, const std::string& to,
                      int threads, bool sweep, bool fresh)
{
    const hiera::ThreadExecutor executor(static_cast<unsigned>(threads));
    auto t0 = Clock::now();
    hiera::NodeLibraryOptions libraryOptions;
    libraryOptions.executor = &executor;
    const hiera::NodeLibrary library = hiera::NodeLibrary::load(facts, libraryOptions);
    std::cout << "revision_diff_library_s=" << seconds(Clock::now() - t0) << "\n";
    const auto engineOn = [&](const std::shared_ptr<const hiera::SourceTree>& tree,
                              const std::shared_ptr<hiera::ContentParseCache>& parses) {
        hiera::EnvironmentOptions envOptions;
        envOptions.tree = tree;
        hiera::EngineOptions options = benchOptions();
        options.tree = tree;
        options.contentParses = parses;
        return hiera::Engine::fromLayers(hiera::Environment::discover(repo, envOptions).layers, options);
    };
    const auto toTree = to == "-" ? nullptr : hiera::openRevision(repo, to);
    hiera::RevisionDiffOptions options;
    options.executor = &executor;
    // What the explorer holds between two Compares (hiera/nodes/revisiondiffcache.h).
    hiera::RevisionDiffCache kept;
    options.cache = fresh ? nullptr : &kept; // --fresh: nothing kept, every run from scratch
    t0 = Clock::now();
    const auto parses = hiera::makeContentParseCache();
    const auto before = engineOn(hiera::openRevision(repo, from), parses);
    const auto after = engineOn(toTree, parses);
    const hiera::RevisionDiff first = hiera::diffRevisions(*before, *after, library, options);
    std::cout << "revision_diff_first_s=" << seconds(Clock::now() - t0) << "\n";
    t0 = Clock::now();
    const hiera::RevisionDiff second = hiera::diffRevisions(*before, *after, library, options);
    std::cout << "revision_diff_second_s=" << seconds(Clock::now() - t0) << "\n";
    if (second.changes.size() != first.changes.size()) {
        std::cerr << "hiera-bench: the second diff differs from the first\n";
        return 2;
    }
    std::size_t answers = 0;
    for (const hiera::RevisionChange& c : first.changes)
        answers += c.nodes.size();
    std::cout << "revision_diff_nodes=" << first.nodes << "\nrevision_diff_nodes_recomputed=" << first.nodesRecomputed
              << "\nrevision_diff_keys_recomputed=" << first.keysRecomputed
              << "\nrevision_diff_lookups=" << first.lookups << "\nrevision_diff_changes=" << first.changes.size()
              << "\nrevision_diff_changed_answers=" << answers
              << "\nrevision_diff_hierarchy_changed=" << (first.hierarchyChanged ? 1 : 0) << "\n";
    if (sweep) {
        t0 = Clock::now();
        const auto engine = engineOn(toTree, nullptr);
        std::atomic<std::size_t> keys{0};
        executor.forEach(
            library.size(),
            [&](std::size_t i) { keys += hiera::resolveAllKeys(*engine, *library.nodes()[i].scope).keys.size(); }, {});
        std::cout << "revision_diff_sweep_s=" << seconds(Clock::now() - t0) << "\nrevision_diff_sweep_lookups=" << keys
                  << "\n";
    }
    return 0;
}
// What one data file decides across the fixture's 20,000 nodes (hiera/nodes/fileimpact.h): the library, then
// the file's impact twice in one process (the first parses the data; the second is the explorer's
// Impact panel asked again).
int impactBench(const fs::path& fixture, const std::string& file, int threads)
{
    const hiera::ThreadExecutor executor(static_cast<unsigned>(threads));
    auto t0 = Clock::now();
    hiera::NodeLibraryOptions libraryOptions;
    libraryOptions.executor = &executor;
    const hiera::NodeLibrary library = hiera::NodeLibrary::load((fixture / "facts").string(), libraryOptions);
    std::cout << "impact_library_s=" << seconds(Clock::now() - t0) << "\n";
    const auto engine = hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    hiera::FileImpactOptions options;
    options.executor = &executor;
    const std::string path = fs::absolute(fixture / file).lexically_normal().string();
    t0 = Clock::now();
    const hiera::FileImpact first = hiera::fileImpact(*engine, library, path, options);
    std::cout << "impact_first_s=" << seconds(Clock::now() - t0) << "\n";
    t0 = Clock::now();
    const hiera::FileImpact second = hiera::fileImpact(*engine, library, path, options);
    std::cout << "impact_second_s=" << seconds(Clock::now() - t0) << "\n";
    if (second.keys.size() != first.keys.size()) {
        std::cerr << "hiera-bench: the second impact differs from the first\n";
        return 2;
    }
    std::size_t answers = 0;
    for (const hiera::KeyImpact& k : first.keys)
        answers += k.nodes.size();
    std::cout << "impact_nodes=" << first.nodes << "\nimpact_nodes_reading=" << first.nodesReading.size()
              << "\nimpact_keys_defined=" << first.keysDefined << "\nimpact_key_groups=" << first.keys.size()
              << "\nimpact_decided_answers=" << answers << "\n";
    return 0;
}

// An unsaved edit of one data file against the fixture's 20,000 nodes (hiera/nodes/editimpact.h,
// docs/editing-data.md): the first evaluation (which works out the nodes reading the file and parses
// their files), then keystrokes, each a new value of a key added at the end of the file (every reader's
// answer to it changes), timed as the explorer's Impact panel waits for them: the evaluation and the
// engine reading the edit.
int editImpactBench(const fs::path& fixture, const std::string& file, int threads, int keystrokes)
{
    const hiera::ThreadExecutor executor(static_cast<unsigned>(threads));
    hiera::NodeLibraryOptions libraryOptions;
    libraryOptions.executor = &executor;
    const auto library = std::make_shared<const hiera::NodeLibrary>(
        hiera::NodeLibrary::load((fixture / "facts").string(), libraryOptions));
    const std::shared_ptr<const hiera::Engine> engine =
        hiera::Engine::load((fixture / "hiera.yaml").string(), benchOptions());
    const std::string path = fs::absolute(fixture / file).lexically_normal().string();
    const std::string text = hiera::readFile(path);
    const std::string base = text.empty() || text.back() == '\n' ? text : text + "\n";
    const hiera::EditSession session(engine, library, path);
    hiera::EditImpactOptions options;
    options.executor = &executor;
    auto t0 = Clock::now();
    hiera::EditImpact first = session.evaluate(base + "hiera_bench_edit: 0\n", options);
    session.engineWith(base + "hiera_bench_edit: 0\n");
    std::cout << "edit_impact_first_s=" << seconds(Clock::now() - t0) << "\n";
    std::vector<double> ms;
    std::size_t changes = 0, answers = 0;
    for (int k = 1; k <= keystrokes; ++k) {
        const std::string edited = base + "hiera_bench_edit: " + std::to_string(k) + "\n";
        t0 = Clock::now();
        const hiera::EditImpact impact = session.evaluate(edited, options);
        session.engineWith(edited);
        ms.push_back(seconds(Clock::now() - t0) * 1000);
        changes = impact.diff.changes.size();
        answers = 0;
        for (const hiera::RevisionChange& c : impact.diff.changes)
            answers += c.nodes.size();
    }
    std::sort(ms.begin(), ms.end());
    std::cout << "edit_impact_keystroke_ms_median=" << (ms.empty() ? 0 : ms[ms.size() / 2])
              << "\nedit_impact_keystroke_ms_max=" << (ms.empty() ? 0 : ms.back())
              << "\nedit_impact_nodes=" << library->size() << "\nedit_impact_nodes_reading=" << first.nodesReading
              << "\nedit_impact_changes=" << changes << "\nedit_impact_changed_answers=" << answers << "\n";
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    auto option = [&](const std::string& name, int fallback) {
        auto it = std::find(args.begin(), args.end(), name);
        return it != args.end() && it + 1 != args.end() ? std::stoi(*(it + 1)) : fallback;
    };
    auto flag = [&](const std::string& name) { return std::find(args.begin(), args.end(), name) != args.end(); };
    const int threads = option("--threads", static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    try {
        if (args.size() >= 2 && args[0] == "warm")
            return warm(args[1], option("--repeat", 20000), flag("--rows"));
        if (args.size() >= 3 && args[0] == "fleet")
            return fleet(args[1], args[2], threads, option("--passes", 2));
        if (args.size() >= 3 && args[0] == "fleet-library")
            return fleetLibrary(args[1], args[2], threads);
        if (args.size() >= 2 && args[0] == "load")
            return load(args[1], threads);
        if (args.size() >= 2 && args[0] == "warm-eyaml")
            return warmEyaml(args[1], option("--repeat", 20000), flag("--rows"));
        // Positional arguments after FIXTURE, up to the first option.
        auto positional = [&](std::size_t i) {
            for (std::size_t j = 2; j <= i; ++j)
                if (j >= args.size() || args[j].rfind("--", 0) == 0)
                    return std::string();
            return args[i];
        };
        if (args.size() >= 2 && args[0] == "all-keys")
            return allKeys(args[1], positional(2), option("--passes", 9));
        if (args.size() >= 2 && args[0] == "diff")
            return diff(args[1], positional(2), positional(3), option("--passes", 9));
        if (args.size() >= 2 && args[0] == "puppetdb-save")
            return puppetdbSave(args[1], option("--nodes", 8000), option("--passes", 5));
        if (!args.empty() && args[0] == "override-chain")
            return overrideChainBench(static_cast<std::size_t>(option("--files", 5000)), option("--passes", 3));
        if (args.size() >= 5 && args[0] == "revision-diff")
            return revisionDiffBench(args[1], args[2], args[3], args[4], threads, flag("--sweep"), flag("--fresh"));
        if (args.size() >= 3 && args[0] == "impact")
            return impactBench(args[1], args[2], threads);
        if (args.size() >= 3 && args[0] == "edit-impact")
            return editImpactBench(args[1], args[2], threads, option("--keystrokes", 20));
        if (!args.empty() && args[0] == "merge")
            return mergeBench(static_cast<std::size_t>(option("--elements", 100000)), option("--passes", 3));
    } catch (const std::exception& e) {
        std::cerr << "hiera-bench: " << e.what() << "\n";
        return 2;
    }
    std::cerr
        << "usage: hiera-bench warm FIXTURE [--repeat N] [--rows] | fleet FIXTURE KEY [--threads N] | fleet-library "
           "FIXTURE KEY [--threads N] | load FIXTURE [--threads N] | warm-eyaml FIXTURE [--repeat N] "
           "[--rows] | all-keys FIXTURE [NODE] [--passes N] | diff FIXTURE [NODE_A NODE_B] [--passes N] | "
           "puppetdb-save FIXTURE [--nodes N] [--passes N] | override-chain [--files N] [--passes N] | merge "
           "[--elements N] [--passes N] | revision-diff REPO FACTS OLD NEW|- [--threads N] [--sweep] [--fresh] | "
           "impact FIXTURE FILE [--threads N] | edit-impact FIXTURE FILE [--threads N] [--keystrokes N]\n";
    return 2;
}
