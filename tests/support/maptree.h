#pragma once

// Source trees for tests (hiera/sourcetree.h): MapTree holds files in memory at a root that need not
// exist on disk, so that any read the engine makes around the seam finds nothing; CountingTree wraps
// another tree and records what was asked of it.

#include <hiera/error.h>
#include <hiera/sourcetree.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hiera::test {

// Regular files and the folders they imply, under absolute paths. No symbolic links. Paths are
// resolved component by component, so that `a/../b` exists only when `a` is a folder, as on a disk.
class MapTree : public SourceTree
{
public:
    // `files`: absolute path -> content.
    explicit MapTree(const std::map<std::string, std::string>& files)
    {
        std::uint64_t inode = 1;
        for (const auto& [path, content] : files) {
            m_files[path] = {content, inode++};
            std::filesystem::path p(path);
            while (p.has_relative_path()) {
                const std::filesystem::path parent = p.parent_path();
                m_children[parent.string()].insert(p.filename().string());
                m_dirs.insert(parent.string());
                p = parent;
            }
        }
    }

    std::string read(const std::string& path, std::size_t limit) const override
    {
        const std::optional<std::string> p = resolve(path);
        if (p && m_dirs.count(*p))
            throw Error(ErrorCode::DataUnreadable, "cannot read: it is a directory, not a file", {path, 0, 0});
        const auto it = p ? m_files.find(*p) : m_files.end();
        if (it == m_files.end())
            throw Error(ErrorCode::DataUnreadable, "cannot read: No such file or directory", {path, 0, 0});
        if (it->second.first.size() > limit)
            throw Error(ErrorCode::DataLimit,
                        "file of " + std::to_string(it->second.first.size()) + " bytes exceeds the limit of "
                            + std::to_string(limit),
                        {path, 0, 0});
        return it->second.first;
    }

    TreeStat stat(const std::string& path) const override
    {
        TreeStat s;
        const std::optional<std::string> p = resolve(path);
        if (!p)
            return s;
        if (m_dirs.count(*p)) {
            s.kind = TreeStat::Kind::Directory;
            s.device = 1;
            s.inode = 1000000 + std::hash<std::string>()(*p) % 1000000;
            return s;
        }
        const auto it = m_files.find(*p);
        if (it == m_files.end())
            return s;
        s.kind = TreeStat::Kind::File;
        s.device = 1;
        s.inode = it->second.second;
        s.size = static_cast<std::int64_t>(it->second.first.size());
        s.mtimeNs = s.ctimeNs = 1;
        return s;
    }

    TreeStat lstat(const std::string& path) const override { return stat(path); }

    std::optional<std::vector<TreeEntry>> list(const std::string& dir, std::string* error) const override
    {
        const std::optional<std::string> p = resolve(dir);
        if (!p || !m_dirs.count(*p)) {
            if (error)
                *error = p && m_files.count(*p) ? "Not a directory" : "No such file or directory";
            return std::nullopt;
        }
        std::vector<TreeEntry> out;
        const auto it = m_children.find(*p);
        if (it != m_children.end())
            for (const std::string& name : it->second) {
                const std::string child = *p == "/" ? "/" + name : *p + "/" + name;
                out.push_back({name, m_dirs.count(child) ? TreeEntry::Type::Directory : TreeEntry::Type::Other});
            }
        return out;
    }

    std::optional<std::string> canonical(const std::string& path) const override
    {
        return std::filesystem::path(path).lexically_normal().string();
    }

    std::string describe() const override { return "map tree"; }

private:
    // The path as stored ("/a/b"), "." and ".." taken physically; nullopt when a folder on the way is
    // missing.
    std::optional<std::string> resolve(const std::string& path) const
    {
        if (path.empty() || path[0] != '/')
            return std::nullopt;
        std::filesystem::path cur("/");
        for (const auto& part : std::filesystem::path(path).relative_path()) {
            const std::string c = part.string();
            if (c.empty() || c == ".")
                continue;
            if (!m_dirs.count(cur.string()))
                return std::nullopt;
            if (c == "..")
                cur = cur.parent_path();
            else
                cur /= c;
        }
        return cur.string();
    }

    std::map<std::string, std::pair<std::string, std::uint64_t>> m_files;
    std::set<std::string> m_dirs;
    std::map<std::string, std::set<std::string>> m_children;
};

// Forwards to `inner` and records every call: the paths read, stat-ed (stat and lstat), listed and
// canonicalised.
class CountingTree : public SourceTree
{
public:
    explicit CountingTree(std::shared_ptr<const SourceTree> inner) : m_inner(std::move(inner)) { }

    std::string read(const std::string& path, std::size_t limit) const override
    {
        note(m_reads, path);
        return m_inner->read(path, limit);
    }
    TreeStat stat(const std::string& path) const override
    {
        note(m_stats, path);
        return m_inner->stat(path);
    }
    TreeStat lstat(const std::string& path) const override
    {
        note(m_stats, path);
        return m_inner->lstat(path);
    }
    std::optional<std::vector<TreeEntry>> list(const std::string& dir, std::string* error) const override
    {
        note(m_lists, dir);
        return m_inner->list(dir, error);
    }
    std::optional<std::string> canonical(const std::string& path) const override
    {
        note(m_canonicals, path);
        return m_inner->canonical(path);
    }
    std::string describe() const override { return "counting " + m_inner->describe(); }

    std::multiset<std::string> reads() const { return copy(m_reads); }
    std::multiset<std::string> stats() const { return copy(m_stats); }
    std::multiset<std::string> lists() const { return copy(m_lists); }
    std::multiset<std::string> canonicals() const { return copy(m_canonicals); }
    void clear()
    {
        std::lock_guard lock(m_mutex);
        m_reads.clear();
        m_stats.clear();
        m_lists.clear();
        m_canonicals.clear();
    }

private:
    void note(std::multiset<std::string>& set, const std::string& path) const
    {
        std::lock_guard lock(m_mutex);
        set.insert(path);
    }
    std::multiset<std::string> copy(const std::multiset<std::string>& set) const
    {
        std::lock_guard lock(m_mutex);
        return set;
    }

    std::shared_ptr<const SourceTree> m_inner;
    mutable std::mutex m_mutex;
    mutable std::multiset<std::string> m_reads, m_stats, m_lists, m_canonicals;
};

} // namespace hiera::test
