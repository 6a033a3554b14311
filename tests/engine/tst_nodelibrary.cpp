// NodeLibrary: a directory of facts files in every format, a PuppetDB export in both shapes, bad files
// skipped with one located error each, duplicate names, cancel and progress, and the compact store:
// equal facts stored once, every node's facts still equal to reading its file alone.

#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/facts.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodescope.h>
#include <hiera/scope.h>

#include <QTest>

#include <atomic>
#include <chrono>
#include <filesystem>

#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>

using namespace hiera;
using namespace testutils;

class TestNodeLibrary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void demoFacts();
    void formatsAndBadFiles();
    void puppetDBExport();
    void puppetDBEntryWithAPathAsCertname();
    void puppetDBFileInDirectory();
    void scopeOverlay();
    void duplicateNames();
    void namedAsTheirFactsFileNamesThem();
    void tooBig();
    void missingPath();
    void progressAndCancel();
    void storedOnce();
    void aliasesStayShared();
    void loadNodesReadsTheirFiles();
    void duplicateNodeKeepsTheFileNamedAfterIt();
    void withoutAnExecutorNoThreadIsStarted();
    void hostileNodeNames_data();
    void hostileNodeNames();
    void duplicateWithinOneExport();
    void hostileFolderEntries();
    void fiftyThousandFiles();
};

namespace {

const char* const kFacterYaml = "clientcert: yaml01.example.com\n"
                                "os:\n  family: Debian\n  release: {major: '12', full: '12.5'}\n"
                                "mounts: [rw, relatime]\n";
const char* const kFacterJson =
    R"({"fqdn": "json01.example.com", "os": {"family": "Debian", "release": {"major": "12", "full": "12.5"}}, "n": 1e3})";
const char* const kPuppetFacts = "name: pf01.example.com\nvalues:\n  clientcert: other.example.com\n  role: db\n";

std::string scopeString(const Scope& scope, std::string_view ref)
{
    auto v = scope.lookup(ref);
    return v ? toJson(*v) : std::string("<absent>");
}

} // namespace

void TestNodeLibrary::demoFacts()
{
    TempTree tree;
    const QDir facts(testpaths::demoDir() + QStringLiteral("/facts"));
    const QStringList files = facts.entryList(QDir::Files);
    QCOMPARE(files.size(), 4);
    for (const QString& f : files)
        QVERIFY(QFile::copy(facts.filePath(f), tree.root() + QLatin1Char('/') + f));
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QVERIFY2(library.errors().empty(), library.errors().empty() ? "" : library.errors().front().what());
    QCOMPARE(library.size(), std::size_t(4));
    QCOMPARE(library.nodes()[0].name, std::string("build01.example.com"));
    const Node* web02 = library.find("web02.example.com");
    QVERIFY(web02);
    QCOMPARE(web02->format, FactsFormat::PuppetFacts);
    QCOMPARE(library.find("db01.example.com")->format, FactsFormat::FacterYaml);
    QVERIFY(!library.find("nobody"));
    QCOMPARE(library.factBytes(), std::uint64_t([&] {
                 qint64 n = 0;
                 for (const QString& f : files)
                     n += QFileInfo(facts.filePath(f)).size();
                 return n;
             }()));
    // Each node's scope answers as hiera-lookup --facts FILE --node NAME's does.
    for (const Node& node : library.nodes()) {
        Value cli = scopeFromFacts(loadFactsFile(node.sourceFile), node.name);
        cli.mutableHash().set("environment", Value("production"));
        const MapScope expected(cli);
        for (const char* ref :
             {"trusted.certname", "facts.os.family", "::role", "environment", "facts.datacenters.0", "networking.ip",
              "facts", "clientcert", "trusted", "facts.trusted.certname", "os.release.major", "facts.'os'.family",
              "::facts.os.release", "nope", "nope.x", "", "::"})
            QCOMPARE(scopeString(*node.scope, ref), scopeString(expected, ref));
        QVERIFY(orderedEqual(node.facts(), loadFactsFile(node.sourceFile)));
    }
}

void TestNodeLibrary::formatsAndBadFiles()
{
    TempTree tree({{QStringLiteral("a-yaml.yaml"), kFacterYaml},
                   {QStringLiteral("b-json.json"), kFacterJson},
                   {QStringLiteral("c-puppet.yml"), kPuppetFacts},
                   {QStringLiteral("d-anon.yaml"), "kernel: Linux\n"},
                   {QStringLiteral("e-broken.yaml"), "os:\n  family: Debian\n  release: [12\nx: y\n"},
                   {QStringLiteral("f-empty.yaml"), ""},
                   {QStringLiteral("g-scalar.yaml"), "just a string\n"},
                   {QStringLiteral("h-broken.json"), "{\"os\": {\"family\": }\n"},
                   {QStringLiteral("README.md"), "not facts"},
                   {QStringLiteral("sub/i-ignored.yaml"), kFacterYaml}});
    QVERIFY(tree.isValid());
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QStringList names;
    for (const Node& n : library.nodes())
        names << qs(n.name);
    QCOMPARE(names,
             (QStringList{QStringLiteral("yaml01.example.com"), QStringLiteral("json01.example.com"),
                          QStringLiteral("pf01.example.com"), QStringLiteral("d-anon")}));
    QCOMPARE(library.nodes()[0].format, FactsFormat::FacterYaml);
    QCOMPARE(library.nodes()[1].format, FactsFormat::FacterJson);
    QCOMPARE(library.nodes()[2].format, FactsFormat::PuppetFacts);
    QCOMPARE(library.nodes()[1].facts().asHash().find("n")->type(), Value::Type::Float); // JSON typing
    QCOMPARE(*library.nodes()[2].facts().asHash().find("role"), Value("db"));
    QCOMPARE(library.nodes()[0].sourceFile, tree.path(QStringLiteral("a-yaml.yaml")));

    QCOMPARE(library.errors().size(), std::size_t(4));
    QStringList seen;
    for (const Error& e : library.errors()) {
        const QString line = QString::fromUtf8(e.what());
        QVERIFY2(!line.contains(QLatin1Char('\n')), e.what());
        QVERIFY2(line.startsWith(qs(e.location().file)), e.what());
        seen << QFileInfo(qs(e.location().file)).fileName();
    }
    seen.sort();
    QCOMPARE(seen,
             (QStringList{QStringLiteral("e-broken.yaml"), QStringLiteral("f-empty.yaml"),
                          QStringLiteral("g-scalar.yaml"), QStringLiteral("h-broken.json")}));
    for (const Error& e : library.errors()) {
        if (e.location().file.ends_with("e-broken.yaml") || e.location().file.ends_with("h-broken.json")) {
            QVERIFY2(e.location().line >= 1 && e.location().column >= 1, e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral(".yaml:%1:").arg(e.location().line))
                         || QString::fromUtf8(e.what()).contains(QStringLiteral(".json:%1:").arg(e.location().line)),
                     e.what());
        }
        if (e.location().file.ends_with("g-scalar.yaml"))
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("String")), e.what());
    }
}

void TestNodeLibrary::puppetDBExport()
{
    const QByteArray exportText = R"([
  {"certname": "db1.example.com", "environment": "production", "hash": "x",
   "facts": {"href": "/pdb/query/v4/factsets/db1.example.com/facts",
             "data": [{"name": "os", "value": {"family": "RedHat", "release": {"major": "9"}}},
                      {"name": "role", "value": "db"}]}},
  {"certname": "web1.example.com", "environment": "staging",
   "facts": [{"name": "role", "value": "web"}, {"name": "datacenters", "value": ["dc1", "dc2"]}]},
  {"environment": "production", "facts": []},
  {"certname": "bad.example.com", "facts": [{"value": 1}]},
  {"certname": "href-only.example.com", "facts": {"href": "/pdb/query/v4/factsets/x/facts"}}
])";
    TempTree tree({{QStringLiteral("factsets.json"), exportText}});
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("factsets.json")));
    QCOMPARE(library.size(), std::size_t(2));
    const Node* db = library.find("db1.example.com");
    const Node* web = library.find("web1.example.com");
    QVERIFY(db && web);
    QCOMPARE(db->format, FactsFormat::PuppetDB);
    QCOMPARE(db->environment, std::string("production"));
    QCOMPARE(web->environment, std::string("staging"));
    QCOMPARE(scopeString(*db->scope, "facts.os.release.major"), std::string("\"9\""));
    QCOMPARE(scopeString(*web->scope, "datacenters.1"), std::string("\"dc2\""));
    QCOMPARE(scopeString(*web->scope, "trusted.certname"), std::string("\"web1.example.com\""));
    QCOMPARE(library.errors().size(), std::size_t(3));
    for (const Error& e : library.errors()) {
        QVERIFY2(e.location().file == tree.path(QStringLiteral("factsets.json")), e.what());
        QVERIFY2(e.location().line >= 6, e.what()); // at the entry, not at the top of the file
    }
}

// A trusted.certname that is a path (docs/bad-input.md, "Facts files") skips its own entry of an export, named at its
// line; the entries after it still load.
void TestNodeLibrary::puppetDBEntryWithAPathAsCertname()
{
    const QByteArray exportText = R"([
  {"certname": "a.example.com", "facts": [{"name": "role", "value": "a"}]},
  {"certname": "b.example.com",
   "facts": [{"name": "trusted", "value": {"certname": "../../outside"}}]},
  {"certname": "c.example.com", "facts": [{"name": "role", "value": "c"}]}
])";
    TempTree tree({{QStringLiteral("factsets.json"), exportText}});
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("factsets.json")));
    QCOMPARE(library.size(), std::size_t(2));
    QVERIFY(library.find("a.example.com") && library.find("c.example.com"));
    QCOMPARE(library.errors().size(), std::size_t(1));
    const Error& e = library.errors().front();
    QVERIFY2(e.location().file == tree.path(QStringLiteral("factsets.json")) && e.location().line == 4, e.what());
    QVERIFY2(std::string(e.what()).find("the node name '../../outside' holds a '/'") != std::string::npos, e.what());
}

void TestNodeLibrary::puppetDBFileInDirectory()
{
    TempTree tree({{QStringLiteral("a.yaml"), kFacterYaml},
                   {QStringLiteral("pdb.json"), R"([{"certname": "p1", "facts": [{"name": "role", "value": "x"}]},
                                                   {"certname": "p2", "facts": [{"name": "role", "value": "y"}]}])"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(3));
    QVERIFY(library.find("p1") && library.find("p2") && library.find("yaml01.example.com"));
    QCOMPARE(library.find("p2")->sourceFile, tree.path(QStringLiteral("pdb.json")));
}

// Facts that name what scopeFromFacts adds (facts, trusted, environment): the node's scope (over the
// store) and NodeScope (over the decoded facts) still answer as scopeFromFacts' tree does.
void TestNodeLibrary::scopeOverlay()
{
    TempTree tree({{QStringLiteral("x.yaml"),
                    "clientcert: c1\ntrusted: {extra: x, certname: fake}\nfacts: shadowed\n"
                    "environment: dev\nrole: r\n\"dotted.name\": d\n"
                    "ints: {1: one, \"2\": two}\nlist: [a, {b: c}]\nnum: 5\n"
                    "big: {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9, "
                    "k10: 10, k11: 11, k12: 12, k13: 13, k14: 14, k15: 15, k16: 16, k17: 17, "
                    "k18: {x: 18}, 19: nineteen, k20: -0.0, k21: 1234567890123456789}\n"},
                   {QStringLiteral("y.yaml"), "role: s\ntrusted: not a hash\n"},
                   {QStringLiteral("w.yaml"), "clientcert: w\ntrusted: [a, {x: 1}]\n"},
                   {QStringLiteral("z.yaml"), "role: t\n"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(4));
    for (const Node& node : library.nodes()) {
        const Value facts = loadFactsFile(node.sourceFile);
        // $environment is the environment's name, whatever a fact of that name says
        const Value extra = makeHash({{"environment", Value("production")}});
        const MapScope expected(scopeFromFacts(facts, node.name, extra));
        for (const char* ref :
             {"trusted", "trusted.extra", "trusted.certname", "facts", "facts.facts", "environment",
              "facts.environment", "role", "::role", "'dotted.name'", "facts.'dotted.name'", "facts.trusted.certname",
              "clientcert",
              // the plain dotted walk (FactsScope) against LookupKey's: integer keys,
              // array indexes, scalars in the way, blanks, empty segments
              "ints.1", "ints.2", "facts.ints.1", "list.1.b", "list.999999999999999999999999999999",
              "list.000000000000000000000000000001.b", "list.18446744073709551617", "ints.18446744073709551617",
              "list.b", "num.x", "role.x", "facts. role", "facts.role ", "facts..role", "facts.role.", ".role", "1.x",
              // trusted: the facts' hash with the certname over it, or the certname alone
              "trusted.'certname'", "trusted.certname.x", "trusted.extra.x", "trusted.nope", "'trusted'", "'facts'",
              "::trusted.certname", "trusted.0", "trusted.1.x", "facts.trusted.0",
              // a hash large enough to be searched rather than scanned
              "big", "big.k0", "big.k7", "big.k17", "big.k18.x", "big.19", "big.'19'", "big.k20", "big.k21", "big.nope",
              "facts.big.k16"}) {
            QCOMPARE(scopeString(*node.scope, ref), scopeString(expected, ref));
            // The same walk over the decoded facts: what hiera-lookup --facts FILE --node NAME asks.
            const NodeScope decoded({facts, node.name, "production", Value()});
            QCOMPARE(scopeString(decoded, ref), scopeString(expected, ref));
        }
    }
}

void TestNodeLibrary::duplicateNames()
{
    TempTree tree({{QStringLiteral("one.yaml"), "clientcert: same.example.com\nrole: first\n"},
                   {QStringLiteral("two.json"), R"({"clientcert": "same.example.com", "role": "second"})"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(1));
    QCOMPARE(*library.nodes()[0].facts().asHash().find("role"), Value("first"));
    QCOMPARE(library.warnings().size(), std::size_t(1));
    const QString w = qs(library.warnings()[0]);
    QVERIFY2(w.contains(QStringLiteral("one.yaml")) && w.contains(QStringLiteral("two.json"))
                 && w.contains(QStringLiteral("same.example.com")),
             qPrintable(w));
}

// A node of the library is named, and its trusted.certname set, as `hiera-lookup --facts FILE` sets
// it (certnameFor): facter 4's output names a node only by networking.fqdn, and `fqdn` comes before
// the facts' own trusted.certname.
void TestNodeLibrary::namedAsTheirFactsFileNamesThem()
{
    TempTree tree({{QStringLiteral("facter4.yaml"), "networking: {fqdn: n4.example.com}\nrole: a\n"},
                   {QStringLiteral("both.yaml"), "fqdn: f.example.com\ntrusted: {certname: t.example.com}\n"},
                   {QStringLiteral("trusted.yaml"), "trusted: {certname: only.example.com}\n"},
                   {QStringLiteral("anonymous.yaml"), "role: b\n"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(4));
    for (const Node& node : library.nodes()) {
        const NodeScope alone({node.facts(), certnameFor(node.facts()), "production", {}});
        const std::optional<Value> certname = alone.lookup("trusted.certname");
        const std::string expected = certname && certname->isString() ? certname->asString() : std::string();
        QCOMPARE(scopeString(*node.scope, "trusted.certname"), "\"" + node.name + "\"");
        if (node.sourceFile.ends_with("anonymous.yaml"))
            QCOMPARE(node.name, std::string("anonymous")); // nothing names it: its file does
        else
            QCOMPARE(node.name, expected);
    }
    QVERIFY(library.find("n4.example.com") && library.find("f.example.com") && library.find("only.example.com"));
}

void TestNodeLibrary::tooBig()
{
    TempTree tree(
        {{QStringLiteral("big.yaml"), "k: " + QByteArray(300, 'x') + "\n"}, {QStringLiteral("ok.yaml"), "k: v\n"}});
    NodeLibraryOptions options;
    options.limits.maxDocumentBytes = 100;
    const NodeLibrary library = NodeLibrary::load(tree.path(), options);
    QCOMPARE(library.size(), std::size_t(1));
    QCOMPARE(library.errors().size(), std::size_t(1));
    QCOMPARE(library.errors()[0].code(), ErrorCode::DataLimit);
    QVERIFY(library.errors()[0].location().file.ends_with("big.yaml"));
}

void TestNodeLibrary::missingPath()
{
    const auto e = catchError([] { NodeLibrary::load("/nonexistent/facts/dir"); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::Io);
    QVERIFY(QString::fromUtf8(e->what()).startsWith(QStringLiteral("/nonexistent/facts/dir")));
}

void TestNodeLibrary::progressAndCancel()
{
    FileList files;
    for (int i = 0; i < 200; ++i)
        files.append({QStringLiteral("n%1.yaml").arg(i, 3, 10, QLatin1Char('0')),
                      QStringLiteral("clientcert: n%1\nrole: r%2\n").arg(i).arg(i % 3).toUtf8()});
    TempTree tree(files);
    QVERIFY(tree.isValid());

    std::mutex mutex;
    std::size_t last = 0, calls = 0, total = 0;
    NodeLibraryOptions options;
    const ThreadExecutor twoThreads(2);
    options.executor = &twoThreads;
    options.progress = [&](std::size_t done, std::size_t all) {
        std::lock_guard lock(mutex);
        last = std::max(last, done);
        total = all;
        ++calls;
    };
    const NodeLibrary full = NodeLibrary::load(tree.path(), options);
    QCOMPARE(full.size(), std::size_t(200));
    QVERIFY(!full.cancelled());
    QCOMPARE(calls, std::size_t(200));
    QCOMPARE(last, std::size_t(200));
    QCOMPARE(total, std::size_t(200));

    std::stop_source cancel;
    options.stop = cancel.get_token();
    options.progress = [&](std::size_t done, std::size_t) {
        if (done >= 10)
            cancel.request_stop();
    };
    const NodeLibrary part = NodeLibrary::load(tree.path(), options);
    QVERIFY(part.cancelled());
    QVERIFY2(part.size() >= 10 && part.size() < 20, qPrintable(QString::number(part.size())));
    QVERIFY(part.errors().empty());
}

void TestNodeLibrary::storedOnce()
{
    // Key order, integer against string, and the sign of a zero tell values apart in the store.
    TempTree tree({{QStringLiteral("a.yaml"), kFacterYaml},
                   {QStringLiteral("b.yaml"),
                    "clientcert: b\nos:\n  family: Debian\n  release: {major: '12', full: '12.5'}\n"
                    "mounts: [rw, relatime]\n"},
                   {QStringLiteral("c.yaml"),
                    "clientcert: c\nos:\n  family: Debian\n  release: {full: '12.5', major: '12'}\n"
                    "mounts: [rw, 0.0]\n"},
                   {QStringLiteral("d.yaml"),
                    "clientcert: d\nos:\n  family: Debian\n  release: {major: 12, full: '12.5'}\n"
                    "mounts: [rw, -0.0]\n"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(4));
    for (const Node& n : library.nodes()) {
        const Value facts = n.facts();
        QVERIFY(orderedEqual(facts, loadFactsFile(n.sourceFile)));
        // Decoded facts are marked with their own node's file, shared parts included.
        QCOMPARE(SourceFiles::locate(facts.mark()).file, n.sourceFile);
        QCOMPARE(SourceFiles::locate(facts.asHash().find("os")->asHash().find("family")->mark()).file, n.sourceFile);
    }
    QCOMPARE(toJson(*library.find("d")->facts().asHash().find("mounts")), std::string("[\"rw\",-0.0]"));
    QCOMPARE(toJson(*library.find("c")->facts().asHash().find("os")),
             std::string(R"({"family":"Debian","release":{"full":"12.5","major":"12"}})"));

    // Equal subtrees are stored once: 300 nodes sharing a hash of 1,000 facts cost about what one node
    // does (held apart, they would take over 30 times as much).
    std::string common = "details:\n";
    for (int i = 0; i < 1000; ++i)
        common += "  fact_" + std::to_string(i) + ": {value: 'a distinct string " + std::to_string(i * 7919)
            + "', list: [" + std::to_string(i) + ", x]}\n";
    FileList files;
    for (int n = 0; n < 300; ++n)
        files.append({QStringLiteral("node%1.yaml").arg(n),
                      QByteArray::fromStdString("clientcert: node" + std::to_string(n) + "\n" + common)});
    TempTree many(files);
    TempTree one({files.front()});
    QVERIFY(many.isValid() && one.isValid());
    const NodeLibrary all = NodeLibrary::load(many.path());
    const NodeLibrary single = NodeLibrary::load(one.path());
    QCOMPARE(all.size(), std::size_t(300));
    QVERIFY2(
        all.storedBytes() < 2 * single.storedBytes(),
        qPrintable(
            QStringLiteral("%1 bytes for 300 nodes, %2 for one").arg(all.storedBytes()).arg(single.storedBytes())));
    QVERIFY2(all.storedBytes() * 10 < all.factBytes(), qPrintable(QString::number(all.factBytes())));
    QVERIFY(orderedEqual(all.find("node299")->facts(), loadFactsFile(all.find("node299")->sourceFile)));
}

// A YAML alias bomb (six levels of twelve: three million values expanded) is stored as seven
// containers and decoded as shared storage, never expanded.
void TestNodeLibrary::aliasesStayShared()
{
    std::string yaml = "clientcert: bomb\na: &a [x, y, z, x, y, z, x, y, z, x, y, z]\n";
    for (char level = 'b'; level <= 'f'; ++level) {
        yaml += std::string(1, level) + ": &" + level + " [";
        for (int i = 0; i < 12; ++i)
            yaml += std::string(i ? ", *" : "*") + char(level - 1);
        yaml += "]\n";
    }
    TempTree tree({{QStringLiteral("bomb.yaml"), QByteArray::fromStdString(yaml)}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(1));
    const std::optional<Value> f = library.nodes()[0].scope->lookup("facts.f");
    QVERIFY(f && f->isArray() && f->asArray().size() == 12);
    QCOMPARE(&f->asArray()[0].asArray(), &f->asArray()[11].asArray());
    QCOMPARE(&f->asArray()[0].asArray()[0].asArray(), &f->asArray()[5].asArray()[7].asArray());
    const Value facts = library.nodes()[0].facts();
    QCOMPARE(&facts.asHash().find("e")->asArray(), &facts.asHash().find("f")->asArray()[3].asArray());
    QCOMPARE(*library.nodes()[0].scope->lookup("facts.f.11.0.0.0.0.2"), Value("z"));
}

// loadNodes reads the files named after the nodes asked for, and falls back to the whole library
// when a file is missing, names another node, or the name is not a plain file name.
void TestNodeLibrary::loadNodesReadsTheirFiles()
{
    TempTree tree({{QStringLiteral("a.yaml"), "clientcert: a\nrole: x\n"},
                   {QStringLiteral("b.json"), R"({"clientcert": "b", "role": "y"})"},
                   {QStringLiteral("c.yaml"), "clientcert: other\n"},
                   {QStringLiteral("d.yaml"), "role: z\n"},
                   {QStringLiteral("broken.yaml"), "[\n"}});
    QVERIFY(tree.isValid());
    const NodeLibrary one = NodeLibrary::loadNodes(tree.path(), {"a"});
    QCOMPARE(one.size(), std::size_t(1));
    QVERIFY(one.errors().empty()); // broken.yaml was not read
    QCOMPARE(*one.find("a")->scope->lookup("role"), Value("x"));
    QCOMPARE(NodeLibrary::loadNodes(tree.path(), {"a", "b"}).size(), std::size_t(2));
    QCOMPARE(NodeLibrary::loadNodes(tree.path(), {"d"}).size(), std::size_t(1)); // named after its file
    for (const std::vector<std::string>& names :
         std::vector<std::vector<std::string>>{{"other"},
                                               {"c"},
                                               {"a", "missing"},
                                               {"../" + tree.path().substr(tree.path().rfind('/') + 1) + "/a"},
                                               {".a"},
                                               {}}) {
        const NodeLibrary all = NodeLibrary::loadNodes(tree.path(), names);
        QCOMPARE(all.size(), std::size_t(4));
        QCOMPARE(all.errors().size(), std::size_t(1));
    }
    QVERIFY(NodeLibrary::loadNodes(tree.path(), {"other"}).find("other"));
}

// Two files naming one node: the whole library and a read of that node alone keep the same file, the one
// named after the node wherever it sorts; without one, the first file in name order. Said once, naming both.
void TestNodeLibrary::duplicateNodeKeepsTheFileNamedAfterIt()
{
    TempTree tree({{QStringLiteral("copy-of-web.yaml"), "clientcert: web.example.com\nrole: copy\n"},
                   {QStringLiteral("web.example.com.yaml"), "clientcert: web.example.com\nrole: named\n"},
                   {QStringLiteral("z-copy-of-web.yaml"), "clientcert: web.example.com\nrole: late\n"},
                   {QStringLiteral("a1.yaml"), "clientcert: db.example.com\nrole: first\n"},
                   {QStringLiteral("a2.yaml"), "clientcert: db.example.com\nrole: second\n"}});
    QVERIFY(tree.isValid());
    const NodeLibrary all = NodeLibrary::load(tree.path());
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(*all.find("web.example.com")->scope->lookup("role"), Value("named"));
    QCOMPARE(*all.find("db.example.com")->scope->lookup("role"), Value("first"));
    const NodeLibrary one = NodeLibrary::loadNodes(tree.path(), {"web.example.com"});
    QCOMPARE(*one.find("web.example.com")->scope->lookup("role"), Value("named"));
    QCOMPARE(all.warnings().size(), std::size_t(3));
    for (const std::string& w : all.warnings()) {
        if (w.find("web.example.com") != std::string::npos)
            QVERIFY2(w.find("web.example.com.yaml is named after it") != std::string::npos, w.c_str());
        else
            QVERIFY2(w.find("a2.yaml is ignored, ") != std::string::npos
                         && w.find("a1.yaml names it too") != std::string::npos,
                     w.c_str());
    }
    // The node keeps its place in the list (where its first file put it).
    QCOMPARE(all.nodes()[0].name, std::string("db.example.com"));
}

QTEST_APPLESS_MAIN(TestNodeLibrary)
#include "tst_nodelibrary.moc"

// Names Puppet never gives a node (its certname rule: printable ASCII, no '/'): a name becomes
// $trusted.certname and $clientcert, and so part of paths such as nodes/%{trusted.certname}.yaml and a
// row of every table. Each is skipped with one printable line at its entry; the others load.
// clang-format off
void TestNodeLibrary::hostileNodeNames_data()
{
    QTest::addColumn<QByteArray>("name"); // as JSON string content
    QTest::addColumn<QString>("what");
    QTest::newRow("parent folders") << QByteArray("../../etc/passwd") << QStringLiteral("a '/'");
    QTest::newRow("absolute") << QByteArray("/etc/shadow") << QStringLiteral("a '/'");
    QTest::newRow("NUL") << QByteArray("nul\\u0000name") << QStringLiteral("a control character");
    QTest::newRow("newline") << QByteArray("two\\nlines") << QStringLiteral("a control character");
    QTest::newRow("terminal escape") << QByteArray("esc\\u001b[31mred") << QStringLiteral("a control character");
    QTest::newRow("DEL") << QByteArray("del\\u007f") << QStringLiteral("a control character");
    QTest::newRow("not ASCII") << QByteArray("n\\u0153ud") << QStringLiteral("not ASCII");
    QTest::newRow("bidi override") << QByteArray("a\\u202eb") << QStringLiteral("not ASCII");
}
// clang-format on

void TestNodeLibrary::hostileNodeNames()
{
    QFETCH(QByteArray, name);
    QFETCH(QString, what);
    const QByteArray exportText = R"([{"certname": "ok.example.com", "facts": [{"name": "role", "value": "a"}]},
 {"certname": ")"
        + name + R"(", "facts": [{"name": "role", "value": "b"}]}])";
    // The same name from each place a name comes from: a PuppetDB export, clientcert, trusted.certname
    // and fqdn in a facts file.
    TempTree tree({{QStringLiteral("export.json"), exportText},
                   {QStringLiteral("cc.json"), R"({"clientcert": ")" + name + R"(", "role": "c"})"},
                   {QStringLiteral("tc.json"), R"({"trusted": {"certname": ")" + name + R"("}, "role": "d"})"},
                   {QStringLiteral("fq.json"), R"({"fqdn": ")" + name + R"(", "role": "e"})"},
                   {QStringLiteral("plain.yaml"), "role: f\n"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(2));
    QVERIFY(library.find("ok.example.com") && library.find("plain"));
    QCOMPARE(library.errors().size(), std::size_t(4));
    for (const Error& e : library.errors()) {
        const QString message = qs(e.what());
        QCOMPARE(e.code(), ErrorCode::FactsSyntax);
        QVERIFY2(message.contains(what) && message.contains(QStringLiteral("certname")), qPrintable(message));
        QCOMPARE(qs(printableLine(e.what())), message); // one printable line: the name is shown escaped
    }
    const auto exportError = std::find_if(library.errors().begin(), library.errors().end(),
                                          [](const Error& e) { return e.location().file.ends_with("export.json"); });
    QVERIFY(exportError != library.errors().end());
    QCOMPARE(exportError->location().line, 2); // at its own factset
}

void TestNodeLibrary::duplicateWithinOneExport()
{
    TempTree tree(
        {{QStringLiteral("export.json"), R"([{"certname": "twice", "facts": [{"name": "role", "value": "first"}]},
  {"certname": "other", "facts": [{"name": "role", "value": "x"}]},
  {"certname": "twice", "facts": [{"name": "role", "value": "second"}]}])"}});
    const NodeLibrary library = NodeLibrary::load(tree.path());
    QCOMPARE(library.size(), std::size_t(2));
    QCOMPARE(*library.find("twice")->facts().asHash().find("role"), Value("first"));
    QCOMPARE(library.warnings().size(), std::size_t(1));
    const QString w = qs(library.warnings()[0]);
    // Both factsets by line: the file alone would read "export.json is ignored, export.json names it too".
    QVERIFY2(w.contains(QStringLiteral("export.json:3:")) && w.contains(QStringLiteral("export.json:1:"))
                 && w.contains(QStringLiteral("'twice'")),
             qPrintable(w));
}

// A folder of facts files holding what is not one: links in a loop, a link to a device, to /proc, to
// nothing, a FIFO, a directory named like a facts file. Each is one error naming it (the directory is
// left out); nothing blocks; the real files load.
void TestNodeLibrary::hostileFolderEntries()
{
    namespace fs = std::filesystem;
    TempTree tree({{QStringLiteral("good.yaml"), "role: r\n"}});
    const fs::path dir = tree.path();
    fs::create_directory_symlink(".", dir / "self.yaml"); // a directory through a link
    fs::create_symlink("loop.yaml", dir / "loop.yaml");
    fs::create_symlink("b.yaml", dir / "a.yaml");
    fs::create_symlink("a.yaml", dir / "b.yaml");
    fs::create_symlink("/dev/zero", dir / "zero.yaml");
    fs::create_symlink("/proc/self/environ", dir / "environ.json");
    fs::create_symlink("/nonexistent/x.yaml", dir / "dangling.yaml");
    fs::create_directory(dir / "folder.yaml");
    QCOMPARE(::mkfifo((dir / "fifo.json").c_str(), 0600), 0);
    const NodeLibrary library = NodeLibrary::load(dir.string());
    QCOMPARE(library.size(), std::size_t(1));
    QVERIFY(library.find("good"));
    QStringList named;
    for (const Error& e : library.errors()) {
        QCOMPARE(qs(printableLine(e.what())), qs(e.what()));
        named << qs(fs::path(e.location().file).filename().string());
    }
    named.sort();
    QCOMPARE(named,
             QStringList({QStringLiteral("a.yaml"), QStringLiteral("b.yaml"), QStringLiteral("dangling.yaml"),
                          QStringLiteral("environ.json"), QStringLiteral("fifo.json"), QStringLiteral("loop.yaml"),
                          QStringLiteral("zero.yaml")}));
}

// A library of 50,000 tiny files: progress counts every file, a cancel half-way stops within a file
// per thread, and files that are refused leave nothing stored (memory follows what is kept).
void TestNodeLibrary::fiftyThousandFiles()
{
    const int count = 50000;
    FileList files;
    files.reserve(count);
    for (int i = 0; i < count; ++i)
        files.append({QStringLiteral("n%1.yaml").arg(i, 5, 10, QLatin1Char('0')),
                      i % 2 ? QByteArray("role: r\n") : QByteArray("role: [unclosed\n")});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    std::atomic<std::size_t> last{0};
    NodeLibraryOptions options;
    const ThreadExecutor twoThreads(2);
    options.executor = &twoThreads;
    options.progress = [&](std::size_t done, std::size_t) {
        std::size_t seen = last.load();
        while (done > seen && !last.compare_exchange_weak(seen, done)) { }
    };
    const NodeLibrary full = NodeLibrary::load(tree.path(), options);
    QCOMPARE(last.load(), std::size_t(count));
    QCOMPARE(full.size(), std::size_t(count / 2));
    QCOMPARE(full.errors().size(), std::size_t(count / 2));
    // Every kept node has the same facts, stored once: what remains per node is its cell in the store.
    QVERIFY2(full.storedBytes() < 64 * full.size(), qPrintable(QString::number(full.storedBytes())));
    // Refused files store nothing.
    FileList broken;
    for (int i = 0; i < 1000; ++i)
        broken.append({QStringLiteral("b%1.yaml").arg(i), QByteArray("role: [unclosed ") + QByteArray(1000, 'x')});
    TempTree brokenTree(broken);
    const NodeLibrary none = NodeLibrary::load(brokenTree.path(), options);
    QCOMPARE(none.size(), std::size_t(0));
    QCOMPARE(none.errors().size(), std::size_t(1000));
    TempTree emptyTree(FileList{});
    QCOMPARE(none.storedBytes(), NodeLibrary::load(emptyTree.path(), options).storedBytes()); // an empty store's

    std::stop_source cancel;
    options.stop = cancel.get_token();
    options.progress = [&](std::size_t done, std::size_t) {
        if (done >= count / 2)
            cancel.request_stop();
    };
    const NodeLibrary part = NodeLibrary::load(tree.path(), options);
    QVERIFY(part.cancelled());
    QVERIFY2(part.size() + part.errors().size() < std::size_t(count / 2 + 10),
             qPrintable(QString::number(part.size() + part.errors().size())));
}

// The engine starts no threads (hiera/nodes/executor.h): without an executor every file is read on the
// calling thread; with a ThreadExecutor the same library comes out, read on several threads.
void TestNodeLibrary::withoutAnExecutorNoThreadIsStarted()
{
    FileList files;
    for (int i = 0; i < 300; ++i)
        files.append({QStringLiteral("n%1.yaml").arg(i), QStringLiteral("role: r%1\n").arg(i % 7).toUtf8()});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    std::mutex mutex;
    std::set<std::thread::id> threads;
    NodeLibraryOptions options;
    options.progress = [&](std::size_t, std::size_t) {
        const std::lock_guard lock(mutex);
        threads.insert(std::this_thread::get_id());
    };
    const NodeLibrary inline_ = NodeLibrary::load(tree.path(), options);
    QCOMPARE(inline_.size(), std::size_t(300));
    QCOMPARE(threads.size(), std::size_t(1));
    QVERIFY(*threads.begin() == std::this_thread::get_id());

    threads.clear();
    const ThreadExecutor four(4);
    options.executor = &four;
    options.progress = [&](std::size_t, std::size_t) {
        {
            const std::lock_guard lock(mutex);
            threads.insert(std::this_thread::get_id());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1)); // so that no one thread takes every file
    };
    const NodeLibrary threaded = NodeLibrary::load(tree.path(), options);
    QCOMPARE(threaded.size(), inline_.size());
    for (std::size_t i = 0; i < threaded.size(); ++i) {
        QCOMPARE(threaded.nodes()[i].name, inline_.nodes()[i].name);
        QVERIFY(threaded.nodes()[i].facts() == inline_.nodes()[i].facts());
    }
    QVERIFY2(threads.size() > 1, qPrintable(QString::number(threads.size())));
}
