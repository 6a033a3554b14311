// The working tree: SourceTree over the process's file system (hiera/sourcetree.h). Reading is
// hiera::readFile's (its refusals of directories, FIFOs, devices and kernel pseudo-files, its size
// limit and its non-blocking open); the rest is stat(2), lstat(2), readdir(3) and
// std::filesystem::weakly_canonical, as the engine called them before the seam.

#include <hiera/sourcetree.h>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <sys/stat.h>
#include <system_error>

namespace hiera {

namespace {

TreeStat fromStat(const struct stat& st)
{
    TreeStat s;
    s.kind = S_ISREG(st.st_mode) ? TreeStat::Kind::File
        : S_ISDIR(st.st_mode)    ? TreeStat::Kind::Directory
        : S_ISLNK(st.st_mode)    ? TreeStat::Kind::Symlink
                                 : TreeStat::Kind::Other;
    s.device = static_cast<std::uint64_t>(st.st_dev);
    s.inode = static_cast<std::uint64_t>(st.st_ino);
    s.size = static_cast<std::int64_t>(st.st_size);
    s.mtimeNs = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    s.ctimeNs = static_cast<long long>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
    return s;
}

class WorkingTree : public SourceTree
{
public:
    std::string read(const std::string& path, std::size_t limit) const override { return readFile(path, limit); }

    TreeStat stat(const std::string& path) const override
    {
        struct stat st
        {
        };
        if (::stat(path.c_str(), &st) != 0)
            return {};
        return fromStat(st);
    }

    TreeStat lstat(const std::string& path) const override
    {
        struct stat st
        {
        };
        if (::lstat(path.c_str(), &st) != 0)
            return {};
        return fromStat(st);
    }

    std::optional<std::vector<TreeEntry>> list(const std::string& dir, std::string* error) const override
    {
        DIR* d = ::opendir(dir.c_str());
        if (!d) {
            if (error)
                *error = std::strerror(errno);
            return std::nullopt;
        }
        std::vector<TreeEntry> entries;
        while (true) {
            errno = 0;
            const dirent* e = ::readdir(d);
            if (!e)
                break;
            if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
                continue;
            TreeEntry entry;
            entry.name = e->d_name;
#ifdef _DIRENT_HAVE_D_TYPE
            if (e->d_type == DT_DIR)
                entry.type = TreeEntry::Type::Directory;
            else if (e->d_type == DT_LNK)
                entry.type = TreeEntry::Type::Symlink;
            else if (e->d_type != DT_UNKNOWN)
                entry.type = TreeEntry::Type::Other;
#endif
            entries.push_back(std::move(entry));
        }
        const int readError = errno;
        ::closedir(d);
        if (readError != 0 && error)
            *error = std::strerror(readError); // what was read before the error is kept
        return entries;
    }

    std::optional<std::string> canonical(const std::string& path) const override
    {
        std::error_code ec;
        std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
        if (ec)
            return std::nullopt;
        return p.string();
    }

    std::string describe() const override
    {
        return "working tree";
    }
};

} // namespace

std::shared_ptr<const SourceTree> SourceTree::workingTree()
{
    static const std::shared_ptr<const SourceTree> tree = std::make_shared<const WorkingTree>();
    return tree;
}

} // namespace hiera
