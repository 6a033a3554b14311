#pragma once

// Runs the built hiera-lookup (HIERA_LOOKUP_BIN, defined by CMake when the program is built) with no
// persistent parse cache, for the suites that check its output and exit status.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct CliRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

inline CliRun runHieraLookup(const QStringList& args)
{
    CliRun r;
#ifdef HIERA_LOOKUP_BIN
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HIERA_CACHE_DIR"), QString());
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(HIERA_LOOKUP_BIN), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("<timeout>");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
#else
    Q_UNUSED(args);
#endif
    return r;
}
