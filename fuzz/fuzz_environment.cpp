// Puppet's layers found from a control repository (hiera::Environment::discover, config/environment.cpp):
// environment.conf's modulepath and a tree of module folders, links and hiera.yaml files made from the
// input in a scratch directory. Input: parts separated by the byte 0x1E; the first is environment.conf,
// each other one creates something under the repository:
//   d<path>            a folder
//   l<path>\x1f<target> a symbolic link (any target: `..`, `/`, itself, nothing)
//   f<path>\x1f<text>   a file (a module's hiera.yaml, its data)
// Paths that would leave the scratch directory are not created (the targets of links may point anywhere).
// Checked besides "no crash, hang, leak or UB":
// - only hiera::Error, each message one printable line;
// - the modulepath is absolute folders, each once, in the order environment.conf gives;
// - one layer per module name, each a name Puppet allows, its hiera.yaml in the first modulepath folder
//   that has the module; the layers' modules in name order;
// - a lookup of a key of each module answers (found, not found or a coded error).

#include "fuzz_common.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/scope.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string_view> split(std::string_view s, char separator, std::size_t most)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (parts.size() + 1 < most) {
        const std::size_t end = s.find(separator, start);
        if (end == std::string_view::npos)
            break;
        parts.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    parts.push_back(s.substr(start));
    return parts;
}

// A relative path that stays inside the repository, or nothing.
bool safeRelative(std::string_view p)
{
    if (p.empty() || p.size() > 200 || p.front() == '/' || p.find('\0') != std::string_view::npos)
        return false;
    for (const auto& part : fs::path(std::string(p)))
        if (part == "..")
            return false;
    return true;
}

bool isModuleName(const std::string& name)
{
    if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z'))
        return false;
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

struct ScratchDirectory
{
    fs::path path;
    ScratchDirectory()
    {
        std::string pattern = (fs::temp_directory_path() / "fuzz_environment.XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            fuzz::violated("mkdtemp failed");
        path = pattern;
    }
    ~ScratchDirectory()
    {
        std::error_code ec;
        fs::remove_all(path, ec); // does not follow the links
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::vector<std::string_view> parts = split(input, '\x1e', 40);
    ScratchDirectory scratch;
    const fs::path repo = scratch.path / "repo";
    std::error_code ec;
    fs::create_directories(repo / "data", ec);
    std::ofstream(repo / "hiera.yaml") << "version: 5\n";
    std::ofstream(repo / "environment.conf") << parts[0];
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].empty())
            continue;
        const char kind = parts[i][0];
        const std::vector<std::string_view> fields = split(parts[i].substr(1), '\x1f', 2);
        if (!safeRelative(fields[0]))
            continue;
        const fs::path where = repo / std::string(fields[0]);
        fs::create_directories(where.parent_path(), ec);
        if (kind == 'd')
            fs::create_directories(where, ec);
        else if (kind == 'l' && fields.size() == 2 && fields[1].find('\0') == std::string_view::npos)
            fs::create_symlink(std::string(fields[1]), where, ec);
        else if (kind == 'f' && fields.size() == 2)
            std::ofstream(where, std::ios::binary) << fields[1];
    }

    hiera::Environment env;
    try {
        env = hiera::Environment::discover(repo.string());
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
        return 0;
    }
    std::set<std::string> folders;
    for (const std::string& dir : env.modulepath) {
        if (!fs::path(dir).is_absolute())
            fuzz::violated("a modulepath folder that is not absolute", dir);
        if (!folders.insert(dir).second)
            fuzz::violated("a modulepath folder listed twice", dir);
    }
    std::set<std::string> modules;
    std::string previous;
    for (const hiera::Layer& layer : env.layers) {
        if (layer.kind != hiera::Layer::Kind::Module)
            continue;
        if (!isModuleName(layer.module))
            fuzz::violated("a module layer whose name Puppet does not allow", layer.module);
        if (!modules.insert(layer.module).second)
            fuzz::violated("two layers for one module", layer.module);
        if (layer.module < previous)
            fuzz::violated("module layers out of name order", layer.module);
        previous = layer.module;
        // The module's hiera.yaml is in the first modulepath folder holding a folder of its name.
        std::string first;
        for (const std::string& dir : env.modulepath) {
            if (fs::is_directory(fs::path(dir) / layer.module, ec)) {
                first = dir;
                break;
            }
        }
        const fs::path expected = fs::absolute(fs::path(first) / layer.module / "hiera.yaml").lexically_normal();
        if (first.empty() || fs::path(layer.config.path) != expected)
            fuzz::violated("a module layer not from the first folder holding it",
                           layer.config.path + " / " + expected.string());
    }
    try {
        auto engine = hiera::Engine::fromLayers(env.layers);
        hiera::MapScope scope;
        for (const std::string& m : modules) {
            const hiera::LookupResult r = engine->lookup(scope, m + "::k");
            if (r.error)
                fuzz::checkMessage(*r.error);
        }
    } catch (const hiera::Error& e) {
        fuzz::checkMessage(e);
    }
    return 0;
}
