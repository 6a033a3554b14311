// The source tree seam (hiera/sourcetree.h, docs/architecture.md "The source tree"): a control
// repository held in memory at a path that does not exist on disk answers exactly as the same files
// written to a folder, so every read of the hierarchy goes through the tree; and a counting wrapper
// around the working tree sees each file, folder and existence check a lookup makes.

#include "support/maptree.h"
#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/scope.h>
#include <hiera/sourcetree.h>
#include <hiera/valueformat.h>

#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <map>

using namespace hiera;
using namespace testutils;
using hiera::test::CountingTree;
using hiera::test::MapTree;

namespace {

// A control repository: environment.conf's modulepath, a module with its own hiera.yaml and data, a
// module whose hiera.yaml is version 3 (left out after the version pre-check), a glob level with `**/`
// and braces, a json level, an eyaml level holding plain values, and a level with no file.
FileList controlRepository()
{
    return {
        {"env/environment.conf", "modulepath = site:modules:$basemodulepath\n"},
        {"env/hiera.yaml",
         "version: 5\n"
         "defaults: {datadir: data, data_hash: yaml_data}\n"
         "hierarchy:\n"
         "  - name: node\n"
         "    path: 'nodes/%{trusted.certname}.yaml'\n"
         "  - name: roles\n"
         "    glob: 'roles/**/{%{facts.role},common}.yaml'\n"
         "  - name: json\n"
         "    data_hash: json_data\n"
         "    path: common.json\n"
         "  - name: secrets\n"
         "    lookup_key: eyaml_lookup_key\n"
         "    path: secrets.eyaml\n"
         "    options:\n"
         "      pkcs7_private_key: /nonexistent/keys/private_key.pkcs7.pem\n"
         "      pkcs7_public_key: /nonexistent/keys/public_key.pkcs7.pem\n"
         "  - name: missing\n"
         "    path: 'missing/%{facts.role}.yaml'\n"
         "  - name: common\n"
         "    path: common.yaml\n"},
        {"env/data/nodes/n1.yaml", "answer: node\nlist: [n]\nlookup_options:\n  list: {merge: unique}\n"},
        {"env/data/roles/web.yaml", "answer: role-web\nlist: [w0]\nrole_only: top\n"},
        {"env/data/roles/a/web.yaml", "list: [wa]\nnested: a\n"},
        {"env/data/roles/b/c/common.yaml", "list: [bc]\nnested: bc\n"},
        {"env/data/roles/common.yaml", "list: [rc]\n"},
        {"env/data/roles/.hidden/web.yaml", "list: [hidden]\n"},
        {"env/data/roles/db.yaml", "list: [db]\n"},
        {"env/data/common.json", "{\"jsonkey\": \"from json\", \"list\": [\"j\"], \"number\": 1e3}\n"},
        {"env/data/secrets.eyaml", "plainsecret: visible\nlist: [e]\n"},
        {"env/data/common.yaml",
         "answer: common\nlist: [c]\ninterp: \"%{lookup('jsonkey')} and %{facts.role}\"\n"
         "deep: {a: {b: 1}}\n"},
        {"env/site/profile/hiera.yaml",
         "version: 5\nhierarchy:\n  - name: module common\n    path: common.yaml\n"
         "  - name: module glob\n    glob: 'extra/*.yaml'\n"},
        {"env/site/profile/data/common.yaml", "profile::x: module\nprofile::list: [m]\nother::dropped: yes\n"},
        {"env/site/profile/data/extra/one.yaml", "profile::extra: one\n"},
        {"env/modules/legacy/hiera.yaml", ":backends:\n  - yaml\n"},
        {"env/modules/legacy/data/common.yaml", "legacy::x: never\n"},
        {"env/modules/nocfg/data/common.yaml", "nocfg::k: never\n"},
        {"env/modules/NotAModule/hiera.yaml", "version: 5\n"},
    };
}

// The repository's files under `root`, for a MapTree.
std::map<std::string, std::string> filesAt(const std::string& root, const FileList& files)
{
    std::map<std::string, std::string> out;
    for (const auto& [rel, content] : files)
        out[root + "/" + ss(rel)] = content.toStdString();
    return out;
}

MapScope nodeScope()
{
    return MapScope(yaml("trusted: {certname: n1}\nfacts: {role: web}\nenvironment: production\n"));
}

std::string replaced(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// Everything an environment and a node's answers show, with the repository's root written as <root>.
QStringList describe(const Environment& env, const Engine& engine, const std::string& root)
{
    const auto rel = [&](const std::string& s) { return qs(replaced(s, root, "<root>")); };
    QStringList out;
    out << rel("root " + env.root);
    for (const std::string& dir : env.modulepath)
        out << rel("modulepath " + dir);
    for (const Layer& layer : env.layers)
        out << rel("layer " + std::to_string(static_cast<int>(layer.kind)) + " " + layer.module + " "
                   + layer.config.path + (layer.error ? " error " + std::string(layer.error->what()) : ""));
    for (const std::string& w : env.warnings)
        out << rel("warning " + w);
    for (const std::string& n : env.notices)
        out << rel("notice " + n);
    const MapScope scope = nodeScope();
    const NodeData data = resolveAllKeys(engine, scope);
    for (const ResolvedKey& k : data.keys)
        out << rel("key " + k.key + " " + std::to_string(static_cast<int>(k.status)) + " " + toJson(k.value) + " "
                   + k.error + " @ " + k.location.file + ":" + std::to_string(k.location.line) + " " + k.level + " "
                   + k.layer);
    for (const NodeWarning& w : data.warnings)
        out << rel("node warning " + w.message);
    for (const std::string& f : engine.candidateFiles(scope))
        out << rel("candidate " + f);
    return out;
}

} // namespace

class TestSourceTree : public QObject
{
    Q_OBJECT

private slots:
    void workingTreeReadsTheFileSystem();
    void mapTreeAnswersAsTheDisk();
    void engineLoadReadsThroughTheTree();
    void countingTreeSeesEveryRead();
};

// The working tree is the file system, with readFile's refusals and messages.
void TestSourceTree::workingTreeReadsTheFileSystem()
{
    TempTree disk(FileList{{"d/f.yaml", "a: 1\n"}});
    QVERIFY(disk.isValid());
    const auto tree = SourceTree::workingTree();
    QCOMPARE(tree.get(), SourceTree::workingTree().get());
    QCOMPARE(tree->read(disk.path("d/f.yaml"), 100), std::string("a: 1\n"));
    QCOMPARE(tree->stat(disk.path("d/f.yaml")).kind, TreeStat::Kind::File);
    QCOMPARE(tree->stat(disk.path("d/f.yaml")).size, std::int64_t(5));
    QCOMPARE(tree->stat(disk.path("d")).kind, TreeStat::Kind::Directory);
    QCOMPARE(tree->stat(disk.path("nope")).kind, TreeStat::Kind::Missing);
    std::filesystem::create_symlink(disk.path("d"), disk.path("link"));
    QCOMPARE(tree->lstat(disk.path("link")).kind, TreeStat::Kind::Symlink);
    QCOMPARE(tree->stat(disk.path("link")).kind, TreeStat::Kind::Directory);
    const auto listed = tree->list(disk.path());
    QVERIFY(listed);
    QCOMPARE(listed->size(), std::size_t(2));
    std::string error;
    QVERIFY(!tree->list(disk.path("nope"), &error));
    QCOMPARE(error, std::string("No such file or directory"));
    QCOMPARE(*tree->canonical(disk.path("link/f.yaml")),
             std::filesystem::weakly_canonical(disk.path("d/f.yaml")).string());

    const auto err = catchError([&] { tree->read(disk.path("d"), 100); });
    QVERIFY(err);
    QCOMPARE(err->message(), std::string("cannot read: it is a directory, not a file"));
    const auto missing = catchError([&] { tree->read(disk.path("nope"), 100); });
    QVERIFY(missing);
    QCOMPARE(missing->message(), std::string("cannot read: No such file or directory"));
    const auto big = catchError([&] { tree->read(disk.path("d/f.yaml"), 2); });
    QVERIFY(big);
    QCOMPARE(big->code(), ErrorCode::DataLimit);
    QCOMPARE(big->message(), std::string("file of 5 bytes exceeds the limit of 2"));
}

// The repository in memory, at a root that does not exist on disk, gives the same environment, the
// same answers for every key and the same candidate files as the same files on disk.
void TestSourceTree::mapTreeAnswersAsTheDisk()
{
    TempTree disk(controlRepository());
    QVERIFY(disk.isValid());
    const std::string diskRoot = disk.path("env");
    const std::string memoryRoot = "/nonexistent-hiera-sourcetree/control-repo";
    QVERIFY(!QFileInfo::exists(qs(memoryRoot)));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/nonexistent-hiera-sourcetree")));
    FileList memoryFiles;
    for (const auto& [rel, content] : controlRepository())
        memoryFiles.push_back({rel.mid(4), content}); // without "env/"
    const auto tree = std::make_shared<MapTree>(filesAt(memoryRoot, memoryFiles));

    const Environment fromDisk = Environment::discover(diskRoot);
    EnvironmentOptions options;
    options.tree = tree;
    const Environment fromMemory = Environment::discover(memoryRoot, options);

    const auto diskEngine = Engine::fromLayers(fromDisk.layers);
    EngineOptions engineOptions;
    engineOptions.tree = tree;
    const auto memoryEngine = Engine::fromLayers(fromMemory.layers, engineOptions);

    const QStringList expected = describe(fromDisk, *diskEngine, diskRoot);
    const QStringList actual = describe(fromMemory, *memoryEngine, memoryRoot);
    QCOMPARE(actual, expected);

    // What the data says, so that the comparison above compares something.
    const QString all = expected.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("key answer 0 \"node\"")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("key list 0 [\"n\",\"wa\",\"w0\",\"bc\",\"rc\",\"j\",\"e\",\"c\"]")),
             qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("key interp 0 \"from json and web\"")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("key plainsecret 0 \"visible\"")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("key profile::x 0 \"module\"")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("key profile::extra 0 \"one\"")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("modulepath <root>/site")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("version 3")), qPrintable(all));
    QVERIFY2(!all.contains(QStringLiteral("hidden")), qPrintable(all));
    QVERIFY2(!all.contains(QStringLiteral("legacy::x")), qPrintable(all));
}

// Engine::load reads its hiera.yaml through EngineOptions::tree.
void TestSourceTree::engineLoadReadsThroughTheTree()
{
    TempTree disk(controlRepository());
    QVERIFY(disk.isValid());
    const std::string memoryRoot = "/nonexistent-hiera-sourcetree/load";
    QVERIFY(!QFileInfo::exists(qs(memoryRoot)));
    FileList memoryFiles;
    for (const auto& [rel, content] : controlRepository())
        memoryFiles.push_back({rel.mid(4), content});
    EngineOptions options;
    options.tree = std::make_shared<MapTree>(filesAt(memoryRoot, memoryFiles));
    const auto memoryEngine = Engine::load(memoryRoot + "/hiera.yaml", options);
    const auto diskEngine = Engine::load(disk.path("env/hiera.yaml"));
    const MapScope scope = nodeScope();
    for (const char* key : {"answer", "list", "interp", "plainsecret", "nested", "deep", "missing"}) {
        const LookupResult fromMemory = memoryEngine->lookup(scope, key);
        const LookupResult fromDisk = diskEngine->lookup(scope, key);
        QCOMPARE(fromMemory.status, fromDisk.status);
        QCOMPARE(fromMemory.value, fromDisk.value);
    }
    QCOMPARE(memoryEngine->lookup(scope, "answer").value, Value("node"));
    // Without the tree, the same path is nowhere.
    QVERIFY(catchError([&] { Engine::load(memoryRoot + "/hiera.yaml"); }));
}

// Around the working tree: each hiera.yaml, environment.conf, existing data file, glob folder and
// module folder a discovery and a node's lookups touch is asked of the tree given.
void TestSourceTree::countingTreeSeesEveryRead()
{
    TempTree disk(controlRepository());
    QVERIFY(disk.isValid());
    const std::string root = disk.path("env");
    const auto counting = std::make_shared<CountingTree>(SourceTree::workingTree());
    EnvironmentOptions options;
    options.tree = counting;
    const Environment env = Environment::discover(root, options);
    const std::multiset<std::string> discoveryReads = counting->reads();
    for (const char* rel : {"hiera.yaml", "environment.conf", "site/profile/hiera.yaml", "modules/legacy/hiera.yaml"})
        QVERIFY2(discoveryReads.count(root + "/" + rel), rel);
    QVERIFY(counting->lists().count(root + "/site"));
    QVERIFY(counting->lists().count(root + "/modules"));
    QVERIFY(!counting->canonicals().empty()); // the module's data is checked to lie inside it

    counting->clear();
    EngineOptions engineOptions;
    engineOptions.tree = counting;
    const auto engine = Engine::fromLayers(env.layers, engineOptions);
    const MapScope scope = nodeScope();
    const NodeData data = resolveAllKeys(*engine, scope);
    QVERIFY(!data.keys.empty());
    const std::multiset<std::string> reads = counting->reads();
    const std::multiset<std::string> stats = counting->stats();
    // Every data file the node's hierarchy has, read once through the tree (the engine's cache keeps it).
    for (const char* rel :
         {"data/nodes/n1.yaml", "data/roles/web.yaml", "data/roles/a/web.yaml", "data/roles/b/c/common.yaml",
          "data/roles/common.yaml", "data/common.json", "data/secrets.eyaml", "data/common.yaml",
          "site/profile/data/common.yaml", "site/profile/data/extra/one.yaml"}) {
        QVERIFY2(reads.count(root + "/" + rel) == 1, rel);
        QVERIFY2(stats.count(root + "/" + rel) >= 1, rel);
    }
    // No file outside those, and the missing level only stat-ed.
    QCOMPARE(reads.size(), std::size_t(10));
    QVERIFY(stats.count(root + "/data/missing/web.yaml") >= 1);
    // The glob's folders: `**/` walked each one, hidden ones left out.
    for (const char* rel : {"data/roles", "data/roles/a", "data/roles/b", "data/roles/b/c", "site/profile/data/extra"})
        QVERIFY2(counting->lists().count(root + "/" + rel), rel);
    QVERIFY(!counting->lists().count(root + "/data/roles/.hidden"));
}

QTEST_MAIN(TestSourceTree)
#include "tst_sourcetree.moc"
