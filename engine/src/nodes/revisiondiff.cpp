// diffRevisions: which nodes and keys a change can reach (the rules in hiera/nodes/revisiondiff.h and
// docs/revision-diff.md), then those keys resolved on both revisions and grouped by change.

#include "nodes/answers.h"
#include "nodes/dataformat.h"
#include "nodes/parallel.h"
#include "nodes/revisiondiffkept.h"

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

namespace detail {
// A file's interpolations that name keys: which of its root keys interpolate which others.
struct FileReferences
{
    bool unbounded = false; // a lookup/hiera/alias whose key could not be read: assume anything
    // Referenced root key -> the file's root keys whose values name it.
    std::unordered_map<std::string, std::vector<std::string>> holders;
    std::vector<std::string> anyKey; // root keys whose encrypted values may name any key
};
} // namespace detail

namespace {

using detail::FileChange;
using detail::FileReferences;

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
    const std::optional<DataFormat> format = detail::dataFormatOf(path);
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

template <typename T>
void appendAll(std::vector<T>& to, const std::vector<T>& from)
{
    to.insert(to.end(), from.begin(), from.end());
}

// One node's changed answers.
struct NodeChange
{
    std::string key;
    KeyDifference::Side before, after;
};

// Whether each node of a kept side is fixed there: every one of its files is (SourceTree::fixed, asked
// once a path; step 2's `paths` hold every node's files). A node that is not is resolved again on
// every diff, and nothing of it is kept.
void decideFixed(detail::KeptSide* side, const SourceTree& tree, const std::vector<std::string>& paths,
                 const std::unordered_map<std::string_view, std::size_t>& indexOf, const RevisionDiffOptions& options)
{
    if (!side)
        return;
    bool any = false;
    for (const detail::KeptNode& k : side->nodes)
        any = any || (k.filesKnown && !k.fixedKnown);
    if (!any)
        return;
    std::vector<char> fixed(paths.size());
    detail::parallelItems(paths.size(), options.executor, options.stop,
                          [&](std::size_t i) { fixed[i] = tree.fixed(paths[i]) ? 1 : 0; });
    if (options.stop.stop_requested())
        return;
    detail::parallelItems(side->nodes.size(), options.executor, options.stop, [&](std::size_t i) {
        detail::KeptNode& k = side->nodes[i];
        if (!k.filesKnown || k.fixedKnown)
            return;
        k.fixed = std::all_of(k.files.begin(), k.files.end(), [&](const std::string& f) {
            const auto at = indexOf.find(f);
            return at != indexOf.end() && fixed[at->second];
        });
        k.fixedKnown = !options.stop.stop_requested();
    });
}

// A node's candidate files on one side, sorted and unique: those kept for it (hiera/nodes/revisiondiffcache.h), else
// resolved, and kept until step 2 says whether they are fixed.
const std::vector<std::string>& candidatesOn(const Engine& engine, const Scope& scope, detail::KeptNode* kept,
                                             std::vector<std::string>& local)
{
    if (kept && kept->fixed)
        return kept->files;
    if (kept && kept->fixedKnown) { // not fixed: resolved on every diff, nothing kept
        kept->files = {};
        kept->filesKnown = false;
    }
    local = engine.candidateFiles(scope);
    std::sort(local.begin(), local.end());
    local.erase(std::unique(local.begin(), local.end()), local.end());
    if (!kept || kept->fixedKnown) // known not to be fixed: resolved on every diff
        return local;
    kept->files = std::move(local);
    kept->filesKnown = true;
    return kept->files;
}

// The node's lookups on one side: the kept ones when there are, else made (and kept when the node is
// fixed there and its answers follow its files). `all`: every key of the node, with the index.
const NodeLookups& lookupsOn(const Engine& engine, const Scope& scope, bool all, detail::KeptNode* kept,
                             std::unique_ptr<NodeLookups>& own)
{
    if (all) {
        own = std::make_unique<NodeLookups>(engine, scope, NodeLookups::KeyIndex::Indexed);
        return *own;
    }
    if (kept && kept->lookups)
        return *kept->lookups;
    own = std::make_unique<NodeLookups>(engine, scope, NodeLookups::KeyIndex::PerLookup);
    if (kept && own->answersFollowFiles()) {
        kept->lookups = std::move(own);
        return *kept->lookups;
    }
    return *own;
}

// The answer to `key` on `node`: the kept one when `node` is the kept lookups, else looked up (into
// `local`).
const LookupResult& answerOn(const NodeLookups& node, detail::KeptNode* kept, const std::string& key,
                             LookupResult& local)
{
    if (!kept || kept->lookups.get() != &node) {
        local = node.lookup(key);
        return local;
    }
    auto it = kept->answers.find(key);
    if (it == kept->answers.end())
        it = kept->answers.emplace(key, node.lookup(key)).first;
    return it->second;
}

// The references of the node's files on one side that name keys (the kept ones when `node` is the
// kept lookups), added to `out`; `unbounded` set when one cannot be read.
template <typename ReferencesAt>
void referencesOn(const NodeLookups& node, detail::KeptNode* kept, ReferencesAt&& referencesAt,
                  std::vector<std::shared_ptr<const FileReferences>>& out, bool& unbounded)
{
    const bool keep = kept && kept->lookups.get() == &node;
    if (!keep || !kept->referencesKnown) {
        std::vector<std::shared_ptr<const FileReferences>> mine;
        bool any = false;
        node.forEachDataFile([&](const DataFile& file) {
            auto r = referencesAt(file);
            any = any || r->unbounded;
            if (!r->holders.empty() || !r->anyKey.empty())
                mine.push_back(std::move(r));
        });
        if (!keep) {
            appendAll(out, mine);
            unbounded = unbounded || any;
            return;
        }
        kept->references = std::move(mine);
        kept->referencesUnbounded = any;
        kept->referencesKnown = true;
    }
    appendAll(out, kept->references);
    unbounded = unbounded || kept->referencesUnbounded;
}

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
    // A side kept from an earlier diff (hiera/nodes/revisiondiffcache.h) gives its nodes' files, and
    // later their lookups and answers. After a hierarchy change every key of every node is resolved
    // with the index, which is not kept (it is the size of the node's data).
    detail::RevisionDiffKept* kept = options.cache && !diff.hierarchyChanged ? &options.cache->kept() : nullptr;
    detail::KeptSide* keptBefore = kept ? kept->side(before, nullptr, nodes.size()) : nullptr;
    detail::KeptSide* keptAfter = kept ? kept->side(after, keptBefore, nodes.size()) : nullptr;
    const auto keptNode = [&](detail::KeptSide* side, std::size_t i) {
        return side ? &side->node(i, nodes[i].scope) : nullptr;
    };
    const bool globs = !diff.hierarchyChanged && anyGlob(after.layers());
    // Each node's files: its kept list when both sides give the same one, else its own.
    std::vector<const std::vector<std::string>*> files(nodes.size(), nullptr);
    std::vector<std::vector<std::string>> ownFiles(nodes.size());
    std::atomic<bool> allKept{keptBefore && keptAfter}; // every node's files from fixed kept lists
    if (!diff.hierarchyChanged) {
        detail::parallelItems(nodes.size(), options.executor, options.stop, [&](std::size_t i) {
            detail::KeptNode* b = keptNode(keptBefore, i);
            detail::KeptNode* a = keptNode(keptAfter, i);
            if (!(b && b->fixed) || (globs && !(a && a->fixed)))
                allKept = false;
            std::vector<std::string> localBefore, localAfter;
            const std::vector<std::string>& x = candidatesOn(before, *nodes[i].scope, b, localBefore);
            if (!globs) {
                if (a && !a->fixedKnown && a != b) {
                    a->files = x; // the same hierarchy without a glob: the same files
                    a->filesKnown = true;
                }
                files[i] = &x == &localBefore ? &(ownFiles[i] = std::move(localBefore)) : &x;
                return;
            }
            const std::vector<std::string>& y = candidatesOn(after, *nodes[i].scope, a, localAfter);
            if (x == y) {
                files[i] = &x == &localBefore ? &(ownFiles[i] = std::move(localBefore)) : &x;
                return;
            }
            std::set_union(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(ownFiles[i]));
            files[i] = &ownFiles[i];
        });
    }

    // 2. Each distinct file compared once.
    // Every node reads some thirty paths, most of them the same: deduplicated by hash, and only the
    // distinct ones sorted (sorting all 600,000 of 20,000 nodes, long shared prefixes and all, was a
    // serial tenth of a diff).
    // Two sides kept whole, with the same nodes as the last diff of these two sides: the same files,
    // compared the same way (every one of them fixed on both).
    std::shared_ptr<const detail::KeptComparison> comparison =
        kept && allKept && !options.stop.stop_requested() ? kept->comparisonOf(before, after, nodes) : nullptr;
    std::shared_ptr<detail::KeptComparison> made;
    if (!comparison) {
        made = std::make_shared<detail::KeptComparison>();
        std::unordered_set<std::string_view> distinct;
        distinct.reserve(files.size() * 2);
        for (const auto* f : files)
            if (f)
                distinct.insert(f->begin(), f->end());
        made->paths.assign(distinct.begin(), distinct.end());
        distinct = {};
        std::sort(made->paths.begin(), made->paths.end());
        made->changes.resize(made->paths.size());
        detail::parallelItems(made->paths.size(), options.executor, options.stop, [&](std::size_t i) {
            made->changes[i] = compareFile(treeOf(before), treeOf(after), made->paths[i]);
        });
        comparison = made;
    }
    const std::vector<std::string>& paths = comparison->paths;
    const std::vector<FileChange>& changes = comparison->changes;
    if (keptBefore || keptAfter) {
        std::unordered_map<std::string_view, std::size_t> indexOf;
        indexOf.reserve(paths.size());
        for (std::size_t i = 0; i < paths.size(); ++i)
            indexOf.emplace(paths[i], i);
        decideFixed(keptBefore, treeOf(before), paths, indexOf, options);
        if (keptAfter != keptBefore)
            decideFixed(keptAfter, treeOf(after), paths, indexOf, options);
    }
    if (made && keptBefore && keptAfter && !options.stop.stop_requested()) {
        bool whole = true;
        for (std::size_t i = 0; whole && i < nodes.size(); ++i)
            whole = keptBefore->nodes[i].fixed && keptAfter->nodes[i].fixed;
        if (whole) {
            made->before = keptBefore->engine;
            made->after = keptAfter->engine;
            for (const Node& node : nodes)
                made->scopes.push_back(node.scope);
            kept->comparison = made;
        }
    }
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
            static const std::vector<std::string> none;
            for (const std::string& f : files[i] ? *files[i] : none) {
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
        // Kept only where the node is fixed (decideFixed); a node kept on both sides of a second diff
        // is resolved no more: its answers are the kept ones.
        detail::KeptNode* kx = keptNode(keptBefore, i);
        detail::KeptNode* ky = keptNode(keptAfter, i);
        kx = kx && kx->fixed ? kx : nullptr;
        ky = ky && ky->fixed ? ky : nullptr;
        std::unique_ptr<NodeLookups> ownX, ownY;
        const NodeLookups& x = lookupsOn(before, scope, all, kx, ownX);
        const NodeLookups& y = lookupsOn(after, scope, all, ky, ownY);
        // Keys whose interpolation names a reached key, until none is added: from every file either
        // side's hierarchy holds for the node.
        if (!all && !keys.empty()) {
            std::vector<std::shared_ptr<const FileReferences>> refs;
            referencesOn(x, kx, referencesAt, refs, all);
            referencesOn(y, ky, referencesAt, refs, all);
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
            LookupResult ownP, ownQ;
            // Every key of the node (an unbounded reference): not kept, it is the size of its data.
            const LookupResult& p = answerOn(x, all ? nullptr : kx, key, ownP);
            const LookupResult& q = answerOn(y, all ? nullptr : ky, key, ownQ);
            for (const auto* r : {&p, &q})
                for (const std::string& w : r->warnings)
                    perNodeWarnings[i].insert(w);
            if (detail::sameAnswer(p, q))
                continue;
            perNode[i].push_back({key, detail::answerSide(x, p), detail::answerSide(y, q)});
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
