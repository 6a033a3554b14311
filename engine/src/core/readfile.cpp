// hiera::readFile (hiera/sourcetree.h): the one way the engine reads a file of the user's machine, with
// its refusals (FIFOs, devices, directories, kernel pseudo-files) and its size limit. In core/ because
// the working tree (core/sourcetree.cpp) reads through it, below the parsers that also do.

#include <hiera/error.h>
#include <hiera/sourcetree.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <new>
#include <string>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace hiera {

namespace {

[[noreturn]] void tooBig(const std::string& path, std::size_t size, std::size_t limit)
{
    throw Error(ErrorCode::DataLimit,
                "file of " + std::to_string(size) + " bytes exceeds the limit of " + std::to_string(limit),
                {path, 0, 0});
}

// Kernel pseudo-file systems: their files say size 0 (or a made-up size) and produce data as they are
// read, up to the size limit each (a datadir under /proc read gigabytes before the first error). No
// data or facts file lives there, so they are refused from the file system's type, before any read.
const char* pseudoFileSystemName(int fd)
{
    struct statfs fs
    {
    };
    if (::fstatfs(fd, &fs) != 0)
        return nullptr;
    switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC:
        return "procfs";
    case SYSFS_MAGIC:
        return "sysfs";
    case DEBUGFS_MAGIC:
        return "debugfs";
    case TRACEFS_MAGIC:
        return "tracefs";
    case SECURITYFS_MAGIC:
        return "securityfs";
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
        return "cgroupfs";
    case 0x62656570:
        return "configfs"; // CONFIGFS_MAGIC, not in every <linux/magic.h>
    case BPF_FS_MAGIC:
        return "bpffs";
    case DEVPTS_SUPER_MAGIC:
        return "devpts";
    case PSTOREFS_MAGIC:
        return "pstore";
    case EFIVARFS_MAGIC:
        return "efivarfs";
    case SELINUX_MAGIC:
        return "selinuxfs";
    default:
        return nullptr;
    }
}

// Reads at most `limit` bytes: a file larger than the limit is refused from its size, before anything
// is read (and one that grows while it is read, when it passes the limit).
std::string readFileLimited(const std::string& path, std::size_t limit)
{
    // A path with a NUL byte would be cut short at the NUL by open(2) and name another file. Levels
    // refuse such paths with a message naming the level; this is the last line of defence.
    if (path.find('\0') != std::string::npos)
        throw Error(ErrorCode::DataUnreadable, "cannot read: the path contains a NUL byte (string contains null byte)",
                    {path.substr(0, path.find('\0')), 0, 0});
    // open(2) with O_NONBLOCK, then fstat the descriptor: a FIFO named like a data file would block
    // the lookup forever in a plain open (found by the fault tests), and checking the path with stat()
    // first would leave a window for it to be replaced. Only regular files are read.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        throw Error(ErrorCode::DataUnreadable, std::string("cannot read: ") + std::strerror(errno), {path, 0, 0});
    struct Closer
    {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        throw Error(ErrorCode::DataUnreadable, std::string("cannot read: ") + std::strerror(errno), {path, 0, 0});
    if (S_ISDIR(st.st_mode))
        throw Error(ErrorCode::DataUnreadable, "cannot read: it is a directory, not a file", {path, 0, 0});
    if (!S_ISREG(st.st_mode))
        throw Error(ErrorCode::DataUnreadable,
                    std::string("cannot read: it is not a regular file (")
                        + (S_ISFIFO(st.st_mode)       ? "a FIFO"
                               : S_ISSOCK(st.st_mode) ? "a socket"
                                                      : "a device")
                        + ")",
                    {path, 0, 0});
    if (const char* pseudo = pseudoFileSystemName(fd))
        throw Error(ErrorCode::DataUnreadable,
                    std::string("cannot read: it is a kernel pseudo-file (") + pseudo + "), not a data file",
                    {path, 0, 0});
    if (st.st_size > 0 && static_cast<unsigned long long>(st.st_size) > limit)
        tooBig(path, static_cast<std::size_t>(st.st_size), limit);
    std::string content;
    try {
        if (st.st_size > 0)
            content.reserve(static_cast<std::size_t>(st.st_size));
        char buffer[65536];
        while (true) {
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n == 0)
                break;
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                throw Error(ErrorCode::DataUnreadable, std::string("read error: ") + std::strerror(errno),
                            {path, 0, 0});
            }
            if (content.size() + static_cast<std::size_t>(n) > limit)
                tooBig(path, content.size() + static_cast<std::size_t>(n), limit);
            content.append(buffer, static_cast<std::size_t>(n));
        }
    } catch (const std::bad_alloc&) {
        throw Error(ErrorCode::DataLimit,
                    "out of memory after reading " + std::to_string(content.size()) + " bytes of the file",
                    {path, 0, 0});
    }
    return content;
}

} // namespace

std::string readFile(const std::string& path, std::size_t limit)
{
    return readFileLimited(path, limit);
}

} // namespace hiera
