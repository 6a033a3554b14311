// fileImpact: the nodes whose hierarchy holds a file, then each key the file defines resolved on each
// of them, and where the answer's leaves were written (hiera/fileimpact.h).

#include "nodes/noderesolver.h"
#include "nodes/parallel.h"

#include <hiera/error.h>
#include <hiera/fileimpact.h>
#include <hiera/sourcetree.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

namespace hiera {

namespace {

// One node's share: the keys it takes from the file, and how.
struct NodeShare
{
    bool reads = false;
    std::vector<std::pair<std::string, KeyImpact::Role>> keys;
};

std::string absoluteNormal(const std::string& file)
{
    std::filesystem::path p(file);
    if (p.is_relative())
        p = std::filesystem::current_path() / p;
    return p.lexically_normal().string();
}

} // namespace

FileImpact fileImpact(const Engine& engine, const NodeLibrary& library, const std::string& file,
                      const FileImpactOptions& options)
{
    FileImpact impact;
    impact.file = absoluteNormal(file);
    const std::vector<Node>& nodes = library.nodes();
    impact.nodes = nodes.size();
    impact.exists = treeOrWorking(engine.options().tree).stat(impact.file).kind == TreeStat::Kind::File;
    if (!impact.exists)
        return impact; // nothing reads a file that is not there

    std::vector<NodeShare> shares(nodes.size());
    std::vector<std::set<std::string>> warnings(nodes.size());
    std::mutex firstMutex;
    std::string parseError;
    std::size_t keysDefined = 0;
    std::atomic<std::size_t> done{0};
    detail::parallelItems(nodes.size(), options.executor, options.stop, [&](std::size_t i) {
        const Scope& scope = *nodes[i].scope;
        const std::vector<std::string> candidates = engine.candidateFiles(scope);
        if (std::find(candidates.begin(), candidates.end(), impact.file) == candidates.end()) {
            if (options.progress)
                options.progress(++done, nodes.size());
            return;
        }
        // The resolver for a few keys: a file defines tens of keys, not the node's thousands.
        const detail::NodeResolver resolver(engine, scope, detail::NodeResolver::Keys::Few);
        const DataFile* data = resolver.fileAt(impact.file);
        NodeShare& share = shares[i];
        share.reads = data && data->exists;
        if (share.reads && data->error) {
            const std::lock_guard lock(firstMutex);
            if (parseError.empty())
                parseError = printableLine(data->error->what());
        } else if (share.reads && data->data.isHash()) {
            std::size_t defined = 0;
            for (const Hash::Entry& entry : data->data.asHash()) {
                if (!entry.key.isString() || entry.key.asString() == "lookup_options")
                    continue;
                ++defined;
                std::vector<std::string> keyWarnings;
                const ResolvedKey k = resolver.resolve(entry.key.asString(), keyWarnings);
                warnings[i].insert(keyWarnings.begin(), keyWarnings.end());
                if (k.status == LookupResult::Status::Error) {
                    warnings[i].insert(entry.key.asString() + ": " + k.error);
                    continue;
                }
                if (!k.found())
                    continue;
                // The winner is the file the answer's location names: its highest-priority leaf's (the
                // rule of the All keys view's File column); a contributor holds some other leaf.
                if (k.location.file == impact.file) {
                    share.keys.emplace_back(entry.key.asString(), KeyImpact::Role::Winner);
                } else {
                    const std::vector<std::string> files = resolver.leafFiles(k.value);
                    if (std::find(files.begin(), files.end(), impact.file) != files.end())
                        share.keys.emplace_back(entry.key.asString(), KeyImpact::Role::Merged);
                }
            }
            const std::lock_guard lock(firstMutex);
            keysDefined = std::max(keysDefined, defined);
        }
        if (options.progress)
            options.progress(++done, nodes.size());
    });
    impact.cancelled = options.stop.stop_requested();
    impact.error = parseError;
    impact.keysDefined = keysDefined;

    // Grouped by key and role, nodes in library order.
    std::map<std::pair<std::string, KeyImpact::Role>, std::vector<std::string>> groups;
    std::set<std::string> allWarnings;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        allWarnings.insert(warnings[i].begin(), warnings[i].end());
        if (!shares[i].reads)
            continue;
        impact.nodesReading.push_back(nodes[i].name);
        for (const auto& [key, role] : shares[i].keys)
            groups[{key, role}].push_back(nodes[i].name);
    }
    for (auto& [id, names] : groups)
        impact.keys.push_back({id.first, id.second, std::move(names)});
    impact.warnings.assign(allWarnings.begin(), allWarnings.end());
    return impact;
}

} // namespace hiera
