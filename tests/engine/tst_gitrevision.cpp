// gitRevision (hiera/gitrevision.h): the commit, branch and cleanliness of a work tree, as git itself
// reports them. The repositories are made with the git command (the test's own tool, not the code's:
// gitRevision reads them with libgit2).

#include "support/gitcommand.h"
#include "testutils.h"

#include <hiera/gitrevision.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <sys/stat.h>

using namespace hiera;
using namespace testutils;

class TestGitRevision : public QObject
{
    Q_OBJECT
    QString git(const QString& dir, const QStringList& args) { return GitCommand(dir).run(args); }

private Q_SLOTS:
    void initTestCase()
    {
        if (GitCommand::program().isEmpty())
            QSKIP("git is not installed (scripts/dev.sh deps installs it)");
    }

    void notARepository()
    {
        TempTree tree(FileList{{"hiera.yaml", "version: 5\n"}});
        QVERIFY(!gitRevision(tree.path()).has_value());
        QVERIFY(!gitRevision(tree.path(QStringLiteral("no/such/dir"))).has_value());
    }

    void commitBranchAndChanges()
    {
        TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "a: 1\n"}});
        const QString dir = QString::fromStdString(tree.path());
        git(dir, {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("production")});
        // No commit yet: a revision without one, every file untracked.
        std::optional<GitRevision> unborn = gitRevision(tree.path());
        QVERIFY(unborn);
        QVERIFY(unborn->commit.empty());
        QVERIFY(unborn->dirty);
        git(dir, {QStringLiteral("add"), QStringLiteral(".")});
        git(dir, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("first")});
        const std::string head = git(dir, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}).toStdString();
        QCOMPARE(head.size(), std::size_t(40));

        std::optional<GitRevision> clean = gitRevision(tree.path(QStringLiteral("data"))); // from below the root too
        QVERIFY(clean);
        QCOMPARE(clean->commit, head);
        QCOMPARE(clean->branch, std::string("production"));
        QVERIFY(!clean->dirty);
        QCOMPARE(describe(*clean), "commit " + head.substr(0, 12) + " (production), work tree clean");

        tree.write("data/common.yaml", "a: 2\n");
        tree.write("data/new.yaml", "b: 1\n");
        std::optional<GitRevision> dirty = gitRevision(tree.path());
        QVERIFY(dirty);
        QVERIFY(dirty->dirty);
        QCOMPARE(dirty->changedCount, std::size_t(2));
        QCOMPARE(dirty->changed, (std::vector<std::string>{"data/common.yaml", "data/new.yaml"}));
        QVERIFY(describe(*dirty).find("with uncommitted changes (2 files)") != std::string::npos);

        // A detached HEAD names no branch.
        git(dir, {QStringLiteral("checkout"), QStringLiteral("-q"), QString::fromStdString(head)});
        QVERIFY(gitRevision(tree.path())->branch.empty());
    }

    // docs/bad-input.md, "Git state": a FIFO where git opens a file blocked the read forever (and with it the report
    // and the explorer's exit). Each is now named and the state reported as not read, at once.
    void specialFilesNeverBlock_data()
    {
        QTest::addColumn<QString>("fifo"); // the FIFO, from the work tree's root
        QTest::addColumn<QString>("config"); // a line for .git/config's [core] or [include], or nothing
        QTest::addColumn<QString>("named"); // what the message names
        QTest::newRow(".gitignore at the root") << ".gitignore"
                                                << ""
                                                << "'.gitignore' is a FIFO";
        QTest::newRow(".gitignore deep in the tree") << "data/nodes/.gitignore"
                                                     << ""
                                                     << "'data/nodes/.gitignore' is a FIFO";
        QTest::newRow(".gitattributes") << "data/.gitattributes"
                                        << ""
                                        << "'data/.gitattributes' is a FIFO";
        QTest::newRow("a data file") << "data/other.yaml"
                                     << ""
                                     << "'data/other.yaml' is a FIFO";
        QTest::newRow(".git/index") << ".git/index"
                                    << ""
                                    << "'.git/index' is a FIFO";
        QTest::newRow(".git/config") << ".git/config"
                                     << ""
                                     << "'.git/config' is a FIFO";
        QTest::newRow(".git/info/exclude") << ".git/info/exclude"
                                           << ""
                                           << "'.git/info/exclude' is a FIFO";
        QTest::newRow("alternates") << ".git/objects/info/alternates"
                                    << ""
                                    << "'.git/objects/info/alternates' is a FIFO";
        QTest::newRow("include.path") << "included.cfg"
                                      << "[include]\n\tpath = ../included.cfg\n"
                                      << "'included.cfg' (a git config file) is a FIFO";
        QTest::newRow("core.excludesFile") << "excludes"
                                           << "[core]\n\texcludesFile = excludes\n"
                                           << "'excludes' (named by a git config file) is a FIFO";
        QTest::newRow(".git itself") << ".git"
                                     << ""
                                     << "'.git' is a FIFO";
    }

    void specialFilesNeverBlock()
    {
        QFETCH(QString, fifo);
        QFETCH(QString, config);
        QFETCH(QString, named);
        TempTree tree(
            {{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "a: 1\n"}, {"data/nodes/n.yaml", "a: 2\n"}});
        const QString dir = QString::fromStdString(tree.path());
        git(dir, {QStringLiteral("init"), QStringLiteral("-q")});
        git(dir, {QStringLiteral("add"), QStringLiteral(".")});
        git(dir, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("first")});
        if (!config.isEmpty()) {
            QFile f(dir + QStringLiteral("/.git/config"));
            QVERIFY(f.open(QIODevice::Append));
            f.write(config.toUtf8());
        }
        const QString path = dir + QLatin1Char('/') + fifo;
        if (fifo == QLatin1String(".git"))
            QVERIFY(QDir(path).removeRecursively());
        else
            QFile::remove(path);
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QVERIFY2(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0, qPrintable(path));

        QElapsedTimer timer;
        timer.start();
        const std::optional<GitRevision> r = gitRevision(tree.path(QStringLiteral("data")));
        QVERIFY(timer.elapsed() < 5000); // the 10 s bound is the last line of defence, not the answer
        QVERIFY(r);
        QVERIFY2(QString::fromStdString(r->unreadable).startsWith(named), r->unreadable.c_str());
        QVERIFY(r->commit.empty() && !r->dirty);
        QVERIFY2(describe(*r).rfind("git state not read: " + named.toStdString(), 0) == 0, describe(*r).c_str());
    }
};

QTEST_APPLESS_MAIN(TestGitRevision)
#include "tst_gitrevision.moc"
