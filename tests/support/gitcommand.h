#pragma once

// The git command, the tests' own tool for making repositories (the code under test reads them with
// libgit2 and never runs git). It runs with a fixed identity, default branch and file protocol, so a
// test makes the same repository whatever the machine's git configuration says.

#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <utility>

class GitCommand
{
public:
    // Empty when git is not installed: the test skips ("scripts/dev.sh deps installs it").
    static QString program()
    {
        static const QString found = QStandardPaths::findExecutable(QStringLiteral("git"));
        return found;
    }

    explicit GitCommand(QString directory) : m_directory(std::move(directory)) { }

    // Runs git in the directory; `ok` (if given) says whether it exited 0, and a failure is printed with
    // git's own message. Returns the standard output, trimmed.
    QString run(const QStringList& args, bool* ok = nullptr) const
    {
        QProcess p;
        p.setWorkingDirectory(m_directory);
        p.start(program(),
                QStringList{QStringLiteral("-c"), QStringLiteral("user.name=t"), QStringLiteral("-c"),
                            QStringLiteral("user.email=t@example.com"), QStringLiteral("-c"),
                            QStringLiteral("init.defaultBranch=main"), QStringLiteral("-c"),
                            QStringLiteral("protocol.file.allow=always")}
                    + args);
        const bool finished = p.waitForFinished(30000);
        const bool success = finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (ok)
            *ok = success;
        if (!success)
            qWarning("git %s: %s", qPrintable(args.join(QLatin1Char(' '))), p.readAllStandardError().constData());
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }

    // Whether git exited 0.
    bool operator()(const QStringList& args) const
    {
        bool ok = false;
        run(args, &ok);
        return ok;
    }

    // Every change of the work tree, committed with `message`.
    bool commitAll(const QString& message) const
    {
        return (*this)({QStringLiteral("add"), QStringLiteral("-A")})
            && (*this)({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), message});
    }

private:
    QString m_directory;
};
