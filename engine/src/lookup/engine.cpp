#include "backends/builtin.h"
#include "interpolate/interpolation.h"
#include "lookup/enginestate.h"
#include "lookup/lookuprun.h"
#include "lookup/nodesnapshot.h"
#include "lookup/snapshotbuilder.h"

#include <hiera/engine.h>
#include <hiera/lookupkey.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <set>

namespace hiera {

using namespace detail;

namespace detail {

namespace {
std::shared_ptr<const BackendRegistry> registryFor(const EngineOptions& options)
{
    auto base = options.backends ? options.backends : BackendRegistry::defaultRegistry();
    if (options.eyamlPrivateKey.empty())
        return base;
    // The host's key: an eyaml_lookup_key registered after the default one, so it is the one found.
    auto withKey = std::make_shared<BackendRegistry>(*base);
    withKey->add(makeEyamlLookupKey(options.eyamlPrivateKey));
    return withKey;
}
} // namespace

EngineState::EngineState(const std::vector<Layer>& layers, const EngineOptions& options)
    : backends(registryFor(options))
    , files(options.revalidateInterval, options.diskCacheDirectory, options.tree, options.contentParses)
    , globs(options.revalidateInterval, options.tree)
{
    providers.reserve(layers.size());
    for (const Layer& layer : layers) {
        providers.emplace_back();
        // The hierarchy's levels, then a module's default_hierarchy's.
        for (const Level& level : layer.config.hierarchy)
            providers.back().push_back(makeLevelProvider(level, *backends));
        for (const Level& level : layer.config.defaultHierarchy)
            providers.back().push_back(makeLevelProvider(level, *backends));
    }
}

const EngineState& engineState(const Engine& engine)
{
    return *engine.m_state;
}

} // namespace detail

const char* mergeSourceName(MergeUsed::Source s)
{
    switch (s) {
    case MergeUsed::Source::Default:
        return "default";
    case MergeUsed::Source::LookupOptions:
        return "lookup_options";
    case MergeUsed::Source::Caller:
        return "caller";
    }
    return "?";
}

// ---- Engine --------------------------------------------------------------------------------------------

Engine::Engine(std::vector<Layer> layers, EngineOptions options)
    : m_layers(std::move(layers))
    , m_options(std::move(options))
    , m_state(std::make_unique<detail::EngineState>(m_layers, m_options))
{
}

Engine::~Engine() = default;

std::shared_ptr<Engine> Engine::load(const std::string& hieraYaml, EngineOptions options)
{
    Config config = Config::load(treeOrWorking(options.tree), hieraYaml);
    return fromConfig(std::move(config), std::move(options));
}

std::shared_ptr<Engine> Engine::fromConfig(Config config, EngineOptions options)
{
    std::vector<Layer> layers;
    Layer global;
    global.kind = Layer::Kind::Global;
    global.config = std::move(config);
    layers.push_back(std::move(global));
    return fromLayers(std::move(layers), std::move(options));
}

std::shared_ptr<Engine> Engine::fromLayers(std::vector<Layer> layers, EngineOptions options)
{
    return std::shared_ptr<Engine>(new Engine(std::move(layers), std::move(options)));
}

LookupResult Engine::lookup(const Scope& scope, std::string_view key, const LookupRequest& request) const
{
    auto snapshot = buildSnapshot(*this, scope, request.explain, nullptr);
    LookupRun run(*this, scope, *snapshot, request.explain);
    return run.run(key, request);
}

std::vector<ResolvedLevel> Engine::resolveHierarchy(const Scope& scope) const
{
    std::vector<ResolvedLevel> out;
    const auto snapshot = resolveSnapshot(*this, scope);
    auto add = [&](const LayerState& layer, const LevelState& level, bool defaultHierarchy) {
        ResolvedLevel rl;
        rl.layer = layer.layer;
        rl.level = level.level;
        rl.defaultHierarchy = defaultHierarchy;
        rl.datadir = level.datadir;
        if (layer.layer->error)
            rl.error = layer.layer->error->what();
        else if (level.error)
            rl.error = level.error->what();
        if (const Error* why = level.provider->unrunnable())
            rl.unsupported = why->what();
        for (const ResolvedFile& rf : level.files) {
            const Candidate& c = rf.candidate;
            if (c.path.empty())
                continue; // the one call of a function without locations: nothing to show
            ResolvedLocation loc;
            loc.kind = c.kind;
            loc.declared = c.declared;
            loc.interpolated = c.interpolated;
            loc.path = c.path;
            loc.undefinedVariables = c.undefinedVariables;
            loc.suspicious = c.suspicious;
            loc.deployedPath = c.deployedPath;
            loc.outsideRepository = c.outsideRepository;
            loc.status = !rf.file->exists ? ResolvedLocation::Status::Missing
                : rf.file->error          ? ResolvedLocation::Status::Failed
                                          : ResolvedLocation::Status::Present;
            if (rf.file->error)
                loc.error = rf.file->error->what();
            else if (!rf.file->warnings.empty())
                loc.error = rf.file->warnings.front();
            rl.locations.push_back(std::move(loc));
        }
        out.push_back(std::move(rl));
    };
    for (const LayerState& layer : snapshot->layers) {
        for (const LevelState& level : layer.levels)
            add(layer, level, false);
        for (const LevelState& level : layer.defaultLevels)
            add(layer, level, true);
    }
    return out;
}

namespace {

std::string quoteSegment(const std::string& s)
{
    if (LookupKey::isSingleSegment(s) && !s.empty())
        return s;
    if (s.find('"') == std::string::npos)
        return '"' + s + '"';
    return '\'' + s + '\'';
}

void collectKeys(const std::string& prefix, const Value& v, std::size_t depth, std::size_t maxDepth,
                 std::set<std::string>& out)
{
    if (depth >= maxDepth)
        return;
    if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            std::string seg;
            if (e.key.isString())
                seg = quoteSegment(e.key.asString());
            else if (e.key.isInteger())
                seg = std::to_string(e.key.asInteger());
            else
                continue;
            const std::string k = prefix + "." + seg;
            out.insert(k);
            collectKeys(k, e.value, depth + 1, maxDepth, out);
        }
    } else if (v.isArray()) {
        const Array& a = v.asArray();
        for (std::size_t i = 0; i < a.size() && i < 64; ++i) {
            const std::string k = prefix + "." + std::to_string(i);
            out.insert(k);
            collectKeys(k, a[i], depth + 1, maxDepth, out);
        }
    }
}

} // namespace

std::vector<std::string> Engine::keyInventory(const Scope& scope, std::size_t maxDepth) const
{
    std::set<std::string> keys;
    const auto snapshot = resolveSnapshot(*this, scope);
    forEachRootEntry(*snapshot, [&](const Hash::Entry& e) {
        const std::string root = quoteSegment(e.key.asString());
        keys.insert(root);
        collectKeys(root, e.value, 1, maxDepth, keys);
    });
    return {keys.begin(), keys.end()};
}

namespace {
// Every level of every layer, a module's default_hierarchy included, with its provider.
template <typename F>
void forEachLevel(const std::vector<Layer>& layers, const detail::EngineState& state, F f)
{
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const Config& config = layers[li].config;
        std::size_t index = 0;
        for (const auto* levels : {&config.hierarchy, &config.defaultHierarchy})
            for (const Level& level : *levels)
                f(layers[li], level, state.providers[li][index++].get());
    }
}
} // namespace

std::vector<std::function<void()>> Engine::preloadTasks(const Scope& scope) const
{
    std::vector<std::function<void()>> tasks;
    forEachLevel(m_layers, *m_state, [&](const Layer& layer, const Level& level, const LevelProvider* provider) {
        if (provider->unrunnable())
            return;
        try {
            Value options =
                containsInterpolation(level.options) ? interpolateOptions(level.options, scope) : level.options;
            for (const Candidate& c : resolveLevel(layer.config, level, scope, m_state->globs).candidates)
                tasks.push_back([this, path = c.path, provider, options] {
                    provider->open(path, options, ProviderEnvironment{m_state->files, m_options.limits});
                });
        } catch (const Error&) {
            // the lookup reports it
        }
    });
    return tasks;
}

std::vector<std::string> Engine::candidateFiles(const Scope& scope) const
{
    std::vector<std::string> out;
    forEachLevel(m_layers, *m_state, [&](const Layer& layer, const Level& level, const LevelProvider*) {
        try {
            const LevelLocations locations = resolveLevel(layer.config, level, scope, m_state->globs);
            for (const Candidate& c : locations.candidates)
                out.push_back(c.path);
            // A glob's pattern too, so that a watcher watches its directory and sees new files there.
            for (const std::string& pattern : locations.globPatterns)
                out.push_back(pattern);
        } catch (const Error&) {
        }
    });
    return out;
}

void Engine::invalidate() const
{
    m_state->files.invalidate();
    m_state->lookupOptions.clear();
    m_state->globs.clear();
}

void Engine::invalidate(const std::string& path) const
{
    m_state->files.invalidate(path);
    m_state->globs.clear(); // a new or removed file may change what a glob matches
}

} // namespace hiera
