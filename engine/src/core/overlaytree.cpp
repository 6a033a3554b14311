// OverlayTree: a few files from memory over another tree (hiera/overlaytree.h).

#include <hiera/error.h>
#include <hiera/overlaytree.h>

#include <filesystem>
#include <functional>
#include <mutex>

namespace hiera {

OverlayTree::OverlayTree(std::shared_ptr<const SourceTree> base, std::map<std::string, std::string> files,
                         bool nameBaseFiles)
    : m_base(base ? std::move(base) : SourceTree::workingTree())
    , m_nameBaseFiles(nameBaseFiles)
{
    for (auto& [path, content] : files)
        m_files.emplace(path, fileOf(std::move(content)));
}

OverlayTree::File OverlayTree::fileOf(std::string content)
{
    File file;
    file.stat.kind = TreeStat::Kind::File;
    file.stat.size = static_cast<std::int64_t>(content.size());
    // Named by the text itself (its size and hash): two overlays holding the same text share its parse,
    // and a changed text is never taken for the one before (FileCache compares the whole stat).
    const std::size_t h = std::hash<std::string>{}(content);
    file.stat.inode = h;
    file.stat.contentId = "edit:" + std::to_string(content.size()) + ':' + std::to_string(h);
    file.content = std::make_shared<const std::string>(std::move(content));
    return file;
}

std::optional<OverlayTree::File> OverlayTree::find(const std::string& path) const
{
    const std::shared_lock lock(m_mutex);
    const auto it = m_files.find(path);
    return it == m_files.end() ? std::nullopt : std::optional<File>(it->second);
}

std::map<std::string, std::string> OverlayTree::files() const
{
    const std::shared_lock lock(m_mutex);
    std::map<std::string, std::string> out;
    for (const auto& [path, file] : m_files)
        out.emplace(path, *file.content);
    return out;
}

void OverlayTree::set(const std::string& path, std::string content)
{
    File file = fileOf(std::move(content));
    const std::unique_lock lock(m_mutex);
    m_files[path] = std::move(file);
}

std::string OverlayTree::read(const std::string& path, std::size_t limit) const
{
    const std::optional<File> file = find(path);
    if (!file)
        return m_base->read(path, limit);
    // The working tree's refusal, word for word (hiera::readFile): a host's limits hold for an edit too.
    if (file->content->size() > limit)
        throw Error(ErrorCode::DataLimit,
                    "file of " + std::to_string(file->content->size()) + " bytes exceeds the limit of "
                        + std::to_string(limit),
                    {path, 0, 0});
    return *file->content;
}

TreeStat OverlayTree::named(TreeStat st) const
{
    if (m_nameBaseFiles && st.kind == TreeStat::Kind::File && st.contentId.empty())
        st.contentId = "disk:" + std::to_string(st.device) + ':' + std::to_string(st.inode) + ':'
            + std::to_string(st.size) + ':' + std::to_string(st.mtimeNs) + ':' + std::to_string(st.ctimeNs);
    return st;
}

TreeStat OverlayTree::stat(const std::string& path) const
{
    const std::optional<File> file = find(path);
    return file ? file->stat : named(m_base->stat(path));
}

TreeStat OverlayTree::lstat(const std::string& path) const
{
    const std::optional<File> file = find(path);
    return file ? file->stat : named(m_base->lstat(path));
}

std::optional<std::vector<TreeEntry>> OverlayTree::list(const std::string& dir, std::string* error) const
{
    std::optional<std::vector<TreeEntry>> entries = m_base->list(dir, error);
    // An overlaid file the base does not hold (a file not yet on disk) is listed in its folder too.
    const std::shared_lock lock(m_mutex);
    for (const auto& [path, file] : m_files) {
        const std::filesystem::path p(path);
        if (p.parent_path() != std::filesystem::path(dir) || m_base->lstat(path).exists())
            continue;
        if (!entries)
            continue; // its folder is not there either
        entries->push_back({p.filename().string(), TreeEntry::Type::Other});
    }
    return entries;
}

std::optional<std::string> OverlayTree::canonical(const std::string& path) const
{
    return m_base->canonical(path);
}

std::string OverlayTree::describe() const
{
    std::string out = m_base->describe() + " with unsaved edits to ";
    bool first = true;
    const std::shared_lock lock(m_mutex);
    for (const auto& [path, file] : m_files) {
        out += (first ? "" : ", ") + path;
        first = false;
    }
    return out;
}

} // namespace hiera
