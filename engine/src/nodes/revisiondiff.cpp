// diffRevisions: which nodes and keys a change can reach (the rules in hiera/nodes/revisiondiff.h and
// docs/revision-diff.md), then those keys resolved on both revisions and grouped by change.

#include "nodes/answers.h"
#include "nodes/parallel.h"

#include <hiera/error.h>
#include <hiera/lookupkey.h>
#include <hiera/nodes/revisiondiff.h>
#include <hiera/sourcetree.h>
#include <hiera/yaml.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace hiera {

namespace {

// What one data file's change does to the keys of the nodes that read it.
struct FileChange
{
    bool changed = false;
    bool allKeys = false; // every key of its nodes: lookup_options changed, unparseable, not YAML/JSON
    std::vector<std::string> keys; // root keys whose value or presence differs
};

// A file's interpolations that name keys: which of its root keys interpolate which others.
struct FileReferences
{
    bool unbounded = false; // a lookup/hiera/alias whose key could not be read: assume anything
    // Referenced root key -> the file's root keys whose values name it.
    std::unordered_map<std::string, std::vector<std::string>> holders;
    std::vector<std::string> anyKey; // root keys whose encrypted values may name any key
};

const SourceTree& treeOf(const Engine& engine)
{
    return treeOrWorking(engine.options().tree);
}

// The file's text, or nullopt when it is missing or unreadable on that side.
std::optional<std::string> readSide(const SourceTree& tree, const std::string& path)
{
    const TreeStat st = tree.stat(path);
    if (st.kind != TreeStat::Kind::File)
        return std::nullopt;
    try {
        return tree.read(path, ParseLimits{}.maxDocumentBytes);
    } catch (const Error&) {
        return std::nullopt;
    }
}

std::optional<DataFormat> formatOf(std::string_view path)
{
    for (const char* ext : {".yaml", ".yml", ".eyaml"})
        if (path.ends_with(ext))
            return DataFormat::Yaml;
    if (path.ends_with(".json"))
        return DataFormat::Json;
    return std::nullopt;
}

// The top-level hash of a data file's text; nullopt when it is not one (a parse error, a list).
std::optional<Value> topHash(const std::optional<std::string>& text, const std::string& path, DataFormat format)
{
    if (!text)
        return Value(Hash{}); // missing: no keys
    try {
        Value v = parseData(*text, path, format);
        if (v.isNull())
            return Value(Hash{});
        if (!v.isHash())
            return std::nullopt;
        for (const auto& entry : v.asHash())
            if (!entry.key.isString())
                return std::nullopt; // a key Hiera cannot name: do not guess what reads it
        return v;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

FileChange compareFile(const SourceTree& beforeTree, const SourceTree& afterTree, const std::string& path)
{
    FileChange change;
    const TreeStat b = beforeTree.stat(path), a = afterTree.stat(path);
    if (!b.contentId.empty() && b.contentId == a.contentId)
        return change; // the same blob in two commits
    if (!b.exists() && !a.exists())
        return change;
    const std::optional<std::string> before = readSide(beforeTree, path), after = readSide(afterTree, path);
    if (before == after)
        return change;
    change.changed = true;
    const std::optional<DataFormat> format = formatOf(path);
    const std::optional<Value> x = format ? topHash(before, path, *format) : std::nullopt;
    const std::optional<Value> y = format ? topHash(after, path, *format) : std::nullopt;
    if (!x || !y) {
        change.allKeys = true;
        return change;
    }
    std::set<std::string> keys;
    for (const auto& entry : x->asHash()) {
        const Value* other = y->asHash().find(entry.key.asString());
        if (!other || !(*other == entry.value))
            keys.insert(entry.key.asString());
    }
    for (const auto& entry : y->asHash())
        if (!x->asHash().find(entry.key.asString()))
            keys.insert(entry.key.asString());
    if (keys.count("lookup_options")) {
        change.allKeys = true;
        return change;
    }
    change.keys.assign(keys.begin(), keys.end());
    return change;
}

// The keys `%{lookup('k')}`, `%{hiera('k')}` and `%{alias('k')}` in `text` name, by root key. Hiera's
// interpolation is `%{` up to the next `}`, a function call with one quoted argument and no spaces
// (docs/engine-semantics.md); anything else that mentions one of these functions is unbounded.
bool referencedKeys(std::string_view text, std::vector<std::string>& out)
{
    for (std::size_t at = text.find("%{"); at != std::string_view::npos; at = text.find("%{", at + 2)) {
        const std::size_t end = text.find('}', at + 2);
        const std::string_view body = text.substr(at + 2, end == std::string_view::npos ? text.npos : end - at - 2);
        std::string_view argument;
        bool names = false;
        for (const std::string_view function : {"lookup(", "hiera(", "alias("}) {
            if (body.starts_with(function)) {
                names = true;
                argument = body.substr(function.size());
            }
        }
        if (!names) {
            if (body.find("lookup") != body.npos || body.find("hiera") != body.npos || body.find("alias") != body.npos)
                return false; // "%{ lookup('k') }": not read here; assume it names anything
            continue;
        }
        if (argument.size() < 3 || (argument[0] != '\'' && argument[0] != '"') || !argument.ends_with(")")
            || argument[argument.size() - 2] != argument[0])
            return false;
        const std::string_view key = argument.substr(1, argument.size() - 3);
        const std::optional<LookupKey> parsed = LookupKey::tryParse(key);
        if (!parsed || key.find("%{") != key.npos)
            return false;
        out.push_back(parsed->root());
        if (end == std::string_view::npos)
            break;
    }
    return true;
}

// Every string (keys included) under `v`.
template <typename F>
void forEachString(const Value& v, F&& f)
{
    if (v.isString()) {
        f(v.asString());
    } else if (v.isArray()) {
        for (const Value& e : v.asArray())
            forEachString(e, f);
    } else if (v.isHash()) {
        for (const auto& entry : v.asHash()) {
            forEachString(entry.key, f);
            forEachString(entry.value, f);
        }
    }
}

bool holdsEncrypted(const Value& v)
{
    bool found = false;
    forEachString(v, [&](const std::string& s) { found = found || s.find("ENC[") != std::string::npos; });
    return found;
}

// Which of a parsed file's root keys interpolate which keys. The engine flagged the entries that hold
// "%{" when it parsed the file; an eyaml value is read only once decrypted, so an entry holding one
// may name any key.
FileReferences referencesOf(const DataFile& file)
{
    FileReferences refs;
    if (!file.exists || file.error || !file.data.isHash())
        return refs;
    for (const Hash::Entry& entry : file.data.asHash()) {
        if (!entry.key.isString())
            continue;
        if (!(file.flags(&entry) & DataFile::Interpolates)) {
            if (holdsEncrypted(entry.value))
                refs.anyKey.push_back(entry.key.asString());
            continue;
        }
        std::vector<std::string> named;
        bool bounded = true;
        forEachString(entry.value, [&](const std::string& s) { bounded = bounded && referencedKeys(s, named); });
        if (!bounded) {
            refs.unbounded = true;
            return refs;
        }
        for (std::string& k : named) {
            std::vector<std::string>& h = refs.holders[std::move(k)];
            if (h.empty() || h.back() != entry.key.asString())
                h.push_back(entry.key.asString());
        }
    }
    return refs;
}

// The hierarchy itself: the layers, their hiera.yaml files (as read on each side) and their errors.
std::string hierarchyDifference(const Engine& before, const Engine& after)
{
    const std::vector<Layer>& x = before.layers();
    const std::vector<Layer>& y = after.layers();
    if (x.size() != y.size())
        return "the layers differ (" + std::to_string(x.size()) + " before, " + std::to_string(y.size()) + " after)";
    for (std::size_t i = 0; i < x.size(); ++i) {
        const Layer &p = x[i], &q = y[i];
        if (p.kind != q.kind || p.module != q.module || p.config.path != q.config.path
            || p.config.directory != q.config.directory)
            return "the layers differ (" + p.displayName() + " / " + q.displayName() + ")";
        if (p.error.has_value() != q.error.has_value() || (p.error && std::string(p.error->what()) != q.error->what()))
            return q.displayName() + "'s hiera.yaml differs";
        if (!p.config.path.empty() && readSide(treeOf(before), p.config.path) != readSide(treeOf(after), q.config.path))
            return p.config.path + " differs";
    }
    return {};
}

bool anyGlob(const std::vector<Layer>& layers)
{
    for (const Layer& layer : layers)
        for (const auto* levels : {&layer.config.hierarchy, &layer.config.defaultHierarchy})
            for (const Level& level : *levels)
                for (const LocationSpec& location : level.locations)
                    if (location.kind == LocationSpec::Kind::Glob)
                        return true;
    return false;
}

void appendAll(std::vector<std::string>& to, const std::vector<std::string>& from)
{
    to.insert(to.end(), from.begin(), from.end());
}

// One node's changed answers.
struct NodeChange
{
    std::string key;
    KeyDifference::Side before, after;
};

bool sameSide(const KeyDifference::Side& x, const KeyDifference::Side& y)
{
    if (x.status != y.status)
        return false;
    if (x.status == LookupResult::Status::Found)
        return x.value == y.value;
    return x.status == LookupResult::Status::NotFound || x.error == y.error;
}

} // namespace

RevisionDiff diffRevisions(const Engine& before, const Engine& after, const NodeLibrary& library,
                           const RevisionDiffOptions& options)
{
    RevisionDiff diff;
    const std::vector<Node>& nodes = library.nodes();
    diff.nodes = nodes.size();
    const std::string hierarchy = hierarchyDifference(before, after);
    diff.hierarchyChanged = !hierarchy.empty();

    // 1. Every node's data files on both sides (present or not; globs as matched on each side). With
    // the hierarchy the same on both sides, a level's paths interpolate the same facts into the same
    // names, whatever the files hold: only a glob's matches can differ (a file added or removed), so
    // the newer side is resolved again only when some level globs (a fifth of a diff's time).
    std::vector<std::vector<std::string>> files(nodes.size());
    if (!diff.hierarchyChanged) {
        const bool globs = anyGlob(after.layers());
        detail::parallelItems(nodes.size(), options.executor, options.stop, [&](std::size_t i) {
            std::vector<std::string> f = before.candidateFiles(*nodes[i].scope);
            if (globs)
                appendAll(f, after.candidateFiles(*nodes[i].scope));
            std::sort(f.begin(), f.end());
            f.erase(std::unique(f.begin(), f.end()), f.end());
            files[i] = std::move(f);
        });
    }

    // 2. Each distinct file compared once.
    std::vector<std::string> paths;
    for (const auto& f : files)
        paths.insert(paths.end(), f.begin(), f.end());
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    std::vector<FileChange> changes(paths.size());
    detail::parallelItems(paths.size(), options.executor, options.stop,
                          [&](std::size_t i) { changes[i] = compareFile(treeOf(before), treeOf(after), paths[i]); });
    std::unordered_map<std::string_view, const FileChange*> changeOf;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (changes[i].changed) {
            changeOf.emplace(paths[i], &changes[i]);
            diff.changedFiles.push_back(paths[i]);
        }
    }
    // The references of each parsed file (both engines' files, by identity), made once.
    std::mutex referencesMutex;
    std::unordered_map<const DataFile*, std::shared_ptr<const FileReferences>> referencesCache;
    auto referencesAt = [&](const DataFile& file) {
        {
            const std::lock_guard lock(referencesMutex);
            if (auto it = referencesCache.find(&file); it != referencesCache.end())
                return it->second;
        }
        auto refs = std::make_shared<const FileReferences>(referencesOf(file));
        const std::lock_guard lock(referencesMutex);
        return referencesCache.emplace(&file, std::move(refs)).first->second;
    };

    // 3. Per node: the keys a change reaches, resolved on both sides.
    std::vector<std::vector<NodeChange>> perNode(nodes.size());
    // The distinct keys resolved on some node, kept once (not per node: after a hierarchy change that
    // would be every key of every node).
    std::mutex recomputedMutex;
    std::unordered_set<std::string> recomputedKeys;
    // Each once: a skipped level warns on every lookup of every key, which over all keys of
    // 20,000 nodes would be hundreds of millions of copies of one line.
    std::vector<std::set<std::string>> perNodeWarnings(nodes.size());
    std::atomic<std::size_t> done{0}, lookups{0}, recomputedNodes{0};
    detail::parallelItems(nodes.size(), options.executor, options.stop, [&](std::size_t i) {
        const Scope& scope = *nodes[i].scope;
        bool all = diff.hierarchyChanged;
        std::set<std::string> keys;
        if (!all) {
            bool any = false;
            for (const std::string& f : files[i]) {
                auto it = changeOf.find(f);
                if (it == changeOf.end())
                    continue;
                any = true;
                all = all || it->second->allKeys;
                keys.insert(it->second->keys.begin(), it->second->keys.end());
            }
            if (!any) {
                if (options.progress)
                    options.progress(++done, nodes.size());
                return;
            }
        }
        const NodeLookups::KeyIndex keyIndex = all ? NodeLookups::KeyIndex::Indexed : NodeLookups::KeyIndex::PerLookup;
        const NodeLookups x(before, scope, keyIndex);
        const NodeLookups y(after, scope, keyIndex);
        // Keys whose interpolation names a reached key, until none is added: from every file either
        // side's hierarchy holds for the node.
        if (!all && !keys.empty()) {
            std::vector<std::shared_ptr<const FileReferences>> refs;
            for (const auto* resolver : {&x, &y}) {
                resolver->forEachDataFile([&](const DataFile& file) {
                    auto r = referencesAt(file);
                    all = all || r->unbounded;
                    if (!r->holders.empty() || !r->anyKey.empty())
                        refs.push_back(std::move(r));
                });
            }
            std::vector<std::string> pending(keys.begin(), keys.end());
            for (const auto& r : refs) // an encrypted value may name any of them
                for (const std::string& holder : r->anyKey)
                    if (keys.insert(holder).second)
                        pending.push_back(holder);
            while (!all && !pending.empty()) {
                const std::string key = std::move(pending.back());
                pending.pop_back();
                for (const auto& r : refs)
                    if (auto it = r->holders.find(key); it != r->holders.end())
                        for (const std::string& holder : it->second)
                            if (keys.insert(holder).second)
                                pending.push_back(holder);
            }
        }
        std::vector<std::string> reached;
        if (all) {
            for (const auto* resolver : {&x, &y})
                for (std::string_view k : resolver->rootKeys())
                    keys.emplace(k);
        }
        for (const std::string& key : keys) {
            if (!key.starts_with(options.prefix) || key == "lookup_options")
                continue;
            reached.push_back(key);
            LookupResult p = x.lookup(key), q = y.lookup(key);
            for (auto* r : {&p, &q})
                for (auto& w : r->warnings)
                    perNodeWarnings[i].insert(std::move(w));
            if (detail::sameAnswer(p, q))
                continue;
            perNode[i].push_back({key, detail::answerSide(x, std::move(p)), detail::answerSide(y, std::move(q))});
        }
        lookups += reached.size();
        if (!reached.empty())
            ++recomputedNodes;
        if (!reached.empty()) {
            const std::lock_guard lock(recomputedMutex);
            for (std::string& k : reached)
                recomputedKeys.insert(std::move(k));
        }
        if (options.progress)
            options.progress(++done, nodes.size());
    });
    diff.cancelled = options.stop.stop_requested();
    diff.lookups = lookups;
    diff.nodesRecomputed = recomputedNodes;

    // 4. Grouped: one change per key and distinct (before, after), its nodes in library order.
    std::map<std::string, std::vector<std::size_t>> byKey; // key -> indices into diff.changes
    std::set<std::string> warnings;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        warnings.insert(perNodeWarnings[i].begin(), perNodeWarnings[i].end());
        for (NodeChange& c : perNode[i]) {
            std::vector<std::size_t>& group = byKey[c.key];
            auto same = std::find_if(group.begin(), group.end(), [&](std::size_t g) {
                return sameSide(diff.changes[g].before, c.before) && sameSide(diff.changes[g].after, c.after);
            });
            if (same == group.end()) {
                RevisionChange change;
                change.key = c.key;
                change.before = c.before;
                change.after = c.after;
                group.push_back(diff.changes.size());
                diff.changes.push_back(std::move(change));
                same = group.end() - 1;
            }
            // Equal values may come from different files on different nodes: every node's sources.
            RevisionChange& change = diff.changes[*same];
            change.nodes.push_back(nodes[i].name);
            appendAll(change.sourcesBefore, NodeLookups::leafSources(c.before.value));
            appendAll(change.sourcesAfter, NodeLookups::leafSources(c.after.value));
        }
    }
    for (RevisionChange& change : diff.changes) {
        for (auto* sources : {&change.sourcesBefore, &change.sourcesAfter}) {
            std::sort(sources->begin(), sources->end());
            sources->erase(std::unique(sources->begin(), sources->end()), sources->end());
        }
    }
    diff.keysRecomputed = recomputedKeys.size();
    diff.warnings.assign(warnings.begin(), warnings.end());
    std::vector<RevisionChange> ordered;
    ordered.reserve(diff.changes.size());
    for (auto& [key, group] : byKey) {
        std::stable_sort(group.begin(), group.end(), [&](std::size_t p, std::size_t q) {
            return diff.changes[p].nodes.size() > diff.changes[q].nodes.size();
        });
        for (std::size_t g : group)
            ordered.push_back(std::move(diff.changes[g]));
    }
    diff.changes = std::move(ordered);

    if (diff.hierarchyChanged)
        diff.reason = "the hierarchy changed (" + hierarchy + "): every key of every node recomputed";
    else if (diff.changedFiles.empty())
        diff.reason = "no data file of any node's hierarchy differs";
    else {
        const bool one = diff.changedFiles.size() == 1;
        diff.reason = std::to_string(diff.changedFiles.size()) + (one ? " file" : " files") + " of the hierarchy "
            + (one ? "differs: the keys it changes" : "differ: the keys they change")
            + ", and the keys that interpolate those, on the " + std::to_string(diff.nodesRecomputed)
            + (diff.nodesRecomputed == 1 ? " node that reads " : " nodes that read ") + (one ? "it" : "them");
    }
    return diff;
}

} // namespace hiera
