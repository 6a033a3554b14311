#include <hiera/lookupkey.h>
#include <hiera/overridechain.h>
#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <exception>
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
        // The answer, as the user asked for it.
        LookupRequest asked;
        asked.merge = merge;
        const LookupResult answer = engine.lookup(scope, key, asked);
        result.found = answer.found();
        if (answer.found())
            result.answer = answer.value;
        // Every level's value: a deep merge visits them all (first-found stops at the winner).
        LookupRequest all;
        MergeSpec deep;
        deep.strategy = MergeStrategy::Deep;
        all.merge = deep;
        all.explain = true;
        const LookupResult every = engine.lookup(scope, parsed->root(), all);
        if (every.trace)
            collectLevels(*every.trace, {}, {}, parsed->segments(), result.levels);
        if (!answer.found())
            return result;

        std::vector<Step> steps;
        std::vector<std::pair<std::vector<Step>, const Value*>> leaves;
        collectLeaves(result.answer, steps, leaves);
        for (const auto& [leafSteps, leafValue] : leaves) {
            OverrideLeaf leaf;
            leaf.path = pathText(leafSteps);
            leaf.value = *leafValue;
            leaf.origin = originOf(*leafValue);
            // The lower levels below the one it came from, at the same place, are what it overrode.
            auto from = std::find_if(result.levels.begin(), result.levels.end(), [&](const OverrideLevel& l) {
                return !l.path.empty() && l.path == leaf.origin.file;
            });
            if (from != result.levels.end())
                from->contributed = true;
            for (auto it = from == result.levels.end() ? result.levels.begin() : from + 1; it != result.levels.end();
                 ++it) {
                if (it->path == leaf.origin.file)
                    continue;
                if (const Value* below = walk(it->value, leafSteps)) {
                    leaf.overrode.push_back({*below, originOf(*below), it->level});
                }
            }
            // An array merged from several levels: each level that gave an element contributed.
            if (leafValue->isArray()) {
                for (const Value& element : leafValue->asArray()) {
                    const std::string file = SourceFiles::locate(element.mark()).file;
                    for (OverrideLevel& l : result.levels)
                        l.contributed = l.contributed || (!file.empty() && l.path == file);
                }
            }
            result.leaves.push_back(std::move(leaf));
        }
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

} // namespace hiera
