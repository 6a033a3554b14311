#include "lookup/lookuprun.h"

#include "lookup/rubyregex.h"

#include <hiera/valueformat.h>

#include <algorithm>

namespace hiera::detail {

namespace {

const char* const kGlobalProvider = "Global Data Provider (hiera configuration version 5)";

// Gives an error without a location the location of the value being processed.
[[noreturn]] void rethrowAt(const Error& e, const Value& at)
{
    if (e.location().isValid())
        throw e;
    throw Error(e.code(), e.message(), SourceFiles::locate(at.mark()));
}

// Puppet refuses a found value whose hashes have boolean, null or collection keys (its type system has
// no such hash: "expects Puppet::LookupValue"). String, integer and float keys are fine.
void checkLookupValue(const Value& v, std::string_view key)
{
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            checkLookupValue(e, key);
    } else if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            if (!e.key.isString() && !e.key.isNumber())
                throw Error(ErrorCode::DataType,
                            "the value of '" + std::string(key) + "' has a hash key of type " + e.key.typeName() + " ("
                                + rubyInspect(e.key) + "), which Puppet cannot look up; quote the key",
                            SourceFiles::locate(e.key.mark()));
            checkLookupValue(e.value, key);
        }
    }
}

} // namespace

// Folds found values in priority order (semantics §4.4): the first is taken as is, each further one is
// combined with mergeStep.
class LookupRun::Fold
{
public:
    explicit Fold(const MergeSpec& spec) : m_spec(spec) { }
    // A single found value passes through untouched (no merge step, no type check); only when a
    // second one arrives is the first normalised (unique: flattened) and merged with it.
    void add(const Value& v)
    {
        if (m_count++ == 0) {
            m_value = v;
            return;
        }
        if (m_count == 2)
            m_value = normalizeFirst(m_spec, m_value);
        m_value = mergeStep(m_spec, m_value, v);
    }
    bool have() const { return m_count > 0; }
    std::size_t count() const { return m_count; }
    const Value& value() const { return m_value; }
    // The final result of a lookup: unique always returns a flat array, even for one found value.
    Value result() const { return m_count == 1 ? normalizeFirst(m_spec, m_value) : m_value; }

private:
    const MergeSpec& m_spec;
    std::size_t m_count = 0;
    Value m_value;
};

LookupRun::LookupRun(const Engine& engine, const Scope& scope, const NodeSnapshot& snapshot, bool explain)
    : m_engine(engine)
    , m_scope(scope)
    , m_snapshot(snapshot)
    , m_explain(explain)
{
}

namespace {
void fail(LookupResult& result, TraceNode* root, const Error& e)
{
    result.status = LookupResult::Status::Error;
    result.error = e;
    if (root) {
        root->event = TraceNode::Event::Failed;
        root->message = e.what();
    }
}
} // namespace

LookupResult LookupRun::run(std::string_view key, const LookupOptions& options)
{
    const RubyRegex::LookupBudget regexBudget(RubyRegex::kLookupBudget);
    LookupResult result;
    for (const auto& w : m_snapshot.warnings)
        warn(w);
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

std::optional<Value> LookupRun::subLookup(const std::string& key, TraceNode* trace)
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
    for (std::size_t i = 0; i < m_names.size(); ++i)
    {
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

LookupRun::Outcome LookupRun::lookupKey(const LookupKey& key, const std::optional<MergeSpec>& callerMerge,
                                        TraceNode* parent)
{
    Outcome out;
    TraceNode* trace = parent;
    if (parent && parent->kind != TraceNode::Kind::Lookup) {
        trace = &parent->addChild(TraceNode::Kind::Lookup);
        trace->key = key.original();
    }
    const bool nested = trace && trace != parent;
    if (key.root() == "lookup_options") {
        // lookup_options is configuration, not data: it cannot be looked up (Puppet: "Invalid key").
        if (trace)
            trace->event = TraceNode::Event::InvalidKey;
        return out;
    }
    const LookupOptionsTable& table = lookupOptions(trace);
    const std::shared_ptr<const LookupOptionsEntry> entry = table.select(key.root());
    MergeSpec merge;
    bool fromLookupOptions = false;
    if (callerMerge) {
        merge = *callerMerge;
    } else if (entry && entry->merge) {
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
        if (nested)
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
                if (nested)
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
    if (nested) {
        trace->event = TraceNode::Event::Result;
        trace->value = value;
    }
    return out;
}

const LookupOptionsTable& LookupRun::lookupOptions(TraceNode* trace)
{
    static const LookupOptionsTable empty;
    if (m_computingLookupOptions || !m_snapshot.lookupOptions) {
        if (m_snapshot.lookupOptionsError && !m_computingLookupOptions)
            throw *m_snapshot.lookupOptionsError;
        return empty; // lookups made while merging lookup_options itself see no options
    }
    if (trace && trace->kind == TraceNode::Kind::Lookup && trace->children.empty() && m_snapshot.lookupOptionsTrace
        && m_names.size() <= 1)
        trace->children.push_back(m_snapshot.lookupOptionsTrace);
    return *m_snapshot.lookupOptions;
}

Value LookupRun::mergeLookupOptions(TraceNode* trace, std::vector<std::shared_ptr<const DataFile>>& sources,
                                    bool& interpolated)
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
    if (trace)
        trace->merge = hashMerge;
    std::optional<Value> merged = lookupRoot("lookup_options", hashMerge, trace, /*lookupOptionsMeta=*/true);
    if (trace) {
        trace->event = merged ? TraceNode::Event::Result : TraceNode::Event::NotFound;
        if (merged)
            trace->value = *merged;
    }
    interpolated = m_lookupOptionsInterpolated;
    return merged ? *merged : Value();
}

std::optional<Value> LookupRun::lookupRoot(const std::string& root, const MergeSpec& merge, TraceNode* trace,
                                           bool lookupOptionsMeta)
{
    const bool first = merge.strategy == MergeStrategy::First;
    Fold all(merge);
    const Hash::PreparedKey prepared(root); // hashed once for every level's file
    const auto& layers = m_snapshot.layers;
    for (std::size_t li = 0; li < layers.size() && !(first && all.have()); ++li) {
        const LayerState& layer = layers[li];
        TraceNode* layerNode = nullptr;
        if (trace) {
            layerNode = &trace->addChild(TraceNode::Kind::Layer);
            layerNode->name = layers.size() == 1 ? kGlobalProvider : layer.layer->name;
            layerNode->path = layer.layer->config.path;
            if (!first)
                layerNode->merge = merge;
            layerNode->children.reserve(layer.levels.size());
        }
        Fold inLayer(merge);
        for (std::size_t lv = 0; lv < layer.levels.size() && !(first && inLayer.have()); ++lv) {
            const LevelState& level = layer.levels[lv];
            TraceNode* levelNode = nullptr;
            if (layerNode) {
                levelNode = &layerNode->addChild(TraceNode::Kind::Level);
                levelNode->name = level.level->name;
            }
            const std::size_t before = inLayer.count();
            try {
                lookupLevel(level, prepared, merge, levelNode, inLayer, lookupOptionsMeta);
            } catch (const Error& e) {
                if (levelNode) {
                    levelNode->event = TraceNode::Event::Failed;
                    levelNode->message = e.what();
                }
                throw;
            }
            if (layerNode && inLayer.count() > 1 && inLayer.count() != before) {
                // Each merge step: what the fold holds once this level's value has been merged in.
                TraceNode& step = layerNode->addChild(TraceNode::Kind::Merge);
                step.name = level.level->name;
                step.merge = merge;
                step.event = TraceNode::Event::Result;
                step.value = inLayer.value();
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
    return all.result();
}

void LookupRun::lookupLevel(const LevelState& level, const Hash::PreparedKey& root, const MergeSpec& merge,
                            TraceNode* levelNode, Fold& inLayer, bool lookupOptionsMeta)
{
    if (level.error)
        throw *level.error;
    const bool first = merge.strategy == MergeStrategy::First;
    Fold inLevel(merge);
    for (const ResolvedFile& rf : level.files) {
        if (first && inLevel.have())
            break;
        const Candidate& c = rf.candidate;
        const DataFile& file = *rf.file;
        TraceNode* loc = nullptr;
        if (levelNode) {
            loc = &levelNode->addChild(TraceNode::Kind::Location);
            loc->originalPath = c.originalPath;
            loc->path = c.path;
            loc->key = std::string(root.text());
        }
        if (!file.exists) {
            if (loc)
                loc->event = TraceNode::Event::LocationNotFound;
            continue;
        }
        if (file.error) {
            if (loc) {
                loc->event = TraceNode::Event::Failed;
                loc->message = file.error->what();
            }
            if (m_engine.options().skipBrokenFiles) {
                warn(brokenFileWarning(*file.error));
                continue;
            }
            throw *file.error;
        }
        for (const auto& w : file.warnings)
            warn(w);
        const Hash::Entry* entry = file.data.isHash() ? file.data.asHash().findEntry(root) : nullptr;
        const Value* v = entry ? &entry->value : nullptr;
        if (!v) {
            if (loc)
                loc->event = TraceNode::Event::NotFound;
            continue;
        }
        if (file.flags(entry) & DataFile::Refused) { // a Ruby symbol: this lookup reached it
            if (loc) {
                loc->event = TraceNode::Event::Failed;
                loc->message = file.refusal(entry).what();
            }
            throw file.refusal(entry);
        }
        if (lookupOptionsMeta && m_lookupOptionsSources) {
            m_lookupOptionsSources->push_back(rf.file);
            if (containsInterpolation(*v))
                m_lookupOptionsInterpolated = true;
        }
        Value found = *v;
        try {
            if (file.flags(entry) & DataFile::Interpolates)
                found = interpolateValue(*v, *this, loc);
        } catch (const Error& e) {
            if (loc) {
                loc->event = TraceNode::Event::Failed;
                loc->message = e.what();
            }
            rethrowAt(e, *v);
        }
        if (file.flags(entry) & (DataFile::Interpolates | DataFile::InvalidKey))
            checkLookupValue(found, root.text());
        if (loc) {
            loc->event = TraceNode::Event::Found;
            loc->value = found;
            loc->location = SourceFiles::locate(entry->key.mark()); // where the key is written
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

} // namespace hiera::detail
