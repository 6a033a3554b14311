#include "lookup/nodesnapshot.h"

namespace hiera::detail {

std::string brokenFileWarning(const Error& error)
{
    return std::string(error.what()) + " (file skipped; Puppet would fail the lookup)";
}

std::string unsupportedLevelWarning(const Error& why)
{
    return std::string(why.what()) + " (level skipped; Puppet would run it)";
}

bool NodeSnapshot::sameFiles(const NodeSnapshot& other) const
{
    if (layers.size() != other.layers.size())
        return false;
    auto sameLevels = [](const std::vector<LevelState>& a, const std::vector<LevelState>& b) {
        if (a.size() != b.size())
            return false;
        for (std::size_t j = 0; j < a.size(); ++j) {
            if (a[j].files.size() != b[j].files.size() || a[j].error.has_value() != b[j].error.has_value())
                return false;
            for (std::size_t k = 0; k < a[j].files.size(); ++k)
                if (a[j].files[k].file != b[j].files[k].file
                    || a[j].files[k].candidate.path != b[j].files[k].candidate.path)
                    return false;
        }
        return true;
    };
    for (std::size_t i = 0; i < layers.size(); ++i)
        if (!sameLevels(layers[i].levels, other.layers[i].levels)
            || !sameLevels(layers[i].defaultLevels, other.layers[i].defaultLevels))
            return false;
    return true;
}

void forEachRootEntry(const NodeSnapshot& snapshot, const std::function<void(const Hash::Entry&)>& f)
{
    for (const LayerState& layer : snapshot.layers)
        for (const auto* levels : {&layer.levels, &layer.defaultLevels})
            for (const LevelState& level : *levels)
                for (const ResolvedFile& rf : level.files) {
                    const DataFile& file = *rf.file;
                    if (!file.exists || file.error || !file.data.isHash())
                        continue;
                    for (const auto& e : file.data.asHash()) {
                        if (!e.key.isString() || e.key.asString() == "lookup_options")
                            continue;
                        // A module's data answers only keys in its namespace (docs/layers.md §2).
                        if (layer.layer->kind == Layer::Kind::Module
                            && e.key.asString().rfind(layer.layer->module + "::", 0) != 0)
                            continue;
                        f(e);
                    }
                }
}

std::size_t LookupOptionsCache::KeyHash::operator()(const std::vector<const DataFile*>& k) const
{
    std::size_t h = k.size();
    for (const DataFile* p : k)
        h = h * 1099511628211ull ^ std::hash<const void*>{}(p);
    return h;
}

std::shared_ptr<const LookupOptionsTable> LookupOptionsCache::find(const std::vector<const DataFile*>& files) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(files);
    return it == m_entries.end() ? nullptr : it->second.table;
}

void LookupOptionsCache::store(std::vector<std::shared_ptr<const DataFile>> files,
                               std::shared_ptr<const LookupOptionsTable> table)
{
    std::vector<const DataFile*> key;
    key.reserve(files.size());
    for (const auto& f : files)
        key.push_back(f.get());
    std::lock_guard lock(m_mutex);
    if (m_entries.size() >= 4096)
        m_entries.clear(); // bounded: a fleet rarely has that many distinct combinations
    m_entries[std::move(key)] = Entry{std::move(files), std::move(table)};
}

void LookupOptionsCache::clear()
{
    std::lock_guard lock(m_mutex);
    m_entries.clear();
}

} // namespace hiera::detail
