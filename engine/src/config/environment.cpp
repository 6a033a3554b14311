// Finding Puppet's three layers in a control repository (docs/layers.md §1). Hand-written because no
// library reads environment.conf: it is a flat list of `key = value` settings (Puppet's own reader is
// a subset of its puppet.conf parser), of which only `modulepath` matters here.

#include <hiera/environment.h>
#include <hiera/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace hiera {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

// Every file and folder of the environment is asked of the source tree (hiera/sourcetree.h).
bool isDirectory(const SourceTree& tree, const fs::path& p)
{
    return tree.stat(p.string()).kind == TreeStat::Kind::Directory;
}

bool isFile(const SourceTree& tree, const fs::path& p)
{
    return tree.stat(p.string()).kind == TreeStat::Kind::File;
}

// environment.conf's `modulepath`, split on ':'; nullopt when the file or the setting is absent.
std::optional<std::vector<std::string>> modulepathFromConf(const SourceTree& tree, const fs::path& conf,
                                                           std::vector<std::string>& warnings)
{
    if (!isFile(tree, conf))
        return std::nullopt;
    std::string text;
    try {
        text = tree.read(conf.string(), 1u << 20);
    } catch (const Error& e) {
        warnings.push_back(std::string(e.what()) + " (environment.conf ignored)");
        return std::nullopt;
    }
    std::optional<std::vector<std::string>> result;
    std::size_t lineStart = 0;
    while (lineStart <= text.size()) {
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string::npos)
            lineEnd = text.size();
        const std::string line = trim(std::string_view(text).substr(lineStart, lineEnd - lineStart));
        lineStart = lineEnd + 1;
        if (line.empty() || line[0] == '#' || line[0] == ';' || line[0] == '[')
            continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos || trim(line.substr(0, eq)) != "modulepath")
            continue;
        std::vector<std::string> entries;
        const std::string value = trim(line.substr(eq + 1));
        std::size_t pos = 0;
        while (pos <= value.size()) {
            std::size_t colon = value.find(':', pos);
            if (colon == std::string::npos)
                colon = value.size();
            const std::string entry = trim(value.substr(pos, colon - pos));
            if (!entry.empty())
                entries.push_back(entry);
            pos = colon + 1;
        }
        result = std::move(entries);
    }
    return result;
}

// Puppet's module names: a lower-case letter, then lower-case letters, digits and underscores.
bool isModuleName(const std::string& name)
{
    if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z'))
        return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

// The version a hiera.yaml declares, without validating the rest (a module's v3 file is left out, not
// an error). nullopt when the file does not parse as YAML at all.
std::optional<Value> declaredVersion(const SourceTree& tree, const std::string& path)
{
    try {
        const Value doc = parseData(tree.read(path, ParseLimits{}.maxDocumentBytes), path, DataFormat::Yaml);
        if (!doc.isHash())
            return Value();
        const Value* v = doc.asHash().find("version");
        return v ? *v : Value();
    } catch (const Error&) {
        return std::nullopt;
    }
}

Layer moduleLayer(const SourceTree& tree, const std::string& name, const fs::path& hieraYaml,
                  std::vector<std::string>& warnings, bool& include)
{
    Layer layer;
    layer.kind = Layer::Kind::Module;
    layer.module = name;
    include = true;
    const std::optional<Value> version = declaredVersion(tree, hieraYaml.string());
    if (version && version->isNull()) {
        // Version 3 (no version at all): Puppet ignores a module's file of that kind, with a warning.
        warnings.push_back(
            hieraYaml.string() + ": module '" + name
            + "' has a hiera.yaml of version 3 (no version); Puppet ignores it, so it has no module layer");
        include = false;
        return layer;
    }
    // Any other version (Puppet still reads a module's version 4) fails in Config::load below with its
    // "only version 5 is supported" and the file's line: the module's lookups are then refused with it,
    // never answered "not found" in silence.
    try {
        layer.config = Config::load(tree, hieraYaml.string(), Config::Use::Module);
    } catch (const Error& e) {
        layer.error = e;
        layer.config.path = fs::absolute(hieraYaml).lexically_normal().string();
        layer.config.directory = fs::absolute(hieraYaml.parent_path()).lexically_normal().string();
    }
    return layer;
}

// Whether `path` is `dir` or inside it, symbolic links resolved (a module `site/loop -> ..`, a
// modulepath entry through a link): both exist when this is asked, or the answer is false.
bool isWithin(const SourceTree& tree, const fs::path& path, const fs::path& dir)
{
    const std::optional<std::string> canonicalPath = tree.canonical(path.string());
    if (!canonicalPath)
        return false;
    const std::optional<std::string> canonicalDir = tree.canonical(dir.string());
    if (!canonicalDir)
        return false;
    const fs::path p = *canonicalPath;
    const fs::path d = *canonicalDir;
    const auto [dEnd, pAt] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
    return dEnd == d.end() || (std::next(dEnd) == d.end() && dEnd->empty());
}

// A module's data belongs to the module: a datadir or path written as `../../../etc` reads files of
// the machine as the module's data. Puppet follows it, so the engine does too, and says so, once per
// level. Only what is written without interpolation can be judged before a lookup.
void warnAboutDataOutside(const SourceTree& tree, const Layer& module, std::vector<std::string>& warnings)
{
    const fs::path moduleDir = module.config.directory;
    const auto outside = [&](const fs::path& p) { return !isWithin(tree, p, moduleDir); };
    for (const auto* levels : {&module.config.hierarchy, &module.config.defaultHierarchy}) {
        for (const Level& level : *levels) {
            if (level.datadir.find("%{") != std::string::npos)
                continue;
            const fs::path datadir = (moduleDir / level.datadir).lexically_normal();
            std::string where;
            if (outside(datadir)) {
                where = "its datadir '" + level.datadir + "' is " + datadir.string();
            } else {
                for (const LocationSpec& spec : level.locations) {
                    if (spec.pattern.find("%{") != std::string::npos)
                        continue;
                    const fs::path file = (datadir / spec.pattern).lexically_normal();
                    if (outside(spec.kind == LocationSpec::Kind::Glob ? file.parent_path() : file)) {
                        where = "its path '" + spec.pattern + "' is " + file.string();
                        break;
                    }
                }
            }
            if (!where.empty())
                warnings.push_back(module.config.path + ": module '" + module.module + "', level '" + level.name + "': "
                                   + where + ", outside the module: read as the module's data, as Puppet reads it");
        }
    }
}

} // namespace

namespace {

std::string withoutTrailingSlash(std::string dir)
{
    while (dir.size() > 1 && dir.back() == '/')
        dir.pop_back();
    return dir;
}

// Puppet's environmentpath and codedir, as given or as Puppet's defaults (EnvironmentOptions).
std::pair<std::vector<std::string>, std::vector<std::string>> deployment(const EnvironmentOptions& options)
{
    std::vector<std::string> environmentPath, codedirs;
    for (const std::string& dir : options.environmentPath)
        if (!dir.empty())
            environmentPath.push_back(withoutTrailingSlash(fs::absolute(dir).lexically_normal().string()));
    if (!options.codedir.empty())
        codedirs.push_back(withoutTrailingSlash(fs::absolute(options.codedir).lexically_normal().string()));
    if (environmentPath.empty() && codedirs.empty()) {
        environmentPath = {"/etc/puppetlabs/code/environments", "/etc/puppet/code/environments"};
        codedirs = {"/etc/puppetlabs/code", "/etc/puppet/code"};
    } else if (environmentPath.empty()) {
        environmentPath.push_back(codedirs.front() + "/environments");
    } else if (codedirs.empty()) {
        for (const std::string& dir : environmentPath)
            codedirs.push_back(fs::path(dir).parent_path().string());
    }
    return {environmentPath, codedirs};
}

// The opened directory as the environment deployed under each environmentpath directory, and one
// line for each hiera.yaml whose absolute datadirs or paths name the deployment.
void mapDeployment(Layer& layer, const Environment& env, const EnvironmentOptions& options,
                   std::vector<std::string>& notices, std::vector<std::string>& warnings)
{
    const auto [environmentPath, codedirs] = deployment(options);
    for (const std::string& dir : environmentPath)
        layer.config.deployedPaths.push_back({dir + "/" + env.name, env.root});
    layer.config.deploymentRoots = codedirs;
    std::vector<std::string> written;
    for (const std::vector<Level>* levels : {&layer.config.hierarchy, &layer.config.defaultHierarchy})
        for (const Level& level : *levels) {
            written.push_back(level.datadir);
            for (const LocationSpec& spec : level.locations)
                written.push_back(spec.pattern);
        }
    bool mapped = false, outside = false;
    for (const std::string& w : written) {
        if (w.empty() || w[0] != '/')
            continue;
        // <environmentpath>/<this environment's name, or %{environment}>/...
        const auto namesThis = [&](const std::string& dir) {
            if (w.compare(0, dir.size() + 1, dir + "/") != 0)
                return false;
            std::string component = w.substr(dir.size() + 1);
            component = component.substr(0, component.find('/'));
            component.erase(std::remove(component.begin(), component.end(), ' '), component.end());
            return component == env.name || component == "%{environment}" || component == "%{::environment}";
        };
        const auto deployedIn = std::find_if(environmentPath.begin(), environmentPath.end(), namesThis);
        if (deployedIn != environmentPath.end()) {
            if (!mapped)
                notices.push_back(layer.config.path + ": '" + w
                                  + "' names the environment as Puppet deploys it: read from " + env.root
                                  + " (taken as " + *deployedIn + "/" + env.name + ")");
            mapped = true;
            continue;
        }
        const auto codedir = std::find_if(codedirs.begin(), codedirs.end(), [&](const std::string& dir) {
            return w.compare(0, dir.size() + 1, dir + "/") == 0;
        });
        if (codedir != codedirs.end() && !outside) {
            warnings.push_back(layer.config.path + ": '" + w + "' lies outside the repository (in Puppet's codedir "
                               + *codedir + ", not in the environment): its files are not in " + env.root);
            outside = true;
        }
    }
}

} // namespace

Environment Environment::discover(const std::string& path, const EnvironmentOptions& options)
{
    const SourceTree& tree = treeOrWorking(options.tree);
    Environment env;
    env.name = options.name;
    fs::path root = fs::absolute(path).lexically_normal();
    fs::path envHiera = root / "hiera.yaml";
    if (!isDirectory(tree, root)) {
        envHiera = root;
        root = root.parent_path();
    }
    env.root = root.string();

    if (!options.globalHieraYaml.empty()) {
        Layer global;
        global.kind = Layer::Kind::Global;
        global.config = Config::load(tree, options.globalHieraYaml, Config::Use::Global);
        env.layers.push_back(std::move(global));
    }
    if (isFile(tree, envHiera) || !isDirectory(tree, fs::path(path))) {
        // A path naming a file must load (the reader says why it cannot); a directory may have none.
        Layer environment;
        environment.kind = Layer::Kind::Environment;
        environment.config = Config::load(tree, envHiera.string(), Config::Use::Environment);
        env.layers.push_back(std::move(environment));
    } else {
        env.warnings.push_back(envHiera.string() + " does not exist: the environment has no data of its own");
    }

    std::vector<std::string> entries;
    if (options.modulepath)
        entries = *options.modulepath;
    else if (auto conf = modulepathFromConf(tree, root / "environment.conf", env.warnings))
        entries = *conf;
    else
        entries = {"site", "site-modules", "modules"};
    std::set<std::string> seen;
    std::vector<Layer> modules;
    for (const std::string& entry : entries) {
        if (entry.find('$') != std::string::npos)
            continue; // $basemodulepath and other Puppet settings: outside the repository
        if (entry.find('\0') != std::string::npos) {
            // No folder has such a name, but the file system would read it up to the NUL: `.\0x`
            // would become the environment itself (found by fuzz_environment). Ruby refuses the path.
            env.warnings.push_back("the modulepath entry '" + printableLine(entry)
                                   + "' holds a NUL byte, which no folder name can: it is skipped");
            continue;
        }
        fs::path dir = (fs::path(entry).is_absolute() ? fs::path(entry) : root / entry).lexically_normal();
        if (dir.has_relative_path() && !dir.has_filename())
            dir = dir.parent_path(); // `site/`, `..` (normal form `/repo/`): one spelling of each folder
        if (!isDirectory(tree, dir))
            continue;
        if (std::find(env.modulepath.begin(), env.modulepath.end(), dir.string()) != env.modulepath.end())
            continue; // listed twice (`modules:./modules`): its modules are found the first time
        if (!isWithin(tree, dir, root))
            env.warnings.push_back("the modulepath entry '" + entry + "' is " + dir.string()
                                   + ", outside the environment " + root.string()
                                   + ": its modules are used, as Puppet uses them");
        env.modulepath.push_back(dir.string());
        std::vector<std::string> names;
        std::string listError;
        if (const auto listed = tree.list(dir.string(), &listError))
            for (const TreeEntry& entry : *listed)
                if (isModuleName(entry.name) && isDirectory(tree, dir / entry.name))
                    names.push_back(entry.name);
        if (!listError.empty())
            env.warnings.push_back(dir.string() + ": cannot list modules: " + listError);
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) {
            if (!seen.insert(name).second)
                continue; // the first module of a name on the modulepath wins
            const fs::path hieraYaml = dir / name / "hiera.yaml";
            if (!isFile(tree, hieraYaml))
                continue; // no module layer, even if data/ exists (docs/layers.md §1)
            bool include = false;
            Layer layer = moduleLayer(tree, name, hieraYaml, env.warnings, include);
            if (include && !layer.error)
                warnAboutDataOutside(tree, layer, env.warnings);
            if (include)
                modules.push_back(std::move(layer));
        }
    }
    std::sort(modules.begin(), modules.end(), [](const Layer& a, const Layer& b) { return a.module < b.module; });
    for (Layer& m : modules)
        env.layers.push_back(std::move(m));
    // Absolute datadirs of the deployment (r10k's /etc/puppetlabs/code/environments/<name>/...) are read
    // from the directory opened: the environment and global layers write them; a module's are its own.
    for (Layer& layer : env.layers)
        if (layer.kind != Layer::Kind::Module)
            mapDeployment(layer, env, options, env.notices, env.warnings);
    if (env.layers.empty())
        throw Error(ErrorCode::ConfigUnreadable, "no hiera.yaml in the environment and no global hiera.yaml given",
                    {envHiera.string(), 0, 0});
    return env;
}

} // namespace hiera
