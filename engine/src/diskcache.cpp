#include "diskcache.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace hiera::detail {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[4] = {'H', 'X', 'C', '1'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::size_t kMaxDepth = 4096;
constexpr std::uintmax_t kMaxCacheBytes = 512ull << 20;

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
        u8(static_cast<std::uint8_t>(v.type()));
        varint(v.mark().line);
        varint(v.mark().column);
        switch (v.type()) {
        case Value::Type::Null: break;
        case Value::Type::Boolean: u8(v.asBoolean() ? 1 : 0); break;
        case Value::Type::Integer: raw64(static_cast<std::uint64_t>(v.asInteger())); break;
        case Value::Type::Float: {
            std::uint64_t bits;
            const double d = v.asFloat();
            std::memcpy(&bits, &d, sizeof bits);
            raw64(bits);
            break;
        }
        case Value::Type::String: str(v.asString()); break;
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
        Value v;
        switch (static_cast<Value::Type>(type)) {
        case Value::Type::Null: break;
        case Value::Type::Boolean: v = Value(u8() != 0); break;
        case Value::Type::Integer: v = Value(static_cast<std::int64_t>(raw64())); break;
        case Value::Type::Float: {
            const std::uint64_t bits = raw64();
            double d;
            std::memcpy(&d, &bits, sizeof d);
            v = Value(d);
            break;
        }
        case Value::Type::String: v = Value(str()); break;
        case Value::Type::Array: {
            const std::uint64_t n = varint();
            if (!m_ok || n > m_in.size() - m_pos) // every element takes at least one byte
                return fail(), Value();
            Array a;
            a.reserve(n);
            for (std::uint64_t i = 0; i < n && m_ok; ++i)
                a.push_back(value(depth + 1));
            v = Value(std::move(a));
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

FileSignature statFile(const std::string& path)
{
    struct stat st{};
    FileSignature s;
    if (::stat(path.c_str(), &st) != 0)
        return s;
    s.exists = true;
    s.directory = S_ISDIR(st.st_mode);
    s.inode = st.st_ino;
    s.size = st.st_size;
    s.mtimeNs = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    return s;
}

DiskCache::DiskCache(std::string directory) : m_directory(std::move(directory)) { }

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
    w.varint(parse.warnings.size());
    for (const auto& s : parse.warnings)
        w.str(s);
    w.value(parse.data);
    return std::move(w.out);
}

std::optional<CachedParse> DiskCache::decode(std::string_view bytes, const std::string& backend, const std::string& path,
                                             const FileSignature& signature)
{
    if (bytes.size() < sizeof kMagic || bytes.compare(0, sizeof kMagic, std::string_view(kMagic, sizeof kMagic)) != 0)
        return std::nullopt;
    Reader r(bytes.substr(sizeof kMagic), SourceFiles::intern(path));
    if (r.varint() != kFormatVersion || r.str() != backend || r.str() != path || r.raw64() != signature.inode
        || r.raw64() != static_cast<std::uint64_t>(signature.size)
        || r.raw64() != static_cast<std::uint64_t>(signature.mtimeNs) || !r.ok())
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

std::optional<CachedParse> DiskCache::load(const std::string& backend, const std::string& path,
                                           const FileSignature& signature) const
{
    std::ifstream in(entryPath(backend, path), std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return decode(bytes, backend, path, signature);
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
        const std::string bytes = encode(backend, path, signature, parse);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            out.close();
            fs::remove(temp, ec);
            return;
        }
    }
    fs::rename(temp, target, ec); // atomic: readers see the old entry or the new one
    if (ec)
        fs::remove(temp, ec);
    thread_local std::minstd_rand rng{static_cast<unsigned>(std::hash<std::thread::id>{}(std::this_thread::get_id()))};
    if (rng() % 256 == 0)
        prune();
}

void DiskCache::prune() const
{
    // Keep the cache bounded: drop the least recently written entries beyond kMaxCacheBytes.
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> entries;
    std::uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(m_directory, ec)) {
        if (!e.is_regular_file(ec) || e.path().extension() != ".hxc")
            continue;
        total += e.file_size(ec);
        entries.emplace_back(e.last_write_time(ec), e.path());
    }
    if (total <= kMaxCacheBytes)
        return;
    std::sort(entries.begin(), entries.end());
    for (const auto& [time, p] : entries) {
        if (total <= kMaxCacheBytes / 2)
            break;
        const auto size = fs::file_size(p, ec);
        if (fs::remove(p, ec))
            total -= size;
    }
}

} // namespace hiera::detail
