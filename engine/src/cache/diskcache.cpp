#include "cache/diskcache.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>

namespace hiera::detail {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[4] = {'H', 'X', 'C', '1'};
// 2: shared arrays and hashes written once (kRef), ctime and the time of writing in the header.
// 3: the same files read differently (docs/engine-semantics.md, "Round five": a quoted `<<` merges, a `<<` value Ruby
// cannot merge stays a key), so entries written before are not trusted.
constexpr std::uint32_t kFormatVersion = 3;
constexpr std::size_t kMaxDepth = 4096;

// Not a Value::Type: a reference to an array or hash written earlier in the entry, by its number in
// the order the collections were written.
constexpr std::uint8_t kRef = 0x40;

// A file under 1 KiB gets no entry. Its entry would take a whole block (4 KiB on most file systems)
// and an inode, and reading it costs an open, a read and a close, as reading the source does, while
// parsing that source takes microseconds (tens for yaml-cpp, a few for the block reader). The 100,000
// small files of a large glob made 395 MB of cache for no gain.
constexpr long long kMinCachedBytes = 1024;

// Timestamps are only as fine as the file system's clock tick (a jiffy on Linux, 1 s on some file
// systems), so a file rewritten within the tick of its previous change keeps its ctime. An entry is
// trusted only if the file's last change is older than the entry by more than that, as git treats
// "racily clean" index entries: otherwise the next process parses again (and writes a trusted entry).
constexpr long long kRacyWindowNs = 1'000'000'000;

long long nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::uintmax_t diskUsageOf(const char* path)
{
    struct stat st
    {
    };
    if (::stat(path, &st) != 0)
        return 0;
    return static_cast<std::uintmax_t>(st.st_blocks) * 512;
}

// Arrays and hashes shared in memory (YAML aliases: the loader shares the aliased subtree) are written
// once and referred to after that. Expanded, a 425-byte alias bomb made a 64 MB entry and a 403 MB
// warm process; shared, the entry is as small as the parse and the warm load shares as the parse did.
class Writer
{
public:
    std::string out;

    void u8(std::uint8_t v) { out += static_cast<char>(v); }
    void varint(std::uint64_t v)
    {
        while (v >= 0x80) {
            out += static_cast<char>((v & 0x7f) | 0x80);
            v >>= 7;
        }
        out += static_cast<char>(v);
    }
    void raw64(std::uint64_t v)
    {
        for (int i = 0; i < 8; ++i)
            out += static_cast<char>((v >> (8 * i)) & 0xff);
    }
    void str(const std::string& s)
    {
        varint(s.size());
        out += s;
    }
    void value(const Value& v)
    {
        if (v.isArray() || v.isHash()) {
            const void* storage = v.isArray() ? static_cast<const void*>(&v.asArray()) : &v.asHash();
            const auto [it, first] = m_ids.try_emplace(storage, m_ids.size());
            if (!first) {
                u8(kRef);
                varint(v.mark().line);
                varint(v.mark().column);
                varint(it->second);
                return;
            }
        }
        u8(static_cast<std::uint8_t>(v.type()));
        varint(v.mark().line);
        varint(v.mark().column);
        switch (v.type()) {
        case Value::Type::Null:
            break;
        case Value::Type::Boolean:
            u8(v.asBoolean() ? 1 : 0);
            break;
        case Value::Type::Integer:
            raw64(static_cast<std::uint64_t>(v.asInteger()));
            break;
        case Value::Type::Float: {
            std::uint64_t bits;
            const double d = v.asFloat();
            std::memcpy(&bits, &d, sizeof bits);
            raw64(bits);
            break;
        }
        case Value::Type::String:
            str(v.asString());
            break;
        case Value::Type::Array:
            varint(v.asArray().size());
            for (const auto& e : v.asArray())
                value(e);
            break;
        case Value::Type::Hash:
            varint(v.asHash().size());
            for (const auto& e : v.asHash()) {
                value(e.key);
                value(e.value);
            }
            break;
        }
    }

private:
    std::unordered_map<const void*, std::uint64_t> m_ids; // collection storage -> its number
};

class Reader
{
public:
    Reader(std::string_view in, std::uint32_t fileId) : m_in(in), m_fileId(fileId) { }

    bool ok() const { return m_ok; }
    bool atEnd() const { return m_pos == m_in.size(); }

    std::uint8_t u8()
    {
        if (m_pos >= m_in.size())
            return fail(), 0;
        return static_cast<std::uint8_t>(m_in[m_pos++]);
    }
    std::uint64_t varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const std::uint8_t b = u8();
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        return fail(), 0;
    }
    std::uint64_t raw64()
    {
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v |= static_cast<std::uint64_t>(u8()) << (8 * i);
        return v;
    }
    std::string str()
    {
        const std::uint64_t n = varint();
        if (!m_ok || n > m_in.size() - m_pos)
            return fail(), std::string();
        std::string s(m_in.substr(m_pos, n));
        m_pos += n;
        return s;
    }
    Value value(std::size_t depth)
    {
        if (depth > kMaxDepth)
            return fail(), Value();
        const std::uint8_t type = u8();
        SourceMark mark{m_fileId, static_cast<std::uint32_t>(varint()), static_cast<std::uint32_t>(varint())};
        if (type == kRef) {
            const std::uint64_t id = varint();
            // Only a finished collection: an id not yet written, or one still being read (a cycle),
            // is a damaged entry.
            if (!m_ok || id >= m_collections.size() || !m_collections[id])
                return fail(), Value();
            return m_collections[id]->withMark(mark);
        }
        std::size_t id = 0;
        if (type == static_cast<std::uint8_t>(Value::Type::Array)
            || type == static_cast<std::uint8_t>(Value::Type::Hash)) {
            id = m_collections.size();
            m_collections.emplace_back();
        }
        Value v;
        switch (static_cast<Value::Type>(type)) {
        case Value::Type::Null:
            break;
        case Value::Type::Boolean:
            v = Value(u8() != 0);
            break;
        case Value::Type::Integer:
            v = Value(static_cast<std::int64_t>(raw64()));
            break;
        case Value::Type::Float: {
            const std::uint64_t bits = raw64();
            double d;
            std::memcpy(&d, &bits, sizeof d);
            v = Value(d);
            break;
        }
        case Value::Type::String:
            v = Value(str());
            break;
        case Value::Type::Array: {
            const std::uint64_t n = varint();
            if (!m_ok || n > m_in.size() - m_pos) // every element takes at least one byte
                return fail(), Value();
            Array a;
            a.reserve(n);
            for (std::uint64_t i = 0; i < n && m_ok; ++i)
                a.push_back(value(depth + 1));
            v = Value(std::move(a));
            m_collections[id] = v;
            break;
        }
        case Value::Type::Hash: {
            const std::uint64_t n = varint();
            if (!m_ok || n > m_in.size() - m_pos)
                return fail(), Value();
            Hash h;
            h.reserve(n);
            for (std::uint64_t i = 0; i < n && m_ok; ++i) {
                Value k = value(depth + 1);
                Value val = value(depth + 1);
                h.set(std::move(k), std::move(val));
            }
            v = Value(std::move(h));
            m_collections[id] = v;
            break;
        }
        default:
            return fail(), Value();
        }
        v.setMark(mark);
        return v;
    }

private:
    void fail() { m_ok = false; }

    std::string_view m_in;
    std::uint32_t m_fileId;
    std::size_t m_pos = 0;
    bool m_ok = true;
    std::vector<std::optional<Value>> m_collections; // by number; empty while being read
};

std::uint64_t fnv1a(const std::string& s)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace

FileSignature statFile(const SourceTree& tree, const std::string& path)
{
    const TreeStat st = tree.stat(path);
    FileSignature s;
    if (!st.exists())
        return s;
    s.exists = true;
    s.directory = st.kind == TreeStat::Kind::Directory;
    s.inode = st.inode;
    s.size = st.size;
    s.mtimeNs = st.mtimeNs;
    s.ctimeNs = st.ctimeNs;
    s.contentId = st.contentId;
    return s;
}

FileSignature statFile(const std::string& path)
{
    return statFile(*SourceTree::workingTree(), path);
}

DiskCache::DiskCache(std::string directory, std::uintmax_t maxBytes)
    : m_directory(std::move(directory))
    , m_maxBytes(maxBytes)
{
}

bool DiskCache::worthCaching(const FileSignature& signature)
{
    return signature.exists && !signature.directory && signature.size >= kMinCachedBytes;
}

std::string DiskCache::entryPath(const std::string& backend, const std::string& path) const
{
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.hxc", static_cast<unsigned long long>(fnv1a(backend + '\n' + path)));
    return m_directory + "/" + name;
}

std::string DiskCache::encode(const std::string& backend, const std::string& path, const FileSignature& signature,
                              const CachedParse& parse)
{
    Writer w;
    w.out.append(kMagic, sizeof kMagic);
    w.varint(kFormatVersion);
    w.str(backend);
    w.str(path);
    w.raw64(signature.inode);
    w.raw64(static_cast<std::uint64_t>(signature.size));
    w.raw64(static_cast<std::uint64_t>(signature.mtimeNs));
    w.raw64(static_cast<std::uint64_t>(signature.ctimeNs));
    w.raw64(static_cast<std::uint64_t>(nowNs()));
    w.varint(parse.warnings.size());
    for (const auto& s : parse.warnings)
        w.str(s);
    w.value(parse.data);
    return std::move(w.out);
}

std::optional<CachedParse> DiskCache::decode(std::string_view bytes, const std::string& backend,
                                             const std::string& path, const FileSignature& signature)
{
    if (bytes.size() < sizeof kMagic || bytes.compare(0, sizeof kMagic, std::string_view(kMagic, sizeof kMagic)) != 0)
        return std::nullopt;
    Reader r(bytes.substr(sizeof kMagic), SourceFiles::intern(path));
    if (r.varint() != kFormatVersion || r.str() != backend || r.str() != path || r.raw64() != signature.inode
        || r.raw64() != static_cast<std::uint64_t>(signature.size)
        || r.raw64() != static_cast<std::uint64_t>(signature.mtimeNs)
        || r.raw64() != static_cast<std::uint64_t>(signature.ctimeNs) || !r.ok())
        return std::nullopt;
    const auto writtenNs = static_cast<long long>(r.raw64());
    if (!r.ok() || std::max(signature.mtimeNs, signature.ctimeNs) > writtenNs - kRacyWindowNs)
        return std::nullopt;
    CachedParse parse;
    const std::uint64_t warnings = r.varint();
    for (std::uint64_t i = 0; i < warnings && r.ok() && i < 1000; ++i)
        parse.warnings.push_back(r.str());
    parse.data = r.value(0);
    if (!r.ok() || !r.atEnd())
        return std::nullopt;
    return parse;
}

namespace {

// Every entry ends with the FNV-1a hash of what precedes it: a damaged entry (a flipped bit, a
// partial write by another program) is a miss, never a wrong value.
constexpr std::size_t kChecksumBytes = 8;

void appendChecksum(std::string& bytes)
{
    const std::uint64_t sum = fnv1a(bytes);
    for (std::size_t i = 0; i < kChecksumBytes; ++i)
        bytes += static_cast<char>((sum >> (8 * i)) & 0xFF);
}

bool stripChecksum(std::string& bytes)
{
    if (bytes.size() < kChecksumBytes)
        return false;
    std::uint64_t stored = 0;
    for (std::size_t i = 0; i < kChecksumBytes; ++i)
        stored |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[bytes.size() - kChecksumBytes + i]))
            << (8 * i);
    bytes.resize(bytes.size() - kChecksumBytes);
    return fnv1a(bytes) == stored;
}

// An entry is read only if it is a regular file of ours, not a link, of a sane size: the cache is an
// optimisation, and whatever sits in its directory (a FIFO would block, a link to /dev/zero never
// ends, another user's file could say anything) must at worst be a miss.
std::optional<std::string> readEntry(const std::string& file)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    struct Closer
    {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st
    {
    };
    constexpr off_t kMaxEntryBytes = off_t(1) << 30;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || st.st_size > kMaxEntryBytes)
        return std::nullopt;
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::nullopt;
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

} // namespace

std::optional<CachedParse> DiskCache::load(const std::string& backend, const std::string& path,
                                           const FileSignature& signature) const
{
    std::optional<std::string> bytes = readEntry(entryPath(backend, path));
    if (!bytes || !stripChecksum(*bytes))
        return std::nullopt;
    return decode(*bytes, backend, path, signature);
}

void DiskCache::store(const std::string& backend, const std::string& path, const FileSignature& signature,
                      const CachedParse& parse) const
{
    std::error_code ec;
    fs::create_directories(m_directory, ec);
    const std::string target = entryPath(backend, path);
    static std::atomic<unsigned> counter{0};
    const std::string temp = target + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            return;
        std::string bytes = encode(backend, path, signature, parse);
        appendChecksum(bytes);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            out.close();
            fs::remove(temp, ec);
            return;
        }
    }
    fs::rename(temp, target, ec); // atomic: readers see the old entry or the new one
    if (ec) {
        fs::remove(temp, ec);
        return;
    }
    // Prune after every eighth of the bound written here, so that one process keeps the directory
    // under the bound (prune leaves at most three quarters), and at random, so that many short
    // processes that each write a little prune too.
    const std::uintmax_t written = m_writtenSincePrune += diskUsageOf(target.c_str());
    thread_local std::minstd_rand rng{static_cast<unsigned>(std::hash<std::thread::id>{}(std::this_thread::get_id()))};
    if (written >= m_maxBytes / 8 || rng() % 256 == 0) {
        m_writtenSincePrune = 0;
        prune();
    }
}

std::uintmax_t DiskCache::diskUsage() const
{
    std::error_code ec;
    std::uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(m_directory, ec))
        if (e.path().extension() == ".hxc")
            total += diskUsageOf(e.path().c_str());
    return total;
}

void DiskCache::prune() const
{
    // Keep the cache bounded by what it really takes on disk: blocks, not logical sizes (a 200-byte
    // entry takes 4 KiB). Over three quarters of the bound, drop the least recently written entries
    // down to half.
    std::error_code ec;
    struct Entry
    {
        long long mtimeNs;
        std::uintmax_t bytes;
        fs::path path;
        bool operator<(const Entry& o) const { return mtimeNs < o.mtimeNs; }
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(m_directory, ec)) {
        if (e.path().extension() != ".hxc")
            continue;
        struct stat st
        {
        };
        if (::stat(e.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        const auto bytes = static_cast<std::uintmax_t>(st.st_blocks) * 512;
        total += bytes;
        entries.push_back(
            {static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec, bytes, e.path()});
    }
    if (total <= m_maxBytes / 4 * 3)
        return;
    std::sort(entries.begin(), entries.end());
    for (const auto& e : entries) {
        if (total <= m_maxBytes / 2)
            break;
        if (fs::remove(e.path, ec))
            total -= e.bytes;
    }
}

} // namespace hiera::detail
