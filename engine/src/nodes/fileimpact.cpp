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
#include <optional>
#include <set>
#include <unordered_map>

namespace hiera {

namespace {

// One node's share: the keys it takes from the file, and how.
struct NodeShare
{
    bool reads = false;
    std::vector<std::pair<std::string, KeyImpact::Role>> keys;
};

// The nodes that read a file mostly share the files that hold each of its keys (a role's nodes differ
// in their node file and a few facts): an answer that depends on nothing but those files (see
// NodeResolver::shareableHolders) is resolved on the first of them, and its role kept for the others.
class SharedRoles
{
public:
    enum class Role { None, Winner, Merged };
    struct Question
    {
        std::string root;
        const void* options = nullptr;
        std::vector<const DataFile*> holders;
        bool operator==(const Question&) const = default;
    };

    bool find(const Question& q, Role& role) const
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_roles.find(q);
        if (it == m_roles.end())
            return false;
        role = it->second;
        return true;
    }
    void store(Question q, Role role)
    {
        const std::lock_guard lock(m_mutex);
        m_roles.emplace(std::move(q), role);
    }

private:
    struct Hasher
    {
        std::size_t operator()(const Question& q) const
        {
            std::uint64_t h = std::hash<std::string>{}(q.root);
            h = detail::hashMix(h, reinterpret_cast<std::uintptr_t>(q.options));
            for (const DataFile* f : q.holders)
                h = detail::hashMix(h, reinterpret_cast<std::uintptr_t>(f));
            return static_cast<std::size_t>(h);
        }
    };
    mutable std::mutex m_mutex;
    std::unordered_map<Question, Role, Hasher> m_roles;
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

    SharedRoles shared;
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
                const std::string& root = entry.key.asString();
                SharedRoles::Question question{root, nullptr, {}};
                const bool shareable = resolver.shareableHolders(root, question.holders, &question.options);
                SharedRoles::Role role = SharedRoles::Role::None;
                const bool known = shareable && shared.find(question, role);
                if (!known) {
                    std::vector<std::string> keyWarnings;
                    const ResolvedKey k = resolver.resolve(root, keyWarnings);
                    warnings[i].insert(keyWarnings.begin(), keyWarnings.end());
                    if (k.status == LookupResult::Status::Error) {
                        warnings[i].insert(root + ": " + k.error);
                        continue;
                    }
                    // The winner is the file the answer's location names: its highest-priority leaf's
                    // (the rule of the All keys view's File column); a contributor holds another leaf.
                    if (k.found() && k.location.file == impact.file) {
                        role = SharedRoles::Role::Winner;
                    } else if (k.found()) {
                        const std::vector<std::string> files = resolver.leafFiles(k.value);
                        if (std::find(files.begin(), files.end(), impact.file) != files.end())
                            role = SharedRoles::Role::Merged;
                    }
                    if (shareable)
                        shared.store(std::move(question), role);
                }
                if (role != SharedRoles::Role::None)
                    share.keys.emplace_back(
                        root, role == SharedRoles::Role::Winner ? KeyImpact::Role::Winner : KeyImpact::Role::Merged);
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
