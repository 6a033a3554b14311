// One immutable Engine shared by several threads (style §3 Threading): concurrent lookups with
// different scopes give the right answers; files changed on disk are re-read (revalidateInterval = 0).

#include "testutils.h"

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/scope.h>

#include <QDateTime>
#include <QFile>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace hiera;
using namespace testutils;

class TestThreads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void concurrentLookups();
    void fileChangeIsReRead();
    void invalidate();
    void lookupsWhileFilesChange();
    void sharedContext();
    void contextSeesFileChanges();
};

static const QByteArray kHiera = "version: 5\n"
                                 "hierarchy:\n"
                                 "  - name: node\n"
                                 "    path: \"nodes/%{certname}.yaml\"\n"
                                 "  - name: common\n"
                                 "    path: common.yaml\n";

void TestThreads::concurrentLookups()
{
    FileList files{{"hiera.yaml", kHiera},
                   {"data/common.yaml",
                    "greeting: \"hello %{certname}\"\n"
                    "list: [common]\n"
                    "h: {common: 1}\n"
                    "lookup_options:\n  list: {merge: unique}\n  h: {merge: deep}\n"}};
    const int threads = 4;
    for (int t = 0; t < threads; ++t)
        files.append({QStringLiteral("data/nodes/node%1.yaml").arg(t),
                      QStringLiteral("id: %1\nlist: [n%1]\nh: {node: %1}\n").arg(t).toUtf8()});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.revalidateInterval = std::chrono::milliseconds(0);
    std::shared_ptr<const Engine> engine = Engine::load(tree.hieraYaml(), options);

    std::atomic<int> failures{0};
    std::atomic<int> done{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            const std::string node = "node" + std::to_string(t);
            const MapScope scope(makeHash({{"certname", node}}));
            const MapScope other(makeHash({{"certname", "nobody"}}));
            for (int i = 0; i < 2000; ++i) {
                bool ok = true;
                switch (i % 5) {
                case 0: {
                    const LookupResult r = engine->lookup(scope, "id");
                    ok = r.found() && r.value == Value(t);
                    break;
                }
                case 1: {
                    const LookupResult r = engine->lookup(scope, "greeting");
                    ok = r.found() && r.value == Value("hello " + node);
                    break;
                }
                case 2: {
                    const LookupResult r = engine->lookup(scope, "list");
                    ok = r.found() && r.value == makeArray({Value("n" + std::to_string(t)), "common"});
                    break;
                }
                case 3: {
                    const LookupResult r = engine->lookup(scope, "h.node");
                    ok = r.found() && r.value == Value(t);
                    break;
                }
                case 4: {
                    const LookupResult r = engine->lookup(other, "id");
                    ok = r.status == LookupResult::Status::NotFound;
                    break;
                }
                }
                if (!ok)
                    ++failures;
                ++done;
            }
        });
    }
    for (auto& th : pool)
        th.join();
    QCOMPARE(done.load(), threads * 2000);
    QCOMPARE(failures.load(), 0);
}

static bool rewrite(const std::string& path, const QByteArray& content, int mtimeOffsetSeconds)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(content);
    f.close();
    // make the change visible even on file systems with coarse timestamps
    if (!f.open(QIODevice::ReadWrite))
        return false;
    const bool ok =
        f.setFileTime(QDateTime::currentDateTime().addSecs(mtimeOffsetSeconds), QFileDevice::FileModificationTime);
    f.close();
    return ok;
}

void TestThreads::fileChangeIsReRead()
{
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", "k: 1\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.revalidateInterval = std::chrono::milliseconds(0);
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    QCOMPARE(engine->lookup(scope, "k").value, Value(1));
    // a change of size
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 22\n", 10));
    QCOMPARE(engine->lookup(scope, "k").value, Value(22));
    // same size, new mtime
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 33\n", 20));
    QCOMPARE(engine->lookup(scope, "k").value, Value(33));
    // a file that appears
    QVERIFY(tree.write("data/nodes/n1.yaml", "k: node\n"));
    const MapScope n1(makeHash({{"certname", "n1"}}));
    QCOMPARE(engine->lookup(n1, "k").value, Value("node"));
    // and disappears
    QVERIFY(QFile::remove(QString::fromStdString(tree.path("data/nodes/n1.yaml"))));
    QCOMPARE(engine->lookup(n1, "k").value, Value(33));
    // a file that breaks, then is fixed
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: [\n", 30));
    QCOMPARE(int(engine->lookup(scope, "k").status), int(LookupResult::Status::Error));
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 4\n", 40));
    QCOMPARE(engine->lookup(scope, "k").value, Value(4));
}

void TestThreads::invalidate()
{
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", "k: 1\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.revalidateInterval = std::chrono::hours(1); // the cache trusts itself...
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    QCOMPARE(engine->lookup(scope, "k").value, Value(1));
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 222\n", 10));
    engine->invalidate(tree.path("data/common.yaml")); // ... until told otherwise
    QCOMPARE(engine->lookup(scope, "k").value, Value(222));
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 3\n", 20));
    engine->invalidate();
    QCOMPARE(engine->lookup(scope, "k").value, Value(3));
}

void TestThreads::lookupsWhileFilesChange()
{
    // readers see the old or the new content, never an error or a torn value, while a writer replaces the
    // file atomically (write + rename)
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", "k: a\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.revalidateInterval = std::chrono::milliseconds(0);
    std::shared_ptr<const Engine> engine = Engine::load(tree.hieraYaml(), options);
    std::atomic<bool> stop{false};
    std::atomic<int> bad{0};
    std::atomic<int> reads{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 3; ++t) {
        readers.emplace_back([&] {
            const MapScope scope;
            while (!stop.load()) {
                const LookupResult r = engine->lookup(scope, "k");
                if (!r.found() || !(r.value == Value("a") || r.value == Value("bb")))
                    ++bad;
                ++reads;
            }
        });
    }
    const QString target = QString::fromStdString(tree.path("data/common.yaml"));
    for (int i = 0; i < 200; ++i) {
        const QString tmp = target + ".tmp";
        QFile f(tmp);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(i % 2 ? "k: a\n" : "k: bb\n");
        f.close();
        QVERIFY(std::rename(tmp.toLocal8Bit().constData(), target.toLocal8Bit().constData()) == 0);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    stop = true;
    for (auto& th : readers)
        th.join();
    QVERIFY(reads.load() > 0);
    QCOMPARE(bad.load(), 0);
}

void TestThreads::sharedContext()
{
    // a Context (one node) shared by several threads: the first lookups race to warm it
    TempTree tree({{"hiera.yaml", kHiera},
                   {"data/nodes/web01.yaml", "id: web01\nlist: [node]\n"},
                   {"data/common.yaml",
                    "greeting: \"hi %{certname}\"\nlist: [common]\nlookup_options:\n  list: {merge: unique}\n"}});
    QVERIFY(tree.isValid());
    auto scope = std::make_shared<MapScope>(makeHash({{"certname", "web01"}}));
    const Context context(Engine::load(tree.hieraYaml()), scope);
    std::atomic<int> failures{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t) {
        pool.emplace_back([&, t] {
            for (int i = 0; i < 2000; ++i) {
                bool ok = false;
                switch ((i + t) % 4) {
                case 0:
                    ok = context.lookup("id").value == Value("web01");
                    break;
                case 1:
                    ok = context.lookup("greeting").value == Value("hi web01");
                    break;
                case 2:
                    ok = context.lookup("list").value == makeArray({"node", "common"});
                    break;
                case 3:
                    ok = context.lookup("nosuch").status == LookupResult::Status::NotFound;
                    break;
                }
                if (!ok)
                    ++failures;
            }
        });
    }
    for (auto& th : pool)
        th.join();
    QCOMPARE(failures.load(), 0);
}

void TestThreads::contextSeesFileChanges()
{
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", "k: 1\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.revalidateInterval = std::chrono::milliseconds(0);
    auto scope = std::make_shared<MapScope>(makeHash({{"certname", "n1"}}));
    const Context context = Context::load(tree.hieraYaml(), scope, options);
    QCOMPARE(context.lookup("k").value, Value(1));
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 22\n", 10));
    QCOMPARE(context.lookup("k").value, Value(22));
    // a file that appears is found: the locations are checked again
    QVERIFY(tree.write("data/nodes/n1.yaml", "k: node\n"));
    QCOMPARE(context.lookup("k").value, Value("node"));
    QVERIFY(QFile::remove(QString::fromStdString(tree.path("data/nodes/n1.yaml"))));
    QCOMPARE(context.lookup("k").value, Value(22));

    // with a long interval, invalidate() forces the check
    EngineOptions lazy;
    lazy.revalidateInterval = std::chrono::hours(1);
    const Context cached = Context::load(tree.hieraYaml(), scope, lazy);
    QCOMPARE(cached.lookup("k").value, Value(22));
    QVERIFY(rewrite(tree.path("data/common.yaml"), "k: 333\n", 20));
    cached.invalidate();
    cached.engine().invalidate();
    QCOMPARE(cached.lookup("k").value, Value(333));
}

QTEST_APPLESS_MAIN(TestThreads)
#include "tst_threads.moc"
