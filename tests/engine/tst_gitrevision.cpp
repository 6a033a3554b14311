// gitRevision (hiera/gitrevision.h): the commit, branch and cleanliness of a work tree, as git itself
// reports them. The repositories are made with the git command (the test's own tool, not the code's:
// gitRevision reads them with libgit2).

#include "testutils.h"

#include <hiera/gitrevision.h>

#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace hiera;
using namespace testutils;

class TestGitRevision : public QObject
{
    Q_OBJECT
    QString m_git;

    QString git(const QString& dir, const QStringList& args)
    {
        QProcess p;
        p.setWorkingDirectory(dir);
        p.start(m_git,
                QStringList{QStringLiteral("-c"), QStringLiteral("user.name=t"), QStringLiteral("-c"),
                            QStringLiteral("user.email=t@example.com")}
                    + args);
        p.waitForFinished(30000);
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_git = QStandardPaths::findExecutable(QStringLiteral("git"));
        if (m_git.isEmpty())
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
};

QTEST_APPLESS_MAIN(TestGitRevision)
#include "tst_gitrevision.moc"
