// lookupAcross: every node's answer checked against hiera::Engine::lookup on that node alone, the
// grouping (equal values, hash order ignored; largest first, ties by first node), where values were
// decided, cancel, the three exports parsed back, and `hiera-lookup --nodes`.

#include "support/hieralookupcli.h"
#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/environment.h>
#include <hiera/facts.h>
#include <hiera/nodes/fleet.h>
#include <hiera/nodes/nodelibrary.h>

#include <QProcess>
#include <QTest>

#include <atomic>

using namespace hiera;
using namespace testutils;

class TestFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void demoAgainstSingleLookups_data();
    void demoAgainstSingleLookups();
    void groupsFilesAndLevels();
    void mergedValueFiles();
    void errorsAreGrouped();
    void cancel();
    void someNodesOnly();
    void csvExport();
    void jsonExport();
    void markdownExport();
    void exportsNameFilesFromTheRepository();
    void cli_data();
    void cli();
    void cliBadFile();
};

namespace {

const char* const kHiera = "version: 5\n"
                           "hierarchy:\n"
                           "  - name: Per-node\n"
                           "    path: nodes/%{trusted.certname}.yaml\n"
                           "  - name: Per-role\n"
                           "    path: roles/%{facts.role}.yaml\n"
                           "  - name: Common\n"
                           "    path: common.yaml\n";

// n1 has its own k; n2 and n3 get common's; n4 gets role web's. h is a hash whose key order differs.
TempTree makeTree()
{
    return TempTree({{QStringLiteral("hiera.yaml"), kHiera},
                     {QStringLiteral("data/common.yaml"),
                      "k: common\nm: {a: 1}\nh: {x: 1, y: 2}\n"
                      "odd: \"a,\\\"b\\\"\\nc|d\"\n"},
                     {QStringLiteral("data/nodes/n1.yaml"),
                      "k: mine\nm: {b: 2}\nh: {y: 2, x: 1}\n"
                      "e: \"%{alias('k')} tail\"\n"},
                     {QStringLiteral("data/nodes/n3.yaml"), "e: \"%{alias('k')} tail\"\n"},
                     {QStringLiteral("data/roles/web.yaml"), "k: web\n"},
                     {QStringLiteral("facts/n1.yaml"), "clientcert: n1\n"},
                     {QStringLiteral("facts/n2.yaml"), "clientcert: n2\n"},
                     {QStringLiteral("facts/n3.yaml"), "clientcert: n3\n"},
                     {QStringLiteral("facts/n4.yaml"), "clientcert: n4\nrole: web\n"}});
}

std::shared_ptr<Engine> demoEngine()
{
    const Environment env = Environment::discover(testpaths::demoDir().toStdString());
    EngineOptions options;
    options.eyamlPrivateKey = ss(testpaths::demoDir() + QStringLiteral("/keys/private_key.pkcs7.pem"));
    return Engine::fromLayers(env.layers, options);
}

const FleetNodeResult& nodeNamed(const FleetResult& r, const std::string& name)
{
    for (const auto& n : r.nodes)
        if (n.name == name)
            return n;
    static const FleetNodeResult none;
    return none;
}

// RFC 4180 records, for reading the export back.
QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false, wasQuoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && field.isEmpty() && !wasQuoted) {
            quoted = wasQuoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
            wasQuoted = false;
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
            wasQuoted = false;
            ++i;
        } else {
            field += c;
        }
    }
    return rows;
}

} // namespace

// clang-format off
void TestFleet::demoAgainstSingleLookups_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("merge");
    for (const char* key : {"classes", "profile::ntp", "profile::ntp.servers", "profile::users::accounts",
                            "profile::base::packages", "profile::ntp.servers.0", "no::such::key"})
        QTest::newRow(key) << QString::fromLatin1(key) << QString();
    QTest::newRow("classes first") << QStringLiteral("classes") << QStringLiteral("first");
    QTest::newRow("profile::ntp hash") << QStringLiteral("profile::ntp") << QStringLiteral("hash");
}
// clang-format on

void TestFleet::demoAgainstSingleLookups()
{
    QFETCH(QString, key);
    QFETCH(QString, merge);
    TempTree tree;
    const QDir facts(testpaths::demoDir() + QStringLiteral("/facts"));
    for (const QString& f : facts.entryList(QDir::Files))
        QVERIFY(QFile::copy(facts.filePath(f), tree.root() + QLatin1Char('/') + f));
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(4));
    auto engine = demoEngine();
    LookupRequest request;
    if (!merge.isEmpty())
        request.merge = mergeOf(*mergeStrategyFromName(ss(merge)));
    const FleetResult r = lookupAcross(*engine, library, ss(key), request);
    QCOMPARE(r.nodes.size(), std::size_t(4));
    QVERIFY(!r.cancelled);
    std::size_t grouped = 0;
    for (std::size_t g = 0; g < r.groups.size(); ++g) {
        grouped += r.groups[g].members.size();
        if (g > 0)
            QVERIFY(r.groups[g - 1].members.size() >= r.groups[g].members.size());
    }
    QCOMPARE(grouped, r.nodes.size());
    for (const FleetNodeResult& n : r.nodes) {
        // The same node looked up alone, with the scope hiera-lookup --facts FILE --node NAME builds.
        const Node& node = library.nodes()[n.node];
        QCOMPARE(n.name, node.name);
        Value scopeTree = scopeFromFacts(loadFactsFile(node.sourceFile), node.name);
        scopeTree.mutableHash().set("environment", Value("production"));
        const LookupResult alone = engine->lookup(MapScope(scopeTree), ss(key), request);
        QCOMPARE(n.status, alone.status);
        HIERA_COMPARE_ORDERED(n.value, alone.value);
        const FleetGroup& group = r.groups[n.group];
        QCOMPARE(group.status, n.status);
        QCOMPARE(group.value, n.value);
        QVERIFY(std::find(group.members.begin(), group.members.end(), &n - r.nodes.data()) != group.members.end());
        if (n.status == LookupResult::Status::Found) {
            QVERIFY2(QFileInfo::exists(qs(n.file)), n.file.c_str());
            QVERIFY2(!n.level.empty(), n.file.c_str());
            QVERIFY(std::find(n.decidingFiles.begin(), n.decidingFiles.end(), n.file) != n.decidingFiles.end());
            if (alone.value.isScalar() && alone.value.mark().isValid()) // a scalar: the value's own file
                QCOMPARE(n.file, SourceFiles::locate(alone.value.mark()).file);
            for (const auto& f : n.decidingFiles)
                QVERIFY(std::find(group.decidingFiles.begin(), group.decidingFiles.end(), f)
                        != group.decidingFiles.end());
        }
    }
}

void TestFleet::groupsFilesAndLevels()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    const FleetResult r = lookupAcross(*engine, library, "k");
    QCOMPARE(r.groups.size(), std::size_t(3));
    QCOMPARE(r.groups[0].value, Value("common"));
    QCOMPARE(r.groups[0].members.size(), std::size_t(2));
    // Equal sizes: in order of their first node (n1 before n4).
    QCOMPARE(r.groups[1].value, Value("mine"));
    QCOMPARE(r.groups[2].value, Value("web"));
    QCOMPARE(nodeNamed(r, "n1").file, tree.path(QStringLiteral("data/nodes/n1.yaml")));
    QCOMPARE(nodeNamed(r, "n1").level, std::string("Per-node"));
    QCOMPARE(nodeNamed(r, "n2").level, std::string("Common"));
    QCOMPARE(nodeNamed(r, "n4").level, std::string("Per-role"));
    QCOMPARE(r.groups[0].decidingFiles, std::vector<std::string>{tree.path(QStringLiteral("data/common.yaml"))});
    QCOMPARE(r.count(LookupResult::Status::Found), std::size_t(4));

    // Kept contexts answer the same, run after run.
    const FleetContexts contexts(engine, library);
    for (int run = 0; run < 2; ++run) {
        const FleetResult c = lookupAcross(contexts, "k");
        QCOMPARE(c.nodes.size(), r.nodes.size());
        for (std::size_t i = 0; i < c.nodes.size(); ++i) {
            QCOMPARE(c.nodes[i].value, r.nodes[i].value);
            QCOMPARE(c.nodes[i].file, r.nodes[i].file);
            QCOMPARE(c.nodes[i].level, r.nodes[i].level);
            QCOMPARE(c.nodes[i].group, r.nodes[i].group);
        }
    }

    // Hash key order does not split a group.
    const FleetResult h = lookupAcross(*engine, library, "h");
    QCOMPARE(h.groups.size(), std::size_t(1));
    QCOMPARE(h.groups[0].members.size(), std::size_t(4));
    QCOMPARE(h.groups[0].decidingFiles.size(), std::size_t(2));
}

void TestFleet::mergedValueFiles()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    LookupRequest request;
    request.merge = mergeOf(MergeStrategy::Deep);
    const FleetResult r = lookupAcross(*engine, library, "m", request);
    const FleetNodeResult& n1 = nodeNamed(r, "n1");
    QCOMPARE(n1.value, json(R"({"a": 1, "b": 2})"));
    QCOMPARE(n1.decidingFiles,
             (std::vector<std::string>{tree.path(QStringLiteral("data/common.yaml")),
                                       tree.path(QStringLiteral("data/nodes/n1.yaml"))}));
    QCOMPARE(nodeNamed(r, "n2").decidingFiles, std::vector<std::string>{tree.path(QStringLiteral("data/common.yaml"))});
    QCOMPARE(r.groups[0].members.size(), std::size_t(3));
    // The merged value's first key comes from common.yaml, but the node's own file is searched first:
    // it is the file (and level) that stands for the value.
    QCOMPARE(n1.file, tree.path(QStringLiteral("data/nodes/n1.yaml")));
    QCOMPARE(n1.level, std::string("Per-node"));
    QCOMPARE(nodeNamed(r, "n2").file, tree.path(QStringLiteral("data/common.yaml")));
}

void TestFleet::errorsAreGrouped()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    const FleetResult r = lookupAcross(*engine, library, "e");
    QCOMPARE(r.groups.size(), std::size_t(3)); // not found (n2, n4), and one error per file
    QCOMPARE(r.groups[0].status, LookupResult::Status::NotFound);
    QCOMPARE(r.groups[0].members.size(), std::size_t(2));
    QCOMPARE(r.count(LookupResult::Status::Error), std::size_t(2));
    const FleetNodeResult& n1 = nodeNamed(r, "n1");
    QCOMPARE(n1.status, LookupResult::Status::Error);
    QVERIFY2(QString::fromStdString(n1.error).contains(QStringLiteral("n1.yaml:")), n1.error.c_str());
    const LookupResult alone = engine->lookup(*library.find("n1")->scope, "e");
    QCOMPARE(n1.error, std::string(alone.error->what()));
}

// FleetOptions::nodes: only those nodes, in that order, each answer its own node's; an index past the
// library is ignored; an empty list is no node at all.
void TestFleet::someNodesOnly()
{
    TempTree tree;
    const QDir facts(testpaths::demoDir() + QStringLiteral("/facts"));
    for (const QString& f : facts.entryList(QDir::Files))
        QVERIFY(QFile::copy(facts.filePath(f), tree.root() + QLatin1Char('/') + f));
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(4));
    auto engine = demoEngine();
    const std::vector<std::size_t> some{3, 0, 99};
    FleetOptions options;
    options.nodes = &some;
    const FleetContexts contexts(engine, library);
    for (const FleetResult& r : {lookupAcross(*engine, library, "profile::ntp.servers", {}, options),
                                 lookupAcross(contexts, "profile::ntp.servers", {}, options)}) {
        QCOMPARE(r.total, std::size_t(2));
        QCOMPARE(r.nodes.size(), std::size_t(2));
        QVERIFY(!r.cancelled);
        QCOMPARE(r.nodes[0].node, std::size_t(3));
        QCOMPARE(r.nodes[1].node, std::size_t(0));
        std::size_t members = 0;
        for (const FleetGroup& g : r.groups)
            members += g.members.size();
        QCOMPARE(members, std::size_t(2));
        for (const FleetNodeResult& n : r.nodes) {
            QCOMPARE(n.name, library.nodes()[n.node].name);
            const LookupResult alone = engine->lookup(*library.nodes()[n.node].scope, "profile::ntp.servers");
            QCOMPARE(n.value, alone.value);
        }
    }
    // Exports say the nodes were chosen from a larger library.
    const FleetResult some2 = lookupAcross(*engine, library, "profile::ntp.servers", {}, options);
    QCOMPARE(some2.libraryNodes, std::size_t(4));
    QCOMPARE(*json(fleetJson(some2)).asHash().find("library_nodes"), Value(4));
    QVERIFY(fleetMarkdown(some2).rfind("`profile::ntp.servers` on 2 of 2 nodes (chosen from the library's 4)\n", 0)
            == 0);
    QVERIFY(!json(fleetJson(some2)).asHash().find("node_filter"));
    // ... and by what, when the caller says (the explorer's Nodes filter).
    FleetExportOptions filtered;
    filtered.nodeFilter = "role=web env=prod";
    QCOMPARE(*json(fleetJson(some2, filtered)).asHash().find("node_filter"), Value("role=web env=prod"));
    QVERIFY2(fleetMarkdown(some2, filtered)
                     .rfind("`profile::ntp.servers` on 2 of 2 nodes (chosen by the filter `role=web env=prod` from the "
                            "library's 4)\n",
                            0)
                 == 0,
             fleetMarkdown(some2, filtered).c_str());
    const FleetResult all = lookupAcross(*engine, library, "profile::ntp.servers");
    QVERIFY(fleetMarkdown(all).rfind("`profile::ntp.servers` on 4 of 4 nodes\n", 0) == 0);
    const std::vector<std::size_t> none;
    options.nodes = &none;
    const FleetResult empty = lookupAcross(*engine, library, "profile::ntp.servers", {}, options);
    QCOMPARE(empty.total, std::size_t(0));
    QVERIFY(empty.nodes.empty() && empty.groups.empty() && !empty.cancelled);
}

void TestFleet::cancel()
{
    FileList files;
    files.append({QStringLiteral("hiera.yaml"), kHiera});
    files.append({QStringLiteral("data/common.yaml"), "k: v\n"});
    for (int i = 0; i < 60; ++i)
        files.append({QStringLiteral("facts/n%1.yaml").arg(i), QStringLiteral("clientcert: n%1\n").arg(i).toUtf8()});
    const TempTree tree(files);
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    QCOMPARE(library.size(), std::size_t(60));
    auto engine = Engine::load(tree.hieraYaml());
    std::stop_source stop;
    FleetOptions options;
    const ThreadExecutor twoThreads(2);
    options.executor = &twoThreads;
    options.stop = stop.get_token();
    options.progress = [&](std::size_t done, std::size_t total) {
        QCOMPARE(total, std::size_t(60));
        if (done >= 5)
            stop.request_stop();
    };
    const FleetResult r = lookupAcross(*engine, library, "k", {}, options);
    QVERIFY(r.cancelled);
    QCOMPARE(r.total, std::size_t(60));
    QVERIFY2(r.nodes.size() >= 5 && r.nodes.size() < 10, qPrintable(QString::number(r.nodes.size())));
    QCOMPARE(r.groups.size(), std::size_t(1));
    QCOMPARE(r.groups[0].members.size(), r.nodes.size());
    QVERIFY(fleetJson(r).find("\"cancelled\": true") != std::string::npos);
}

void TestFleet::csvExport()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    for (const char* key : {"odd", "e", "h"}) {
        const FleetResult r = lookupAcross(*engine, library, key);
        const QList<QStringList> rows = parseCsv(QString::fromStdString(fleetCsv(r)));
        QCOMPARE(rows.size(), qsizetype(r.nodes.size() + 1));
        QCOMPARE(rows[0],
                 (QStringList{QStringLiteral("node"), QStringLiteral("key"), QStringLiteral("status"),
                              QStringLiteral("value"), QStringLiteral("file"), QStringLiteral("level")}));
        for (std::size_t i = 0; i < r.nodes.size(); ++i) {
            const QStringList& row = rows[qsizetype(i + 1)];
            const FleetNodeResult& n = r.nodes[i];
            QCOMPARE(row.size(), 6);
            QCOMPARE(row[0], qs(n.name));
            QCOMPARE(row[1], QString::fromLatin1(key));
            QCOMPARE(row[2], QString::fromLatin1(fleetStatusName(n.status)));
            if (n.status == LookupResult::Status::Found)
                QCOMPARE(json(ss(row[3])), n.value);
            else
                QCOMPARE(row[3], qs(n.error));
            QCOMPARE(row[4], qs(n.file));
            QCOMPARE(row[5], qs(n.level));
        }
    }
    const FleetResult odd = lookupAcross(*engine, library, "odd");
    QCOMPARE(odd.groups[0].value, Value("a,\"b\"\nc|d"));
}

void TestFleet::jsonExport()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    const FleetResult r = lookupAcross(*engine, library, "k");
    const Value doc = json(fleetJson(r));
    QCOMPARE(*doc.asHash().find("key"), Value("k"));
    QCOMPARE(*doc.asHash().find("total"), Value(4));
    const Array& groups = doc.asHash().find("groups")->asArray();
    QCOMPARE(groups.size(), r.groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Hash& group = groups[g].asHash();
        QCOMPARE(*group.find("value"), r.groups[g].value);
        QCOMPARE(group.find("count")->asInteger(), std::int64_t(r.groups[g].members.size()));
        QCOMPARE(group.find("nodes")->asArray().size(), r.groups[g].members.size());
        QCOMPARE(group.find("nodes")->asArray()[0], Value(r.nodes[r.groups[g].members[0]].name));
    }
    const Array& nodes = doc.asHash().find("nodes")->asArray();
    QCOMPARE(nodes.size(), std::size_t(4));
    QCOMPARE(*nodes[0].asHash().find("level"), Value("Per-node"));
    QCOMPARE(*nodes[0].asHash().find("status"), Value("found"));
    const Value errors = json(fleetJson(lookupAcross(*engine, library, "e")));
    QCOMPARE(*errors.asHash().find("groups")->asArray()[0].asHash().find("status"), Value("not found"));
    QVERIFY(errors.asHash().find("groups")->asArray()[1].asHash().find("error")->isString());
}

void TestFleet::markdownExport()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    const FleetResult r = lookupAcross(*engine, library, "odd");
    const QStringList lines = QString::fromStdString(fleetMarkdown(r)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3 + int(r.groups.size()));
    QCOMPARE(lines[1], QStringLiteral("| nodes | count | value | files |"));
    // A table row: the pipe and the newline of the value are escaped, so the row keeps four cells.
    const QString row = lines[3];
    QCOMPARE(row.count(QStringLiteral(" | ")), 3);
    QVERIFY2(row.contains(QStringLiteral("\\|")) && row.contains(QStringLiteral("\\n")), qPrintable(row));
    QVERIFY(row.contains(QStringLiteral("n1, n2, n3, n4")));
}

void TestFleet::exportsNameFilesFromTheRepository()
{
    const TempTree tree = makeTree();
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("facts")));
    auto engine = Engine::load(tree.hieraYaml());
    const FleetResult r = lookupAcross(*engine, library, "k");
    QVERIFY(!r.nodes.empty() && !r.nodes[0].file.empty() && !r.groups[0].decidingFiles.empty());
    FleetExportOptions options;
    options.relativeTo = tree.path() + "/"; // a trailing slash changes nothing
    for (const std::string& out : {fleetCsv(r, options), fleetJson(r, options), fleetMarkdown(r, options)}) {
        QVERIFY2(out.find(tree.path()) == std::string::npos, out.c_str());
        QVERIFY2(out.find(relativePath(r.groups[0].decidingFiles[0], tree.path())) != std::string::npos, out.c_str());
    }
    const QList<QStringList> rows = parseCsv(QString::fromStdString(fleetCsv(r, options)));
    for (std::size_t i = 0; i < r.nodes.size(); ++i) {
        QVERIFY(!qs(relativePath(r.nodes[i].file, tree.path())).startsWith(QLatin1Char('/')));
        QCOMPARE(rows[qsizetype(i + 1)][4], qs(relativePath(r.nodes[i].file, tree.path())));
    }
    const Value doc = json(fleetJson(r, options));
    QCOMPARE(doc.asHash().find("nodes")->asArray()[0].asHash().find("files")->asArray()[0],
             Value(relativePath(r.nodes[0].decidingFiles[0], tree.path())));
    // Without a root, the paths are as the engine gives them.
    QVERIFY(fleetCsv(r).find(r.nodes[0].file) != std::string::npos);
}

// clang-format off
void TestFleet::cli_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("expected");
    QTest::newRow("table") << QStringList{} << QStringLiteral("3 nodes");
    QTest::newRow("csv") << QStringList{QStringLiteral("--format"), QStringLiteral("csv")} << QStringLiteral("n2,k,found,\"\"\"common\"\"\"");
    QTest::newRow("json") << QStringList{QStringLiteral("--format"), QStringLiteral("json")} << QStringLiteral("\"count\": 3");
    QTest::newRow("markdown") << QStringList{QStringLiteral("--format=markdown")} << QStringLiteral("| 3 |");
    QTest::newRow("yaml") << QStringList{QStringLiteral("--format"), QStringLiteral("yaml")} << QStringLiteral("count: 3");
}
// clang-format on

void TestFleet::cli()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    QFETCH(QStringList, extra);
    QFETCH(QString, expected);
    TempTree tree = makeTree();
    QVERIFY(tree.write(QStringLiteral("facts/n5.yaml"), "clientcert: n5\n"));
    const CliResult r = runHieraLookup(QStringList{QStringLiteral("--config"), qs(tree.hieraYaml()),
                                                   QStringLiteral("--nodes"), qs(tree.path(QStringLiteral("facts")))}
                                           + extra
                                       << QStringLiteral("k"));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(expected), qPrintable(r.out));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    // Files are named from the repository's root in every format, as the other reports do.
    QVERIFY2(!r.out.contains(tree.root()), qPrintable(r.out));
    if (extra.contains(QStringLiteral("json")))
        QCOMPARE(json(ss(r.out)).asHash().find("groups")->asArray().size(), std::size_t(3));
    if (extra.contains(QStringLiteral("yaml")))
        QCOMPARE(yaml(ss(r.out)).asHash().find("groups")->asArray().size(), std::size_t(3));
    if (extra.contains(QStringLiteral("csv")))
        QCOMPARE(parseCsv(r.out).size(), 6);

    const CliResult none = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--nodes"),
                                           qs(tree.path(QStringLiteral("facts"))), QStringLiteral("no::such")});
    QCOMPARE(none.exitCode, 1);
}

void TestFleet::cliBadFile()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    TempTree tree = makeTree();
    QVERIFY(tree.write(QStringLiteral("facts/zz-broken.yaml"), "a: [1\nb: 2\n"));
    const CliResult r = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--nodes"),
                                        qs(tree.path(QStringLiteral("facts"))), QStringLiteral("k")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList errLines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(errLines.size(), 1);
    QVERIFY2(errLines[0].contains(qs(tree.path(QStringLiteral("facts/zz-broken.yaml"))) + QLatin1Char(':')),
             qPrintable(errLines[0]));
    QVERIFY(r.out.contains(QStringLiteral("n1")));

    const CliResult missing =
        runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--nodes"),
                        qs(tree.path(QStringLiteral("nowhere"))), QStringLiteral("k")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains(QStringLiteral("nowhere")));
}

QTEST_APPLESS_MAIN(TestFleet)
#include "tst_fleet.moc"
