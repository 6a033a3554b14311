#include "lookup/lookuprun.h"

#include "lookup/convertto.h"
#include "lookup/rubyregex.h"
#include "providers/valuechecks.h"

#include <hiera/valueformat.h>

#include <algorithm>

namespace hiera::detail {

LookupRun::LookupRun(const Engine& engine, const Scope& scope, const NodeSnapshot& snapshot, bool explain)
    : m_snapshot(snapshot)
    , m_invocation(engine, scope, explain)
    , m_subLookups(m_invocation, *this)
    , m_search(m_invocation, snapshot, m_subLookups)
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
        m_invocation.warn(w);
    std::shared_ptr<TraceNode> rootNode;
    if (m_invocation.explain()) {
        rootNode = std::make_shared<TraceNode>();
        rootNode->kind = TraceNode::Kind::Lookup;
    }
    const TraceCursor root(rootNode.get());
    root.with([&](TraceNode& n) { n.key = std::string(key); });
    try {
        const LookupKey parsed = LookupKey::parse(key);
        m_invocation.pushName(parsed.original());
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
        if (m_search.optionsFailed())
            result.unverifiedValue = lookWithoutOptions(key, request);
    } catch (const std::bad_alloc&) {
        fail(result, root, Error(ErrorCode::InterpolationLimit, "out of memory during the lookup"));
    } catch (const std::exception& e) {
        fail(result, root, Error(ErrorCode::Internal, std::string("internal error: ") + e.what()));
    }
    if (result.status != LookupResult::Status::Error)
        failForBrokenFile(key, result, root);
    result.warnings = m_invocation.takeWarnings();
    result.trace = rootNode;
    return result;
}

void LookupRun::failForBrokenFile(std::string_view key, LookupResult& result, TraceCursor root) const
{
    // A file skipped under skipBrokenFiles in a layer Puppet reads for this key's lookup_options (the
    // global and environment layers always, a module's for its own keys) fails the lookup as in Puppet;
    // what the rest answered stays beside the error.
    if (m_snapshot.brokenFiles.empty())
        return;
    const std::string_view module = moduleOfKey(key);
    for (const NodeSnapshot::BrokenFile& broken : m_snapshot.brokenFiles) {
        const Layer& layer = *m_snapshot.layers[broken.layer].layer;
        if (layer.kind == Layer::Kind::Module && layer.module != module)
            continue;
        if (result.found())
            result.unverifiedValue = result.value;
        fail(result, root, broken.error);
        return;
    }
}

std::optional<Value> LookupRun::lookWithoutOptions(std::string_view key, const LookupRequest& request)
{
    m_search.setIgnoreOptions(true);
    auto warnings = m_invocation.warnings(); // the failed lookup's: the second look adds none of its own
    std::optional<Value> out;
    try {
        const Outcome o = lookupKey(LookupKey::parse(key), request.merge, TraceCursor());
        if (o.found)
            out = o.value;
    } catch (const Error&) {
        // the data fails on its own as well: nothing to show beside the error
    } catch (const std::bad_alloc&) {
    }
    m_search.setIgnoreOptions(false);
    m_invocation.restoreWarnings(std::move(warnings));
    return out;
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
    const LookupOptionsTable& table = m_search.lookupOptions(trace, module);
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
    std::optional<Value> rootValue = m_search.search(key.root(), merge, trace, {LayerSelection::Mode::Data, module});
    if (!rootValue && !module.empty()) {
        rootValue = m_search.searchDefaultHierarchy(key, module, callerMerge, trace, entry);
        if (rootValue && used) {
            const bool fromDefaultOptions = entry && entry->merge;
            *used = mergeUsed(fromDefaultOptions ? *entry->merge : MergeSpec(), false, fromDefaultOptions, entry);
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

std::optional<Value> LookupRun::lookupNested(const LookupKey& key, TraceCursor trace)
{
    Outcome o = lookupKey(key, std::nullopt, trace);
    return o.found ? std::optional<Value>(std::move(o.value)) : std::nullopt;
}

} // namespace hiera::detail
