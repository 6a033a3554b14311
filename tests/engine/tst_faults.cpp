// File-system faults and broken files (docs/bad-input.md): unreadable files, a directory, a FIFO or a
// device where a file is expected, symlink loops and dangling links under a glob, files deleted or
// rewritten while lookups run, non-UTF-8 bytes, a byte-order mark, CRLF line ends, empty files, files
// whose top level is not a hash. Each is checked through the public API in both modes
// (EngineOptions::skipBrokenFiles off: the lookup fails naming the file, as Puppet; on: the file is
// skipped with a warning naming it and the rest of the hierarchy answers) and, for the main cases,
// through the hiera-lookup binary (exit status 2 and one line on stderr naming file, line, column).
//
// The tests run as root in CI, and permissions do not stop root: the chmod 000 row is skipped for
// root (QSKIP). Links into /proc (files that stat() calls regular, of size 0, that produce data or
// fail as they are read) check that kernel pseudo-files are refused before anything is read.

#include "support/hieralookupcli.h"
#include "testutils.h"

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/scope.h>

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <atomic>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hiera;
using namespace testutils;

namespace {

// Level "broken" first (the file under test), then "good": common.yaml with k and only_common.
const QByteArray kHiera = "version: 5\nhierarchy:\n"
                          "  - name: broken\n    path: broken.yaml\n"
                          "  - name: good\n    path: common.yaml\n";
const QByteArray kHieraGlob = "version: 5\nhierarchy:\n"
                              "  - name: g\n    glob: \"g/*.yaml\"\n"
                              "  - name: good\n    path: common.yaml\n";
const QByteArray kCommon = "k: common\nonly_common: yes\n";

QString errorText(const LookupResult& r)
{
    return r.error ? QString::fromUtf8(r.error->what()) : QStringLiteral("<no error>");
}

QString warningsText(const LookupResult& r)
{
    QStringList w;
    for (const auto& s : r.warnings)
        w << qs(s);
    return w.join(QLatin1Char('\n'));
}

LookupResult lookupIn(const std::string& hieraYaml, const std::string& key, bool skipBroken)
{
    EngineOptions options;
    options.skipBrokenFiles = skipBroken;
    auto engine = Engine::load(hieraYaml, options);
    MapScope scope;
    return engine->lookup(scope, key);
}

// How a fault is made in a fresh tree whose hiera.yaml is kHiera: returns false to skip.
using Maker = std::function<bool(TempTree&, QString& skipReason)>;

bool writeBroken(TempTree& t, const QByteArray& content)
{
    return t.write(QStringLiteral("data/broken.yaml"), content);
}

// A file of `size` bytes that takes no disk space (a hole): sizes that must be refused unread.
bool makeSparseFile(const std::string& path, unsigned long long size)
{
    QFile f(qs(path));
    return f.open(QIODevice::WriteOnly) && f.resize(static_cast<qint64>(size));
}

} // namespace

Q_DECLARE_METATYPE(Maker)

class TestFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void brokenFile_data();
    void brokenFile();
    void acceptedOddities_data();
    void acceptedOddities();
    void notHash();
    void globFaults_data();
    void globFaults();
    void deletedAndRewritten();
    void racingRewrites();
    void configFaults_data();
    void configFaults();
    void factsFaults_data();
    void factsFaults();
    void cli_data();
    void cli();
    void nulByteInInterpolatedPath_data();
    void nulByteInInterpolatedPath();
    void cliOutputFailures_data();
    void cliOutputFailures();
    void printableLine_data();
    void printableLine();
    void cliMessagesArePrintableLines();
    void cliOutOfMemoryNamesTheFile();
    void cliExplainLinesArePrintable();
    void cliNodeNamesThatArePaths_data();
    void cliNodeNamesThatArePaths();
};

// ---- broken data files: both modes ---------------------------------------------------------------------

// clang-format off
void TestFaults::brokenFile_data()
{
    QTest::addColumn<Maker>("make");
    QTest::addColumn<hiera::ErrorCode>("code");
    QTest::addColumn<QString>("where");   // expected in the message after the file name (":line:col")
    QTest::addColumn<QString>("message"); // expected in the message

    QTest::newRow("unreadable (chmod 000)")
        << Maker([](TempTree& t, QString& skip) {
               if (::geteuid() == 0) {
                   skip = QStringLiteral("running as root: permissions do not stop root");
                   return false;
               }
               return writeBroken(t, "k: x\n") && ::chmod(t.path(QStringLiteral("data/broken.yaml")).c_str(), 0) == 0;
           })
        << ErrorCode::DataUnreadable << QString() << "cannot read: Permission denied";
    // /proc/self/mem used to be read (EIO); /proc/self/maps says size 0 and produces data: both are
    // refused from the file system's type, before any read.
    for (const char* proc : {"/proc/self/mem", "/proc/self/maps"})
        QTest::newRow(qPrintable(QStringLiteral("a kernel pseudo-file (link to %1)").arg(QLatin1String(proc))))
            << Maker([proc](TempTree& t, QString& skip) {
                   if (!QFile::exists(QLatin1String(proc))) {
                       skip = QStringLiteral("no /proc");
                       return false;
                   }
                   return ::symlink(proc, t.path(QStringLiteral("data/broken.yaml")).c_str()) == 0;
               })
            << ErrorCode::DataUnreadable << QString() << "it is a kernel pseudo-file (procfs), not a data file";
    QTest::newRow("a directory")
        << Maker([](TempTree& t, QString&) { return t.write(QStringLiteral("data/broken.yaml/"), {}); })
        << ErrorCode::DataUnreadable << QString() << "it is a directory, not a file";
    QTest::newRow("a FIFO (would block a plain open)")
        << Maker([](TempTree& t, QString&) { return ::mkfifo(t.path(QStringLiteral("data/broken.yaml")).c_str(), 0644) == 0; })
        << ErrorCode::DataUnreadable << QString() << "not a regular file (a FIFO)";
    QTest::newRow("a device (/dev/null)")
        << Maker([](TempTree& t, QString&) { return ::symlink("/dev/null", t.path(QStringLiteral("data/broken.yaml")).c_str()) == 0; })
        << ErrorCode::DataUnreadable << QString() << "not a regular file (a device)";
    QTest::newRow("invalid UTF-8") << Maker([](TempTree& t, QString&) { return writeBroken(t, "a: 1\nk: \"caf\xe9\"\n"); })
                                   << ErrorCode::DataSyntax << ":2:8" << "invalid UTF-8 byte sequence";
    QTest::newRow("overlong UTF-8") << Maker([](TempTree& t, QString&) { return writeBroken(t, "k: \xc0\xafx\n"); })
                                    << ErrorCode::DataSyntax << ":1:4" << "invalid UTF-8 byte sequence";
    QTest::newRow("UTF-16 (BOM FF FE)")
        << Maker([](TempTree& t, QString&) { return writeBroken(t, QByteArray("\xff\xfek\0:\0 \0x\0\n\0", 12)); })
        << ErrorCode::DataSyntax << ":1:1" << "invalid UTF-8 byte sequence";
    QTest::newRow("NUL byte") << Maker([](TempTree& t, QString&) { return writeBroken(t, QByteArray("a: 1\nk: x\0y\n", 12)); })
                              << ErrorCode::DataSyntax << ":2:5" << "NUL byte in file";
    QTest::newRow("truncated (flow)") << Maker([](TempTree& t, QString&) { return writeBroken(t, "a: 1\nk: [1, 2\n"); })
                                      << ErrorCode::DataSyntax << ":3:1" << "end of sequence flow not found";
    QTest::newRow("truncated (quote)") << Maker([](TempTree& t, QString&) { return writeBroken(t, "a: 1\nk: \"abc"); })
                                       << ErrorCode::DataSyntax << ":2:" << "Unable to parse";
    QTest::newRow("CRLF and a syntax error")
        << Maker([](TempTree& t, QString&) { return writeBroken(t, "a: 1\r\nb: 2\r\nk: [1,\r\n"); })
        << ErrorCode::DataSyntax << ":4:1" << "end of sequence flow not found";
    QTest::newRow("tab indentation") << Maker([](TempTree& t, QString&) { return writeBroken(t, "a:\n\t- 1\n"); })
                                     << ErrorCode::DataSyntax << ":2:" << "Unable to parse";
    QTest::newRow("unquoted date") << Maker([](TempTree& t, QString&) { return writeBroken(t, "a: 1\nk: 2024-01-01\n"); })
                                   << ErrorCode::DataType << ":2:4" << "quote it";
}
// clang-format on

void TestFaults::brokenFile()
{
    QFETCH(Maker, make);
    QFETCH(hiera::ErrorCode, code);
    QFETCH(QString, where);
    QFETCH(QString, message);
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", kCommon}});
    QVERIFY(tree.isValid());
    QString skip;
    if (!make(tree, skip)) {
        if (!skip.isEmpty())
            QSKIP(qPrintable(skip));
        QFAIL("could not make the fault");
    }
    const QString file = qs(tree.path(QStringLiteral("data/broken.yaml")));

    QElapsedTimer timer;
    timer.start();
    // Puppet's mode (the default): every lookup fails, naming the file, line and column.
    for (const char* key : {"k", "only_common", "absent"}) {
        const LookupResult r = lookupIn(tree.hieraYaml(), key, false);
        QVERIFY2(r.status == LookupResult::Status::Error, qPrintable(QString(key) + ": " + errorText(r)));
        QCOMPARE(r.error->code(), code);
        QVERIFY2(errorText(r).startsWith(file + where), qPrintable(errorText(r)));
        QVERIFY2(errorText(r).contains(message), qPrintable(errorText(r)));
    }
    // skipBrokenFiles: the file is skipped with a warning naming it, and the lookup still fails as in
    // Puppet (the file must be read for lookup_options); what the next level answers is kept beside
    // the error, as unverifiedValue, never as the answer.
    const LookupResult r = lookupIn(tree.hieraYaml(), "k", true);
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QVERIFY2(errorText(r).startsWith(file + where), qPrintable(errorText(r)));
    QVERIFY(r.unverifiedValue);
    QCOMPARE(*r.unverifiedValue, Value("common"));
    QVERIFY2(warningsText(r).contains(file + where) && warningsText(r).contains(message), qPrintable(warningsText(r)));
    const LookupResult absent = lookupIn(tree.hieraYaml(), "absent", true);
    QCOMPARE(int(absent.status), int(LookupResult::Status::Error));
    QVERIFY(!absent.unverifiedValue);
    QVERIFY2(warningsText(absent).contains(file), qPrintable(warningsText(absent)));
    QVERIFY2(timer.elapsed() < 20000, "a fault made the lookup wait");

    // The hierarchy view shows the file as Failed with the same message.
    auto engine = Engine::load(tree.hieraYaml());
    const auto levels = engine->resolveHierarchy(MapScope());
    QCOMPARE(levels.size(), std::size_t(2));
    QCOMPARE(levels[0].locations.size(), std::size_t(1));
    QCOMPARE(int(levels[0].locations[0].status), int(ResolvedLocation::Status::Failed));
    QVERIFY2(qs(levels[0].locations[0].error).contains(message), levels[0].locations[0].error.c_str());
    // So that the temp dir can go; never through a link: chmod follows it, and the "/dev/null" row's
    // link would make /dev/null unwritable for every other user of the machine.
    const std::string broken = tree.path(QStringLiteral("data/broken.yaml"));
    struct stat st
    {
    };
    if (::lstat(broken.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        ::chmod(broken.c_str(), 0644);
}

// ---- what is accepted ---------------------------------------------------------------------------------

// clang-format off
void TestFaults::acceptedOddities_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("file"); // the data file name (broken.yaml, or .json with json_data)
    QTest::addColumn<hiera::Value>("expected"); // value of k (null: not found in this file)
    QTest::newRow("UTF-8 byte-order mark") << QByteArray("\xef\xbb\xbfk: bom\n") << "broken.yaml" << Value("bom");
    QTest::newRow("BOM + CRLF") << QByteArray("\xef\xbb\xbfk: crlf\r\nj: 1\r\n") << "broken.yaml" << Value("crlf");
    QTest::newRow("CRLF in a block scalar") << QByteArray("k: |\r\n  a\r\n  b\r\n") << "broken.yaml" << Value("a\nb\n");
    QTest::newRow("CR only (old Mac)") << QByteArray("k: cr\rj: 1\r") << "broken.yaml" << Value("cr");
    QTest::newRow("BOM in JSON") << QByteArray("\xef\xbb\xbf{\"k\": \"json\"}") << "broken.json" << Value("json");
    QTest::newRow("CRLF in JSON") << QByteArray("{\r\n\"k\": \"json\"\r\n}\r\n") << "broken.json" << Value("json");
    QTest::newRow("empty file") << QByteArray("") << "broken.yaml" << Value();
    QTest::newRow("only comments") << QByteArray("# nothing\n") << "broken.yaml" << Value();
    QTest::newRow("~") << QByteArray("~\n") << "broken.yaml" << Value();
    QTest::newRow("false") << QByteArray("false\n") << "broken.yaml" << Value();
    QTest::newRow("second document ignored") << QByteArray("k: first\n---\nk: [\n") << "broken.yaml" << Value("first");
    QTest::newRow("non-ASCII UTF-8") << QByteArray("k: \"caf\xc3\xa9 \xf0\x9f\x98\x80\"\n") << "broken.yaml"
                                     << Value("caf\xc3\xa9 \xf0\x9f\x98\x80");
}
// clang-format on

void TestFaults::acceptedOddities()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, file);
    QFETCH(hiera::Value, expected);
    const bool json = file.endsWith(QLatin1String(".json"));
    const QByteArray hiera = json ? QByteArray("version: 5\nhierarchy:\n  - name: broken\n    path: broken.json\n"
                                               "    data_hash: json_data\n  - name: good\n    path: common.yaml\n")
                                  : kHiera;
    TempTree tree({{"hiera.yaml", hiera}, {"data/common.yaml", kCommon}, {"data/" + file, content}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree.hieraYaml(), "k", false);
    QVERIFY2(r.found(), qPrintable(errorText(r)));
    QCOMPARE(r.value, expected.isNull() ? Value("common") : expected);
    QVERIFY2(r.warnings.empty(), qPrintable(warningsText(r)));
}

void TestFaults::notHash()
{
    // YAML: a list or scalar top level is read as an empty hash with a warning naming the file (both
    // modes). JSON (json_data): an error naming the file, line and column, as Puppet.
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - {name: y, path: list.yaml}\n"
                    "  - {name: j, path: list.json, data_hash: json_data}\n  - {name: c, path: common.yaml}\n"},
                   {"data/common.yaml", kCommon},
                   {"data/list.yaml", "- a\n- b\n"},
                   {"data/list.json", "\n  [1, 2]"}});
    QVERIFY(tree.isValid());
    const QString yamlFile = qs(tree.path(QStringLiteral("data/list.yaml")));
    const QString jsonFile = qs(tree.path(QStringLiteral("data/list.json")));
    LookupResult r = lookupIn(tree.hieraYaml(), "k", false);
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QCOMPARE(r.error->code(), ErrorCode::DataNotHash);
    QVERIFY2(errorText(r).startsWith(jsonFile + ":2:3: "), qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains("expects a Hash value, got Array"), qPrintable(errorText(r)));
    r = lookupIn(tree.hieraYaml(), "k", true);
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QVERIFY2(errorText(r).startsWith(jsonFile + ":2:3: "), qPrintable(errorText(r)));
    QVERIFY(r.unverifiedValue);
    QCOMPARE(*r.unverifiedValue, Value("common"));
    QVERIFY2(warningsText(r).contains(yamlFile + ": file does not contain a valid yaml hash (its top level is Array)"),
             qPrintable(warningsText(r)));
    QVERIFY2(warningsText(r).contains(jsonFile + ":2:3"), qPrintable(warningsText(r)));
}

// ---- globs --------------------------------------------------------------------------------------------

// clang-format off
void TestFaults::globFaults_data()
{
    QTest::addColumn<Maker>("make");
    QTest::addColumn<bool>("fails");     // the lookup fails (default mode) naming g/x.yaml
    QTest::addColumn<QString>("message");
    // Puppet globs with Dir.glob and skips what File.exist? denies: a dangling link or a link loop is
    // not a data file; our glob(3) + stat does the same (silently: nothing to read).
    QTest::newRow("symlink loop") << Maker([](TempTree& t, QString&) {
        return ::symlink("x.yaml", t.path(QStringLiteral("data/g/x.yaml")).c_str()) == 0;
    }) << false << QString();
    QTest::newRow("two-link loop") << Maker([](TempTree& t, QString&) {
        return ::symlink("y.yaml", t.path(QStringLiteral("data/g/x.yaml")).c_str()) == 0
               && ::symlink("x.yaml", t.path(QStringLiteral("data/g/y.yaml")).c_str()) == 0;
    }) << false << QString();
    QTest::newRow("self-loop named by the glob's level too") << Maker([](TempTree& t, QString&) {
        return ::symlink("x.yaml", t.path(QStringLiteral("data/g/x.yaml")).c_str()) == 0
               && t.write(QStringLiteral("hiera.yaml"), "version: 5\nhierarchy:\n  - {name: p, path: g/x.yaml}\n"
                                                         "  - {name: g, glob: \"g/*.yaml\"}\n  - {name: good, path: common.yaml}\n");
    }) << false << QString();
    QTest::newRow("dangling link") << Maker([](TempTree& t, QString&) {
        return ::symlink("/nonexistent/x.yaml", t.path(QStringLiteral("data/g/x.yaml")).c_str()) == 0;
    }) << false << QString();
    QTest::newRow("directory loop (g/sub -> .)") << Maker([](TempTree& t, QString&) {
        return ::symlink(".", t.path(QStringLiteral("data/g/sub")).c_str()) == 0;
    }) << false << QString();
    QTest::newRow("a directory named x.yaml") << Maker([](TempTree& t, QString&) {
        return t.write(QStringLiteral("data/g/x.yaml/"), {});
    }) << false << QString();
    QTest::newRow("a FIFO matched by the glob") << Maker([](TempTree& t, QString&) {
        return ::mkfifo(t.path(QStringLiteral("data/g/x.yaml")).c_str(), 0644) == 0;
    }) << true << "not a regular file (a FIFO)";
    QTest::newRow("a broken file matched by the glob") << Maker([](TempTree& t, QString&) {
        return t.write(QStringLiteral("data/g/x.yaml"), "k: [\n");
    }) << true << "end of sequence flow not found";
}
// clang-format on

void TestFaults::globFaults()
{
    QFETCH(Maker, make);
    QFETCH(bool, fails);
    QFETCH(QString, message);
    TempTree tree({{"hiera.yaml", kHieraGlob}, {"data/common.yaml", kCommon}, {"data/g/a.yaml", "only_a: a\n"}});
    QVERIFY(tree.isValid());
    QString skip;
    QVERIFY(make(tree, skip));
    const QString file = qs(tree.path(QStringLiteral("data/g/x.yaml")));
    QElapsedTimer timer;
    timer.start();
    LookupResult r = lookupIn(tree.hieraYaml(), "only_a", false);
    if (fails) {
        QCOMPARE(int(r.status), int(LookupResult::Status::Error));
        QVERIFY2(errorText(r).startsWith(file) && errorText(r).contains(message), qPrintable(errorText(r)));
    } else {
        QVERIFY2(r.found(), qPrintable(errorText(r)));
        QCOMPARE(r.value, Value("a"));
    }
    // skipBrokenFiles: a file that fails still fails the lookup (it is read for lookup_options), with
    // the value the rest of the data gives kept beside the error; a file that does not fail is no
    // reason to fail.
    r = lookupIn(tree.hieraYaml(), "only_a", true);
    const LookupResult common = lookupIn(tree.hieraYaml(), "k", true);
    if (fails) {
        QCOMPARE(int(r.status), int(LookupResult::Status::Error));
        QVERIFY2(errorText(r).startsWith(file) && errorText(r).contains(message), qPrintable(errorText(r)));
        QVERIFY(r.unverifiedValue);
        QCOMPARE(*r.unverifiedValue, Value("a"));
        QVERIFY(common.unverifiedValue);
        QCOMPARE(*common.unverifiedValue, Value("common"));
    } else {
        QVERIFY2(r.found(), qPrintable(errorText(r)));
        QCOMPARE(r.value, Value("a"));
        QCOMPARE(common.value, Value("common"));
    }
    // A lookup that reaches the file names it in its warnings.
    if (fails) {
        QVERIFY2(warningsText(common).contains(file) && warningsText(common).contains(message),
                 qPrintable(warningsText(common)));
        // only_a is found in g/a.yaml before g/x.yaml is reached; the file is still read for
        // lookup_options (that is why the default mode fails), and the skipped file is still named.
        QVERIFY2(warningsText(r).contains(file), qPrintable(warningsText(r)));
    }
    QVERIFY(timer.elapsed() < 20000);
}

// ---- files that change under the engine -------------------------------------------------------------

void TestFaults::deletedAndRewritten()
{
    // A Context resolves the hierarchy on its first lookup; later lookups re-check the files
    // (revalidateInterval 0). A file deleted, rewritten broken, or replaced by a directory in between
    // is reported as it is now, never as a stale or half-read state.
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", kCommon}, {"data/broken.yaml", "k: first\n"}});
    QVERIFY(tree.isValid());
    const std::string file = tree.path(QStringLiteral("data/broken.yaml"));
    auto engine = Engine::load(tree.hieraYaml());
    Context node(engine, std::make_shared<MapScope>());
    QCOMPARE(node.lookup("k").value, Value("first"));

    QVERIFY(::unlink(file.c_str()) == 0);
    QCOMPARE(node.lookup("k").value, Value("common")); // deleted: the level has nothing

    QVERIFY(tree.write(QStringLiteral("data/broken.yaml"), "k: [\n"));
    LookupResult r = node.lookup("k");
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QVERIFY2(errorText(r).startsWith(qs(file) + ":2:1"), qPrintable(errorText(r)));

    QVERIFY(tree.write(QStringLiteral("data/broken.yaml"), "k: second\n"));
    QCOMPARE(node.lookup("k").value, Value("second"));

    // Same size, rewritten in place: the mtime (ns) or inode differs, so it is re-read.
    QVERIFY(tree.write(QStringLiteral("data/broken.yaml"), "k: thirdd\n"));
    QCOMPARE(node.lookup("k").value, Value("thirdd"));

    QVERIFY(::unlink(file.c_str()) == 0);
    QVERIFY(tree.write(QStringLiteral("data/broken.yaml/"), {}));
    r = node.lookup("k");
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QVERIFY2(errorText(r).contains("directory"), qPrintable(errorText(r)));
}

void TestFaults::racingRewrites()
{
    // A writer replaces, truncates, breaks and deletes the file as fast as it can while lookups run:
    // every result is one of the states the file was in (or an error naming it), nothing crashes.
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", kCommon}, {"data/broken.yaml", "k: a\n"}});
    QVERIFY(tree.isValid());
    const std::string file = tree.path(QStringLiteral("data/broken.yaml"));
    const std::string tmp = tree.path(QStringLiteral("data/tmp.yaml"));
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        const char* states[] = {"k: a\n", "k: [\n", "",
                                "k: "
                                "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n"};
        for (unsigned i = 0; !stop; ++i) {
            const char* s = states[i % 4];
            if (i % 3 == 0) { // atomic replace
                FILE* f = std::fopen(tmp.c_str(), "wb");
                std::fputs(s, f);
                std::fclose(f);
                std::rename(tmp.c_str(), file.c_str());
            } else if (i % 3 == 1) { // in-place rewrite (readers may see it half-written)
                FILE* f = std::fopen(file.c_str(), "wb");
                std::fputs(s, f);
                std::fclose(f);
            } else {
                ::unlink(file.c_str());
            }
        }
    });
    auto engine = Engine::load(tree.hieraYaml());
    Context node(engine, std::make_shared<MapScope>());
    int found = 0, errors = 0;
    QElapsedTimer timer;
    timer.start();
    bool ok = true;
    QString bad;
    while (timer.elapsed() < 1500) {
        const LookupResult r = node.lookup("k");
        if (r.found()) {
            ++found;
            const std::string v = r.value.isString() ? r.value.asString() : "?";
            // A half-written "k: bbb...b" is a shorter run of b's (or "k: b..." cut anywhere).
            if (!(v == "a" || v == "common" || (!v.empty() && v.find_first_not_of('b') == std::string::npos))) {
                ok = false;
                bad = qs(toJson(r.value));
            }
        } else if (r.status == LookupResult::Status::Error) {
            ++errors;
            if (!errorText(r).startsWith(qs(file))) {
                ok = false;
                bad = errorText(r);
            }
        }
    }
    stop = true;
    writer.join();
    QVERIFY2(ok, qPrintable(bad));
    QVERIFY(found > 0);
    qInfo("%d found, %d errors", found, errors);
}

// ---- hiera.yaml and facts files -----------------------------------------------------------------------

// clang-format off
void TestFaults::configFaults_data()
{
    QTest::addColumn<Maker>("make");
    QTest::addColumn<hiera::ErrorCode>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << Maker([](TempTree&, QString&) { return true; }) << ErrorCode::ConfigUnreadable
                             << "No such file or directory";
    QTest::newRow("a directory") << Maker([](TempTree& t, QString&) { return t.write(QStringLiteral("hiera.yaml/"), {}); })
                                 << ErrorCode::ConfigUnreadable << "directory";
    QTest::newRow("a FIFO") << Maker([](TempTree& t, QString&) { return ::mkfifo(t.hieraYaml().c_str(), 0644) == 0; })
                            << ErrorCode::ConfigUnreadable << "not a regular file";
    QTest::newRow("a /proc file")
        << Maker([](TempTree& t, QString&) { return ::symlink("/proc/self/maps", t.hieraYaml().c_str()) == 0; })
        << ErrorCode::ConfigUnreadable << "kernel pseudo-file (procfs)";
    QTest::newRow("600 MB (sparse)") << Maker([](TempTree& t, QString&) { return makeSparseFile(t.hieraYaml(), 600ull << 20); })
                                     << ErrorCode::ConfigUnreadable << "exceeds the limit";
    QTest::newRow("empty") << Maker([](TempTree& t, QString&) { return t.write(QStringLiteral("hiera.yaml"), ""); })
                           << ErrorCode::ConfigVersion << "the file is empty";
    QTest::newRow("invalid UTF-8") << Maker([](TempTree& t, QString&) { return t.write(QStringLiteral("hiera.yaml"), "version: 5\n# \xff\n"); })
                                   << ErrorCode::ConfigSyntax << ":2:3: Unable to parse: invalid UTF-8";
    QTest::newRow("BOM + CRLF (accepted)")
        << Maker([](TempTree& t, QString&) {
               return t.write(QStringLiteral("hiera.yaml"), "\xef\xbb\xbfversion: 5\r\nhierarchy:\r\n  - name: c\r\n    path: common.yaml\r\n");
           })
        << ErrorCode::None << QString();
    QTest::newRow("a list") << Maker([](TempTree& t, QString&) { return t.write(QStringLiteral("hiera.yaml"), "- version: 5\n"); })
                            << ErrorCode::ConfigVersion << "the top level must be a mapping";
}
// clang-format on

void TestFaults::configFaults()
{
    QFETCH(Maker, make);
    QFETCH(hiera::ErrorCode, code);
    QFETCH(QString, message);
    TempTree tree({{"data/common.yaml", kCommon}});
    QVERIFY(tree.isValid());
    QString skip;
    QVERIFY(make(tree, skip));
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<Engine> engine;
    auto e = catchError([&] { engine = Engine::load(tree.hieraYaml()); });
    QVERIFY(timer.elapsed() < 20000);
    if (code == ErrorCode::None) {
        QVERIFY2(!e, e ? e->what() : "");
        QCOMPARE(engine->lookup(MapScope(), "k").value, Value("common"));
        return;
    }
    QVERIFY(e);
    QCOMPARE(e->code(), code);
    QVERIFY2(QString::fromUtf8(e->what()).startsWith(qs(tree.hieraYaml())), e->what());
    QVERIFY2(QString::fromUtf8(e->what()).contains(message), e->what());
}

// clang-format off
void TestFaults::factsFaults_data()
{
    QTest::addColumn<QByteArray>("content"); // null: the file is missing; "/": a directory
    QTest::addColumn<hiera::ErrorCode>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << QByteArray() << ErrorCode::DataUnreadable << "No such file or directory";
    QTest::newRow("a directory") << QByteArray("/") << ErrorCode::DataUnreadable << "directory";
    QTest::newRow("a list") << QByteArray("- a\n") << ErrorCode::FactsSyntax << ":1:1: a facts file must contain a mapping";
    QTest::newRow("a scalar") << QByteArray("web01\n") << ErrorCode::FactsSyntax << "got String";
    QTest::newRow("invalid UTF-8") << QByteArray("os: \xfe\n") << ErrorCode::DataSyntax << ":1:5: Unable to parse: invalid UTF-8";
    QTest::newRow("broken JSON") << QByteArray("{\"os\": [1,}") << ErrorCode::DataSyntax << ":1:";
    QTest::newRow("date") << QByteArray("built: 2024-01-01\n") << ErrorCode::DataType << "quote it";
    // Facts go through the data files' bounded reader: a /proc file (size 0, endless) is refused by
    // type, and a file over the size limit from its size, before anything is read (a 600 MB sparse file).
    QTest::newRow("a /proc file") << QByteArray("PROC") << ErrorCode::DataUnreadable << "kernel pseudo-file (procfs)";
    QTest::newRow("600 MB (sparse)") << QByteArray("SPARSE") << ErrorCode::DataLimit
                                     << "file of 629145600 bytes exceeds the limit of 536870912";
}
// clang-format on

void TestFaults::factsFaults()
{
    QFETCH(QByteArray, content);
    QFETCH(hiera::ErrorCode, code);
    QFETCH(QString, message);
    TempTree tree(FileList{{QStringLiteral("keep"), QByteArray()}});
    QVERIFY(tree.isValid());
    const std::string path = tree.path(QStringLiteral("facts.yaml"));
    if (content == "/")
        QVERIFY(tree.write(QStringLiteral("facts.yaml/"), {}));
    else if (content == "PROC")
        QVERIFY(::symlink("/proc/self/maps", path.c_str()) == 0);
    else if (content == "SPARSE")
        QVERIFY(makeSparseFile(path, 600ull << 20));
    else if (!content.isNull())
        QVERIFY(tree.write(QStringLiteral("facts.yaml"), content));
    auto e = catchError([&] { loadFactsFile(path); });
    QVERIFY(e);
    QCOMPARE(e->code(), code);
    QVERIFY2(QString::fromUtf8(e->what()).startsWith(qs(path)), e->what());
    QVERIFY2(QString::fromUtf8(e->what()).contains(message), e->what());
}

// ---- the command line -----------------------------------------------------------------------------------

// clang-format off
void TestFaults::cli_data()
{
    QTest::addColumn<QByteArray>("broken");   // content of data/broken.yaml (null: none; "FIFO": a FIFO)
    QTest::addColumn<QByteArray>("config");   // hiera.yaml (null: kHiera; "MISSING": no file)
    QTest::addColumn<QByteArray>("facts");    // facts file content (null: no --facts)
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrStart"); // after "hiera-lookup: error: ", relative to the tree
    QTest::newRow("good") << QByteArray() << QByteArray() << QByteArray() << 0 << QString();
    QTest::newRow("syntax error") << QByteArray("a: 1\nk: [\n") << QByteArray() << QByteArray() << 2
                                  << "data/broken.yaml:3:1: Unable to parse";
    QTest::newRow("invalid UTF-8") << QByteArray("k: \xff\n") << QByteArray() << QByteArray() << 2
                                   << "data/broken.yaml:1:4: Unable to parse: invalid UTF-8";
    QTest::newRow("FIFO") << QByteArray("FIFO") << QByteArray() << QByteArray() << 2
                          << "data/broken.yaml: cannot read: it is not a regular file (a FIFO)";
    QTest::newRow("missing hiera.yaml") << QByteArray() << QByteArray("MISSING") << QByteArray() << 2 << "hiera.yaml";
    QTest::newRow("broken hiera.yaml") << QByteArray() << QByteArray("version: 5\nhierarchy: [\n") << QByteArray() << 2
                                       << "hiera.yaml:3:1: Unable to parse";
    QTest::newRow("broken facts") << QByteArray() << QByteArray() << QByteArray("os: [\n") << 2 << "facts.yaml:2:1:";
    QTest::newRow("BOM and CRLF") << QByteArray("\xef\xbb\xbfk: crlf\r\n") << QByteArray() << QByteArray() << 0 << QString();
}
// clang-format on

void TestFaults::cli()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#else
    QFETCH(QByteArray, broken);
    QFETCH(QByteArray, config);
    QFETCH(QByteArray, facts);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrStart);
    TempTree tree({{"data/common.yaml", kCommon}});
    QVERIFY(tree.isValid());
    if (config != "MISSING")
        QVERIFY(tree.write(QStringLiteral("hiera.yaml"), config.isNull() ? kHiera : config));
    if (broken == "FIFO")
        QVERIFY(::mkfifo(tree.path(QStringLiteral("data/broken.yaml")).c_str(), 0644) == 0);
    else if (!broken.isNull())
        QVERIFY(tree.write(QStringLiteral("data/broken.yaml"), broken));
    QStringList args{QStringLiteral("--config"), qs(tree.hieraYaml())};
    if (!facts.isNull()) {
        QVERIFY(tree.write(QStringLiteral("facts.yaml"), facts));
        args << QStringLiteral("--facts") << qs(tree.path(QStringLiteral("facts.yaml")));
    }
    args << QStringLiteral("k");
    const CliResult r = runHieraLookup(args);
    QVERIFY2(r.exitCode == exitCode, qPrintable(QString::number(r.exitCode) + " " + r.err));
    if (exitCode == 0) {
        QVERIFY2(r.out.startsWith(QLatin1String("---")), qPrintable(r.out));
        return;
    }
    QVERIFY(r.out.isEmpty());
    const QString expected = QStringLiteral("hiera-lookup: error: ") + tree.root() + QLatin1Char('/') + stderrStart;
    QVERIFY2(r.err.startsWith(expected), qPrintable(r.err + "\nexpected: " + expected));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
#endif
}

// ---- a NUL byte in an interpolated path ------------------------------------------------------------------

// clang-format off
void TestFaults::nulByteInInterpolatedPath_data()
{
    QTest::addColumn<QByteArray>("level"); // a hierarchy level using %{facts.name} somewhere in its paths
    QTest::newRow("path") << QByteArray("  - name: by name\n    path: \"nodes/%{facts.name}.yaml\"\n");
    QTest::newRow("paths") << QByteArray("  - name: by name\n    paths: [\"x.yaml\", \"nodes/%{facts.name}.yaml\"]\n");
    QTest::newRow("glob") << QByteArray("  - name: by name\n    glob: \"nodes/%{facts.name}*.yaml\"\n");
    QTest::newRow("mapped_paths") << QByteArray("  - name: by name\n    mapped_paths: [facts.names, n, \"nodes/%{n}.yaml\"]\n");
    QTest::newRow("datadir") << QByteArray("  - name: by name\n    datadir: \"%{facts.name}\"\n    path: x.yaml\n");
}
// clang-format on

// A fact `../../secret.txt\0` in `nodes/%{facts.name}.yaml` would be cut at the NUL by open(2): the
// `.yaml` dropped, another file read. Puppet (Ruby) refuses the string; so does every path here, with
// the level named, and the secret is never read.
void TestFaults::nulByteInInterpolatedPath()
{
    QFETCH(QByteArray, level);
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n" + level + "  - name: common\n    path: common.yaml\n"},
                   {"data/common.yaml", "k: common\n"},
                   {"secret.txt", "k: the secret\n"}});
    QVERIFY(tree.isValid());
    const std::string name = std::string("../../secret.txt") + '\0';
    Hash facts;
    facts.set("name", Value(name));
    facts.set("names", Value(Array{Value(name)}));
    Hash root;
    root.set("facts", Value(facts));
    MapScope scope{Value(root)};
    auto engine = Engine::load(tree.hieraYaml());
    const LookupResult r = engine->lookup(scope, "k");
    QVERIFY2(r.status == LookupResult::Status::Error,
             qPrintable(r.found() ? qs(toJson(r.value)) : QString("not found")));
    QCOMPARE(r.error->code(), ErrorCode::InterpolationSyntax);
    QVERIFY2(errorText(r).contains(QLatin1String("level 'by name'")), qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains(QLatin1String("contains a NUL byte (string contains null byte)")),
             qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains(QLatin1String("secret.txt\\0")), qPrintable(errorText(r))); // shown, escaped
    QVERIFY(!errorText(r).contains(QChar(0)));
}

// ---- the command line's output and messages ---------------------------------------------------------------

// clang-format off
void TestFaults::cliOutputFailures_data()
{
    QTest::addColumn<QString>("redirect");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a full disk (/dev/full)") << "exec >/dev/full; exec" << "No space left on device";
    QTest::newRow("closed stdout") << "exec >&-; exec" << "Bad file descriptor";
}
// clang-format on

void TestFaults::cliOutputFailures()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#else
    QFETCH(QString, redirect);
    QFETCH(QString, reason);
    struct stat full
    {
    };
    if (redirect.contains(QLatin1String("/dev/full")) && (::stat("/dev/full", &full) != 0 || !S_ISCHR(full.st_mode)))
        QSKIP("/dev/full is not the full device on this machine");
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", kCommon}});
    QVERIFY(tree.isValid());
    for (const QStringList& extra :
         {QStringList{}, QStringList{QStringLiteral("--explain")}, QStringList{QStringLiteral("--version")}}) {
        const CliResult r = runHieraLookup(
            QStringList{QStringLiteral("--config"), qs(tree.hieraYaml())} + extra << QStringLiteral("k"), redirect);
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + " " + r.err));
        QCOMPARE(r.err,
                 QStringLiteral("hiera-lookup: error: cannot write to standard output: ") + reason + QLatin1Char('\n'));
    }
#endif
}

// clang-format off
void TestFaults::printableLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray("key 'a::b' at x.yaml") << QByteArray("key 'a::b' at x.yaml");
    QTest::newRow("UTF-8 kept") << QByteArray("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") << QByteArray("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    QTest::newRow("newline, CR, tab") << QByteArray("a\nb\rc\td") << QByteArray("a\\nb\\rc\\td");
    QTest::newRow("terminal escape") << QByteArray("\x1b[2J\x1b]0;title\x07") << QByteArray("\\e[2J\\e]0;title\\x07");
    QTest::newRow("NUL, DEL") << QByteArray("a\0b\x7f", 4) << QByteArray("a\\x00b\\x7F");
    QTest::newRow("C1 control (U+0085)") << QByteArray("a\xc2\x85" "b") << QByteArray("a\\x85b");
    QTest::newRow("line separator U+2028") << QByteArray("a\xe2\x80\xa8" "b") << QByteArray("a\\u2028b");
    QTest::newRow("bidi override U+202E") << QByteArray("a\xe2\x80\xae" "b") << QByteArray("a\\u202Eb");
    QTest::newRow("not UTF-8 (!!binary)") << QByteArray("\x80\x80\xff") << QByteArray("\\x80\\x80\\xFF");
    QTest::newRow("truncated sequence") << QByteArray("ab\xe2\x82") << QByteArray("ab\\xE2\\x82");
    QTest::newRow("overlong /") << QByteArray("\xc0\xaf") << QByteArray("\\xC0\\xAF");
    QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\\xED\\xA0\\x80");
}
// clang-format on

void TestFaults::printableLine()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    const std::string line = hiera::printableLine(text.toStdString());
    QCOMPARE(QByteArray::fromStdString(line), expected);
    QCOMPARE(hiera::printableLine(line), line); // idempotent: an Error made from an Error's message
    const hiera::Error e(ErrorCode::DataSyntax, text.toStdString(), {text.toStdString() + ".yaml", 1, 2});
    QCOMPARE(QByteArray::fromStdString(e.message()), expected);
    QCOMPARE(QByteArray(e.what()), expected + ".yaml:1:2: " + expected);
}

// Keys, values and paths in messages come from data: newlines, terminal escapes, C1 controls, bidi
// overrides and bytes that are not UTF-8 (a !!binary value) are escaped, one line on stderr.
void TestFaults::cliMessagesArePrintableLines()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#else
    TempTree tree({{"hiera.yaml", kHiera},
                   {"data/common.yaml",
                    "k: \"%{lookup('\\e[31mforged\\nhiera-lookup: error: x\\u202e\\x85'}\"\n"
                    "w: \"%{\\e[2J\\rgone}\"\n"}});
    QVERIFY(tree.isValid());
    for (const char* key : {"k", "w"}) { // an error; a warning (undefined variable) and an answer
        const CliResult r = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QLatin1String(key)});
        QVERIFY2(r.exitCode == (key[0] == 'k' ? 2 : 0), qPrintable(QString::number(r.exitCode) + " " + r.err));
        QVERIFY2(r.err.startsWith(QLatin1String(key[0] == 'k' ? "hiera-lookup: error: " : "hiera-lookup: warning: ")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.endsWith(QLatin1Char('\n')), qPrintable(r.err));
        for (QChar c : r.err.chopped(1))
            QVERIFY2(c.isPrint(),
                     qPrintable(QStringLiteral("U+%1 in %2").arg(c.unicode(), 4, 16, QLatin1Char('0')).arg(r.err)));
    }
    const CliResult k = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("k")});
    QVERIFY2(k.err.contains(QLatin1String("\\e[31mforged\\nhiera-lookup: error: x\\u202E\\x85")), qPrintable(k.err));
    const CliResult w = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("w")});
    QVERIFY2(w.err.contains(QLatin1String("\\e[2J\\rgone")), qPrintable(w.err));
#endif
}

// Running out of memory while reading a facts file is one line naming the file, not std::bad_alloc.
void TestFaults::cliOutOfMemoryNamesTheFile()
{
#if !defined(HIERA_HAVE_LOOKUP_BIN)
    QSKIP("hiera-lookup is not built");
#elif defined(__SANITIZE_ADDRESS__)
    QSKIP("AddressSanitizer reserves more address space than the limit this test sets");
#else
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", kCommon}});
    QVERIFY(tree.isValid());
    // 64 MB of JSON facts (the JSON reader had no guard), parsed under a 160 MB address-space limit:
    // the text fits, its values do not.
    QByteArray facts = "{";
    facts.reserve(64 << 20);
    for (int i = 0; facts.size() < (64 << 20); ++i)
        facts += "\"f" + QByteArray::number(i) + "\": [1, 2, 3, 4, 5, 6, 7, 8],\n";
    facts += "\"last\": 1}\n";
    QVERIFY(tree.write(QStringLiteral("facts.json"), facts));
    const QString file = qs(tree.path(QStringLiteral("facts.json")));
    const CliResult r = runHieraLookup(
        {QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--facts"), file, QStringLiteral("k")},
        QStringLiteral("ulimit -v 163840; exec"));
    QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + " " + r.err));
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: error: ") + file + QLatin1String(": out of memory")),
             qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
#endif
}

// The explain text quotes paths made from facts and keys from data: a fact with a newline and escapes
// must not add a line or reach the terminal raw.
void TestFaults::cliExplainLinesArePrintable()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#else
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: n\n    path: \"nodes/%{facts.name}.yaml\"\n"},
                   {"facts.json", "{\"name\": \"x\\u001b[31mRED\\nhiera-lookup: error: forged\\u202e\"}"}});
    QVERIFY(tree.isValid());
    const CliResult r =
        runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--facts"),
                        qs(tree.path(QStringLiteral("facts.json"))), QStringLiteral("--explain"), QStringLiteral("x")});
    QVERIFY2(r.exitCode == 1, qPrintable(QString::number(r.exitCode) + " " + r.err));
    QVERIFY2(r.out.contains(QLatin1String("nodes/x\\e[31mRED\\nhiera-lookup: error: forged\\u202E.yaml")),
             qPrintable(r.out));
    for (const QString& line : r.out.split(QLatin1Char('\n')))
        QVERIFY2(!line.trimmed().startsWith(QLatin1String("hiera-lookup:")), qPrintable(r.out));
    const QString text = QString(r.out).remove(QLatin1Char('\n'));
    for (QChar c : text)
        QVERIFY2(c.isPrint(),
                 qPrintable(QStringLiteral("U+%1 in %2").arg(c.unicode(), 4, 16, QLatin1Char('0')).arg(r.out)));
#endif
}

// docs/bad-input.md, "Facts files": a node's name becomes part of data file paths (nodes/%{trusted.certname}.yaml).
// From whichever fact it comes, or from --node, a name that is a path of its own is refused in one line naming the
// file, line and column, before anything is read; the node library applies the same rule.
void TestFaults::cliNodeNamesThatArePaths_data()
{
    QTest::addColumn<QByteArray>("facts");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("where"); // file:line:col of the name, in the facts file
    QTest::newRow("clientcert") << QByteArray("clientcert: ../outside\n") << QString() << ":1:13: ";
    QTest::newRow("fqdn") << QByteArray("fqdn: ../../outside\n") << QString() << ":1:7: ";
    QTest::newRow("networking.fqdn") << QByteArray("networking:\n  fqdn: a/../../outside\n") << QString() << ":2:9: ";
    QTest::newRow("trusted.certname") << QByteArray("trusted:\n  certname: ../outside\n") << QString() << ":2:13: ";
    QTest::newRow("clientcert ..") << QByteArray("clientcert: '..'\n") << QString() << ":1:13: ";
    QTest::newRow("--node") << QByteArray("os: {family: Debian}\n") << QStringLiteral("../outside") << QString();
}

void TestFaults::cliNodeNamesThatArePaths()
{
    QFETCH(QByteArray, facts);
    QFETCH(QString, node);
    QFETCH(QString, where);
    TempTree tree({{"repo/hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: Node\n    path: nodes/%{trusted.certname}.yaml\n"
                    "  - name: Common\n    path: common.yaml\n"},
                   {"repo/data/common.yaml", "k: common\n"},
                   {"repo/outside.yaml", "k: read outside the data directory\n"},
                   {"outside.yaml", "k: read outside the repository\n"},
                   {"facts.yaml", facts},
                   {"good.yaml", "clientcert: good\n"}});
    QVERIFY(tree.isValid());
    const QString factsFile = qs(tree.path(QStringLiteral("facts.yaml")));
    QStringList modes[] = {
        {QStringLiteral("--facts"), factsFile, QStringLiteral("k")},
        {QStringLiteral("--facts"), factsFile, QStringLiteral("--explain"), QStringLiteral("k")},
        {QStringLiteral("--facts"), factsFile, QStringLiteral("--all-keys")},
        {QStringLiteral("--diff-facts"), qs(tree.path(QStringLiteral("good.yaml"))), factsFile},
    };
    for (QStringList args : modes) {
        if (!node.isEmpty() && args.first() != QLatin1String("--diff-facts"))
            args << QStringLiteral("--node") << node;
        else if (!node.isEmpty())
            continue; // --node does not apply to --diff-facts
        const CliResult r =
            runHieraLookup(QStringList{QStringLiteral("--config"), qs(tree.path(QStringLiteral("repo")))} + args);
        QVERIFY2(r.exitCode == 2,
                 qPrintable(args.join(' ') + QStringLiteral(": ") + QString::number(r.exitCode) + r.out + r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("read outside")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("the node name '")), qPrintable(r.err));
        if (!where.isEmpty())
            QVERIFY2(r.err.contains(factsFile + where), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
}

QTEST_APPLESS_MAIN(TestFaults)
#include "tst_faults.moc"
