// Node against node (hiera/nodes/nodediff.h): the differing keys checked against per-key lookups on both
// sides, keys on one side only, errors against values, the prefix filter, identical nodes, the
// contributing files, the exports, cancelling; and hiera-lookup --diff-facts.

#include "support/demonodes.h"
#include "support/hieralookupcli.h"
#include "testutils.h"

#include <hiera/lookupkey.h>
#include <hiera/nodes/nodediff.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace hiera;
using namespace testutils;

namespace {

std::set<std::string> roots(const Engine& engine, const Scope& scope)
{
    std::set<std::string> out;
    for (const std::string& k : engine.keyInventory(scope, 1))
        out.insert(LookupKey::parse(k).root());
    return out;
}

std::string lookupKeyOf(const std::string& root)
{
    return LookupKey::isSingleSegment(root) ? root : '"' + root + '"';
}

bool same(const LookupResult& x, const LookupResult& y)
{
    if (x.status != y.status)
        return false;
    if (x.found())
        return x.value == y.value;
    if (x.error)
        return std::string(x.error->what()) == y.error->what();
    return true;
}

// Brute force: every key of the union looked up on both sides with Engine::lookup.
std::vector<std::string> differingKeys(const Engine& engine, const Scope& a, const Scope& b,
                                       const std::string& prefix = {})
{
    std::set<std::string> keys = roots(engine, a);
    keys.merge(roots(engine, b));
    std::vector<std::string> out;
    for (const std::string& k : keys)
        if (k.starts_with(prefix) && !same(engine.lookup(a, lookupKeyOf(k)), engine.lookup(b, lookupKeyOf(k))))
            out.push_back(k);
    return out;
}

// The files of a value's leaves, found with SourceFiles::locate (the diff maps ids to levels).
std::set<std::string> leafFiles(const Value& v)
{
    std::set<std::string> out;
    if (v.isArray() && !v.asArray().empty()) {
        for (const Value& e : v.asArray())
            out.merge(leafFiles(e));
    } else if (v.isHash() && !v.asHash().empty()) {
        for (const auto& e : v.asHash())
            out.merge(leafFiles(e.value));
    } else if (v.mark().isValid()) {
        out.insert(SourceFiles::locate(v.mark()).file);
    }
    return out;
}

QStringList keysOfDiff(const NodeDiff& diff)
{
    QStringList out;
    for (const KeyDifference& d : diff.keys)
        out << qs(d.key);
    return out;
}

QStringList toQt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const std::string& s : v)
        out << qs(s);
    return out;
}

const FileList kTwoNodes = {
    {QStringLiteral("hiera.yaml"),
     "version: 5\nhierarchy:\n  - name: Node\n    path: nodes/%{trusted.certname}.yaml\n"
     "  - name: Common\n    path: common.yaml\n"},
    {QStringLiteral("data/nodes/a.yaml"),
     "only_a: 1\nshared: a\nbroken: \"%{lookup('broken')}\"\n"
     "merged: {x: 1}\n"},
    {QStringLiteral("data/nodes/b.yaml"), "shared: b\nsame: b-and-common\n"},
    {QStringLiteral("data/common.yaml"),
     "lookup_options:\n  merged:\n    merge: deep\n"
     "shared: common\nsame: b-and-common\nbroken: fine\nmerged: {y: 2}\n"},
};

MapScope scopeOf(const std::string& certname)
{
    return MapScope(makeHash({{"trusted", makeHash({{"certname", Value(certname)}})}}));
}

} // namespace

class TestNodeDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void demoAgainstPerKeyLookups();
    void oneSideOnlyAndErrors();
    void prefixFilter();
    void arraysLeafByLeafOnlyAtTheSameLength();
    void identicalNodes();
    void exportsReadBack();
    void cancel();
    void cliDiffFacts();
    void cliDiffFactsFormats_data();
    void cliDiffFactsFormats();
    void cliLibraryNodes();
};

void TestNodeDiff::demoAgainstPerKeyLookups()
{
    const auto engine = demo::engine();
    const MapScope web01 = demo::scope("web01.example.com.yaml");
    const MapScope web02 = demo::scope("web02.example.com.json");
    const NodeDiff diff = diffNodes(*engine, web01, web02);
    QVERIFY(!diff.cancelled);
    const std::vector<std::string> expected = differingKeys(*engine, web01, web02);
    QVERIFY(expected.size() >= 3);
    QCOMPARE(keysOfDiff(diff), toQt(expected)); // the same keys, sorted
    std::set<std::string> all = roots(*engine, web01);
    all.merge(roots(*engine, web02));
    QCOMPARE(diff.keysCompared, all.size());

    for (const KeyDifference& d : diff.keys) {
        const std::string k = lookupKeyOf(d.key);
        for (const auto& [side, scope] : {std::pair{&d.a, &web01}, std::pair{&d.b, &web02}}) {
            const LookupResult r = engine->lookup(*scope, k);
            QCOMPARE(int(side->status), int(r.status));
            if (!r.found()) {
                QVERIFY(side->files.empty());
                continue;
            }
            HIERA_COMPARE_ORDERED(side->value, r.value);
            const std::set<std::string> files(side->files.begin(), side->files.end());
            QCOMPARE(files.size(), side->files.size());
            QVERIFY2(files == leafFiles(r.value), d.key.c_str());
            QVERIFY(side->merge && side->merge->spec == r.merge->spec);
        }
    }
}

void TestNodeDiff::oneSideOnlyAndErrors()
{
    TempTree tree(kTwoNodes);
    QVERIFY(tree.isValid());
    const auto engine = Engine::load(tree.hieraYaml());
    const NodeDiff diff = diffNodes(*engine, scopeOf("a"), scopeOf("b"));
    // same: equal on both sides (from different files), so not listed.
    QCOMPARE(keysOfDiff(diff),
             (QStringList{QStringLiteral("broken"), QStringLiteral("merged"), QStringLiteral("only_a"),
                          QStringLiteral("shared")}));
    QCOMPARE(diff.keysCompared, std::size_t(5));
    QVERIFY(diff.failedOnBoth.empty());

    const KeyDifference& broken = diff.keys[0];
    QCOMPARE(int(broken.a.status), int(LookupResult::Status::Error));
    QVERIFY2(qs(broken.a.error).contains(QStringLiteral("Recursive lookup")), broken.a.error.c_str());
    QCOMPARE(broken.b.value, Value("fine"));

    const KeyDifference& merged = diff.keys[1];
    QCOMPARE(merged.a.value, json(R"({"x": 1, "y": 2})"));
    QCOMPARE(toQt(merged.a.files),
             (QStringList{qs(tree.path(QStringLiteral("data/nodes/a.yaml"))),
                          qs(tree.path(QStringLiteral("data/common.yaml")))}));
    QCOMPARE(toQt(merged.b.files), QStringList{qs(tree.path(QStringLiteral("data/common.yaml")))});
    QCOMPARE(int(merged.a.merge->spec.strategy), int(MergeStrategy::Deep));
    // Leaf by leaf: only x differs (y is 2 on both), present on A alone, marked with the line that wrote it.
    QCOMPARE(merged.leaves.size(), std::size_t(1));
    QCOMPARE(qs(merged.leaves[0].path), QStringLiteral("x"));
    QVERIFY(merged.leaves[0].before && !merged.leaves[0].after);
    QCOMPARE(*merged.leaves[0].before, Value(1));
    const SourceLocation wrote = SourceFiles::locate(merged.leaves[0].before->mark());
    QCOMPARE(qs(wrote.file), qs(tree.path(QStringLiteral("data/nodes/a.yaml"))));
    QCOMPARE(wrote.line, 4);

    const KeyDifference& onlyA = diff.keys[2];
    QCOMPARE(onlyA.a.value, Value(1));
    QCOMPARE(int(onlyA.b.status), int(LookupResult::Status::NotFound));
    QVERIFY(onlyA.b.files.empty());
    QVERIFY(onlyA.leaves.empty()); // found on one side only: the key as a whole differs

    const KeyDifference& shared = diff.keys[3];
    QCOMPARE(shared.a.value, Value("a"));
    QCOMPARE(shared.b.value, Value("b"));
    QCOMPARE(toQt(shared.b.files), QStringList{qs(tree.path(QStringLiteral("data/nodes/b.yaml")))});
    QVERIFY(shared.leaves.empty()); // two scalars: no leaves to walk
}

// An array of the same length on both nodes differs element by element; one that grew or shrank as a
// whole (an element inserted at the front would make every later one a "difference").
void TestNodeDiff::arraysLeafByLeafOnlyAtTheSameLength()
{
    TempTree tree({
        {QStringLiteral("hiera.yaml"),
         "version: 5\nhierarchy:\n  - name: Node\n    path: nodes/%{trusted.certname}.yaml\n"},
        {QStringLiteral("data/nodes/a.yaml"), "same_length:\n  servers: [x, y, z]\ngrew: [x, y]\n"},
        {QStringLiteral("data/nodes/b.yaml"), "same_length:\n  servers: [x, q, z]\ngrew: [w, x, y]\n"},
    });
    QVERIFY(tree.isValid());
    const auto engine = Engine::load(tree.hieraYaml());
    const NodeDiff diff = diffNodes(*engine, scopeOf("a"), scopeOf("b"));
    QCOMPARE(keysOfDiff(diff), (QStringList{QStringLiteral("grew"), QStringLiteral("same_length")}));
    QVERIFY(diff.keys[0].leaves.empty());
    QCOMPARE(diff.keys[1].leaves.size(), std::size_t(1));
    QCOMPARE(qs(diff.keys[1].leaves[0].path), QStringLiteral("servers.1"));
    QCOMPARE(*diff.keys[1].leaves[0].before, Value("y"));
    QCOMPARE(*diff.keys[1].leaves[0].after, Value("q"));
    QCOMPARE(SourceFiles::locate(diff.keys[1].leaves[0].after->mark()).line, 2);
}

void TestNodeDiff::prefixFilter()
{
    const auto engine = demo::engine();
    const MapScope web01 = demo::scope("web01.example.com.yaml");
    const MapScope db01 = demo::scope("db01.example.com.yaml");
    DiffOptions options;
    options.prefix = "profile::";
    const NodeDiff diff = diffNodes(*engine, web01, db01, options);
    const std::vector<std::string> expected = differingKeys(*engine, web01, db01, "profile::");
    QVERIFY(!expected.empty());
    QCOMPARE(keysOfDiff(diff), toQt(expected));
    QVERIFY(diffNodes(*engine, web01, db01).keys.size() > diff.keys.size()); // classes, at least
    options.prefix = "no::such::";
    QCOMPARE(diffNodes(*engine, web01, db01, options).keysCompared, std::size_t(0));
}

void TestNodeDiff::identicalNodes()
{
    const auto engine = demo::engine();
    const MapScope web01 = demo::scope("web01.example.com.yaml");
    const MapScope again = demo::scope("web01.example.com.yaml");
    const NodeDiff diff = diffNodes(*engine, web01, again);
    QVERIFY(diff.keys.empty());
    QCOMPARE(diff.keysCompared, roots(*engine, web01).size());
    QCOMPARE(qs(nodeDiffText(diff)),
             QStringLiteral("0 keys differ between A and B (%1 compared)\n").arg(diff.keysCompared));
}

void TestNodeDiff::exportsReadBack()
{
    const auto engine = demo::engine();
    const NodeDiff diff =
        diffNodes(*engine, demo::scope("web01.example.com.yaml"), demo::scope("db01.example.com.yaml"));
    QVERIFY(diff.keys.size() >= 3);
    DiffExportOptions options;
    options.nameA = "web01";
    options.nameB = "db01";
    options.relativeTo = demo::dir;

    const Value j = parseData(nodeDiffJson(diff, options), "diff.json", DataFormat::Json);
    QCOMPARE(*j.asHash().find("a"), Value("web01"));
    QCOMPARE(*j.asHash().find("keys_compared"), Value(static_cast<std::int64_t>(diff.keysCompared)));
    const Array& differences = j.asHash().find("differences")->asArray();
    QCOMPARE(differences.size(), diff.keys.size());
    for (std::size_t i = 0; i < differences.size(); ++i) {
        const Hash& d = differences[i].asHash();
        QCOMPARE(*d.find("key"), Value(diff.keys[i].key));
        for (const auto& [name, side] : {std::pair{"a", &diff.keys[i].a}, std::pair{"b", &diff.keys[i].b}}) {
            const Hash& s = d.find(name)->asHash();
            if (side->found())
                HIERA_COMPARE_ORDERED(*s.find("value"), redactSecrets(side->value));
            else
                QVERIFY(!s.contains("value"));
            Array files;
            for (const std::string& f : side->files)
                files.emplace_back(f.substr(demo::dir.size() + 1)); // relative to the repository
            QCOMPARE(*s.find("files"), Value(files));
        }
    }

    const QStringList md = qs(nodeDiffMarkdown(diff, options)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(md.size(), int(diff.keys.size()) + 3); // summary, header, rule, one row per key
    QVERIFY(md[0].startsWith(QStringLiteral("%1 keys differ between web01 and db01 (").arg(diff.keys.size())));
    QCOMPARE(md[1], QStringLiteral("| key | web01 | db01 | web01 files | db01 files |"));
    QVERIFY(md[3].startsWith(QStringLiteral("| %1 | ").arg(qs(diff.keys[0].key))));

    const QStringList csv = qs(nodeDiffCsv(diff, options)).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(csv.size(), int(diff.keys.size()) + 1);
    QCOMPARE(csv[0], QStringLiteral("key,a_node,a_status,a_value,a_files,b_node,b_status,b_value,b_files"));
    // Every row names both nodes, so that rows pasted elsewhere still say what was compared.
    for (qsizetype i = 1; i < csv.size(); ++i)
        QVERIFY2(csv[i].contains(QStringLiteral(",web01,")) && csv[i].contains(QStringLiteral(",db01,")),
                 qPrintable(csv[i]));
}

void TestNodeDiff::cancel()
{
    const auto engine = demo::engine();
    std::stop_source source;
    source.request_stop();
    DiffOptions options;
    options.stop = source.get_token();
    const NodeDiff diff =
        diffNodes(*engine, demo::scope("web01.example.com.yaml"), demo::scope("db01.example.com.yaml"), options);
    QVERIFY(diff.cancelled);
    QVERIFY(diff.keys.empty());
    QCOMPARE(diff.keysCompared, std::size_t(0));
}

void TestNodeDiff::cliDiffFacts()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    const QString facts = qs(demo::dir + "/facts/");
    const QStringList base{QStringLiteral("--config"), qs(demo::dir), QStringLiteral("--eyaml-private-key"),
                           qs(demo::dir + "/keys/private_key.pkcs7.pem"), QStringLiteral("--diff-facts")};
    // diff's convention: 0 the same, 1 differences, 2 trouble.
    CliResult r = runHieraLookup(base
                                 + QStringList{facts + QStringLiteral("web01.example.com.yaml"),
                                               facts + QStringLiteral("web01.example.com.yaml")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.startsWith(QStringLiteral("0 keys differ between web01.example.com and web01.example.com (")),
             qPrintable(r.out));

    r = runHieraLookup(base
                       + QStringList{facts + QStringLiteral("web01.example.com.yaml"),
                                     facts + QStringLiteral("web02.example.com.json")});
    QVERIFY2(r.exitCode == 1, qPrintable(r.err));
    const auto engine = demo::engine();
    const std::vector<std::string> expected =
        differingKeys(*engine, demo::scope("web01.example.com.yaml"), demo::scope("web02.example.com.json"));
    for (const std::string& k : expected)
        QVERIFY2(r.out.contains(QLatin1Char('\n') + qs(k) + QLatin1Char('\n'))
                     || r.out.startsWith(qs(k) + QLatin1Char('\n')),
                 k.c_str());
    QVERIFY(r.out.contains(QStringLiteral("  web02.example.com: ")));

    r = runHieraLookup(
        base + QStringList{facts + QStringLiteral("web01.example.com.yaml"), facts + QStringLiteral("nope.yaml")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: error: ")) && r.err.contains(QStringLiteral("nope.yaml"))
                 && r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));

    // A key failing on both nodes is not compared: exit 2, one line for it on stderr.
    TempTree tree(kTwoNodes);
    QVERIFY(tree.isValid());
    QVERIFY(tree.write(QStringLiteral("data/common.yaml"), "shared: common\nloop: \"%{lookup('loop')}\"\n"));
    QVERIFY(tree.write(QStringLiteral("a.yaml"), "clientcert: a\n"));
    QVERIFY(tree.write(QStringLiteral("b.yaml"), "clientcert: b\n"));
    r = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--diff-facts"),
                        qs(tree.path(QStringLiteral("a.yaml"))), qs(tree.path(QStringLiteral("b.yaml")))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.contains(QStringLiteral("\nshared\n")), qPrintable(r.out));
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: error: loop: fails on both nodes: "))
                 && r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));

    r = runHieraLookup(base + QStringList{facts + QStringLiteral("web01.example.com.yaml")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: --diff-facts needs two facts files")), qPrintable(r.err));
}

// With --nodes, the library gives the facts: --diff A B, --node N KEY and --node N --all-keys print
// exactly what the same nodes' facts files print, reading only the files named after the nodes when
// there are such files; otherwise the whole library is read, a bad file of it named and skipped, and a
// node the library lacks is one error line.
void TestNodeDiff::cliLibraryNodes()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    QTemporaryDir library;
    QVERIFY(library.isValid());
    const QString facts = qs(demo::dir + "/facts/");
    for (const char* file : {"web01.example.com.yaml", "db01.example.com.yaml", "web02.example.com.json"})
        QVERIFY(QFile::copy(facts + QLatin1String(file), library.filePath(QLatin1String(file))));
    QFile bad(library.filePath(QStringLiteral("broken.yaml")));
    QVERIFY(bad.open(QIODevice::WriteOnly) && bad.write("os: {family: [\n") > 0);
    bad.close();
    const QStringList config{QStringLiteral("--config"), qs(demo::dir), QStringLiteral("--eyaml-private-key"),
                             qs(demo::dir + "/keys/private_key.pkcs7.pem")};
    const QStringList nodes = config + QStringList{QStringLiteral("--nodes"), library.path()};
    auto skippedLine = [&](const CliResult& r) {
        return r.err.startsWith(QStringLiteral("hiera-lookup: skipped: ")
                                + library.filePath(QStringLiteral("broken.yaml")) + QLatin1Char(':'))
            && r.err.count(QLatin1Char('\n')) == 1;
    };

    for (const QString& format :
         {QStringLiteral("table"), QStringLiteral("json"), QStringLiteral("csv"), QStringLiteral("markdown")}) {
        const CliResult fromLibrary =
            runHieraLookup(nodes
                           + QStringList{QStringLiteral("--diff"), QStringLiteral("web01.example.com"),
                                         QStringLiteral("db01.example.com"), QStringLiteral("--prefix"),
                                         QStringLiteral("profile::"), QStringLiteral("--format"), format});
        const CliResult fromFiles = runHieraLookup(
            config
            + QStringList{QStringLiteral("--diff-facts"), facts + QStringLiteral("web01.example.com.yaml"),
                          facts + QStringLiteral("db01.example.com.yaml"), QStringLiteral("--prefix"),
                          QStringLiteral("profile::"), QStringLiteral("--format"), format});
        QCOMPARE(fromLibrary.exitCode, 1);
        QCOMPARE(fromFiles.exitCode, 1);
        QVERIFY2(!fromLibrary.out.isEmpty() && fromLibrary.out == fromFiles.out, qPrintable(format));
        QVERIFY2(fromLibrary.err.isEmpty(), qPrintable(fromLibrary.err)); // broken.yaml was not read
    }

    CliResult fromLibrary =
        runHieraLookup(nodes
                       + QStringList{QStringLiteral("--node"), QStringLiteral("web02.example.com"),
                                     QStringLiteral("--all-keys"), QStringLiteral("--format"), QStringLiteral("json")});
    CliResult fromFiles =
        runHieraLookup(config
                       + QStringList{QStringLiteral("--facts"), facts + QStringLiteral("web02.example.com.json"),
                                     QStringLiteral("--all-keys"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(fromLibrary.exitCode, 0);
    QVERIFY(fromLibrary.out.contains(QStringLiteral("\"profile::ntp\"")));
    QCOMPARE(fromLibrary.out, fromFiles.out);

    fromLibrary = runHieraLookup(nodes
                                 + QStringList{QStringLiteral("--node"), QStringLiteral("db01.example.com"),
                                               QStringLiteral("profile::ntp.servers")});
    fromFiles = runHieraLookup(config
                               + QStringList{QStringLiteral("--facts"), facts + QStringLiteral("db01.example.com.yaml"),
                                             QStringLiteral("profile::ntp.servers")});
    QCOMPARE(fromLibrary.exitCode, 0);
    QVERIFY(!fromLibrary.out.isEmpty());
    QCOMPARE(fromLibrary.out, fromFiles.out);

    const CliResult missing = runHieraLookup(
        nodes + QStringList{QStringLiteral("--diff"), QStringLiteral("web01.example.com"), QStringLiteral("nope")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.out.isEmpty());
    QVERIFY2(missing.err.endsWith(QStringLiteral("hiera-lookup: error: no node named 'nope' in ") + library.path()
                                  + QStringLiteral(" (3 nodes)\n")),
             qPrintable(missing.err));
    // No file is named nope: the whole library was read, its bad file named.
    QVERIFY2(missing.err.startsWith(QStringLiteral("hiera-lookup: skipped: ")
                                    + library.filePath(QStringLiteral("broken.yaml"))),
             qPrintable(missing.err));

    // A node whose file has another name is found in the whole library.
    QVERIFY(QFile::rename(library.filePath(QStringLiteral("db01.example.com.yaml")),
                          library.filePath(QStringLiteral("renamed.yaml"))));
    const CliResult renamed = runHieraLookup(nodes
                                             + QStringList{QStringLiteral("--node"), QStringLiteral("db01.example.com"),
                                                           QStringLiteral("profile::ntp.servers")});
    QCOMPARE(renamed.exitCode, 0);
    QCOMPARE(renamed.out, fromFiles.out);
    QVERIFY2(skippedLine(renamed), qPrintable(renamed.err));

    // A short name for a certname gets a guess.
    const CliResult shortName = runHieraLookup(
        nodes + QStringList{QStringLiteral("--node"), QStringLiteral("db01"), QStringLiteral("--all-keys")});
    QCOMPARE(shortName.exitCode, 2);
    QVERIFY2(shortName.err.endsWith(QStringLiteral("(3 nodes; did you mean db01.example.com?)\n")),
             qPrintable(shortName.err));

    // A usage error is one line.
    const CliResult noLibrary =
        runHieraLookup(config + QStringList{QStringLiteral("--diff"), QStringLiteral("a"), QStringLiteral("b")});
    QCOMPARE(noLibrary.exitCode, 2);
    QVERIFY2(noLibrary.err.startsWith(QStringLiteral("hiera-lookup: --diff compares two nodes of a library")),
             qPrintable(noLibrary.err));
    QCOMPARE(noLibrary.err.count(QLatin1Char('\n')), 1);
}

// clang-format off
void TestNodeDiff::cliDiffFactsFormats_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("prefix");
    QTest::newRow("markdown") << QStringLiteral("markdown") << QString();
    QTest::newRow("json") << QStringLiteral("json") << QString();
    QTest::newRow("csv") << QStringLiteral("csv") << QString();
    QTest::newRow("table, prefix") << QStringLiteral("table") << QStringLiteral("profile::");
    QTest::newRow("json, prefix") << QStringLiteral("json") << QStringLiteral("profile::");
}
// clang-format on

void TestNodeDiff::cliDiffFactsFormats()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    QFETCH(QString, format);
    QFETCH(QString, prefix);
    const std::string a = demo::dir + "/facts/web01.example.com.yaml";
    const std::string b = demo::dir + "/facts/db01.example.com.yaml";
    QStringList args{QStringLiteral("--config"),
                     qs(demo::dir),
                     QStringLiteral("--eyaml-private-key"),
                     qs(demo::dir + "/keys/private_key.pkcs7.pem"),
                     QStringLiteral("--diff-facts"),
                     qs(a),
                     qs(b),
                     QStringLiteral("--format"),
                     format};
    if (!prefix.isEmpty())
        args << QStringLiteral("--prefix") << prefix;
    const CliResult r = runHieraLookup(args);
    QVERIFY2(r.exitCode == 1, qPrintable(r.err));

    const auto engine = demo::engine();
    DiffOptions diffOptions;
    diffOptions.prefix = ss(prefix);
    const NodeDiff diff =
        diffNodes(*engine, demo::scope("web01.example.com.yaml"), demo::scope("db01.example.com.yaml"), diffOptions);
    DiffExportOptions options;
    options.nameA = "web01.example.com";
    options.nameB = "db01.example.com";
    options.relativeTo = demo::dir;
    if (format == QLatin1String("json"))
        QCOMPARE(parseData(ss(r.out), "out.json", DataFormat::Json),
                 parseData(nodeDiffJson(diff, options), "x.json", DataFormat::Json));
    else if (format == QLatin1String("csv"))
        QCOMPARE(r.out, qs(nodeDiffCsv(diff, options)));
    else if (format == QLatin1String("markdown"))
        QCOMPARE(r.out, qs(nodeDiffMarkdown(diff, options)));
    else
        QCOMPARE(r.out, qs(nodeDiffText(diff, options)));
}

QTEST_APPLESS_MAIN(TestNodeDiff)
#include "tst_nodediff.moc"
