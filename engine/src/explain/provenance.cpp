#include <hiera/lookupkey.h>
#include <hiera/provenance.h>
#include <hiera/sourcelocation.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace hiera {

namespace {

using Kind = TraceNode::Kind;
using Event = TraceNode::Event;
using Outcome = SourceContribution::Outcome;

struct FileCount
{
    SourceMark first; // the first leaf met from the file
    std::size_t leaves = 0;
};

// The files of v's leaves in the order first met, each with its first leaf and its count. `index`: file id
// -> position in out, so that a value with thousands of files (a merge over a glob) is counted in one
// pass, not a search of the list per leaf (docs/performance.md, "Cost that grows with the input").
void countFiles(const Value& v, std::vector<FileCount>& out, std::unordered_map<std::uint32_t, std::size_t>& index)
{
    if (v.isHash() && !v.asHash().empty()) {
        for (const auto& e : v.asHash())
            countFiles(e.value, out, index);
    } else if (v.isArray() && !v.asArray().empty()) {
        for (const Value& e : v.asArray())
            countFiles(e, out, index);
    } else if (v.mark().isValid()) {
        const auto [it, added] = index.try_emplace(v.mark().file, out.size());
        if (added)
            out.push_back({v.mark(), 1});
        else
            ++out[it->second].leaves;
    }
}

void countFiles(const Value& v, std::vector<FileCount>& out)
{
    std::unordered_map<std::uint32_t, std::size_t> index;
    countFiles(v, out, index);
}

// The event that says what a location gave: its own, or (if the engine hangs it below) a child's.
const TraceNode& decisiveNode(const TraceNode& node)
{
    auto decisive = [](Event e) {
        return e == Event::Found || e == Event::NotFound || e == Event::LocationNotFound || e == Event::Failed;
    };
    if (decisive(node.event))
        return node;
    for (const auto& child : node.children) {
        if (child->kind == Kind::Interpolation || child->kind == Kind::SubLookup)
            continue;
        if (decisive(child->event))
            return *child;
    }
    return node;
}

Outcome outcomeOf(Event e)
{
    switch (e) {
    case Event::Found:
        return Outcome::Merged; // decided once every source is known
    case Event::LocationNotFound:
        return Outcome::Missing;
    case Event::Failed:
        return Outcome::Failed;
    default:
        return Outcome::NotFound;
    }
}

void addSource(std::vector<SourceContribution>& out, const std::string& layer, const std::string& level,
               const TraceNode& node)
{
    const TraceNode& decided = decisiveNode(node);
    SourceContribution s;
    s.layer = layer;
    s.level = level;
    s.path = node.path;
    s.originalPath = node.originalPath;
    s.outcome = outcomeOf(decided.event);
    s.value = decided.value ? decided.value : node.value;
    s.location = decided.location.isValid() ? decided.location : node.location;
    s.message = decided.message;
    out.push_back(std::move(s));
}

void collectLocations(const TraceNode& node, std::vector<const TraceNode*>& out)
{
    for (const auto& child : node.children) {
        if (child->kind == Kind::Location)
            out.push_back(child.get());
        else if (child->kind == Kind::Merge)
            collectLocations(*child, out);
    }
}

void walk(const TraceNode& node, std::string layer, std::vector<SourceContribution>& out)
{
    switch (node.kind) {
    // About other keys (lookup_options, interpolated sub-lookups) or about digging.
    case Kind::LookupOptions:
    case Kind::SubLookup:
    case Kind::Interpolation:
    case Kind::ScopeRead:
    case Kind::Dig:
    case Kind::Segment:
    case Kind::ConvertTo:
        return;
    case Kind::Layer:
        layer = node.name;
        break;
    case Kind::Level: {
        std::vector<const TraceNode*> locations;
        collectLocations(node, locations);
        if (!locations.empty()) {
            for (const TraceNode* location : locations)
                addSource(out, layer, node.name, *location);
        } else if (node.event != Event::None) {
            addSource(out, layer, node.name, node);
        } else {
            SourceContribution s;
            s.layer = layer;
            s.level = node.name;
            s.outcome = Outcome::NoFiles;
            out.push_back(std::move(s));
        }
        return;
    }
    case Kind::Location:
        addSource(out, layer, {}, node);
        return;
    default:
        break;
    }
    for (const auto& child : node.children)
        walk(*child, layer, out);
}

// The strings of `v`'s arrays that start with `prefix`, without it: what a deep merge knocks out below
// (docs/hiera-reference.md §4.8). The bare prefix as an element empties the arrays below: `emptied`.
void knockouts(const Value& v, const std::string& prefix, std::vector<Value>& out, bool& emptied)
{
    if (v.isHash()) {
        for (const auto& e : v.asHash())
            knockouts(e.value, prefix, out, emptied);
    } else if (v.isArray()) {
        for (const Value& e : v.asArray()) {
            if (e.isString() && e.asString().compare(0, prefix.size(), prefix) == 0) {
                out.emplace_back(e.asString().substr(prefix.size()));
                emptied = emptied || e.asString() == prefix;
            } else {
                knockouts(e, prefix, out, emptied);
            }
        }
    }
}

// Every leaf of `v` is an array element that `knocked` names (or an array emptied by the bare prefix).
bool allKnockedOut(const Value& v, const std::vector<Value>& knocked, bool emptied)
{
    if (v.isHash()) {
        return !v.asHash().empty() && std::all_of(v.asHash().begin(), v.asHash().end(), [&](const auto& e) {
            return allKnockedOut(e.value, knocked, emptied);
        });
    }
    if (v.isArray()) {
        return !v.asArray().empty() && std::all_of(v.asArray().begin(), v.asArray().end(), [&](const Value& e) {
            return emptied || std::find(knocked.begin(), knocked.end(), e) != knocked.end();
        });
    }
    return false;
}

} // namespace

std::vector<std::pair<std::string, std::size_t>> filesOf(const Value& v)
{
    std::vector<FileCount> counts;
    countFiles(v, counts);
    std::vector<std::pair<std::string, std::size_t>> files;
    files.reserve(counts.size());
    for (const FileCount& c : counts)
        files.emplace_back(SourceFiles::name(c.first.file), c.leaves);
    return files;
}

static std::vector<SourceContribution> contributionsOf(const TraceNode& lookup)
{
    std::vector<SourceContribution> sources;
    walk(lookup, {}, sources);
    const bool first = !lookup.merge || lookup.merge->strategy == MergeStrategy::First;
    const auto key = LookupKey::tryParse(lookup.key);
    std::vector<FileCount> counts;
    if (lookup.value)
        countFiles(*lookup.value, counts);
    // The count of a source's file, by its name: a table made once (a search of every count per source,
    // each naming its file, made a merge over 5,000 files quadratic; docs/performance.md, "Cost that grows with the
    // input").
    std::unordered_map<std::string, const FileCount*> countByName;
    for (const FileCount& c : counts)
        countByName.try_emplace(SourceFiles::name(c.first.file), &c);
    const auto countOf = [&](const std::string& path) -> const FileCount* {
        const auto it = path.empty() ? countByName.end() : countByName.find(path);
        return it == countByName.end() ? nullptr : it->second;
    };
    const auto leavesFrom = [&](const std::string& path) -> std::size_t {
        const FileCount* c = countOf(path);
        return c ? c->leaves : 0;
    };
    const auto credit = [&](SourceContribution& s) {
        if (const FileCount* c = countOf(s.path)) {
            s.leaves = c->leaves;
            s.leafLocation = SourceFiles::locate(c->first);
        }
    };
    if (first) {
        // The first found decided the answer (even "not found" after a dig); the others were not read
        // for it. By order, not by marks: an alias's answer carries the aliased key's files.
        bool won = false;
        for (SourceContribution& s : sources) {
            if (s.outcome != Outcome::Merged)
                continue;
            s.outcome = won ? Outcome::Shadowed : Outcome::Won;
            if (!won)
                credit(s);
            won = true;
        }
        return sources;
    }
    // A merge: credited by the files the answer's leaves carry.
    const bool creditsAny = std::any_of(sources.begin(), sources.end(), [&](const SourceContribution& s) {
        return s.outcome == Outcome::Merged && leavesFrom(s.path) > 0;
    });
    const std::optional<std::string> prefix =
        lookup.merge->strategy == MergeStrategy::Deep ? lookup.merge->knockoutPrefix : std::nullopt;
    // What the source folded in just before knocks out of the next one (the merge strips knockout
    // entries once used: docs/hiera-reference.md §4.8).
    std::vector<Value> knocked;
    bool emptied = false;
    for (SourceContribution& s : sources) {
        if (s.outcome != Outcome::Merged)
            continue;
        const Value* held = s.value ? (key && key->isDotted() ? dig(*s.value, key->segments()) : &*s.value) : nullptr;
        credit(s);
        if (!creditsAny) {
            // No leaf of the answer carries a file of its own sources (an alias of another key, a value
            // made by convert_to): every source found took part.
        } else if (s.leaves > 0) {
            // Merged: a leaf of the answer is its own, even where its own value has nothing at the dotted
            // path (servers.2 is dc2's only server once the lower levels' two come first).
        } else if (!held) {
            s.outcome = Outcome::RootOnly;
        } else {
            s.outcome = prefix && allKnockedOut(*held, knocked, emptied) ? Outcome::Removed : Outcome::Overridden;
        }
        knocked.clear();
        emptied = false;
        if (prefix && s.value)
            knockouts(held ? *held : *s.value, *prefix, knocked, emptied);
    }
    return sources;
}

std::vector<SourceContribution> sourceContributions(const TraceNode& lookup)
{
    std::vector<SourceContribution> sources = contributionsOf(lookup);
    const auto key = LookupKey::tryParse(lookup.key);
    const bool dotted = key && key->isDotted();
    for (SourceContribution& s : sources)
        s.shownAt = dotted && s.contributed() && s.leafLocation.isValid() ? s.leafLocation : s.location;
    return sources;
}

const char* outcomeName(SourceContribution::Outcome outcome)
{
    switch (outcome) {
    case Outcome::Won:
        return "won";
    case Outcome::Merged:
        return "merged";
    case Outcome::Shadowed:
        return "shadowed";
    case Outcome::Overridden:
        return "overridden";
    case Outcome::Removed:
        return "knocked out";
    case Outcome::RootOnly:
        return "root key only";
    case Outcome::NotFound:
        return "no key";
    case Outcome::Missing:
        return "missing";
    case Outcome::Failed:
        return "failed";
    case Outcome::NoFiles:
        return "no files";
    }
    return "";
}

} // namespace hiera
