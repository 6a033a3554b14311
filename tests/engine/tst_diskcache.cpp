// The persistent cache of parsed data files (engine/src/cache/diskcache.*): what it stores reads back as the
// same values with the same source marks, a damaged or outdated entry is a miss, and an engine that
// uses it answers exactly like one that parses.

#include "testutils.h"

#include "cache/diskcache.h"

#include <hiera/context.h>
#include <hiera/valueformat.h>

#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace testutils;
using hiera::detail::CachedParse;
using hiera::detail::DiskCache;
using hiera::detail::FileSignature;

namespace {

// Entries are written only for files of 1 KiB or more: pad small texts with a comment.
QByteArray padded(const QByteArray& yamlText)
{
    return yamlText + "# " + QByteArray(1100, 'x') + "\n";
}

// An entry is trusted only if the file changed more than a second before it was written.
void waitPastRacyWindow()
{
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
}

// "Billion laughs": `levels` anchors, each a list of ten aliases of the previous one.
std::string aliasBomb(int levels)
{
    std::string s = "a0: &a0 \"lol\"\n";
    for (int i = 1; i <= levels; ++i) {
        s += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
        for (int k = 0; k < 10; ++k)
            s += (k ? ", *a" : "*a") + std::to_string(i - 1);
        s += "]\n";
    }
    return s + "bomb: *a" + std::to_string(levels) + "\n";
}

const QByteArray kHiera = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";

} // namespace

class TestDiskCache : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void damagedEntryIsAMiss();
    void outdatedEntryIsAMiss();
    void engineUsesAndRefreshesTheCache();
    void diskUseStaysUnderTheBound();
    void smallFilesGetNoEntry();
    void sharedNodesWrittenOnce();
    void aliasBombThroughTheEngine();
    void racyEntryIsAMiss();
    void rewriteKeepingSizeAndMtime();
    void hostileEntries_data();
    void hostileEntries();
};

// clang-format off
void TestDiskCache::roundTrip_data()
{
    QTest::addColumn<QByteArray>("yamlText");
    QTest::newRow("scalars") << QByteArray("a: 1\nb: 2.5\nc: true\nd: ~\ne: text\nf: -9223372036854775808\n");
    QTest::newRow("nested") << QByteArray("h:\n  list: [1, [2, 3], {x: y}]\n  'quoted key': \"v\\n\"\n");
    QTest::newRow("non-string keys") << QByteArray("1: int\n2.5: float\n");
    QTest::newRow("utf-8 and empty") << QByteArray("city: Zürich\nempty: ''\narr: []\nhash: {}\n");
    QTest::newRow("specials") << QByteArray("inf: .inf\nnan: .nan\n");
}
// clang-format on

void TestDiskCache::roundTrip()
{
    QFETCH(QByteArray, yamlText);
    const std::string file = "/virtual/roundtrip.yaml";
    CachedParse parse{yaml(yamlText.toStdString(), file), {"a warning"}};
    const FileSignature sig{true, false, 42, yamlText.size(), 123456789};
    const std::string bytes = DiskCache::encode("yaml_data", file, sig, parse);
    const auto back = DiskCache::decode(bytes, "yaml_data", file, sig);
    QVERIFY(back);
    QVERIFY(orderedEqual(back->data, parse.data));
    QCOMPARE(back->warnings, parse.warnings);
    // Marks survive: every top-level value keeps its line and column.
    const auto& a = parse.data.asHash().entries();
    const auto& b = back->data.asHash().entries();
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(b[i].value.mark().line, a[i].value.mark().line);
        QCOMPARE(b[i].value.mark().column, a[i].value.mark().column);
        QCOMPARE(b[i].key.mark().line, a[i].key.mark().line);
        QCOMPARE(hiera::SourceFiles::locate(b[i].value.mark()).file, file);
    }
}

void TestDiskCache::damagedEntryIsAMiss()
{
    const std::string file = "/virtual/damaged.yaml";
    CachedParse parse{yaml("k: [1, 2, {a: b}]\n", file), {}};
    const FileSignature sig{true, false, 1, 20, 2};
    const std::string bytes = DiskCache::encode("yaml_data", file, sig, parse);
    // Every truncation and every flipped byte is either refused or still a well-formed value; never a crash.
    for (std::size_t n = 0; n < bytes.size(); ++n)
        QVERIFY(!DiskCache::decode(std::string_view(bytes).substr(0, n), "yaml_data", file, sig));
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        std::string damaged = bytes;
        damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
        (void)DiskCache::decode(damaged, "yaml_data", file, sig);
    }
    QVERIFY(!DiskCache::decode(bytes, "json_data", file, sig)); // another backend's entry
}

void TestDiskCache::outdatedEntryIsAMiss()
{
    const std::string file = "/virtual/outdated.yaml";
    CachedParse parse{yaml("k: v\n", file), {}};
    const FileSignature sig{true, false, 7, 5, 1000};
    const std::string bytes = DiskCache::encode("yaml_data", file, sig, parse);
    QVERIFY(DiskCache::decode(bytes, "yaml_data", file, sig));
    FileSignature newer = sig;
    newer.mtimeNs += 1;
    QVERIFY(!DiskCache::decode(bytes, "yaml_data", file, newer));
    FileSignature bigger = sig;
    bigger.size += 1;
    QVERIFY(!DiskCache::decode(bytes, "yaml_data", file, bigger));
    FileSignature replaced = sig;
    replaced.inode += 1;
    QVERIFY(!DiskCache::decode(bytes, "yaml_data", file, replaced));
    FileSignature rewritten = sig; // in place, size and mtime kept
    rewritten.ctimeNs += 1;
    QVERIFY(!DiskCache::decode(bytes, "yaml_data", file, rewritten));
}

void TestDiskCache::engineUsesAndRefreshesTheCache()
{
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", padded("ntp:\n  servers: [a, b]\n")}});
    QVERIFY(tree.isValid());
    waitPastRacyWindow();
    QTemporaryDir cacheDir;
    hiera::EngineOptions options;
    options.diskCacheDirectory = ss(cacheDir.path());
    auto lookup = [&](const char* key) {
        auto engine = hiera::Engine::load(tree.hieraYaml(), options); // a new engine: a new process
        return engine->lookup(hiera::MapScope(), key);
    };
    auto r = lookup("ntp.servers.1");
    QVERIFY(r.found());
    QCOMPARE(r.value, hiera::Value("b"));
    QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.hxc")}).size(), 1);

    r = lookup("ntp.servers.1"); // from the cache, with its origin
    QVERIFY(r.found());
    QCOMPARE(r.value, hiera::Value("b"));
    const auto origin = hiera::SourceFiles::locate(r.value.mark());
    QCOMPARE(origin.file, tree.path(QStringLiteral("data/common.yaml")));
    QCOMPARE(origin.line, 2);

    // The file changes (same size, later mtime): the cache entry no longer applies.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    QVERIFY(tree.write(QStringLiteral("data/common.yaml"), padded("ntp:\n  servers: [a, c]\n")));
    r = lookup("ntp.servers.1");
    QVERIFY(r.found());
    QCOMPARE(r.value, hiera::Value("c"));
}

void TestDiskCache::diskUseStaysUnderTheBound()
{
    // Pruning counted logical sizes: 100,000 entries of a few hundred bytes left 395 MB of blocks.
    // 2,000 small entries take about 8 MB of blocks; the directory must stay under a 1 MiB bound.
    QTemporaryDir dir;
    const std::uintmax_t bound = 1u << 20;
    DiskCache cache(ss(dir.path()), bound);
    const FileSignature sig{true, false, 1, 2000, 1000};
    for (int i = 0; i < 2000; ++i) {
        const std::string file = "/virtual/small" + std::to_string(i) + ".yaml";
        cache.store("yaml_data", file, sig, {yaml("k: " + std::to_string(i) + "\n", file), {}});
        QVERIFY2(cache.diskUsage() <= bound, qPrintable(QString::number(cache.diskUsage())));
    }
    QVERIFY(cache.diskUsage() > bound / 4);
    // The newest entries are the ones kept.
    const std::string last = "/virtual/small1999.yaml";
    const auto back = cache.load("yaml_data", last, sig);
    QVERIFY(back);
    QCOMPARE(*back->data.asHash().find("k"), hiera::Value(1999));
    QVERIFY(!cache.load("yaml_data", "/virtual/small0.yaml", sig));
}

void TestDiskCache::smallFilesGetNoEntry()
{
    // A file under 1 KiB parses faster than its entry reads, and the entry would take a whole block.
    testutils::FileList files{{"hiera.yaml", "version: 5\nhierarchy:\n  - name: all\n    glob: '*.yaml'\n"}};
    for (int i = 0; i < 100; ++i)
        files.push_back({QStringLiteral("data/f%1.yaml").arg(i, 3, 10, QLatin1Char('0')),
                         QByteArray("k") + QByteArray::number(i) + ": v\n"});
    files.push_back({QStringLiteral("data/z.yaml"), padded("big: 1\n")});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    QTemporaryDir cacheDir;
    hiera::EngineOptions options;
    options.diskCacheDirectory = ss(cacheDir.path());
    auto engine = hiera::Engine::load(tree.hieraYaml(), options);
    QCOMPARE(engine->lookup(hiera::MapScope(), "k42").value, hiera::Value("v"));
    QCOMPARE(engine->lookup(hiera::MapScope(), "big").value, hiera::Value(1));
    QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.hxc")}).size(), 1); // z.yaml only
}

void TestDiskCache::sharedNodesWrittenOnce()
{
    // A 10^6-node alias bomb in a few hundred bytes: its entry used to be the expanded tree (a 425-byte
    // file made 64 MB), and a warm load built every copy.
    const std::string file = "/virtual/bomb.yaml";
    const hiera::Value parsed = yaml(aliasBomb(6), file);
    QVERIFY(parsed.asHash().find("bomb")->nodeCount() > 1'000'000);
    const FileSignature sig{true, false, 3, 2000, 1000};
    const std::string bytes = DiskCache::encode("yaml_data", file, sig, {parsed, {}});
    QVERIFY2(bytes.size() < 2000, qPrintable(QString::number(bytes.size())));
    const auto back = DiskCache::decode(bytes, "yaml_data", file, sig);
    QVERIFY(back);
    QVERIFY(orderedEqual(back->data, parsed));
    const hiera::Value& bomb = *back->data.asHash().find("bomb");
    QCOMPARE(bomb.nodeCount(), parsed.asHash().find("bomb")->nodeCount());
    // Shared again: the ten elements are one array, and `bomb` is a6's array.
    QCOMPARE(&bomb.asArray()[0].asArray(), &bomb.asArray()[9].asArray());
    QCOMPARE(&bomb.asArray(), &back->data.asHash().find("a6")->asArray());
    // An alias keeps its own mark.
    QCOMPARE(bomb.mark().line, parsed.asHash().find("bomb")->mark().line);
    QCOMPARE(back->data.asHash().find("a6")->mark().line, 7u);

    // A reference forward or to a collection still being read (a cycle) is a damaged entry, not a hang.
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        std::string damaged = bytes;
        damaged[i] = static_cast<char>(damaged[i] ^ 0x41);
        (void)DiskCache::decode(damaged, "yaml_data", file, sig);
    }
}

void TestDiskCache::aliasBombThroughTheEngine()
{
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", padded(QByteArray::fromStdString(aliasBomb(6)))}});
    QVERIFY(tree.isValid());
    waitPastRacyWindow();
    QTemporaryDir cacheDir;
    hiera::EngineOptions options;
    options.diskCacheDirectory = ss(cacheDir.path());
    for (int run = 0; run < 2; ++run) { // cold, then warm
        auto engine = hiera::Engine::load(tree.hieraYaml(), options);
        const auto r = engine->lookup(hiera::MapScope(), "bomb.3.4.5.6.7.8");
        QVERIFY(r.found());
        QCOMPARE(r.value, hiera::Value("lol"));
    }
    const QFileInfoList entries = QDir(cacheDir.path()).entryInfoList({QStringLiteral("*.hxc")});
    QCOMPARE(entries.size(), 1);
    QVERIFY2(entries.front().size() < 4096, qPrintable(QString::number(entries.front().size())));
    // What a warm process reads is the entry, shared.
    const std::string path = tree.path(QStringLiteral("data/common.yaml"));
    const auto warm = DiskCache(ss(cacheDir.path())).load("yaml_data", path, hiera::detail::statFile(path));
    QVERIFY(warm);
    const hiera::Value& bomb = *warm->data.asHash().find("bomb");
    QCOMPARE(&bomb.asArray()[0].asArray(), &bomb.asArray()[9].asArray());
}

void TestDiskCache::racyEntryIsAMiss()
{
    // Timestamps only change once a clock tick: an entry written within a second of the file's last
    // change may describe an older content with the same signature, so it is not trusted.
    const std::string file = "/virtual/racy.yaml";
    const long long now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    FileSignature sig{true, false, 9, 2000, now - 5'000'000'000LL, now - 10'000'000};
    const std::string bytes = DiskCache::encode("yaml_data", file, sig, {yaml("k: v\n", file), {}});
    QVERIFY(!DiskCache::decode(bytes, "yaml_data", file, sig));
    sig.ctimeNs = now - 2'000'000'000LL;
    QVERIFY(DiskCache::decode(DiskCache::encode("yaml_data", file, sig, {yaml("k: v\n", file), {}}), "yaml_data", file,
                              sig));
}

void TestDiskCache::rewriteKeepingSizeAndMtime()
{
    // Rewritten in place: same inode, same size, mtime put back. Only the ctime tells.
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", padded("k: old\n")}});
    QVERIFY(tree.isValid());
    const std::string path = tree.path(QStringLiteral("data/common.yaml"));
    waitPastRacyWindow();
    QTemporaryDir cacheDir;
    hiera::EngineOptions options;
    options.diskCacheDirectory = ss(cacheDir.path());
    auto sameEngine = hiera::Engine::load(tree.hieraYaml(), options);
    QCOMPARE(sameEngine->lookup(hiera::MapScope(), "k").value, hiera::Value("old"));
    QCOMPARE(hiera::Engine::load(tree.hieraYaml(), options)->lookup(hiera::MapScope(), "k").value,
             hiera::Value("old")); // a warm process

    struct stat before
    {
    };
    QCOMPARE(::stat(path.c_str(), &before), 0);
    const QByteArray next = padded("k: new\n");
    const int fd = ::open(path.c_str(), O_WRONLY);
    QVERIFY(fd >= 0);
    QCOMPARE(::write(fd, next.constData(), next.size()), ssize_t(next.size()));
    ::close(fd);
    const struct timespec times[2] = {before.st_atim, before.st_mtim};
    QCOMPARE(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
    struct stat after
    {
    };
    QCOMPARE(::stat(path.c_str(), &after), 0);
    QCOMPARE(after.st_ino, before.st_ino);
    QCOMPARE(after.st_size, before.st_size);
    QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);

    // A new process, and the engine that had read the file (its in-memory cache), both see it.
    QCOMPARE(hiera::Engine::load(tree.hieraYaml(), options)->lookup(hiera::MapScope(), "k").value, hiera::Value("new"));
    QCOMPARE(sameEngine->lookup(hiera::MapScope(), "k").value, hiera::Value("new"));
}

// Whatever sits in the cache directory where an entry should be is at worst a miss: a FIFO used to block
// the lookup forever, a link to /dev/zero to grow without end, a flipped bit to answer a wrong value,
// and another user's entry (a shared, world-writable cache directory) to be trusted.
// clang-format off
void TestDiskCache::hostileEntries_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("a FIFO") << "fifo";
    QTest::newRow("a link to /dev/zero") << "zero";
    QTest::newRow("a link to a good entry") << "link";
    QTest::newRow("a flipped bit") << "bit";
    QTest::newRow("the last byte flipped") << "last";
    QTest::newRow("another user's entry") << "owner";
}
// clang-format on

namespace {
// An entry whose value is changed ("hello" -> "HACKD") and whose checksum is made right again: what a
// hostile writer would leave, which only the type, link and owner checks can refuse.
bool forgeEntry(const std::string& entry)
{
    QFile f(qs(entry));
    if (!f.open(QIODevice::ReadWrite))
        return false;
    QByteArray bytes = f.readAll();
    bytes.chop(8);
    const qsizetype at = bytes.indexOf("hello");
    if (at < 0)
        return false;
    bytes.replace(at, 5, "HACKD");
    std::uint64_t h = 1469598103934665603ull;
    for (char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    for (int i = 0; i < 8; ++i)
        bytes += char((h >> (8 * i)) & 0xFF);
    return f.seek(0) && f.write(bytes) == bytes.size();
}
} // namespace

void TestDiskCache::hostileEntries()
{
    QFETCH(QString, kind);
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", padded("k: hello\n")}});
    QVERIFY(tree.isValid());
    waitPastRacyWindow();
    QTemporaryDir cacheDir;
    hiera::EngineOptions options;
    options.diskCacheDirectory = ss(cacheDir.path());
    QCOMPARE(hiera::Engine::load(tree.hieraYaml(), options)->lookup(hiera::MapScope(), "k").value,
             hiera::Value("hello"));
    const QStringList entries = QDir(cacheDir.path()).entryList({QStringLiteral("*.hxc")}, QDir::Files);
    QCOMPARE(entries.size(), 1);
    const std::string entry = ss(cacheDir.path() + QLatin1Char('/') + entries.first());

    if (kind == QLatin1String("fifo") || kind == QLatin1String("zero") || kind == QLatin1String("link")) {
        const std::string saved = entry + ".saved";
        QVERIFY(forgeEntry(entry)); // followed, the link would answer HACKD
        QCOMPARE(::rename(entry.c_str(), saved.c_str()), 0);
        if (kind == QLatin1String("fifo"))
            QCOMPARE(::mkfifo(entry.c_str(), 0600), 0);
        else
            QCOMPARE(::symlink(kind == QLatin1String("zero") ? "/dev/zero" : saved.c_str(), entry.c_str()), 0);
    } else if (kind == QLatin1String("owner")) {
        if (::geteuid() != 0)
            QSKIP("only root can give an entry to another user");
        QVERIFY(forgeEntry(entry)); // trusted, it would answer HACKD
        QCOMPARE(::chown(entry.c_str(), 65534, 65534), 0);
    } else {
        QFile f(qs(entry));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        // The value's bytes ("hello") in the middle of the entry, or the checksum's last byte.
        const qsizetype at = kind == QLatin1String("bit") ? bytes.indexOf("hello") : bytes.size() - 1;
        QVERIFY(at >= 0);
        bytes[at] = char(bytes[at] ^ 0x01);
        QVERIFY(f.seek(0));
        QCOMPARE(f.write(bytes), bytes.size());
    }
    QElapsedTimer timer;
    timer.start();
    const hiera::LookupResult r = hiera::Engine::load(tree.hieraYaml(), options)->lookup(hiera::MapScope(), "k");
    QVERIFY2(r.found(), r.error ? r.error->what() : "not found");
    QCOMPARE(r.value, hiera::Value("hello")); // parsed again from the data file
    QVERIFY(timer.elapsed() < 20000);
}

QTEST_APPLESS_MAIN(TestDiskCache)
#include "tst_diskcache.moc"
