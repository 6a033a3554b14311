// Interpolation through real lookups: a two-level hierarchy whose first level's data is the fuzz
// input, served from memory by a `fuzz_data` data_hash backend (the hiera.yaml is parsed in memory;
// the engine only needs the level's file to exist, so a temp dir with empty files is made once).
//
// The input is read as YAML: if it is a hash, its entries are the data (keys with %{...} values,
// lookup('...'), alias('...'), scope(...), literal(...)); the raw input is also the value of `raw`.
// Lookups of `raw`, of the input's first keys and of `common`'s keys (which interpolate into the fuzz
// data) must never crash, hang or escape with anything but a LookupResult.

#include "fuzz_common.h"

#include <hiera/backend.h>
#include <hiera/config.h>
#include <hiera/engine.h>
#include <hiera/facts.h>
#include <hiera/scope.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <unistd.h>

namespace {

hiera::Value g_data; // the fuzz level's hash for the current input

class FuzzData : public hiera::DataHashBackend
{
public:
    std::string name() const override { return "fuzz_data"; }
    hiera::Value load(hiera::BackendContext&) const override { return g_data; }
};

struct Fixture
{
    std::string dir;
    hiera::Config config;
    hiera::EngineOptions options;
    std::shared_ptr<const hiera::Scope> scope;

    Fixture()
    {
        char tmpl[] = "/tmp/fuzz_interpolation.XXXXXX";
        if (!::mkdtemp(tmpl))
            std::abort();
        dir = tmpl;
        std::filesystem::create_directories(dir + "/data/nodes");
        std::ofstream(dir + "/data/fuzz.yaml") << "";
        std::ofstream(dir + "/data/nodes/web01.yaml") << "";
        std::ofstream(dir + "/data/common.yaml") << R"(
c_raw: "%{lookup('raw')}"
c_alias: "%{alias('a')}"
c_hash: {k: "%{lookup('a')}", "%{lookup('b')}": v}
c_list: ["%{hiera('a')}", "%{scope('facts.os.name')}", "%{literal('%')}{x}"]
a: from common
b: [1, 2]
lookup_options:
  h: {merge: deep}
)";
        const std::string hiera = R"(
version: 5
defaults: {datadir: data}
hierarchy:
  - name: fuzz
    data_hash: fuzz_data
    paths: ["fuzz.yaml", "nodes/%{trusted.certname}.yaml"]
  - name: common
    path: common.yaml
)";
        config = hiera::Config::parse(hiera, dir);
        auto registry = std::make_shared<hiera::BackendRegistry>(*hiera::BackendRegistry::defaultRegistry());
        registry->add(std::make_shared<FuzzData>());
        options.backends = registry;
        options.limits = fuzz::smallLimits();
        options.maxInterpolationDepth = 16;
        options.maxInterpolatedBytes = 256u << 10;
        const hiera::Value facts = hiera::parseData(R"(
os: {name: Debian, family: Debian, release: {major: "12"}}
list: [a, b, {c: d}]
empty: ""
nested: "%{facts.os.name}-x"
self: "%{self}"
pct: "%{"
)",
                                                    "facts.yaml");
        scope = std::make_shared<hiera::MapScope>(hiera::scopeFromFacts(facts, "web01"));
    }
    ~Fixture() { std::filesystem::remove_all(dir); }
};

Fixture& fixture()
{
    static Fixture f;
    return f;
}

void use(const hiera::LookupResult& r)
{
    if (r.status == hiera::LookupResult::Status::Error && !r.error)
        fuzz::violated("an Error result without an error");
    if (r.error)
        fuzz::checkMessage(*r.error);
    if (r.found())
        fuzz::renderAll(r.value);
    if (r.trace)
        (void)r.trace->children.size();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size)
{
    Fixture& f = fixture();
    const std::string text(reinterpret_cast<const char*>(bytes), size);
    hiera::Hash data;
    try {
        hiera::Value parsed = hiera::parseData(text, "fuzz.yaml", hiera::DataFormat::Yaml, f.options.limits);
        if (parsed.isHash())
            data = parsed.asHash();
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
    }
    data.set("raw", hiera::Value(text));
    g_data = hiera::Value(std::move(data));

    // A fresh engine per input: the file cache would otherwise keep the first input's data.
    auto engine = hiera::Engine::fromConfig(f.config, f.options);
    use(engine->lookup(*f.scope, "raw"));
    use(engine->lookup(*f.scope, "c_raw", {.explain = true}));
    std::size_t n = 0;
    for (const auto& e : g_data.asHash()) {
        if (!e.key.isString() || e.key.asString() == "raw")
            continue;
        if (++n > 4)
            break;
        use(engine->lookup(*f.scope, e.key.asString(), {.explain = n == 1}));
    }
    for (const char* key : {"c_alias", "c_hash", "c_list", "h"}) {
        hiera::LookupRequest o;
        if (key[0] == 'h') {
            hiera::MergeSpec deep;
            deep.strategy = hiera::MergeStrategy::Deep;
            o.merge = deep;
        }
        use(engine->lookup(*f.scope, key, o));
    }
    g_data = hiera::Value();
    return 0;
}
