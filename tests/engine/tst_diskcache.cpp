// The persistent cache of parsed data files (engine/src/diskcache.*): what it stores reads back as the
// same values with the same source marks, a damaged or outdated entry is a miss, and an engine that
// uses it answers exactly like one that parses.

#include "testutils.h"

#include "diskcache.h"

#include <hiera/context.h>
#include <hiera/valueformat.h>

#include <QtTest>

#include <thread>

using namespace testutils;
using hiera::detail::CachedParse;
using hiera::detail::DiskCache;
using hiera::detail::FileSignature;

class TestDiskCache : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void damagedEntryIsAMiss();
    void outdatedEntryIsAMiss();
    void engineUsesAndRefreshesTheCache();
};

void TestDiskCache::roundTrip_data()
{
    QTest::addColumn<QByteArray>("yamlText");
    QTest::newRow("scalars") << QByteArray("a: 1\nb: 2.5\nc: true\nd: ~\ne: text\nf: -9223372036854775808\n");
    QTest::newRow("nested") << QByteArray("h:\n  list: [1, [2, 3], {x: y}]\n  'quoted key': \"v\\n\"\n");
    QTest::newRow("non-string keys") << QByteArray("1: int\n2.5: float\n");
    QTest::newRow("utf-8 and empty") << QByteArray("city: Zürich\nempty: ''\narr: []\nhash: {}\n");
    QTest::newRow("specials") << QByteArray("inf: .inf\nnan: .nan\n");
}

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
}

void TestDiskCache::engineUsesAndRefreshesTheCache()
{
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"},
                   {"data/common.yaml", "ntp:\n  servers: [a, b]\n"}});
    QVERIFY(tree.isValid());
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
    QVERIFY(tree.write(QStringLiteral("data/common.yaml"), "ntp:\n  servers: [a, c]\n"));
    r = lookup("ntp.servers.1");
    QVERIFY(r.found());
    QCOMPARE(r.value, hiera::Value("c"));
}

QTEST_APPLESS_MAIN(TestDiskCache)
#include "tst_diskcache.moc"
