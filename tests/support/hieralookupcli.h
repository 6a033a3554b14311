#pragma once

// Runs the built hiera-lookup (testpaths::lookupBin(); HIERA_HAVE_LOOKUP_BIN marks the suites that
// drive the program) and collects its exit code and output. No persistent parse cache, so that one
// test's files never answer another's.

#include "support/testpaths.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct CliResult
{
    int exitCode = -1; // -2: crashed
    QString out;
    QString err;
};

// With `shellPrefix`, through `sh -c 'PREFIX "$0" "$@"'` (redirections, ulimit).
inline CliResult runHieraLookup(const QStringList& args, const QString& shellPrefix = {}, int timeoutMs = 60000)
{
    CliResult r;
#ifdef HIERA_HAVE_LOOKUP_BIN
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HIERA_CACHE_DIR"), QString());
    p.setProcessEnvironment(env);
    if (shellPrefix.isEmpty())
        p.start(testpaths::lookupBin(), args);
    else
        p.start(
            QStringLiteral("/bin/sh"),
            QStringList{QStringLiteral("-c"), shellPrefix + QStringLiteral(" \"$0\" \"$@\""), testpaths::lookupBin()}
                + args);
    if (!p.waitForFinished(timeoutMs)) {
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
    Q_UNUSED(shellPrefix);
    Q_UNUSED(timeoutMs);
#endif
    return r;
}
