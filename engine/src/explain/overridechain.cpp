#include <hiera/lookupkey.h>
#include <hiera/overridechain.h>
#include <hiera/provenance.h>
#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/valueformat.h>

#include "lookup/valuehash.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>
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

// Everything below is asked once per leaf, per array element or per level, so each question is a
// lookup in a table made once, never a search through the levels: searches made the chain cubic in the
// number of files (a unique merge over 2,000 files took 9.7 s to report, 5,000 over a minute; docs/performance.md,
// "Cost that grows with the input"). The answers are the ones the searches gave: the first level or source that
// matches, levels in priority order.

// The level that holds `file`, by priority (the first one, if a file is listed twice).
class LevelsByFile
{
public:
    explicit LevelsByFile(const std::vector<OverrideLevel>& levels) : m_levels(levels)
    {
        for (std::size_t i = 0; i < levels.size(); ++i)
            if (!levels[i].path.empty())
                m_first.emplace(levels[i].path, i);
    }
    const OverrideLevel* levelOf(const std::string& file) const
    {
        const auto it = file.empty() ? m_first.end() : m_first.find(file);
        return it == m_first.end() ? nullptr : &m_levels[it->second];
    }

private:
    const std::vector<OverrideLevel>& m_levels;
    std::unordered_map<std::string, std::size_t> m_first;
};

// The levels that hold something at each place of the answer a leaf can be (a path of hash keys, as
// collectLeaves makes them), in priority order: the levels a leaf's walk() can find anything in. A deep
// merge where every file adds a key of its own has as many leaves as files, and walking every level for
// every leaf was quadratic. Keyed by a hash of the path consistent with Hash::find's key equality; two
// paths with one hash only add levels that walk() then finds empty there, so the lists are supersets
// and every caller still walks.
class LevelsByPath
{
public:
    explicit LevelsByPath(const std::vector<OverrideLevel>& levels)
    {
        for (std::size_t i = 0; i < levels.size(); ++i) {
            add(levels[i].value, kRoot, i);
            m_all.push_back(i);
        }
    }
    const std::vector<std::size_t>& at(const std::vector<Step>& steps) const
    {
        std::uint64_t path = kRoot;
        for (const Step& step : steps) {
            const auto* key = std::get_if<Value>(&step);
            if (!key)
                return m_all; // not made by collectLeaves (no such steps today): every level
            path = child(path, *key);
        }
        const auto it = m_levels.find(path);
        return it == m_levels.end() ? m_none : it->second;
    }

private:
    static constexpr std::uint64_t kRoot = 0x243f6a8885a308d3ull;
    static std::uint64_t child(std::uint64_t path, const Value& key)
    {
        return detail::hashMix(path * 0x9e3779b97f4a7c15ull + detail::valueHash(key));
    }
    void add(const Value& v, std::uint64_t path, std::size_t level)
    {
        std::vector<std::size_t>& list = m_levels[path];
        if (list.empty() || list.back() != level)
            list.push_back(level);
        if (v.isHash())
            for (const auto& entry : v.asHash())
                add(entry.value, child(path, entry.key), level);
    }

    std::unordered_map<std::uint64_t, std::vector<std::size_t>> m_levels;
    std::vector<std::size_t> m_all;
    std::vector<std::size_t> m_none;
};

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
// `holding`: the levels that may hold something at `steps` (LevelsByPath), in priority order; every
// other level holds nothing there, which ends the knockouts of the level above it.
void collectRemoved(const std::vector<OverrideLevel>& levels, const std::vector<std::size_t>& holding,
                    const std::vector<Step>& steps, const std::string& path, const std::string& prefix,
                    std::vector<RemovedValue>& out)
{
    struct Knock
    {
        Value value; // what it removes (the entry without the prefix)
        SourceLocation at;
        std::string level;
    };
    std::vector<Knock> knocks; // `--x` elements of the level above
    Array knocked; // their values, parallel to knocks
    std::optional<Knock> emptiedBy; // a bare `--` element of the level above
    std::optional<Knock> replacedBy; // a `--x` scalar above
    std::size_t expected = 0;
    for (const std::size_t index : holding) {
        if (index != expected) { // the levels in between hold nothing here
            knocks.clear();
            knocked.clear();
            emptiedBy.reset();
        }
        expected = index + 1;
        const OverrideLevel& level = levels[index];
        const Value* here = walk(level.value, steps);
        std::vector<Knock> next;
        Array nextKnocked;
        std::optional<Knock> nextEmptied;
        // The first knock that names an element: a table, not a search per element.
        auto knockOf = detail::valueMembership(knocked);
        if (here && replacedBy) {
            out.push_back({path, *here, originOf(*here), level.level, replacedBy->at, replacedBy->level});
        } else if (here && here->isArray()) {
            for (const Value& e : here->asArray()) {
                const SourceLocation at = SourceFiles::locate(e.mark());
                if (hasPrefix(e, prefix)) {
                    Knock k{Value(e.asString().substr(prefix.size())), at, level.level};
                    if (e.asString() == prefix)
                        nextEmptied = k;
                    nextKnocked.push_back(k.value);
                    next.push_back(std::move(k));
                    continue;
                }
                if (const auto by = knockOf.find(e))
                    out.push_back({path, e, at, level.level, knocks[*by].at, knocks[*by].level});
                else if (emptiedBy)
                    out.push_back({path, e, at, level.level, emptiedBy->at, emptiedBy->level});
            }
        } else if (here && hasPrefix(*here, prefix)) {
            replacedBy = Knock{*here, originOf(*here), level.level};
        }
        knocks = std::move(next);
        knocked = std::move(nextKnocked);
        emptiedBy = std::move(nextEmptied);
    }
}

// The root key written as a key of its own: quoted when it holds what the key syntax reads (a dot, a
// quote), so that `"a.b".c`'s root is looked up as `"a.b"`, not as `a` dug into `b`.
std::string rootAsKey(const std::string& root)
{
    if (LookupKey::isSingleSegment(root))
        return root;
    if (root.find('"') == std::string::npos)
        return '"' + root + '"';
    if (root.find('\'') == std::string::npos)
        return '\'' + root + '\'';
    return root; // both quotes: no key syntax can name it
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
        const LookupResult every = engine.lookup(scope, rootAsKey(parsed->root()), all);
        if (every.trace)
            collectLevels(*every.trace, {}, {}, parsed->segments(), result.levels);
        // Each level's source: the first with its layer, level and file (a table: see LevelsByFile).
        constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
        const auto sourceKey = [](const std::string& layer, const std::string& level, const std::string& path) {
            return std::to_string(layer.size()) + ':' + layer + std::to_string(level.size()) + ':' + level + path;
        };
        std::unordered_map<std::string, std::size_t> sourceIndex;
        for (std::size_t i = 0; i < sources.size(); ++i)
            sourceIndex.emplace(sourceKey(sources[i].layer, sources[i].level, sources[i].path), i);
        const auto sourceOf = [&](const OverrideLevel& level) {
            const auto it = sourceIndex.find(sourceKey(level.layer, level.level, level.path));
            return it == sourceIndex.end() ? none : it->second;
        };
        std::vector<std::size_t> levelSources; // parallel to result.levels
        std::vector<bool> listed(sources.size(), false);
        for (OverrideLevel& level : result.levels) {
            const std::size_t source = sourceOf(level);
            levelSources.push_back(source);
            if (source != none) {
                level.outcome = sources[source].outcome;
                listed[source] = true;
            }
            level.contributed = source != none && sources[source].contributed();
        }
        // A dotted key into a merged array: the level behind the dug leaf may hold nothing at that path
        // itself (servers.2 is dc2's only server once two lower ones come first). It is listed all the
        // same, with the answer it gave, in its place by priority: before the first listed level whose
        // source comes after it. Sources are taken in order, so that place never moves up, and one pass
        // over the levels puts them all in (a level added for a source has no source after a later
        // one, so it never decides a later place).
        if (answer.found()) {
            std::vector<OverrideLevel> levels;
            std::size_t next = 0; // the first of result.levels not yet moved into levels
            bool added = false;
            for (std::size_t s = 0; s < sources.size(); ++s) {
                if (!sources[s].contributed() || listed[s])
                    continue;
                if (!added)
                    levels.reserve(result.levels.size() + 1);
                added = true;
                while (next < result.levels.size() && !(levelSources[next] != none && levelSources[next] > s))
                    levels.push_back(std::move(result.levels[next++]));
                OverrideLevel level;
                level.layer = sources[s].layer;
                level.level = sources[s].level;
                level.path = sources[s].path;
                level.location = sources[s].shownAt;
                level.value = answer.value;
                level.contributed = true;
                level.outcome = sources[s].outcome;
                levels.push_back(std::move(level));
            }
            if (added) {
                while (next < result.levels.size())
                    levels.push_back(std::move(result.levels[next++]));
                result.levels = std::move(levels);
            }
        }
        if (!answer.found())
            return result;

        const MergeSpec used = answer.merge ? answer.merge->spec : MergeSpec();
        const std::optional<std::string> prefix =
            used.strategy == MergeStrategy::Deep ? used.knockoutPrefix : std::nullopt;
        std::vector<Step> steps;
        std::vector<std::pair<std::vector<Step>, const Value*>> leaves;
        collectLeaves(result.answer, steps, leaves);
        const LevelsByFile byFile(result.levels);
        const LevelsByPath byPath(result.levels);
        for (const auto& [leafSteps, leafValue] : leaves) {
            OverrideLeaf leaf;
            leaf.path = pathText(leafSteps);
            leaf.value = *leafValue;
            leaf.origin = originOf(*leafValue);
            const OverrideLevel* from = byFile.levelOf(leaf.origin.file);
            const std::vector<std::size_t>& holding = byPath.at(leafSteps); // the levels to walk
            // A knocked-out scalar (`--x` over a value: the answer is "") is credited to its knockout.
            bool knockedScalar = false;
            if (prefix && leafValue->isString() && leafValue->asString().empty()) {
                for (const std::size_t index : holding) {
                    const OverrideLevel& l = result.levels[index];
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
            std::unordered_set<std::string> own{leaf.origin.file};
            if (leafValue->isArray()) {
                leaf.elements.reserve(leafValue->asArray().size());
                for (std::size_t i = 0; i < leafValue->asArray().size(); ++i) {
                    const Value& element = leafValue->asArray()[i];
                    OverrideElement e{i, element, SourceFiles::locate(element.mark()), {}};
                    if (const OverrideLevel* l = byFile.levelOf(e.origin.file))
                        e.level = l->level;
                    own.insert(e.origin.file);
                    leaf.elements.push_back(std::move(e));
                }
            }
            const std::size_t fromIndex = from ? static_cast<std::size_t>(from - result.levels.data()) : 0;
            // The levels from `from` down that hold something here, in order (the others hold nothing).
            for (auto it = std::lower_bound(holding.begin(), holding.end(), fromIndex);
                 it != holding.end() && !knockedScalar; ++it) {
                const OverrideLevel& level = result.levels[*it];
                if (own.count(level.path))
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
                collectRemoved(result.levels, holding, leafSteps, leaf.path, *prefix, result.removed);
            result.leaves.push_back(std::move(leaf));
        }
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

} // namespace hiera
