#include "cache/filecache.h"

#include "interpolate/interpolation.h"
#include "parse/scalarresolver.h"

#include <hiera/backend.h>
#include <hiera/yaml.h>

#include <cstdint>

namespace hiera {

namespace {
bool hasInvalidKey(const Value& v)
{
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            if (hasInvalidKey(e))
                return true;
    } else if (v.isHash()) {
        for (const auto& e : v.asHash())
            if ((!e.key.isString() && !e.key.isNumber()) || hasInvalidKey(e.value))
                return true;
    }
    return false;
}
// The BackendContext of a data_hash call.
class LoadContext : public BackendContext
{
public:
    LoadContext(const SourceTree& tree, const std::string& path, const Value& options, const ParseLimits& limits,
                std::vector<std::string>& warnings)
        : m_tree(tree)
        , m_path(path)
        , m_options(options)
        , m_limits(limits)
        , m_warnings(warnings)
    {
    }
    const std::string& path() const override { return m_path; }
    const Value& options() const override { return m_options; }
    const ParseLimits& limits() const override { return m_limits; }
    std::string read(std::size_t limit) const override { return m_tree.read(m_path, limit); }
    void warn(const std::string& message) override { m_warnings.push_back(message); }

private:
    const SourceTree& m_tree;
    const std::string& m_path;
    const Value& m_options;
    const ParseLimits& m_limits;
    std::vector<std::string>& m_warnings;
};

// Whether `v` holds the value written at `mark` (a refused scalar, kept as its text).
bool holds(const Value& v, const SourceMark& mark)
{
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            if (holds(e, mark))
                return true;
    } else if (v.isHash()) {
        for (const auto& e : v.asHash())
            if (holds(e.value, mark))
                return true;
    }
    return v.isString() && v.mark() == mark;
}

} // namespace

namespace detail {

std::optional<Value> FileMemo::find(const std::string& key) const
{
    std::shared_lock lock(m_mutex);
    auto it = m_values.find(key);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

void FileMemo::store(const std::string& key, Value value)
{
    std::unique_lock lock(m_mutex);
    if (m_values.size() >= kMaxEntries)
        m_values.clear();
    m_values.insert_or_assign(key, std::move(value));
}

} // namespace detail

std::shared_ptr<ContentParseCache> makeContentParseCache()
{
    return std::make_shared<ContentParseCache>();
}

std::shared_ptr<const DataFile> ContentParseCache::find(const std::string& key) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_files.find(key);
    return it == m_files.end() ? nullptr : it->second;
}

void ContentParseCache::store(const std::string& key, std::shared_ptr<const DataFile> file)
{
    const std::lock_guard lock(m_mutex);
    m_files.emplace(key, std::move(file));
}

FileCache::FileCache(std::chrono::milliseconds revalidateInterval, const std::string& diskCacheDirectory,
                     std::shared_ptr<const SourceTree> tree, std::shared_ptr<ContentParseCache> shared)
    : m_interval(revalidateInterval)
    , m_tree(tree ? std::move(tree) : SourceTree::workingTree())
    // The disk cache knows a file by its path and inode, which name one file only on the file system.
    , m_disk(diskCacheDirectory.empty() || m_tree != SourceTree::workingTree()
                 ? nullptr
                 : std::make_unique<detail::DiskCache>(diskCacheDirectory))
    , m_shared(std::move(shared))
{
}

long long FileCache::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::shared_ptr<const DataFile> FileCache::get(const std::string& path, const DataHashBackend& backend,
                                               const Value& levelOptions, const ParseLimits& limits)
{
    static const Value none;
    const Value& options = backend.readsOptions() ? levelOptions : none;
    std::shared_ptr<Entry> entry;
    {
        std::shared_lock lock(m_mutex);
        if (auto it = m_entries.find(path); it != m_entries.end())
            for (const auto& e : it->second)
                if (e->backend == &backend && e->options == options)
                    entry = e;
    }
    const long long now = nowNs();
    if (entry && m_interval.count() > 0
        && now - entry->checkedAtNs.load(std::memory_order_relaxed) < m_interval.count() * 1000000LL)
        return entry->file;
    // A file named by its content (a git revision's blob) is what it was: never asked again.
    if (entry && !entry->signature.contentId.empty())
        return entry->file;

    const Signature sig = detail::statFile(*m_tree, path);
    if (entry && entry->signature == sig) {
        entry->checkedAtNs.store(now, std::memory_order_relaxed);
        return entry->file;
    }

    // Another engine's parse of the same content (a file two revisions share), when the parse depends
    // on nothing else: the path (the values' marks name it), the blob and the backend.
    std::string sharedKey;
    if (m_shared && sig.exists && !sig.contentId.empty() && options.isNull())
        sharedKey = path + '\n' + sig.contentId + '\n' + backend.name() + '\n'
            + std::to_string(reinterpret_cast<std::uintptr_t>(&backend));
    std::shared_ptr<const DataFile> shared = sharedKey.empty() ? nullptr : m_shared->find(sharedKey);
    auto file = std::make_shared<DataFile>();
    file->exists = sig.exists;
    if (sig.exists && !shared) {
        try {
            std::optional<detail::CachedParse> cached;
            // The disk cache knows a parse by backend name and file: only for parses that depend on nothing else.
            const bool useDisk = m_disk && options.isNull() && detail::DiskCache::worthCaching(sig);
            if (useDisk)
                cached = m_disk->load(backend.name(), path, sig);
            if (cached) {
                file->data = std::move(cached->data);
                file->warnings = std::move(cached->warnings);
            } else {
                detail::RefusedValues refused;
                LoadContext context(*m_tree, path, options, limits, file->warnings);
                file->data = backend.load(context);
                if (!refused.values.empty() && file->data.isHash()) {
                    // Only the entries that hold one fail; the disk cache does not keep such files.
                    const Hash& h = file->data.asHash();
                    for (std::size_t i = 0; i < h.size(); ++i)
                        for (const auto& r : refused.values)
                            if (holds(h.entries()[i].value, r.mark)) {
                                file->refusals.emplace_back(
                                    i, Error(ErrorCode::DataType, r.message, SourceFiles::locate(r.mark)));
                                break;
                            }
                } else if (useDisk) {
                    m_disk->store(backend.name(), path, sig, {file->data, file->warnings});
                }
            }
            if (file->data.isHash()) {
                const Hash& h = file->data.asHash();
                file->hasLookupOptions = h.find("lookup_options") != nullptr;
                file->entryFlags.reserve(h.size());
                for (const auto& e : h)
                    file->entryFlags.push_back(static_cast<std::uint8_t>(
                        (detail::containsInterpolation(e.key) || detail::containsInterpolation(e.value)
                             ? DataFile::Interpolates
                             : 0)
                        | (hasInvalidKey(e.value) ? DataFile::InvalidKey : 0)));
                for (const auto& r : file->refusals)
                    file->entryFlags[r.first] |= DataFile::Refused;
            }
        } catch (const Error& e) {
            file->error = e;
        } catch (const std::exception& e) {
            file->error = Error(ErrorCode::DataUnreadable, std::string("cannot load: ") + e.what(), {path, 0, 0});
        }
    }
    if (!sharedKey.empty() && !shared)
        m_shared->store(sharedKey, file);
    auto fresh = std::make_shared<Entry>();
    fresh->backend = &backend;
    fresh->options = options;
    fresh->file = shared ? shared : file;
    fresh->signature = sig;
    fresh->checkedAtNs.store(now, std::memory_order_relaxed);
    {
        std::unique_lock lock(m_mutex);
        auto& slots = m_entries[path];
        bool replaced = false;
        for (auto& e : slots)
            if (e->backend == &backend && e->options == options) {
                e = fresh;
                replaced = true;
            }
        if (!replaced)
            slots.push_back(fresh);
    }
    return fresh->file;
}

void FileCache::invalidate()
{
    std::unique_lock lock(m_mutex);
    m_entries.clear();
}

void FileCache::invalidate(const std::string& path)
{
    std::unique_lock lock(m_mutex);
    m_entries.erase(path);
}

std::size_t FileCache::size() const
{
    std::shared_lock lock(m_mutex);
    return m_entries.size();
}

} // namespace hiera
