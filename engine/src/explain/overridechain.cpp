#include <hiera/lookupkey.h>
#include <hiera/overridechain.h>
#include <hiera/provenance.h>
#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <variant>

namespace hiera {

namespace {

// One step into a value: a hash key or an array index.
using Step = std::variant<Value, std::size_t>;

const Value* walk(const Value& root, const std::vector<Step>& steps)
{
    const Value* v = &root;
    for (const Step& step : steps) {
        if (const auto* key = std::get_if<Value>(&step)) {
            if (!v->isHash())
                return nullptr;
            v = v->asHash().find(*key);
        } else {
            const std::size_t i = std::get<std::size_t>(step);
            if (!v->isArray() || i >= v->asArray().size())
                return nullptr;
            v = &v->asArray()[i];
        }
        if (!v)
            return nullptr;
    }
    return v;
}

std::string pathText(const std::vector<Step>& steps)
{
    std::string text;
    for (const Step& step : steps) {
        if (const auto* key = std::get_if<Value>(&step)) {
            if (!text.empty())
                text += '.';
            text += key->isString() ? key->asString() : interpolationString(*key);
        } else {
            text += '[' + std::to_string(std::get<std::size_t>(step)) + ']';
        }
    }
    return text;
}

// The found values of the key's own sources, in the order the lookup visited them (priority order).
// Interpolations, sub-lookups and the lookup_options meta-lookup are other keys: not walked.
void collectLevels(const TraceNode& node, std::string layer, std::string level, const std::vector<KeySegment>& dig,
                   std::vector<OverrideLevel>& out)
{
    switch (node.kind) {
    case TraceNode::Kind::LookupOptions:
    case TraceNode::Kind::Interpolation:
    case TraceNode::Kind::SubLookup:
    case TraceNode::Kind::ScopeRead:
        return;
    case TraceNode::Kind::Layer:
        layer = node.name;
        break;
    case TraceNode::Kind::Level:
        level = node.name;
        break;
    default:
        break;
    }
    const bool hasLocations = std::any_of(node.children.begin(), node.children.end(),
                                          [](const auto& c) { return c->kind == TraceNode::Kind::Location; });
    const bool source =
        node.kind == TraceNode::Kind::Location || (node.kind == TraceNode::Kind::Level && !hasLocations);
    if (source && node.event == TraceNode::Event::Found && node.value) {
        // A dotted key: the level holds what its root value holds at the segments, if anything.
        if (const Value* dug = dig.empty() ? &*node.value : hiera::dig(*node.value, dig)) {
            OverrideLevel entry;
            entry.layer = layer;
            entry.level = level;
            entry.path = node.path;
            entry.value = *dug;
            const SourceLocation at = SourceFiles::locate(dug->mark());
            entry.location = at.isValid() ? at : node.location;
            out.push_back(std::move(entry));
        }
        return;
    }
    for (const auto& child : node.children)
        collectLevels(*child, layer, level, dig, out);
}

// Leaves at the granularity a merge overrides them: hash members are walked into, arrays and
// scalars are leaves (an array's origin is its first element's: where its content was written).
void collectLeaves(const Value& v, std::vector<Step>& steps,
                   std::vector<std::pair<std::vector<Step>, const Value*>>& out)
{
    if (v.isHash() && !v.asHash().empty()) {
        for (const auto& entry : v.asHash()) {
            steps.emplace_back(entry.key);
            collectLeaves(entry.value, steps, out);
            steps.pop_back();
        }
        return;
    }
    out.emplace_back(steps, &v);
}

SourceLocation originOf(const Value& v)
{
    if (v.isArray() && !v.asArray().empty()) {
        const SourceLocation first = SourceFiles::locate(v.asArray().front().mark());
        if (first.isValid())
            return first;
    }
    return SourceFiles::locate(v.mark());
}

// The level that holds `file`, by priority (the first one, if a file is listed twice).
const OverrideLevel* levelOf(const std::vector<OverrideLevel>& levels, const std::string& file)
{
    for (const OverrideLevel& l : levels)
        if (!file.empty() && l.path == file)
            return &l;
    return nullptr;
}

bool mergesArrays(const MergeSpec& spec)
{
    return spec.strategy == MergeStrategy::Unique || spec.strategy == MergeStrategy::Deep;
}

bool hasPrefix(const Value& v, const std::string& prefix)
{
    return v.isString() && v.asString().compare(0, prefix.size(), prefix) == 0;
}

// What a deep merge's knockouts (docs/hiera-reference.md §4.8) removed at one place of the answer, the
// levels' values there in priority order. A `--x` element or a bare `--` acts on the next value folded
// in, and only on it: the merge strips the knockout entries once they are used (so a `pool.ntp.org` two
// levels down survives a `--pool.ntp.org`, as in Puppet). A `--x` scalar becomes "", which replaces
// every value below.
void collectRemoved(const std::vector<OverrideLevel>& levels, const std::vector<Step>& steps, const std::string& path,
                    const std::string& prefix, std::vector<RemovedValue>& out)
{
    struct Knock
    {
        Value value; // what it removes (the entry without the prefix)
        SourceLocation at;
        std::string level;
    };
    std::vector<Knock> knocks; // `--x` elements of the level above
    std::optional<Knock> emptiedBy; // a bare `--` element of the level above
    std::optional<Knock> replacedBy; // a `--x` scalar above
    for (const OverrideLevel& level : levels) {
        const Value* here = walk(level.value, steps);
        std::vector<Knock> next;
        std::optional<Knock> nextEmptied;
        if (here && replacedBy) {
            out.push_back({path, *here, originOf(*here), level.level, replacedBy->at, replacedBy->level});
        } else if (here && here->isArray()) {
            for (const Value& e : here->asArray()) {
                const SourceLocation at = SourceFiles::locate(e.mark());
                if (hasPrefix(e, prefix)) {
                    Knock k{Value(e.asString().substr(prefix.size())), at, level.level};
                    if (e.asString() == prefix)
                        nextEmptied = k;
                    next.push_back(std::move(k));
                    continue;
                }
                const auto by =
                    std::find_if(knocks.begin(), knocks.end(), [&](const Knock& k) { return k.value == e; });
                if (by != knocks.end())
                    out.push_back({path, e, at, level.level, by->at, by->level});
                else if (emptiedBy)
                    out.push_back({path, e, at, level.level, emptiedBy->at, emptiedBy->level});
            }
        } else if (here && hasPrefix(*here, prefix)) {
            replacedBy = Knock{*here, originOf(*here), level.level};
        }
        knocks = std::move(next);
        emptiedBy = std::move(nextEmptied);
    }
}

} // namespace

OverrideChain overrideChain(const Engine& engine, const Scope& scope, const std::string& key,
                            const std::optional<MergeSpec>& merge)
{
    OverrideChain result;
    result.key = key;
    try {
        const auto parsed = LookupKey::tryParse(key);
        if (!parsed) {
            result.error = "invalid key";
            return result;
        }
        // The answer, as the user asked for it, with its trace: which sources it credits.
        LookupRequest asked;
        asked.merge = merge;
        asked.explain = true;
        const LookupResult answer = engine.lookup(scope, key, asked);
        result.found = answer.found();
        if (answer.found())
            result.answer = answer.value;
        const std::vector<SourceContribution> sources =
            answer.trace ? sourceContributions(*answer.trace) : std::vector<SourceContribution>();
        // Every level's value: a deep merge visits them all (first-found stops at the winner).
        LookupRequest all;
        MergeSpec deep;
        deep.strategy = MergeStrategy::Deep;
        all.merge = deep;
        all.explain = true;
        const LookupResult every = engine.lookup(scope, parsed->root(), all);
        if (every.trace)
            collectLevels(*every.trace, {}, {}, parsed->segments(), result.levels);
        const auto sourceOf = [&](const OverrideLevel& level) {
            return std::find_if(sources.begin(), sources.end(), [&](const SourceContribution& s) {
                return s.path == level.path && s.level == level.level && s.layer == level.layer;
            });
        };
        for (OverrideLevel& level : result.levels) {
            const auto source = sourceOf(level);
            if (source != sources.end())
                level.outcome = source->outcome;
            level.contributed = source != sources.end() && source->contributed();
        }
        // A dotted key into a merged array: the level behind the dug leaf may hold nothing at that path
        // itself (servers.2 is dc2's only server once two lower ones come first). It is listed all the
        // same, with the answer it gave, in its place by priority.
        for (auto s = sources.begin(); s != sources.end(); ++s) {
            if (!s->contributed() || !answer.found())
                continue;
            const bool listed = std::any_of(result.levels.begin(), result.levels.end(),
                                            [&](const OverrideLevel& l) { return sourceOf(l) == s; });
            if (listed)
                continue;
            OverrideLevel level;
            level.layer = s->layer;
            level.level = s->level;
            level.path = s->path;
            level.location = s->shownAt;
            level.value = answer.value;
            level.contributed = true;
            level.outcome = s->outcome;
            const auto before = std::find_if(result.levels.begin(), result.levels.end(), [&](const OverrideLevel& l) {
                const auto ls = sourceOf(l);
                return ls != sources.end() && ls > s;
            });
            result.levels.insert(before, std::move(level));
        }
        if (!answer.found())
            return result;

        const MergeSpec used = answer.merge ? answer.merge->spec : MergeSpec();
        const std::optional<std::string> prefix =
            used.strategy == MergeStrategy::Deep ? used.knockoutPrefix : std::nullopt;
        std::vector<Step> steps;
        std::vector<std::pair<std::vector<Step>, const Value*>> leaves;
        collectLeaves(result.answer, steps, leaves);
        for (const auto& [leafSteps, leafValue] : leaves) {
            OverrideLeaf leaf;
            leaf.path = pathText(leafSteps);
            leaf.value = *leafValue;
            leaf.origin = originOf(*leafValue);
            const OverrideLevel* from = levelOf(result.levels, leaf.origin.file);
            // A knocked-out scalar (`--x` over a value: the answer is "") is credited to its knockout.
            bool knockedScalar = false;
            if (prefix && leafValue->isString() && leafValue->asString().empty()) {
                for (const OverrideLevel& l : result.levels) {
                    if (const Value* v = walk(l.value, leafSteps); v && hasPrefix(*v, *prefix)) {
                        from = &l;
                        leaf.origin = originOf(*v);
                        knockedScalar = true;
                        break;
                    }
                }
            }
            if (from)
                leaf.level = from->level;
            // The files this leaf's content comes from: its own, or every element's.
            std::vector<std::string> own{leaf.origin.file};
            if (leafValue->isArray()) {
                for (std::size_t i = 0; i < leafValue->asArray().size(); ++i) {
                    const Value& element = leafValue->asArray()[i];
                    OverrideElement e{i, element, SourceFiles::locate(element.mark()), {}};
                    if (const OverrideLevel* l = levelOf(result.levels, e.origin.file))
                        e.level = l->level;
                    if (std::find(own.begin(), own.end(), e.origin.file) == own.end())
                        own.push_back(e.origin.file);
                    leaf.elements.push_back(std::move(e));
                }
            }
            const std::size_t fromIndex = from ? static_cast<std::size_t>(from - result.levels.data()) : 0;
            for (std::size_t i = fromIndex; i < result.levels.size() && !knockedScalar; ++i) {
                const OverrideLevel& level = result.levels[i];
                if (std::find(own.begin(), own.end(), level.path) != own.end())
                    continue; // the leaf's own content
                const Value* below = walk(level.value, leafSteps);
                if (!below)
                    continue;
                // Taken in, not replaced: a merged array's other levels (their elements are in the answer
                // with their own origins, or were duplicates of one there); knockouts are listed apart.
                if (leafValue->isArray() && mergesArrays(used)
                    && (below->isArray() || used.strategy == MergeStrategy::Unique))
                    continue;
                leaf.overrode.push_back({*below, originOf(*below), level.level});
            }
            if (prefix)
                collectRemoved(result.levels, leafSteps, leaf.path, *prefix, result.removed);
            result.leaves.push_back(std::move(leaf));
        }
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

} // namespace hiera
