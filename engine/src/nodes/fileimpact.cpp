// fileImpact: the nodes whose hierarchy holds a file, then each key the file defines resolved on each
// of them, and where the answer's leaves were written (hiera/nodes/fileimpact.h).

#include "nodes/answers.h"
#include "nodes/parallel.h"

#include <hiera/error.h>
#include <hiera/nodes/fileimpact.h>
#include <hiera/sourcetree.h>
#include <hiera/valueformat.h>

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
// in their node file and a few facts): an answer that is a function of those files and the key's
// lookup_options entry (NodeLookups::shareableFiles) is resolved on the first of them, and its role
// kept for the others. The files and entries are held, not only pointed to: a file changed on disk
// during the run cannot be freed and another parsed at its address.
class SharedRoles
{
public:
    enum class Role { None, Winner, Merged };
    struct Question
    {
        std::string root;
        const void* options = nullptr; // the key's lookup_options entry (null: none)
        std::vector<std::shared_ptr<const DataFile>> holders; // highest priority first
        bool operator==(const Question& o) const
        {
            if (root != o.root || options != o.options || holders.size() != o.holders.size())
                return false;
            for (std::size_t i = 0; i < holders.size(); ++i)
                if (holders[i] != o.holders[i])
                    return false;
            return true;
        }
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
            for (const auto& f : q.holders)
                h = detail::hashMix(h, reinterpret_cast<std::uintptr_t>(f.get()));
            return static_cast<std::size_t>(h);
        }
    };
    mutable std::mutex m_mutex;
    std::unordered_map<Question, Role, Hasher> m_roles;
};

// The target file's keys, numbered, and for each data file the nodes read which of them it holds, and
// how: worked out once per file (a role's nodes share all their files but one), by walking the smaller
// of the file's entries and the keys. And each lookup_options table's entries for the keys, once per
// table. Thread-safe.
class KeyIndex
{
public:
    enum Held : std::uint8_t { No = 0, AsWritten = 1, NotAsWritten = 2 };
    // An entry that fails (the lookup says how): the key is resolved.
    static const void* badOptions() { return &s_badOptions; }

    explicit KeyIndex(std::shared_ptr<const DataFile> target) : m_target(std::move(target))
    {
        if (!m_target->data.isHash())
            return;
        for (const Hash::Entry& e : m_target->data.asHash())
            if (e.key.isString() && e.key.asString() != "lookup_options")
                m_keys.push_back(e.key.asString());
        m_prepared.reserve(m_keys.size());
        for (std::size_t i = 0; i < m_keys.size(); ++i) {
            m_index.emplace(m_keys[i], static_cast<int>(i));
            m_prepared.emplace_back(m_keys[i]);
        }
    }

    int indexOf(std::string_view root) const
    {
        const auto it = m_index.find(root);
        return it == m_index.end() ? -1 : it->second;
    }

    const std::vector<std::uint8_t>& heldBy(const std::shared_ptr<const DataFile>& file)
    {
        {
            const std::lock_guard lock(m_mutex);
            if (auto it = m_held.find(file.get()); it != m_held.end())
                return it->second.second;
        }
        std::vector<std::uint8_t> held(m_keys.size(), No);
        if (file->data.isHash()) {
            constexpr std::uint8_t notAsWritten = DataFile::Interpolates | DataFile::InvalidKey | DataFile::Refused;
            const Hash& h = file->data.asHash();
            const auto mark = [&](std::size_t i, const Hash::Entry* e) {
                held[i] = (file->flags(e) & notAsWritten) ? NotAsWritten : AsWritten;
            };
            if (h.size() < m_keys.size()) {
                for (const Hash::Entry& e : h)
                    if (e.key.isString())
                        if (const int i = indexOf(e.key.asString()); i >= 0)
                            mark(static_cast<std::size_t>(i), &e);
            } else {
                for (std::size_t i = 0; i < m_prepared.size(); ++i)
                    if (const Hash::Entry* e = h.findEntry(m_prepared[i]))
                        mark(i, e);
            }
        }
        const std::lock_guard lock(m_mutex);
        return m_held.try_emplace(file.get(), file, std::move(held)).first->second.second;
    }

    const std::vector<const void*>& optionsIn(const std::shared_ptr<const detail::LookupOptionsTable>& table)
    {
        {
            const std::lock_guard lock(m_mutex);
            if (auto it = m_options.find(table.get()); it != m_options.end())
                return it->second.second;
        }
        std::vector<const void*> entries(m_keys.size(), nullptr);
        for (std::size_t i = 0; i < m_keys.size(); ++i) {
            try {
                entries[i] = NodeLookups::optionsEntry(*table, m_keys[i]);
            } catch (const Error&) {
                entries[i] = badOptions();
            }
        }
        const std::lock_guard lock(m_mutex);
        return m_options.try_emplace(table.get(), table, std::move(entries)).first->second.second;
    }

private:
    static inline const char s_badOptions = 0;
    std::shared_ptr<const DataFile> m_target; // keeps the keys' text alive
    std::vector<std::string_view> m_keys;
    std::vector<Hash::PreparedKey> m_prepared;
    std::unordered_map<std::string_view, int> m_index;
    std::mutex m_mutex;
    std::unordered_map<const DataFile*, std::pair<std::shared_ptr<const DataFile>, std::vector<std::uint8_t>>> m_held;
    std::unordered_map<const detail::LookupOptionsTable*,
                       std::pair<std::shared_ptr<const detail::LookupOptionsTable>, std::vector<const void*>>>
        m_options;
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
    std::unique_ptr<KeyIndex> keyIndex; // made from the first node's parse of the file
    std::vector<std::string> lookupOptions; // its lookup_options' keys, from the same parse
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
        const NodeLookups resolver(engine, scope, NodeLookups::KeyIndex::PerLookup);
        const std::shared_ptr<const DataFile> data = resolver.fileAt(impact.file);
        NodeShare& share = shares[i];
        share.reads = data && data->exists;
        if (share.reads && data->error) {
            const std::lock_guard lock(firstMutex);
            if (parseError.empty())
                parseError = printableLine(data->error->what());
        } else if (share.reads && data->data.isHash()) {
            KeyIndex* index = nullptr;
            {
                const std::lock_guard lock(firstMutex);
                if (!keyIndex) {
                    keyIndex = std::make_unique<KeyIndex>(data);
                    if (const Value* options = data->data.asHash().find("lookup_options"); options && options->isHash())
                        for (const Hash::Entry& e : options->asHash())
                            lookupOptions.push_back(cellText(e.key));
                }
                index = keyIndex.get();
            }
            std::vector<std::shared_ptr<const DataFile>> files;
            const bool eligible = resolver.shareableFiles(files);
            std::vector<const std::vector<std::uint8_t>*> held;
            const std::vector<const void*>* optionEntries = nullptr;
            if (eligible) {
                for (const auto& f : files)
                    held.push_back(&index->heldBy(f));
                optionEntries = &index->optionsIn(resolver.optionsTable());
            }
            std::size_t defined = 0;
            // The keys that fail on this node, by error: a broken file fails them all, said once.
            std::map<std::string, std::vector<std::string>> failures;
            for (const Hash::Entry& entry : data->data.asHash()) {
                if (!entry.key.isString() || entry.key.asString() == "lookup_options")
                    continue;
                ++defined;
                const std::string& root = entry.key.asString();
                const int k = index->indexOf(root);
                SharedRoles::Question question{root, nullptr, {}};
                bool shareable = eligible && k >= 0 && !root.empty() && !root.starts_with("::")
                    && !resolver.hasLayerOfModule(root) && (*optionEntries)[k] != KeyIndex::badOptions();
                for (std::size_t f = 0; shareable && f < files.size(); ++f) {
                    const std::uint8_t h = (*held[f])[k];
                    if (h == KeyIndex::NotAsWritten)
                        shareable = false;
                    else if (h == KeyIndex::AsWritten)
                        question.holders.push_back(files[f]);
                }
                if (shareable)
                    question.options = (*optionEntries)[k];
                SharedRoles::Role role = SharedRoles::Role::None;
                const bool known = shareable && shared.find(question, role);
                if (!known) {
                    std::vector<std::string> keyWarnings;
                    const ResolvedKey answer = detail::resolveKey(resolver, root, keyWarnings);
                    warnings[i].insert(keyWarnings.begin(), keyWarnings.end());
                    if (answer.status == LookupResult::Status::Error) {
                        failures[answer.error].push_back(root);
                        continue;
                    }
                    // The winner is the file the answer's location names: its highest-priority leaf's
                    // (the rule of the All keys view's File column); a contributor holds another leaf.
                    if (answer.found() && answer.location.file == impact.file) {
                        role = SharedRoles::Role::Winner;
                    } else if (answer.found()) {
                        const std::vector<std::string> leafFiles = resolver.leafFiles(answer.value);
                        if (std::find(leafFiles.begin(), leafFiles.end(), impact.file) != leafFiles.end())
                            role = SharedRoles::Role::Merged;
                    }
                    if (shareable)
                        shared.store(std::move(question), role);
                }
                if (role != SharedRoles::Role::None)
                    share.keys.emplace_back(
                        root, role == SharedRoles::Role::Winner ? KeyImpact::Role::Winner : KeyImpact::Role::Merged);
            }
            for (const auto& [error, keys] : failures)
                warnings[i].insert(nodes[i].name + ": "
                                   + (keys.size() == 1
                                          ? keys.front() + " fails"
                                          : std::to_string(keys.size()) + " keys fail (" + keys.front() + ", …)")
                                   + ", not counted: " + error);
            const std::lock_guard lock(firstMutex);
            keysDefined = std::max(keysDefined, defined);
        }
        if (options.progress)
            options.progress(++done, nodes.size());
    });
    impact.cancelled = options.stop.stop_requested();
    impact.error = parseError;
    impact.keysDefined = keysDefined;
    impact.lookupOptions = std::move(lookupOptions);

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
