// A git commit as the engine's source tree (hiera/gitrevisiontree.h): for each commit of a small
// control repository, an engine reading the commit straight from the repository answers exactly as an
// engine on a checkout of that commit (the environment's warnings, every key of a node, the candidate
// files); the working tree's uncommitted changes are not seen; an unknown revision, a directory in no
// repository, a bare repository, a missing or corrupt object and a FIFO in .git each give one line.
// The repositories are made with the git command (the test's tool; the code reads them with libgit2).

#include "support/gitcommand.h"
#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/error.h>
#include <hiera/gitrevisiontree.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/scope.h>
#include <hiera/sourcetree.h>
#include <hiera/valueformat.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <filesystem>
#include <thread>

#include <sys/stat.h>

using namespace hiera;
using namespace testutils;

namespace {

MapScope nodeScope()
{
    return MapScope(yaml("trusted: {certname: n1}\nfacts: {role: web, os: linux}\nenvironment: production\n"));
}

std::string replaced(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// Everything an environment at `root` and a node's answers show, read through `tree` (null: the
// disk), with the root written as <root>.
QStringList describe(const std::string& root, const std::shared_ptr<const SourceTree>& tree)
{
    EnvironmentOptions envOptions;
    envOptions.tree = tree;
    const Environment env = Environment::discover(root, envOptions);
    EngineOptions engineOptions;
    engineOptions.tree = tree;
    const auto engine = Engine::fromLayers(env.layers, engineOptions);
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
    const NodeData data = resolveAllKeys(*engine, scope);
    for (const ResolvedKey& k : data.keys)
        out << rel("key " + k.key + " " + std::to_string(static_cast<int>(k.status)) + " " + toJson(k.value) + " "
                   + k.error + " @ " + k.location.file + ":" + std::to_string(k.location.line) + " " + k.level + " "
                   + k.layer);
    for (const NodeWarning& w : data.warnings)
        out << rel("node warning " + w.message);
    for (const ResolvedLevel& level : engine->resolveHierarchy(scope))
        for (const ResolvedLocation& loc : level.locations)
            out << rel("location " + (level.level ? level.level->name : std::string()) + " " + loc.path + " "
                       + std::to_string(static_cast<int>(loc.status)) + " " + loc.error);
    for (const std::string& f : engine->candidateFiles(scope))
        out << rel("candidate " + f);
    return out;
}

const char* const kHieraYaml1 = "version: 5\n"
                                "defaults: {datadir: data, data_hash: yaml_data}\n"
                                "hierarchy:\n"
                                "  - name: node\n"
                                "    path: 'nodes/%{trusted.certname}.yaml'\n"
                                "  - name: roles\n"
                                "    glob: 'roles/**/*.yaml'\n"
                                "  - name: outside\n"
                                "    path: outside.yaml\n"
                                "  - name: dangling\n"
                                "    path: dangling.yaml\n"
                                "  - name: climb\n"
                                "    path: 'nodes/../climb.yaml'\n"
                                "  - name: common\n"
                                "    path: common.yaml\n";

const char* const kHieraYaml2 = "version: 5\n"
                                "defaults: {datadir: data, data_hash: yaml_data}\n"
                                "hierarchy:\n"
                                "  - name: node\n"
                                "    path: 'nodes/%{trusted.certname}.yaml'\n"
                                "  - name: roles\n"
                                "    glob: 'roles/**/*.yaml'\n"
                                "  - name: os\n"
                                "    path: 'os/%{facts.os}.yaml'\n"
                                "  - name: linked dir\n"
                                "    path: 'linkdir/web/app.yaml'\n"
                                "  - name: loop\n"
                                "    path: loop.yaml\n"
                                "  - name: outside\n"
                                "    path: outside.yaml\n"
                                "  - name: dangling\n"
                                "    path: dangling.yaml\n"
                                "  - name: climb\n"
                                "    path: 'nodes/../climb.yaml'\n"
                                "  - name: common\n"
                                "    path: common.yaml\n";

} // namespace

class TestGitRevisionTree : public QObject
{
    Q_OBJECT
    // Runs git in `dir`; its standard output, trimmed. A failure fails the test (through `ok`).
    QString git(const QString& dir, const QStringList& args, bool* ok = nullptr)
    {
        return GitCommand(dir).run(args, ok);
    }
    bool commitAll(const QString& dir, const QString& message) { return GitCommand(dir).commitAll(message); }

private Q_SLOTS:
    void initTestCase()
    {
        if (GitCommand::program().isEmpty())
            QSKIP("git is not installed (scripts/dev.sh deps installs it)");
    }

    void everyCommitAnswersAsItsCheckout();
    void treeAnswersForItsPaths();
    void errorsAreOneLine();
    void missingAndCorruptObjects();
    void fifoInGitDirDoesNotBlock();
    void lookupsOnSeveralThreads();
};

// Three commits (a value edited, a key removed, a level added, a module's data changed, files through
// symbolic links, a glob reaching a subdirectory, a submodule, a module through a linked directory):
// for each, the revision mounted at a checkout's path answers as the checkout, and mounted at the
// repository (whose work tree holds changes not committed) answers as the checkout too.
void TestGitRevisionTree::everyCommitAnswersAsItsCheckout()
{
    TempTree base(FileList{{"outside/outside.yaml", "outside: disk\n"}});
    QVERIFY(base.isValid());
    const QString repo = base.root() + QStringLiteral("/repo");
    QVERIFY(QDir().mkpath(repo));
    const std::string outsideFile = base.path(QStringLiteral("outside/outside.yaml"));
    bool ok = false;
    git(repo, {QStringLiteral("init"), QStringLiteral("-q")}, &ok);
    QVERIFY(ok);
    namespace fs = std::filesystem;
    const fs::path r(ss(repo));
    QVERIFY(writeTree(repo,
                      {{"environment.conf", "modulepath = site:modules\n"},
                       {"hiera.yaml", kHieraYaml1},
                       {"data/common.yaml", "answer: one\nremoved: yes\nlist: [c]\n"},
                       {"shared/n1.yaml", "answer: node-one\nlist: [n]\nlookup_options: {list: {merge: unique}}\n"},
                       {"data/roles/web/app.yaml", "role::app: v1\nlist: [r]\n"},
                       {"data/climb.yaml", "climb: yes\n"},
                       {"site/profile/hiera.yaml", "version: 5\nhierarchy:\n  - name: m\n    path: common.yaml\n"},
                       {"site/profile/data/common.yaml", "profile::x: one\n"}}));
    fs::create_directories(r / "data/nodes");
    fs::create_symlink("../../shared/n1.yaml", r / "data/nodes/n1.yaml");
    fs::create_symlink(outsideFile, r / "data/outside.yaml");
    fs::create_symlink("nowhere.yaml", r / "data/dangling.yaml");
    QVERIFY(commitAll(repo, QStringLiteral("one")));
    const QString c1 = git(repo, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});

    QVERIFY(writeTree(repo,
                      {{"hiera.yaml", kHieraYaml2},
                       {"data/common.yaml", "answer: two\nlist: [c]\n"},
                       {"data/os/linux.yaml", "os::name: linux\n"},
                       {"data/roles/db/deep/extra.yaml", "role::extra: deep\n"},
                       {"site/profile/data/common.yaml", "profile::x: two\nprofile::y: new\n"}}));
    fs::create_symlink("roles", r / "data/linkdir");
    fs::create_symlink("loop.yaml", r / "data/loop.yaml");
    QVERIFY(commitAll(repo, QStringLiteral("two")));
    const QString c2 = git(repo, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});

    // A submodule (a gitlink, never checked out) and a module reached through a linked directory.
    git(repo,
        {QStringLiteral("update-index"), QStringLiteral("--add"), QStringLiteral("--cacheinfo"),
         QStringLiteral("160000,%1,site/sub").arg(c1)},
        &ok);
    QVERIFY(ok);
    QVERIFY(QDir().mkpath(repo + QStringLiteral("/modules")));
    fs::create_symlink("../site/profile", r / "modules/linked");
    QVERIFY(writeTree(repo, {{"data/roles/web/app.yaml", "role::app: v3\nlist: [r3]\n"}}));
    QVERIFY(commitAll(repo, QStringLiteral("three")));
    const QString c3 = git(repo, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});

    // Changes not committed: the revisions never see them.
    QVERIFY(writeTree(repo,
                      {{"data/common.yaml", "answer: dirty\nlist: [dirty]\n"},
                       {"data/os/linux.yaml", "os::name: dirty\n"},
                       {"site/profile/data/common.yaml", "profile::x: dirty\n"}}));

    QStringList answers;
    int n = 0;
    for (const QString& commit : {c1, c2, c3}) {
        const QString clone = base.root() + QStringLiteral("/clone") + QString::number(++n);
        git(base.root(), {QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--no-checkout"), repo, clone},
            &ok);
        QVERIFY(ok);
        git(clone, {QStringLiteral("checkout"), QStringLiteral("-q"), commit}, &ok);
        QVERIFY(ok);
        const QStringList expected = describe(ss(clone), nullptr);

        RevisionTreeOptions atClone;
        atClone.mountAt = ss(clone);
        const QStringList mountedAtClone = describe(ss(clone), openRevision(ss(repo), ss(commit), atClone));
        QCOMPARE(mountedAtClone, expected);

        const QStringList mountedAtRepo = describe(ss(repo), openRevision(ss(repo), ss(commit)));
        QCOMPARE(mountedAtRepo, expected);

        answers << expected.join(QLatin1Char('\n'));
    }

    // What the data says, so that the comparisons compare something.
    const auto has = [&](int i, const char* text) { return answers[i].contains(QLatin1String(text)); };
    QVERIFY2(has(0, "key answer 0 \"node-one\""), qPrintable(answers[0]));
    QVERIFY2(has(0, "key removed 0 true"), qPrintable(answers[0]));
    QVERIFY2(has(0, "key outside 0 \"disk\""), qPrintable(answers[0]));
    QVERIFY2(has(0, "key climb 0 true"), qPrintable(answers[0]));
    QVERIFY2(has(0, "key profile::x 0 \"one\""), qPrintable(answers[0]));
    QVERIFY2(has(0, "key role::app 0 \"v1\""), qPrintable(answers[0]));
    QVERIFY2(!has(1, "key removed"), qPrintable(answers[1]));
    QVERIFY2(has(1, "key os::name 0 \"linux\""), qPrintable(answers[1]));
    QVERIFY2(has(1, "key role::extra 0 \"deep\""), qPrintable(answers[1]));
    QVERIFY2(has(1, "key profile::x 0 \"two\""), qPrintable(answers[1]));
    QVERIFY2(has(1, "key profile::y 0 \"new\""), qPrintable(answers[1]));
    QVERIFY2(has(2, "key role::app 0 \"v3\""), qPrintable(answers[2]));
    for (const QString& a : answers)
        QVERIFY2(!a.contains(QLatin1String("dirty")), qPrintable(a));
}

// The tree's own answers: files from blobs (with their ids), directories from trees, links as links,
// the working tree's changes unseen, paths outside the mount from the disk.
void TestGitRevisionTree::treeAnswersForItsPaths()
{
    TempTree repo(FileList{{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "a: 1\n"}});
    QVERIFY(repo.isValid());
    bool ok = false;
    git(repo.root(), {QStringLiteral("init"), QStringLiteral("-q")}, &ok);
    QVERIFY(ok);
    std::filesystem::create_symlink("common.yaml", repo.path(QStringLiteral("data/link.yaml")));
    std::filesystem::create_symlink("../..", repo.path(QStringLiteral("data/up")));
    QVERIFY(commitAll(repo.root(), QStringLiteral("one")));
    QVERIFY(repo.write(QStringLiteral("data/common.yaml"), "a: changed on disk\n"));
    QVERIFY(repo.write(QStringLiteral("data/new.yaml"), "untracked: yes\n"));

    const auto tree = openRevision(repo.path(QStringLiteral("data")), "HEAD");
    const std::string root = repo.path();
    QCOMPARE(tree->read(root + "/data/common.yaml", 100), std::string("a: 1\n"));
    QCOMPARE(tree->read(root + "/data/link.yaml", 100), std::string("a: 1\n"));
    QCOMPARE(tree->read(root + "/data/./../data/common.yaml", 100), std::string("a: 1\n"));
    const TreeStat file = tree->stat(root + "/data/common.yaml");
    QCOMPARE(file.kind, TreeStat::Kind::File);
    QCOMPARE(file.size, std::int64_t(5));
    QCOMPARE(qs(file.contentId),
             git(repo.root(), {QStringLiteral("rev-parse"), QStringLiteral("HEAD:data/common.yaml")}));
    QVERIFY(SourceTree::workingTree()->stat(root + "/data/common.yaml").contentId.empty());
    QCOMPARE(tree->lstat(root + "/data/link.yaml").kind, TreeStat::Kind::Symlink);
    QCOMPARE(tree->stat(root + "/data/link.yaml").kind, TreeStat::Kind::File);
    QCOMPARE(tree->stat(root + "/data").kind, TreeStat::Kind::Directory);
    QCOMPARE(tree->stat(root + "/data/new.yaml").kind, TreeStat::Kind::Missing); // not committed
    QCOMPARE(tree->stat(root + "/hiera.yaml/x").kind, TreeStat::Kind::Missing);
    // A link climbing out of the mount: the disk's (the repository's parent), where the mount is the
    // revision again, as a checkout there would be.
    QCOMPARE(tree->stat(root + "/data/up").kind, TreeStat::Kind::Directory);
    const std::string again = root + "/data/up/" + std::filesystem::path(root).filename().string();
    QCOMPARE(tree->stat(again + "/data/new.yaml").kind, TreeStat::Kind::Missing);
    QCOMPARE(tree->read(again + "/data/common.yaml", 100), std::string("a: 1\n"));
    std::string error;
    const auto listed = tree->list(root + "/data", &error);
    QVERIFY(listed);
    QStringList names;
    for (const TreeEntry& e : *listed)
        names << qs(e.name) + QLatin1Char(':') + QString::number(static_cast<int>(e.type));
    names.sort();
    QCOMPARE(names,
             QStringList({QStringLiteral("common.yaml:3"), QStringLiteral("link.yaml:2"), QStringLiteral("up:2")}));
    QVERIFY(!tree->list(root + "/data/common.yaml", &error));
    QCOMPARE(error, std::string("Not a directory"));
    QVERIFY(!tree->list(root + "/nope", &error));
    QCOMPARE(error, std::string("No such file or directory"));
    QCOMPARE(*tree->canonical(root + "/data/link.yaml"),
             std::filesystem::weakly_canonical(root).string() + "/data/common.yaml");
    QCOMPARE(*tree->canonical(root + "/data/nope/x/../y"),
             std::filesystem::weakly_canonical(root).string() + "/data/nope/y");

    const auto dir = catchError([&] { tree->read(root + "/data", 100); });
    QVERIFY(dir);
    QCOMPARE(dir->message(), std::string("cannot read: it is a directory, not a file"));
    const auto missing = catchError([&] { tree->read(root + "/data/new.yaml", 100); });
    QVERIFY(missing);
    QCOMPARE(missing->message(), std::string("cannot read: No such file or directory"));
    const auto big = catchError([&] { tree->read(root + "/data/common.yaml", 2); });
    QVERIFY(big);
    QCOMPARE(big->code(), ErrorCode::DataLimit);
    QCOMPARE(big->message(), std::string("file of 5 bytes exceeds the limit of 2"));
    QVERIFY(qs(tree->describe()).startsWith(QStringLiteral("commit ")));

    // The engine reads the revision, not the disk.
    EngineOptions options;
    options.tree = tree;
    const auto engine = Engine::load(root + "/hiera.yaml", options);
    QCOMPARE(engine->lookup(MapScope(yaml("{}")), "a").value, Value(1));
}

void TestGitRevisionTree::errorsAreOneLine()
{
    TempTree repo(FileList{{"hiera.yaml", "version: 5\n"}});
    QVERIFY(repo.isValid());
    bool ok = false;
    git(repo.root(), {QStringLiteral("init"), QStringLiteral("-q")}, &ok);
    QVERIFY(ok);
    QVERIFY(commitAll(repo.root(), QStringLiteral("one")));

    const auto oneLine = [](const std::optional<Error>& e, const char* part) {
        return e && e->code() == ErrorCode::Io && !std::string(e->what()).empty()
            && std::string(e->what()).find('\n') == std::string::npos
            && std::string(e->what()).find(part) != std::string::npos;
    };
    const auto unknown = catchError([&] { openRevision(repo.path(), "no-such-branch"); });
    QVERIFY2(oneLine(unknown, "unknown revision"), unknown ? unknown->what() : "no error");
    QVERIFY(std::string(unknown->what()).find("'no-such-branch'") != std::string::npos);
    QVERIFY(std::string(unknown->what()).find(repo.path()) != std::string::npos);

    TempTree plain(FileList{{"hiera.yaml", "version: 5\n"}});
    const auto notRepo = catchError([&] { openRevision(plain.path(), "HEAD"); });
    QVERIFY2(oneLine(notRepo, "not in a git work tree"), notRepo ? notRepo->what() : "no error");

    // A bare repository has no work tree: refused.
    TempTree bare(FileList{});
    git(bare.root(),
        {QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--bare"), repo.root(),
         bare.root() + QStringLiteral("/b.git")},
        &ok);
    QVERIFY(ok);
    const auto bareError = catchError([&] { openRevision(bare.path(QStringLiteral("b.git")), "HEAD"); });
    QVERIFY2(oneLine(bareError, "bare"), bareError ? bareError->what() : "no error");

    // A tree, not a commit.
    const auto notCommit = catchError([&] { openRevision(repo.path(), "HEAD^{tree}"); });
    QVERIFY2(oneLine(notCommit, "names no commit"), notCommit ? notCommit->what() : "no error");
}

// Loose objects removed (a shallow clone's gap) or overwritten: reading says so, naming the file and
// the revision; a commit unreadable: openRevision says so.
void TestGitRevisionTree::missingAndCorruptObjects()
{
    TempTree repo(FileList{{"hiera.yaml", "version: 5\n"},
                           {"data/common.yaml", "gone: 1\n"},
                           {"data/corrupt.yaml", "corrupt: 1\n"},
                           {"data/fine.yaml", "fine: 1\n"}});
    QVERIFY(repo.isValid());
    bool ok = false;
    git(repo.root(), {QStringLiteral("init"), QStringLiteral("-q")}, &ok);
    QVERIFY(ok);
    QVERIFY(commitAll(repo.root(), QStringLiteral("one")));
    const auto objectFile = [&](const char* spec) {
        const QString id = git(repo.root(), {QStringLiteral("rev-parse"), QLatin1String(spec)});
        return repo.root() + QStringLiteral("/.git/objects/") + id.left(2) + QLatin1Char('/') + id.mid(2);
    };
    const QString gone = objectFile("HEAD:data/common.yaml");
    const QString corrupt = objectFile("HEAD:data/corrupt.yaml");
    QVERIFY(QFile::remove(gone));
    QFile::setPermissions(corrupt, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(repo.write(corrupt.mid(repo.root().size() + 1), "not a zlib stream at all"));

    const auto tree = openRevision(repo.path(), "HEAD");
    QCOMPARE(tree->read(repo.path(QStringLiteral("data/fine.yaml")), 100), std::string("fine: 1\n"));
    for (const char* rel : {"data/common.yaml", "data/corrupt.yaml"}) {
        const auto e = catchError([&] { tree->read(repo.path(QLatin1String(rel)), 100); });
        QVERIFY2(e, rel);
        QCOMPARE(e->code(), ErrorCode::DataUnreadable);
        const std::string what = e->what();
        QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
        QVERIFY2(what.find(rel) != std::string::npos, what.c_str());
        QVERIFY2(what.find("revision 'HEAD'") != std::string::npos, what.c_str());
        QVERIFY2(what.find("cannot be read") != std::string::npos, what.c_str());
        // The file still exists in the revision: the lookup fails on it rather than skipping it.
        QCOMPARE(tree->stat(repo.path(QLatin1String(rel))).kind, TreeStat::Kind::File);
    }

    // The commit itself unreadable.
    const QString commit = objectFile("HEAD");
    QFile::setPermissions(commit, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(repo.write(commit.mid(repo.root().size() + 1), "garbage"));
    const auto e = catchError([&] { openRevision(repo.path(), "HEAD"); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::Io);
    QVERIFY2(std::string(e->what()).find('\n') == std::string::npos, e->what());
    QVERIFY2(std::string(e->what()).find("'HEAD'") != std::string::npos, e->what());
}

void TestGitRevisionTree::fifoInGitDirDoesNotBlock()
{
    TempTree repo(FileList{{"hiera.yaml", "version: 5\n"}});
    QVERIFY(repo.isValid());
    bool ok = false;
    git(repo.root(), {QStringLiteral("init"), QStringLiteral("-q")}, &ok);
    QVERIFY(ok);
    QVERIFY(commitAll(repo.root(), QStringLiteral("one")));
    QVERIFY(QFile::remove(repo.root() + QStringLiteral("/.git/HEAD")));
    QCOMPARE(::mkfifo(repo.path(QStringLiteral(".git/HEAD")).c_str(), 0600), 0);
    QElapsedTimer timer;
    timer.start();
    const auto e = catchError([&] { openRevision(repo.path(), "HEAD"); });
    QVERIFY(timer.elapsed() < 5000);
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::Io);
    QVERIFY2(std::string(e->what()).find("FIFO") != std::string::npos, e->what());
    QVERIFY2(std::string(e->what()).find('\n') == std::string::npos, e->what());
}

// One tree, one engine, eight threads: every thread's answers are the same.
void TestGitRevisionTree::lookupsOnSeveralThreads()
{
    FileList files{{"hiera.yaml", "version: 5\nhierarchy:\n  - name: all\n    glob: '**/*.yaml'\n"}};
    for (int i = 0; i < 40; ++i)
        files.push_back({QStringLiteral("data/d%1/f%2.yaml").arg(i % 5).arg(i),
                         QStringLiteral("k%1: %1\nlist: [%1]\n").arg(i).toUtf8()});
    TempTree repo(files);
    QVERIFY(repo.isValid());
    bool ok = false;
    git(repo.root(), {QStringLiteral("init"), QStringLiteral("-q")}, &ok);
    QVERIFY(ok);
    QVERIFY(commitAll(repo.root(), QStringLiteral("one")));
    EngineOptions options;
    options.tree = openRevision(repo.path(), "HEAD");
    const auto engine = Engine::load(repo.path(QStringLiteral("hiera.yaml")), options);
    const MapScope scope(yaml("{}"));
    std::vector<std::string> results(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] {
            std::string out;
            for (const ResolvedKey& k : resolveAllKeys(*engine, scope).keys)
                out += k.key + "=" + toJson(k.value) + "\n";
            results[t] = out;
        });
    for (auto& t : threads)
        t.join();
    QVERIFY(results[0].find("k39=39") != std::string::npos);
    for (const std::string& r : results)
        QCOMPARE(r, results[0]);
}

QTEST_MAIN(TestGitRevisionTree)
#include "tst_gitrevisiontree.moc"
