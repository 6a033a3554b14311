// Crash recovery with the real program: hiera-explorer-testhooks (hiera-explorer's start with test hooks,
// tests/ui/explorer_with_test_hooks.cpp) is started on a copy of the demo, makes a
// fact edit through its --test-edit hook, is killed with SIGKILL once the autosave is on disk, and the
// next start on the same hierarchy recovers the edit (or drops it when told to discard). The
// hierarchy's files are compared byte for byte before and after.

#include "facts/factsautosave.h"
#include "support/testpaths.h"
#include "ui/uitestutils.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

using namespace hiera::ui;

namespace {
constexpr int timeoutMs = 20000;

QByteArray treeChecksum(const QString& dir)
{
    QStringList paths;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << it.next();
    paths.sort();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString& path : std::as_const(paths)) {
        hash.addData(path.toUtf8());
        hash.addData(UiTest::readFile(path));
        hash.addData(QByteArray::number(QFileInfo(path).lastModified().toMSecsSinceEpoch()));
    }
    return hash.result().toHex();
}
} // namespace

class TestAutosave : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_demo = m_tmp.filePath(QStringLiteral("demo"));
        QVERIFY(UiTest::copyTree(testpaths::demoDir(), m_demo));
        m_autosaveDir = m_tmp.filePath(QStringLiteral("autosave"));
        qputenv("HIERA_EXPLORER_AUTOSAVE_DIR", m_autosaveDir.toUtf8());
        QVERIFY(QFileInfo(testpaths::explorerBin()).isExecutable());
        QVERIFY(QFileInfo(testpaths::explorerWithTestHooksBin()).isExecutable());
    }

    void killedSessionIsRecovered()
    {
        const QString hieraYaml = m_demo + QStringLiteral("/hiera.yaml");
        const QString facts = m_demo + QStringLiteral("/facts/web01.example.com.yaml");
        const QByteArray hierarchyBefore = treeChecksum(m_demo + QStringLiteral("/data")) + treeChecksum(hieraYaml)
            + treeChecksum(m_demo + QStringLiteral("/facts"));
        const QString autosave = FactsAutosave::fileFor(hieraYaml);
        QVERIFY(!QFileInfo::exists(autosave));

        // 1. Edit, wait for the autosave, kill.
        QProcess first;
        start(first,
              {hieraYaml, QStringLiteral("--facts"), facts, QStringLiteral("--key"),
               QStringLiteral("profile::web::workers"), QStringLiteral("--test-edit"),
               QStringLiteral("facts.env=staging")});
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::readFile(autosave).contains("env: staging"), timeoutMs);
        first.kill(); // SIGKILL: no close event, no destructors
        QVERIFY(first.waitForFinished(timeoutMs));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        QVERIFY(QFileInfo::exists(autosave));

        // 2. Start again, accept the recovery: the edit is back.
        QProcess second;
        start(second,
              {hieraYaml, QStringLiteral("--facts"), facts, QStringLiteral("--key"),
               QStringLiteral("profile::web::workers"), QStringLiteral("--test-answer"), QStringLiteral("accept"),
               QStringLiteral("--test-print-scope")});
        QCOMPARE(printedScope(second).value(QStringLiteral("facts")).toObject().value(QStringLiteral("env")).toString(),
                 QStringLiteral("staging"));
        second.kill();
        QVERIFY(second.waitForFinished(timeoutMs));
        QVERIFY(QFileInfo::exists(autosave)); // recovered is not saved

        // 3. Start again, discard: the facts file's own facts, and the autosave is gone.
        QProcess third;
        start(third,
              {hieraYaml, QStringLiteral("--facts"), facts, QStringLiteral("--key"),
               QStringLiteral("profile::web::workers"), QStringLiteral("--test-answer"), QStringLiteral("discard"),
               QStringLiteral("--test-print-scope")});
        QCOMPARE(printedScope(third).value(QStringLiteral("facts")).toObject().value(QStringLiteral("env")).toString(),
                 QStringLiteral("production"));
        QVERIFY(!QFileInfo::exists(autosave));
        third.kill();
        QVERIFY(third.waitForFinished(timeoutMs));

        const QByteArray hierarchyAfter = treeChecksum(m_demo + QStringLiteral("/data")) + treeChecksum(hieraYaml)
            + treeChecksum(m_demo + QStringLiteral("/facts"));
        QCOMPARE(hierarchyAfter, hierarchyBefore);
    }

    // File > Quit ends the process within 2 s even while a worker is stuck in the kernel
    // (here: opening a FIFO no one writes to). Before, the pool's wait at exit held it forever (docs/bad-input.md, "Git
    // state").
    void quitEndsTheProcessWhateverAWorkerDoes()
    {
        const QString fifo = m_tmp.filePath(QStringLiteral("never-written"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QProcess process;
        start(process,
              {m_demo + QStringLiteral("/hiera.yaml"), QStringLiteral("--facts"),
               m_demo + QStringLiteral("/facts/web01.example.com.yaml"), QStringLiteral("--key"),
               QStringLiteral("profile::web::workers"), QStringLiteral("--test-quit-stuck"), fifo});
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains("quitting\n") && clock.elapsed() < timeoutMs && process.state() == QProcess::Running) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
        }
        QVERIFY2(out.contains("quitting\n"), out.constData());
        QElapsedTimer quitting;
        quitting.start();
        const bool ended = process.waitForFinished(5000);
        const qint64 took = quitting.elapsed();
        if (!ended) { // unblock the worker so that nothing is left behind, then fail
            const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0)
                ::close(fd);
            process.kill();
            process.waitForFinished(timeoutMs);
        }
        QVERIFY2(ended, "the explorer did not end within 5 s of File > Quit");
        QVERIFY2(took < 2000, qPrintable(QStringLiteral("ended %1 ms after File > Quit").arg(took)));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
    }

    // Without a display: --help and --version answer, and a window is refused in one line, not aborted.
    void withoutADisplay()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        const auto run = [&](const QStringList& arguments) {
            auto process = std::make_unique<QProcess>();
            process->setProcessEnvironment(env);
            process->start(testpaths::explorerBin(), arguments);
            process->waitForFinished(timeoutMs);
            return process;
        };
        const auto help = run({QStringLiteral("--help")});
        QCOMPARE(help->exitStatus(), QProcess::NormalExit);
        QCOMPARE(help->exitCode(), 0);
        QVERIFY(help->readAllStandardOutput().contains("--facts <FILE>"));
        const auto version = run({QStringLiteral("--version")});
        QCOMPARE(version->exitCode(), 0);
        QVERIFY(version->readAllStandardOutput().startsWith("hiera-explorer "));
        const auto window = run({});
        QCOMPARE(window->exitStatus(), QProcess::NormalExit);
        QCOMPARE(window->exitCode(), 1);
        const QByteArray error = window->readAllStandardError();
        QVERIFY2(error.startsWith("hiera-explorer: no display") && error.count('\n') == 1, error.constData());
    }

    // The shipped program has no test hooks: they are refused as any unknown option, before a window.
    void shippedProgramRefusesTestHooks()
    {
        for (const char* hook : {"--test-edit=facts.env=x", "--test-answer=accept", "--test-print-scope",
                                 "--test-quit-stuck=/nonexistent"}) {
            QProcess process;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_tmp.filePath(QStringLiteral("config")));
            process.setProcessEnvironment(env);
            process.start(testpaths::explorerBin(), {QString::fromLatin1(hook)});
            QVERIFY(process.waitForFinished(timeoutMs));
            QCOMPARE(process.exitStatus(), QProcess::NormalExit);
            QCOMPARE(process.exitCode(), 1);
            const QByteArray error = process.readAllStandardError();
            QVERIFY2(error.contains("Unknown option"), error.constData());
        }
    }

private:
    void start(QProcess& process, const QStringList& arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HIERA_EXPLORER_AUTOSAVE_DIR"), m_autosaveDir);
        // Settings and data of the test runs stay in the temporary directory.
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_tmp.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_tmp.filePath(QStringLiteral("data")));
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start(testpaths::explorerWithTestHooksBin(), arguments);
        QVERIFY2(process.waitForStarted(timeoutMs), qPrintable(process.errorString()));
    }

    // The "scope: {...}" line --test-print-scope writes once the first answer is on screen.
    QJsonObject printedScope(QProcess& process)
    {
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains('\n') && clock.elapsed() < timeoutMs && process.state() == QProcess::Running) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
        }
        const int at = out.indexOf("scope: ");
        if (at < 0) {
            qWarning("no scope printed; stderr: %s", process.readAllStandardError().constData());
            return {};
        }
        const QByteArray json = out.mid(at + 7, out.indexOf('\n', at) - at - 7);
        return QJsonDocument::fromJson(json).object();
    }

    QTemporaryDir m_tmp;
    QString m_demo;
    QString m_autosaveDir;
};

QTEST_GUILESS_MAIN(TestAutosave)
#include "tst_autosave.moc"
