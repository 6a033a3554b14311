#include "filecache.h"
#include "interpolation.h"
#include "locationresolver.h"
#include "lookupoptions.h"

#include <hiera/engine.h>
#include <hiera/lookupkey.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <set>
#include <sys/stat.h>

namespace hiera {

using namespace detail;

namespace {

const char* const kGlobalProvider = "Global Data Provider (hiera configuration version 5)";

// Folds found values in priority order (semantics §4.4): the first is taken as is, each further one is
// combined with mergeStep.
class Fold
{
public:
    explicit Fold(const MergeSpec& spec) : m_spec(spec) { }
    void add(const Value& v)
    {
        if (!m_have) {
            m_value = normalizeFirst(m_spec, v);
            m_have = true;
        } else {
            m_value = mergeStep(m_spec, m_value, v);
        }
    }
    bool have() const { return m_have; }
    const Value& value() const { return m_value; }

private:
    const MergeSpec& m_spec;
    bool m_have = false;
    Value m_value;
};

// Gives an error without a location the location of the value being processed.
[[noreturn]] void rethrowAt(const Error& e, const Value& at)
{
    if (e.location().isValid())
        throw e;
    throw Error(e.code(), e.message(), SourceFiles::locate(at.mark()));
}

// Puppet refuses a found value whose hashes have boolean, null or collection keys (its type system has
// no such hash: "expects Puppet::LookupValue"). String, integer and float keys are fine.
void checkLookupValue(const Value& v, const std::string& key)
{
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            checkLookupValue(e, key);
    } else if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            if (!e.key.isString() && !e.key.isNumber())
                throw Error(ErrorCode::DataType,
                            "the value of '" + key + "' has a hash key of type " + e.key.typeName() + " ("
                                + rubyInspect(e.key) + "), which Puppet cannot look up; quote the key",
                            SourceFiles::locate(e.key.mark()));
            checkLookupValue(e.value, key);
        }
    }
}

} // namespace

// One top-level lookup with everything it computes on the way: the lookup_options table, the
// resolved locations of each level, the name stack against recursion, warnings and the trace.
class LookupRun : public InterpolationHost
{
public:
    LookupRun(const Engine& engine, const Scope& scope, bool explain)
        : m_engine(engine)
        , m_scope(scope)
        , m_explain(explain)
    {
        m_resolved.resize(engine.layers().size());
        for (std::size_t i = 0; i < engine.layers().size(); ++i)
            m_resolved[i].resize(engine.layers()[i].config.hierarchy.size());
        m_backends = engine.options().backends ? engine.options().backends : BackendRegistry::defaultRegistry();
    }

    LookupResult run(std::string_view key, const LookupOptions& options)
    {
        LookupResult result;
        std::shared_ptr<TraceNode> root;
        if (m_explain) {
            root = std::make_shared<TraceNode>();
            root->kind = TraceNode::Kind::Lookup;
            root->key = std::string(key);
        }
        try {
            const LookupKey parsed = LookupKey::parse(key);
            pushName(parsed.original());
            Outcome o = lookupKey(parsed, options.merge, root.get());
            result.rootFound = o.rootFound;
            result.rootValue = o.rootValue;
            if (o.found) {
                result.status = LookupResult::Status::Found;
                result.value = o.value;
            }
            if (root) {
                root->event = o.found ? TraceNode::Event::Result : TraceNode::Event::NotFound;
                if (o.found)
                    root->value = o.value;
            }
        } catch (const Error& e) {
            fail(result, root.get(), e);
        } catch (const std::bad_alloc&) {
            fail(result, root.get(), Error(ErrorCode::InterpolationLimit, "out of memory during the lookup"));
        } catch (const std::exception& e) {
            fail(result, root.get(), Error(ErrorCode::Io, std::string("internal error: ") + e.what()));
        }
        result.warnings = std::move(m_warnings);
        result.trace = root;
        return result;
    }

    // InterpolationHost
    const Scope& scope() const override { return m_scope; }

    std::optional<Value> subLookup(const std::string& key, TraceNode* trace) override
    {
        std::optional<LookupKey> parsed = LookupKey::tryParse(key);
        if (!parsed)
            throw Error(ErrorCode::InterpolationSyntax, "Syntax error in key given to a lookup: '" + key + "'");
        if (!pushName(key))
            throw Error(ErrorCode::RecursiveLookup, "Recursive lookup detected in " + nameChain(key));
        struct Pop
        {
            LookupRun& r;
            ~Pop() { r.popName(); }
        } pop{*this};
        Outcome o = lookupKey(*parsed, std::nullopt, trace);
        if (!o.found)
            return std::nullopt;
        return o.value;
    }

    bool pushName(const std::string& name) override
    {
        if (std::find(m_names.begin(), m_names.end(), name) != m_names.end())
            return false;
        if (m_names.size() >= m_engine.options().maxInterpolationDepth)
            throw Error(ErrorCode::InterpolationLimit,
                        "lookups nested deeper than " + std::to_string(m_engine.options().maxInterpolationDepth)
                            + " levels: " + nameChain(name));
        m_names.push_back(name);
        return true;
    }
    void popName() override { m_names.pop_back(); }
    std::string nameChain(const std::string&) const override
    {
        std::string s = "[";
        for (std::size_t i = 0; i < m_names.size(); ++i)
            s += (i ? ", " : "") + m_names[i];
        return s + "]";
    }
    std::size_t maxDepth() const override { return m_engine.options().maxInterpolationDepth; }
    std::size_t maxBytes() const override { return m_engine.options().maxInterpolatedBytes; }
    void warn(const std::string& message) override
    {
        if (std::find(m_warnings.begin(), m_warnings.end(), message) == m_warnings.end())
            m_warnings.push_back(message);
    }

private:
    struct Outcome
    {
        bool found = false;
        Value value;
        bool rootFound = false;
        Value rootValue;
    };

    static void fail(LookupResult& result, TraceNode* root, const Error& e)
    {
        result.status = LookupResult::Status::Error;
        result.error = e;
        if (root) {
            root->event = TraceNode::Event::Failed;
            root->message = e.what();
        }
    }

    Outcome lookupKey(const LookupKey& key, const std::optional<MergeSpec>& callerMerge, TraceNode* parent)
    {
        Outcome out;
        TraceNode* trace = parent;
        if (parent && parent->kind != TraceNode::Kind::Lookup) {
            trace = &parent->addChild(TraceNode::Kind::Lookup);
            trace->key = key.original();
        }
        if (key.root() == "lookup_options") {
            // lookup_options is configuration, not data: it cannot be looked up (Puppet: "Invalid key").
            if (trace)
                trace->event = TraceNode::Event::InvalidKey;
            return out;
        }
        const LookupOptionsTable& table = lookupOptions(trace);
        const std::optional<LookupOptionsEntry> entry = table.select(key.root());
        MergeSpec merge;
        bool fromLookupOptions = false;
        if (callerMerge)
            merge = *callerMerge;
        else if (entry && entry->merge) {
            merge = *entry->merge;
            fromLookupOptions = true;
        }
        if (trace) {
            trace->merge = merge;
            trace->mergeFromLookupOptions = fromLookupOptions;
            if (entry) {
                trace->lookupOptionsEntry = entry->name;
                trace->lookupOptions = entry->value;
            }
        }
        std::optional<Value> rootValue = lookupRoot(key.root(), merge, trace, /*lookupOptionsMeta=*/false);
        if (!rootValue) {
            if (trace && trace->kind == TraceNode::Kind::Lookup && trace != parent)
                trace->event = TraceNode::Event::NotFound;
            return out;
        }
        out.rootFound = true;
        out.rootValue = *rootValue;
        Value value = *rootValue;
        if (key.isDotted()) {
            TraceNode* digNode = trace ? &trace->addChild(TraceNode::Kind::Dig) : nullptr;
            if (digNode)
                digNode->key = key.subKey();
            const Value* cur = &*rootValue;
            for (const KeySegment& seg : key.segments()) {
                const Value* next = dig(*cur, {seg});
                if (digNode) {
                    TraceNode& s = digNode->addChild(TraceNode::Kind::Segment);
                    s.key = seg.text;
                    s.event = next ? TraceNode::Event::Found : TraceNode::Event::NotFound;
                    if (next) {
                        s.value = *next;
                        s.location = SourceFiles::locate(next->mark());
                    }
                }
                if (!next) {
                    if (digNode)
                        digNode->event = TraceNode::Event::NotFound;
                    if (trace && trace != parent)
                        trace->event = TraceNode::Event::NotFound;
                    return out; // a miss while digging is "not found", never an error (seed 001)
                }
                cur = next;
            }
            value = *cur;
            if (digNode) {
                digNode->event = TraceNode::Event::Found;
                digNode->value = value;
            }
        }
        if (entry && entry->convertTo) {
            value = convertTo(value, *entry->convertTo, key.original());
            if (trace) {
                TraceNode& c = trace->addChild(TraceNode::Kind::ConvertTo);
                c.value = value;
                c.message = "Applying convert_to lookup_option with arguments " + rubyInspect(*entry->convertTo);
            }
        }
        out.found = true;
        out.value = value;
        if (trace && trace != parent) {
            trace->event = TraceNode::Event::Result;
            trace->value = value;
        }
        return out;
    }

    const LookupOptionsTable& lookupOptions(TraceNode* trace)
    {
        if (m_lookupOptions)
            return *m_lookupOptions;
        static const LookupOptionsTable empty;
        if (m_computingLookupOptions)
            return empty; // lookups made while interpolating lookup_options itself see no options
        m_computingLookupOptions = true;
        struct Done
        {
            bool& flag;
            ~Done() { flag = false; }
        } done{m_computingLookupOptions};
        TraceNode* node = nullptr;
        if (trace) {
            node = &trace->addChild(TraceNode::Kind::LookupOptions);
            node->key = "lookup_options";
        }
        MergeSpec hashMerge;
        hashMerge.strategy = MergeStrategy::Hash;
        if (node)
            node->merge = hashMerge;
        std::optional<Value> merged = lookupRoot("lookup_options", hashMerge, node, /*lookupOptionsMeta=*/true);
        if (node) {
            node->event = merged ? TraceNode::Event::Result : TraceNode::Event::NotFound;
            if (merged)
                node->value = *merged;
        }
        m_lookupOptions.emplace(merged ? *merged : Value());
        return *m_lookupOptions;
    }

    const LevelLocations& resolved(std::size_t layer, std::size_t level)
    {
        auto& slot = m_resolved[layer][level];
        if (!slot) {
            const Layer& l = m_engine.layers()[layer];
            slot = resolveLevel(l.config, l.config.hierarchy[level], m_scope);
        }
        return *slot;
    }

    const DataHashBackend& backendFor(const Level& level)
    {
        if (level.kind != BackendKind::DataHash)
            throw Error(ErrorCode::UnsupportedBackend,
                        std::string("backend kind ") + backendKindName(level.kind)
                            + " is not supported (v0.1 implements data_hash only): hierarchy entry '" + level.name
                            + "' uses " + backendKindName(level.kind) + ": " + level.function,
                        level.location);
        const DataHashBackend* b = m_backends->dataHash(level.function);
        if (!b)
            throw Error(ErrorCode::UnknownBackend,
                        "unknown data_hash function '" + level.function + "' in hierarchy entry '" + level.name
                            + "' (available: yaml_data, json_data)",
                        level.location);
        return *b;
    }

    // Looks up a root key in every level of every layer and folds what is found.
    std::optional<Value> lookupRoot(const std::string& root, const MergeSpec& merge, TraceNode* trace,
                                    bool lookupOptionsMeta)
    {
        const bool first = merge.strategy == MergeStrategy::First;
        Fold all(merge);
        const auto& layers = m_engine.layers();
        for (std::size_t li = 0; li < layers.size() && !(first && all.have()); ++li) {
            const Layer& layer = layers[li];
            TraceNode* layerNode = nullptr;
            if (trace) {
                layerNode = &trace->addChild(TraceNode::Kind::Layer);
                layerNode->name = layers.size() == 1 ? kGlobalProvider : layer.name;
                layerNode->path = layer.config.path;
                if (!first)
                    layerNode->merge = merge;
            }
            Fold inLayer(merge);
            const auto& levels = layer.config.hierarchy;
            for (std::size_t lv = 0; lv < levels.size() && !(first && inLayer.have()); ++lv) {
                const Level& level = levels[lv];
                TraceNode* levelNode = nullptr;
                if (layerNode) {
                    levelNode = &layerNode->addChild(TraceNode::Kind::Level);
                    levelNode->name = level.name;
                }
                try {
                    lookupLevel(li, lv, level, root, merge, levelNode, inLayer, lookupOptionsMeta);
                } catch (const Error& e) {
                    if (levelNode) {
                        levelNode->event = TraceNode::Event::Failed;
                        levelNode->message = e.what();
                    }
                    throw;
                }
            }
            if (layerNode) {
                layerNode->event = inLayer.have() ? TraceNode::Event::Result : TraceNode::Event::NotFound;
                if (inLayer.have())
                    layerNode->value = inLayer.value();
            }
            if (inLayer.have())
                all.add(inLayer.value());
        }
        if (!all.have())
            return std::nullopt;
        return all.value();
    }

    void lookupLevel(std::size_t li, std::size_t lv, const Level& level, const std::string& root,
                     const MergeSpec& merge, TraceNode* levelNode, Fold& inLayer, bool lookupOptionsMeta)
    {
        const bool first = merge.strategy == MergeStrategy::First;
        const DataHashBackend& backend = backendFor(level);
        const LevelLocations& locations = resolved(li, lv);
        Fold inLevel(merge);
        for (const Candidate& c : locations.candidates) {
            if (first && inLevel.have())
                break;
            TraceNode* loc = nullptr;
            if (levelNode) {
                loc = &levelNode->addChild(TraceNode::Kind::Location);
                loc->originalPath = c.originalPath;
                loc->path = c.path;
                loc->key = root;
            }
            std::shared_ptr<const DataFile> file =
                m_engine.cache().get(c.path, backend, level.options, m_engine.options().limits);
            if (!file->exists) {
                if (loc)
                    loc->event = TraceNode::Event::LocationNotFound;
                continue;
            }
            if (file->error) {
                if (loc) {
                    loc->event = TraceNode::Event::Failed;
                    loc->message = file->error->what();
                }
                throw *file->error;
            }
            for (const auto& w : file->warnings)
                warn(w);
            const Value* v = file->data.isHash() ? file->data.asHash().find(std::string_view(root)) : nullptr;
            if (!v || (lookupOptionsMeta && v->isNull())) {
                if (loc)
                    loc->event = TraceNode::Event::NotFound;
                continue;
            }
            Value found;
            try {
                found = interpolateValue(*v, *this, loc);
            } catch (const Error& e) {
                if (loc) {
                    loc->event = TraceNode::Event::Failed;
                    loc->message = e.what();
                }
                rethrowAt(e, *v);
            }
            checkLookupValue(found, root);
            if (loc) {
                loc->event = TraceNode::Event::Found;
                loc->value = found;
                loc->location = SourceFiles::locate(v->mark());
            }
            inLevel.add(found);
        }
        if (levelNode) {
            levelNode->event = inLevel.have() ? TraceNode::Event::Result : TraceNode::Event::NotFound;
            if (inLevel.have())
                levelNode->value = inLevel.value();
        }
        if (inLevel.have())
            inLayer.add(inLevel.value());
    }

    const Engine& m_engine;
    const Scope& m_scope;
    bool m_explain;
    std::shared_ptr<const BackendRegistry> m_backends;
    std::vector<std::string> m_names;
    std::optional<LookupOptionsTable> m_lookupOptions;
    bool m_computingLookupOptions = false;
    std::vector<std::string> m_warnings;
    std::vector<std::vector<std::optional<LevelLocations>>> m_resolved;
};

// ---- Engine --------------------------------------------------------------------------------------------

Engine::Engine(std::vector<Layer> layers, EngineOptions options)
    : m_layers(std::move(layers))
    , m_options(std::move(options))
    , m_cache(std::make_unique<FileCache>(m_options.revalidateInterval))
{
}

Engine::~Engine() = default;

std::shared_ptr<Engine> Engine::load(const std::string& hieraYaml, EngineOptions options)
{
    return fromConfig(Config::load(hieraYaml), std::move(options));
}

std::shared_ptr<Engine> Engine::fromConfig(Config config, EngineOptions options)
{
    std::vector<Layer> layers;
    layers.push_back({"global", std::move(config)});
    return fromLayers(std::move(layers), std::move(options));
}

std::shared_ptr<Engine> Engine::fromLayers(std::vector<Layer> layers, EngineOptions options)
{
    return std::shared_ptr<Engine>(new Engine(std::move(layers), std::move(options)));
}

LookupResult Engine::lookup(const Scope& scope, std::string_view key, const LookupOptions& options) const
{
    LookupRun run(*this, scope, options.explain);
    return run.run(key, options);
}

std::vector<ResolvedLevel> Engine::resolveHierarchy(const Scope& scope) const
{
    std::vector<ResolvedLevel> out;
    auto backends = m_options.backends ? m_options.backends : BackendRegistry::defaultRegistry();
    for (const Layer& layer : m_layers) {
        for (const Level& level : layer.config.hierarchy) {
            ResolvedLevel rl;
            rl.layer = layer.name;
            rl.level = &level;
            const DataHashBackend* backend = nullptr;
            if (level.kind != BackendKind::DataHash)
                rl.error = std::string("backend kind ") + backendKindName(level.kind)
                           + " is not supported (v0.1 implements data_hash only)";
            else if (!(backend = backends->dataHash(level.function)))
                rl.error = "unknown data_hash function '" + level.function + "'";
            try {
                LevelLocations locs = resolveLevel(layer.config, level, scope);
                rl.datadir = locs.datadir;
                for (Candidate& c : locs.candidates) {
                    ResolvedLocation loc;
                    loc.kind = c.kind;
                    loc.declared = c.declared;
                    loc.interpolated = c.interpolated;
                    loc.path = c.path;
                    loc.undefinedVariables = c.undefinedVariables;
                    loc.suspicious = c.suspicious;
                    if (backend) {
                        auto file = m_cache->get(c.path, *backend, level.options, m_options.limits);
                        loc.status = !file->exists ? ResolvedLocation::Status::Missing
                                     : file->error ? ResolvedLocation::Status::Failed
                                                   : ResolvedLocation::Status::Present;
                        if (file->error)
                            loc.error = file->error->what();
                        else if (!file->warnings.empty())
                            loc.error = file->warnings.front();
                    } else {
                        struct stat st{};
                        loc.status = ::stat(c.path.c_str(), &st) == 0 ? ResolvedLocation::Status::Present
                                                                      : ResolvedLocation::Status::Missing;
                    }
                    rl.locations.push_back(std::move(loc));
                }
            } catch (const Error& e) {
                rl.error = e.what();
            }
            out.push_back(std::move(rl));
        }
    }
    return out;
}

namespace {

std::string quoteSegment(const std::string& s)
{
    if (s.find_first_of(".'\"") == std::string::npos && !s.empty())
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
    auto backends = m_options.backends ? m_options.backends : BackendRegistry::defaultRegistry();
    for (const Layer& layer : m_layers) {
        for (const Level& level : layer.config.hierarchy) {
            if (level.kind != BackendKind::DataHash)
                continue;
            const DataHashBackend* backend = backends->dataHash(level.function);
            if (!backend)
                continue;
            LevelLocations locs;
            try {
                locs = resolveLevel(layer.config, level, scope);
            } catch (const Error&) {
                continue;
            }
            for (const Candidate& c : locs.candidates) {
                auto file = m_cache->get(c.path, *backend, level.options, m_options.limits);
                if (!file->exists || file->error || !file->data.isHash())
                    continue;
                for (const auto& e : file->data.asHash()) {
                    if (!e.key.isString() || e.key.asString() == "lookup_options")
                        continue;
                    const std::string root = quoteSegment(e.key.asString());
                    keys.insert(root);
                    collectKeys(root, e.value, 1, maxDepth, keys);
                }
            }
        }
    }
    return {keys.begin(), keys.end()};
}

std::vector<std::string> Engine::candidateFiles(const Scope& scope) const
{
    std::vector<std::string> out;
    for (const Layer& layer : m_layers)
        for (const Level& level : layer.config.hierarchy) {
            try {
                for (const Candidate& c : resolveLevel(layer.config, level, scope).candidates)
                    out.push_back(c.path);
            } catch (const Error&) {
            }
        }
    return out;
}

void Engine::invalidate() const
{
    m_cache->invalidate();
}

void Engine::invalidate(const std::string& path) const
{
    m_cache->invalidate(path);
}

// ---- Hiera façade ---------------------------------------------------------------------------------------

Hiera Hiera::load(const std::string& hieraYaml, std::shared_ptr<const Scope> scope, EngineOptions options)
{
    return Hiera(Engine::load(hieraYaml, std::move(options)), std::move(scope));
}

Hiera::Hiera(std::shared_ptr<const Engine> engine, std::shared_ptr<const Scope> scope)
    : m_engine(std::move(engine))
    , m_scope(scope ? std::move(scope) : std::make_shared<MapScope>())
{
}

LookupResult Hiera::lookup(std::string_view key, const LookupOptions& options) const
{
    return m_engine->lookup(*m_scope, key, options);
}

} // namespace hiera
