// The engine on its own: no Qt in this binary (it links hiera::engine only). Writes a small hierarchy
// into a temporary directory, runs lookups through the seed's façade, prints "N passed, M failed".

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/scope.h>
#include <hiera/value.h>
#include <hiera/valueformat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>

namespace fs = std::filesystem;

static int g_passed = 0;
static int g_failed = 0;

static void check(bool ok, const std::string& what)
{
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        std::cerr << "FAIL: " << what << "\n";
    }
}

static void write(const fs::path& p, const std::string& content)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

static std::string show(const hiera::LookupResult& r)
{
    if (r.error)
        return std::string("error: ") + r.error->what();
    if (!r.found())
        return "not found";
    try {
        return hiera::toJson(r.value);
    } catch (const std::exception& e) {
        return e.what();
    }
}

int main()
{
    std::random_device rd;
    const fs::path root = fs::temp_directory_path() / ("hiera-standalone-" + std::to_string(rd()));
    write(root / "hiera.yaml",
          "version: 5\n"
          "defaults:\n"
          "  datadir: data\n"
          "  data_hash: yaml_data\n"
          "hierarchy:\n"
          "  - name: \"Per-node data\"\n"
          "    path: \"nodes/%{trusted.certname}.yaml\"\n"
          "  - name: \"Per-OS defaults\"\n"
          "    path: \"os/%{facts.os.family}.yaml\"\n"
          "  - name: \"Common\"\n"
          "    path: \"common.yaml\"\n");
    write(root / "data/common.yaml",
          "profile::ntp:\n"
          "  port: 123\n"
          "  servers:\n"
          "    - 0.pool.ntp.org\n"
          "    - 1.pool.ntp.org\n"
          "motd: \"Welcome to %{facts.networking.fqdn}\"\n"
          "packages: [vim]\n");
    write(root / "data/os/Debian.yaml", "packages: [apt-transport-https]\nfamily: debian\n");
    write(root / "data/nodes/web01.example.com.yaml", "role: web\n");

    try {
        hiera::Value facts = hiera::makeHash({
            {"os", hiera::makeHash({{"family", "Debian"}, {"name", "Ubuntu"}})},
            {"networking", hiera::makeHash({{"fqdn", "web01.example.com"}})},
        });
        auto scope = std::make_shared<hiera::MapScope>(hiera::scopeFromFacts(facts, "web01.example.com"));
        const hiera::Hiera h = hiera::Hiera::load((root / "hiera.yaml").string(), scope);

        auto r = h.lookup("profile::ntp");
        check(r.found() && r.value.isHash(), "profile::ntp is the whole hash: " + show(r));
        r = h.lookup("profile::ntp.port");
        check(r.found() && r.value == hiera::Value(123), "profile::ntp.port = 123: " + show(r));
        r = h.lookup("profile::ntp.servers");
        check(r.found() && r.value.isArray() && r.value.asArray().size() == 2, "servers array: " + show(r));
        r = h.lookup("profile::ntp.servers.0");
        check(r.found() && r.value == hiera::Value("0.pool.ntp.org"), "servers.0: " + show(r));
        r = h.lookup("profile::ntp.servers.9");
        check(r.status == hiera::LookupResult::Status::NotFound, "servers.9 not found: " + show(r));
        r = h.lookup("profile::ntp.port.deeper");
        check(r.status == hiera::LookupResult::Status::NotFound, "dig into scalar not found: " + show(r));
        r = h.lookup("motd");
        check(r.found() && r.value == hiera::Value("Welcome to web01.example.com"), "motd interpolated: " + show(r));
        r = h.lookup("role");
        check(r.found() && r.value == hiera::Value("web"), "trusted.certname selects the node file: " + show(r));
        r = h.lookup("family");
        check(r.found() && r.value == hiera::Value("debian"), "facts.os.family selects the os file: " + show(r));
        r = h.lookup("packages");
        check(r.found() && r.value == hiera::makeArray({"apt-transport-https"}), "first wins: " + show(r));
        hiera::LookupRequest unique;
        hiera::MergeSpec uniqueSpec;
        uniqueSpec.strategy = hiera::MergeStrategy::Unique;
        unique.merge = uniqueSpec;
        r = h.lookup("packages", unique);
        check(r.found() && r.value == hiera::makeArray({"apt-transport-https", "vim"}), "unique merge: " + show(r));
        r = h.lookup("nosuch");
        check(r.status == hiera::LookupResult::Status::NotFound && !r.error, "absent key: " + show(r));
        r = h.lookup("k..x");
        check(r.status == hiera::LookupResult::Status::Error && r.error
                  && r.error->code() == hiera::ErrorCode::KeySyntax,
              "key syntax error: " + show(r));
        // top-scope facts, as puppet lookup --facts makes them
        hiera::MapScope direct(hiera::scopeFromFacts(facts));
        check(direct.lookup("os.family") == std::optional<hiera::Value>(hiera::Value("Debian")),
              "fact as top-scope variable");
        check(direct.lookup("facts.os.family") == std::optional<hiera::Value>(hiera::Value("Debian")),
              "facts.os.family");
    } catch (const std::exception& e) {
        check(false, std::string("unexpected exception: ") + e.what());
    }

    try {
        hiera::Engine::load((root / "missing" / "hiera.yaml").string());
        check(false, "loading a missing hiera.yaml throws");
    } catch (const hiera::Error& e) {
        check(e.code() == hiera::ErrorCode::ConfigUnreadable, std::string("ConfigUnreadable: ") + e.what());
    }

    std::error_code ec;
    fs::remove_all(root, ec);
    std::cout << g_passed << " passed, " << g_failed << " failed\n";
    return g_failed == 0 ? 0 : 1;
}
