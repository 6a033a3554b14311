#include "lookup/lookuprun.h"

#include "lookup/rubyregex.h"
#include "providers/valuechecks.h"

#include <hiera/valueformat.h>

#include <algorithm>

namespace hiera::detail {

// Folds found values in priority order (docs/hiera-reference.md §4.4): the first is taken as is, each further one is
// combined with mergeStep.
class LookupRun::Fold
{
public:
    explicit Fold(const MergeSpec& spec) : m_spec(spec) { }
    // A single found value passes through untouched (no merge step, no type check); only when a
    // second one arrives is the first normalised (unique: flattened) and merged with it.
    void add(Value v)
    {
        if (m_count++ == 0) {
            m_value = std::move(v);
            return;
        }
        if (m_count == 2)
            m_value = normalizeFirst(m_spec, m_value);
        m_value = mergeStep(m_spec, m_value, v);
    }
    bool have() const { return m_count > 0; }
    std::size_t count() const { return m_count; }
    const Value& value() const { return m_value; }
    // The value, moved out: for handing a finished fold to the next one.
    Value take() { return std::move(m_value); }
    // The final result of a lookup: unique always returns a flat array, even for one found value.
    Value result() &&
    {
        if (m_count == 1 && m_spec.strategy == MergeStrategy::Unique)
            return normalizeFirst(m_spec, m_value);
        return std::move(m_value);
    }

private:
    const MergeSpec& m_spec;
    std::size_t m_count = 0;
    Value m_value;
};

std::string_view moduleOfKey(std::string_view root)
{
    const std::size_t p = root.find("::");
    return p == std::string_view::npos ? std::string_view() : root.substr(0, p);
}

LookupRun::LookupRun(const Engine& engine, const Scope& scope, const NodeSnapshot& snapshot, bool explain)
    : m_engine(engine)
    , m_scope(scope)
    , m_snapshot(snapshot)
    , m_explain(explain)
{
}

namespace {
void fail(LookupResult& result, TraceCursor root, const Error& e)
{
    result.status = LookupResult::Status::Error;
    result.error = e;
    root.failed(e);
}
} // namespace

LookupResult LookupRun::run(std::string_view key, const LookupRequest& request)
{
    const RubyRegex::LookupBudget regexBudget(RubyRegex::kLookupBudget);
    LookupResult result;
    for (const auto& w : m_snapshot.warnings)
        warn(w);
    std::shared_ptr<TraceNode> rootNode;
    if (m_explain) {
        rootNode = std::make_shared<TraceNode>();
        rootNode->kind = TraceNode::Kind::Lookup;
    }
    const TraceCursor root(rootNode.get());
    root.with([&](TraceNode& n) { n.key = std::string(key); });
    try {
        const LookupKey parsed = LookupKey::parse(key);
        pushName(parsed.original());
        Outcome o = lookupKey(parsed, request.merge, root, &result.merge);
        result.rootFound = o.rootFound;
        result.rootValue = o.rootValue;
        if (o.found) {
            result.status = LookupResult::Status::Found;
            result.value = o.value;
            root.outcome(TraceNode::Event::Result, o.value);
        } else {
            root.event(TraceNode::Event::NotFound);
        }
    } catch (const Error& e) {
        fail(result, root, e);
    } catch (const std::bad_alloc&) {
        fail(result, root, Error(ErrorCode::InterpolationLimit, "out of memory during the lookup"));
    } catch (const std::exception& e) {
        fail(result, root, Error(ErrorCode::Internal, std::string("internal error: ") + e.what()));
    }
    result.warnings = std::move(m_warnings);
    result.trace = rootNode;
    return result;
}

KeyPresence::KeyPresence(const NodeSnapshot& snapshot)
{
    std::vector<const DataFile*> files;
    std::unordered_map<const DataFile*, std::uint64_t> fileLevels; // the levels each file is read by
    std::size_t entries = 0;
    int bit = 0;
    for (const LayerState& layer : snapshot.layers)
        for (const auto* levels : {&layer.levels, &layer.defaultLevels}) {
            m_firstBits.emplace_back(levels, bit);
            for (const LevelState& level : *levels) {
                const std::uint64_t mask = bit < 64 ? std::uint64_t(1) << bit : 0;
                ++bit;
                bool quiet = !level.error && level.provider && !level.provider->unrunnable()
                    && level.provider->answersFromDataHash();
                for (const ResolvedFile& rf : level.files) {
                    const DataFile* file = rf.file.get();
                    quiet = quiet && file && (!file->exists || (!file->error && file->warnings.empty()));
                    if (file && file->exists && !file->error && file->data.isHash()) {
                        if (std::find(files.begin(), files.end(), file) == files.end()) {
                            files.push_back(file);
                            entries += file->data.asHash().size();
                        }
                        fileLevels[file] |= mask;
                    }
                }
                if (quiet)
                    m_quietLevels |= mask;
            }
        }
    std::size_t capacity = 16;
    while (capacity < entries * 2)
        capacity <<= 1;
    m_slots.assign(capacity, 0);
    m_keys.reserve(entries);
    const std::size_t mask = capacity - 1;
    for (const DataFile* file : files) {
        const std::uint64_t levels = fileLevels[file];
        for (const auto& e : file->data.asHash()) {
            if (!e.key.isString())
                continue;
            const Hash::PreparedKey key(e.key.asString());
            std::size_t i = key.hash() & mask;
            for (; m_slots[i] != 0; i = (i + 1) & mask) {
                const Keyed& k = m_keys[m_slots[i] - 1];
                if (k.hash == key.hash() && k.key == key.text())
                    break;
            }
            if (m_slots[i] == 0) {
                m_keys.push_back({key.text(), key.hash(), {}});
                m_slots[i] = static_cast<std::uint32_t>(m_keys.size());
            }
            Holders& h = m_keys[m_slots[i] - 1].holders;
            h.levels |= levels;
            if (h.count < Holders::kMax)
                h.files[h.count++] = file;
            else
                h.all = true;
        }
    }
}

int KeyPresence::firstLevelBit(const std::vector<LevelState>& levels) const
{
    for (const auto& [v, bit] : m_firstBits)
        if (v == &levels)
            return bit;
    return -1;
}

const KeyPresence::Holders& KeyPresence::filesWith(const Hash::PreparedKey& root) const
{
    static const Holders kNone;
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = root.hash() & mask; m_slots[i] != 0; i = (i + 1) & mask) {
        const Keyed& k = m_keys[m_slots[i] - 1];
        if (k.hash == root.hash() && k.key == root.text())
            return k.holders;
    }
    return kNone;
}

std::optional<Value> LookupRun::subLookup(const std::string& key, TraceCursor trace)
{
    if (m_subLookupMemo)
        if (auto it = m_subLookupMemo->find(key); it != m_subLookupMemo->end())
            return it->second;
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
    std::optional<Value> answer = o.found ? std::optional<Value>(std::move(o.value)) : std::nullopt;
    if (m_subLookupMemo)
        m_subLookupMemo->emplace(key, answer);
    return answer;
}

bool LookupRun::pushName(const std::string& name)
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

std::string LookupRun::nameChain(const std::string&) const
{
    std::string s = "[";
    for (std::size_t i = 0; i < m_names.size(); ++i) {
        s += i ? ", " : "";
        s += m_names[i];
    }
    return s + "]";
}

std::size_t LookupRun::maxDepth() const
{
    return m_engine.options().maxInterpolationDepth;
}

std::size_t LookupRun::maxBytes() const
{
    return m_engine.options().maxInterpolatedBytes;
}

void LookupRun::warn(const std::string& message)
{
    if (std::find(m_warnings.begin(), m_warnings.end(), message) == m_warnings.end())
        m_warnings.push_back(message);
}

namespace {
MergeUsed mergeUsed(const MergeSpec& spec, bool fromCaller, bool fromLookupOptions,
                    const std::shared_ptr<const LookupOptionsEntry>& entry)
{
    MergeUsed m;
    m.spec = spec;
    m.source = fromCaller   ? MergeUsed::Source::Caller
        : fromLookupOptions ? MergeUsed::Source::LookupOptions
                            : MergeUsed::Source::Default;
    if (entry)
        m.lookupOptionsEntry = std::shared_ptr<const std::string>(entry, &entry->name); // aliasing: no copy
    return m;
}
} // namespace

LookupRun::Outcome LookupRun::lookupKey(const LookupKey& key, const std::optional<MergeSpec>& callerMerge,
                                        TraceCursor parent, std::optional<MergeUsed>* used)
{
    Outcome out;
    // The top-level lookup records into the root node; a nested one (lookup() in data) gets its own.
    const bool nested = parent.recording() && parent.node()->kind != TraceNode::Kind::Lookup;
    const TraceCursor trace = nested ? parent.child(TraceNode::Kind::Lookup) : parent;
    if (nested)
        trace.key(key.original());
    if (key.root() == "lookup_options") {
        // lookup_options is configuration, not data: it cannot be looked up (Puppet: "Invalid key").
        trace.event(TraceNode::Event::InvalidKey);
        return out;
    }
    const std::string_view module = moduleOfKey(key.root());
    const LookupOptionsTable& table = lookupOptions(trace, module);
    std::shared_ptr<const LookupOptionsEntry> entry = table.select(key.root());
    MergeSpec merge;
    bool fromLookupOptions = false;
    if (callerMerge) {
        merge = *callerMerge;
    } else if (entry && entry->merge) {
        merge = *entry->merge;
        fromLookupOptions = true;
    }
    if (used)
        *used = mergeUsed(merge, callerMerge.has_value(), fromLookupOptions, entry);
    trace.with([&](TraceNode& n) {
        n.merge = merge;
        n.mergeFromLookupOptions = fromLookupOptions;
        if (entry) {
            n.lookupOptionsEntry = entry->name;
            n.lookupOptions = entry->value;
        }
    });
    std::optional<Value> rootValue =
        lookupRoot(key.root(), merge, trace, /*lookupOptionsMeta=*/false, {LayerSelection::Mode::Data, module});
    if (!rootValue && !module.empty()) {
        rootValue = lookupDefaultHierarchy(key, module, callerMerge, trace, entry);
        if (rootValue && used) {
            const bool fromDefaultOptions = !callerMerge && entry && entry->merge;
            *used = mergeUsed(callerMerge              ? *callerMerge
                                  : fromDefaultOptions ? *entry->merge
                                                       : MergeSpec(),
                              callerMerge.has_value(), fromDefaultOptions, entry);
        }
    }
    if (!rootValue) {
        if (nested)
            trace.event(TraceNode::Event::NotFound);
        return out;
    }
    out.rootFound = true;
    out.rootValue = std::move(*rootValue);
    const Value* leaf = &out.rootValue;
    if (key.isDotted()) {
        const TraceCursor digTrace = trace.child(TraceNode::Kind::Dig);
        digTrace.with([&](TraceNode& n) { n.key = key.subKey(); });
        const Value* cur = &out.rootValue;
        for (const KeySegment& seg : key.segments()) {
            const Value* next = dig(*cur, {seg});
            digTrace.child(TraceNode::Kind::Segment).with([&](TraceNode& s) {
                s.key = seg.text;
                s.event = next ? TraceNode::Event::Found : TraceNode::Event::NotFound;
                if (next) {
                    s.value = *next;
                    s.location = SourceFiles::locate(next->mark());
                }
            });
            if (!next) {
                digTrace.event(TraceNode::Event::NotFound);
                if (nested)
                    trace.event(TraceNode::Event::NotFound);
                return out; // a miss while digging is "not found", never an error (docs/seed-rules.md §1)
            }
            cur = next;
        }
        leaf = cur;
        digTrace.outcome(TraceNode::Event::Found, *leaf);
    }
    Value value = *leaf;
    if (entry && entry->convertTo) {
        try {
            value = convertTo(value, *entry->convertTo, key.original());
        } catch (const Error& e) {
            if (!containsSecret(value))
                throw;
            // Conversion errors quote the value: never a decrypted one.
            throw Error(e.code(),
                        "convert_to " + rubyInspect(*entry->convertTo) + " failed for the decrypted value of '"
                            + key.original() + "' (value not shown)");
        }
        trace.child(TraceNode::Kind::ConvertTo).value(value).with([&](TraceNode& c) {
            c.message = "Applying convert_to lookup_option with arguments " + rubyInspect(*entry->convertTo);
        });
    }
    if (nested)
        trace.outcome(TraceNode::Event::Result, value);
    out.found = true;
    out.value = std::move(value);
    return out;
}

const LookupOptionsTable& LookupRun::lookupOptions(TraceCursor trace, std::string_view module)
{
    static const LookupOptionsTable empty;
    if (m_computingLookupOptions || !m_snapshot.lookupOptions) {
        if (m_snapshot.lookupOptionsError && !m_computingLookupOptions)
            throw *m_snapshot.lookupOptionsError;
        return empty; // lookups made while merging lookup_options itself see no options
    }
    const ModuleOptions* mod = nullptr;
    if (!module.empty() && !m_snapshot.modules.empty()) // most hierarchies have no module data: no hashing
        if (auto it = m_snapshot.modules.find(module); it != m_snapshot.modules.end())
            mod = &it->second;
    // The top-level lookup's trace starts with how lookup_options were merged (once per snapshot), the
    // module's after the global and environment ones.
    trace.with([&](TraceNode& n) {
        if (n.kind != TraceNode::Kind::Lookup || !n.children.empty() || m_names.size() > 1)
            return;
        if (m_snapshot.lookupOptionsTrace)
            n.children.push_back(m_snapshot.lookupOptionsTrace);
        if (mod && mod->trace)
            n.children.push_back(mod->trace);
    });
    if (mod && mod->error)
        throw *mod->error;
    return mod && mod->table ? *mod->table : *m_snapshot.lookupOptions;
}

std::optional<Value> LookupRun::lookupDefaultHierarchy(const LookupKey& key, std::string_view module,
                                                       const std::optional<MergeSpec>& callerMerge, TraceCursor trace,
                                                       std::shared_ptr<const LookupOptionsEntry>& entry)
{
    const auto it = m_snapshot.modules.find(module);
    if (it == m_snapshot.modules.end() || m_snapshot.layers[it->second.layer].defaultLevels.empty())
        return std::nullopt;
    const ModuleOptions& mod = it->second;
    const TraceCursor dh = trace.child(TraceNode::Kind::Message);
    dh.with([&](TraceNode& n) {
        n.message = "Searching default_hierarchy of module \"" + std::string(module) + "\"";
        if (mod.defaultTrace)
            n.children.push_back(mod.defaultTrace);
    });
    if (mod.defaultError)
        throw *mod.defaultError;
    // Its own lookup_options only: the global, environment and module ones do not apply (docs/layers.md §4).
    entry = mod.defaultTable ? mod.defaultTable->select(key.root()) : nullptr;
    MergeSpec merge;
    if (callerMerge)
        merge = *callerMerge;
    else if (entry && entry->merge)
        merge = *entry->merge;
    dh.with([&](TraceNode& n) { n.merge = merge; });
    return lookupRoot(key.root(), merge, dh, /*lookupOptionsMeta=*/false,
                      {LayerSelection::Mode::DefaultHierarchy, module});
}

Value LookupRun::mergeLookupOptions(TraceCursor trace, std::vector<std::shared_ptr<const DataFile>>& sources,
                                    bool& interpolated, LayerSelection layers)
{
    m_computingLookupOptions = true;
    m_lookupOptionsSources = &sources;
    m_lookupOptionsInterpolated = false;
    struct Done
    {
        LookupRun& r;
        ~Done()
        {
            r.m_computingLookupOptions = false;
            r.m_lookupOptionsSources = nullptr;
        }
    } done{*this};
    MergeSpec hashMerge;
    hashMerge.strategy = MergeStrategy::Hash;
    trace.with([&](TraceNode& n) { n.merge = hashMerge; });
    std::optional<Value> merged = lookupRoot("lookup_options", hashMerge, trace, /*lookupOptionsMeta=*/true, layers);
    if (merged)
        trace.outcome(TraceNode::Event::Result, *merged);
    else
        trace.event(TraceNode::Event::NotFound);
    interpolated = m_lookupOptionsInterpolated;
    return merged ? *merged : Value();
}

std::optional<Value> LookupRun::lookupRoot(const std::string& root, const MergeSpec& merge, TraceCursor trace,
                                           bool lookupOptionsMeta, LayerSelection selection)
{
    const bool first = merge.strategy == MergeStrategy::First;
    Fold all(merge);
    const Hash::PreparedKey prepared(root); // hashed once for every level's file
    const KeyPresence::Holders* holders = m_presence ? &m_presence->filesWith(prepared) : nullptr;
    const auto& layers = m_snapshot.layers;
    for (std::size_t li = 0; li < layers.size() && !(first && all.have()); ++li) {
        const LayerState& layer = layers[li];
        if (!selection.covers(*layer.layer))
            continue;
        if (layer.layer->error)
            throw *layer.layer->error; // a module whose hiera.yaml cannot be used fails its own keys
        if (!lookupOptionsMeta)
            for (const auto& w : layer.warnings)
                warn(w);
        const auto& levels =
            selection.mode == LayerSelection::Mode::DefaultHierarchy ? layer.defaultLevels : layer.levels;
        const TraceCursor layerTrace = trace.child(TraceNode::Kind::Layer);
        layerTrace.with([&](TraceNode& n) {
            n.name = layer.layer->providerTitle();
            n.path = layer.layer->config.path;
            if (!first)
                n.merge = merge;
            n.children.reserve(levels.size());
        });
        Fold inLayer(merge);
        const int firstBit = holders ? m_presence->firstLevelBit(levels) : -1;
        for (std::size_t lv = 0; lv < levels.size() && !(first && inLayer.have()); ++lv) {
            if (holders && m_presence->skips(*holders, firstBit < 0 ? -1 : firstBit + static_cast<int>(lv)))
                continue; // no file of the level holds the key, and the level has nothing else to say
            const LevelState& level = levels[lv];
            const TraceCursor levelTrace = layerTrace.child(TraceNode::Kind::Level);
            levelTrace.with([&](TraceNode& n) { n.name = level.level->name; });
            const std::size_t before = inLayer.count();
            try {
                lookupLevel(level, prepared, root, merge, levelTrace, inLayer, lookupOptionsMeta, holders);
            } catch (const Error& e) {
                levelTrace.failed(e);
                throw;
            }
            if (inLayer.count() > 1 && inLayer.count() != before) {
                // Each merge step: what the fold holds once this level's value has been merged in.
                layerTrace.child(TraceNode::Kind::Merge).with([&](TraceNode& step) {
                    step.name = level.level->name;
                    step.merge = merge;
                    step.event = TraceNode::Event::Result;
                    step.value = inLayer.value();
                });
            }
        }
        if (inLayer.have()) {
            layerTrace.outcome(TraceNode::Event::Result, inLayer.value());
            all.add(inLayer.take());
        } else {
            layerTrace.event(TraceNode::Event::NotFound);
        }
    }
    if (!all.have())
        return std::nullopt;
    return std::move(all).result();
}

void LookupRun::consultUnrunnable(const LevelState& level, const Error& why, TraceCursor levelTrace)
{
    bool consulted = false;
    for (const ResolvedFile& rf : level.files) {
        const TraceCursor loc = levelTrace.child(TraceNode::Kind::Location);
        loc.with([&](TraceNode& n) {
            n.originalPath = rf.candidate.originalPath;
            n.path = rf.candidate.path;
        });
        if (!rf.file->exists) {
            loc.event(TraceNode::Event::LocationNotFound);
            continue;
        }
        consulted = true;
        break;
    }
    if (!consulted) {
        levelTrace.event(TraceNode::Event::NotFound);
        return;
    }
    if (!m_engine.options().skipUnsupportedLevels)
        throw why;
    const std::string warning = unsupportedLevelWarning(why);
    warn(warning);
    levelTrace.event(TraceNode::Event::Warning).message(warning);
}

void LookupRun::lookupLevel(const LevelState& level, const Hash::PreparedKey& root, const std::string& rootKey,
                            const MergeSpec& merge, TraceCursor levelTrace, Fold& inLayer, bool lookupOptionsMeta,
                            const KeyPresence::Holders* holders)
{
    if (level.error)
        throw *level.error;
    if (const Error* why = level.provider->unrunnable()) {
        consultUnrunnable(level, *why, levelTrace);
        return;
    }
    const bool first = merge.strategy == MergeStrategy::First;
    if (holders && !level.provider->answersFromDataHash())
        holders = nullptr;
    Fold inLevel(merge);
    for (const ResolvedFile& rf : level.files) {
        if (first && inLevel.have())
            break;
        const Candidate& c = rf.candidate;
        const DataFile& file = *rf.file;
        const TraceCursor loc = levelTrace.child(TraceNode::Kind::Location);
        loc.with([&](TraceNode& n) {
            n.originalPath = c.originalPath;
            n.path = c.path;
            n.key = std::string(root.text());
        });
        if (!file.exists) {
            loc.event(TraceNode::Event::LocationNotFound);
            continue;
        }
        if (file.error) {
            loc.failed(*file.error);
            if (m_engine.options().skipBrokenFiles) {
                warn(brokenFileWarning(*file.error));
                continue;
            }
            throw *file.error;
        }
        for (const auto& w : file.warnings)
            warn(w);
        if (holders && !holders->holds(&file))
            continue; // the file lacks the key: its provider would answer nothing
        std::optional<LocationHit> hit;
        try {
            hit = level.provider->lookup(
                LocationQuery{c.path, file, level.options, m_engine.options().limits, root, rootKey, *this, loc});
        } catch (const Error& e) {
            loc.failed(e);
            throw;
        }
        if (!hit) {
            loc.event(TraceNode::Event::NotFound);
            continue;
        }
        if (lookupOptionsMeta && m_lookupOptionsSources) {
            m_lookupOptionsSources->push_back(rf.file);
            // Options found by a function that reads no file of ours, or interpolated, are this node's own.
            if (hit->dependsOnScope || !file.data.isHash())
                m_lookupOptionsInterpolated = true;
        }
        loc.outcome(TraceNode::Event::Found, hit->value).with([&](TraceNode& n) {
            n.location = SourceFiles::locate(hit->keyMark); // where the key is written
        });
        inLevel.add(std::move(hit->value));
    }
    if (inLevel.have()) {
        levelTrace.outcome(TraceNode::Event::Result, inLevel.value());
        inLayer.add(inLevel.take());
    } else {
        levelTrace.event(TraceNode::Event::NotFound);
    }
}

} // namespace hiera::detail
