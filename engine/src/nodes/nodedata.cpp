#include "nodes/answers.h"

#include <hiera/nodes/nodedata.h>

#include <algorithm>
#include <unordered_set>

namespace hiera {

std::size_t NodeData::errorCount() const
{
    return static_cast<std::size_t>(std::count_if(
        keys.begin(), keys.end(), [](const ResolvedKey& k) { return k.status == LookupResult::Status::Error; }));
}

std::string describeMerge(const MergeUsed& merge)
{
    std::string s = mergeStrategyName(merge.spec.strategy);
    switch (merge.source) {
    case MergeUsed::Source::Default:
        return s + " (default)";
    case MergeUsed::Source::Caller:
        return s + " (caller)";
    case MergeUsed::Source::LookupOptions:
        return s + " (lookup_options '" + std::string(merge.entryName()) + "')";
    }
    return s;
}

NodeData resolveAllKeys(const Engine& engine, const Scope& scope, const ResolveOptions& options)
{
    NodeData data;
    if (const auto certname = scope.lookup("trusted.certname"); certname && certname->isString())
        data.node = certname->asString();
    const NodeLookups node(engine, scope);
    std::unordered_set<std::string> brokenSeen;
    node.forEachDataFile([&](const DataFile& file) {
        if (file.exists && file.error && brokenSeen.insert(file.error->what()).second)
            data.brokenFiles.push_back(*file.error);
    });
    const std::vector<std::string_view> roots = node.rootKeys();
    data.keys.reserve(roots.size());
    std::vector<std::string> warnings;
    // Every lookup repeats the node's warnings (skipped files): keep each once, in first-seen order,
    // with the key that gave it first.
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < roots.size(); ++i) {
        if (options.stop.stop_requested()) {
            data.cancelled = true;
            break;
        }
        warnings.clear();
        data.keys.push_back(detail::resolveKey(node, roots[i], warnings));
        for (std::string& w : warnings)
            if (seen.insert(w).second) {
                SourceLocation where = leadingLocation(w);
                data.warnings.push_back({std::move(w), std::string(roots[i]), std::move(where)});
            }
        if (options.progress)
            options.progress(i + 1, roots.size());
    }
    return data;
}

} // namespace hiera
