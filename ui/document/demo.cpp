#include "document/demo.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace hiera::ui {

namespace Demo {

QString hieraYaml()
{
    QStringList candidates;
    const QString appDir = QCoreApplication::applicationDirPath();
    candidates << appDir + QStringLiteral("/../share/hiera-explorer/demo") << appDir + QStringLiteral("/demo");
    candidates << QStandardPaths::locateAll(QStandardPaths::GenericDataLocation, QStringLiteral("hiera-explorer/demo"),
                                            QStandardPaths::LocateDirectory);
    candidates << QStringLiteral(HIERA_DEMO_DIR);
    for (const QString& dir : std::as_const(candidates)) {
        const QFileInfo file(dir + QStringLiteral("/hiera.yaml"));
        if (file.isFile())
            return QDir::cleanPath(file.absoluteFilePath());
    }
    return {};
}

QString defaultFactsFile(const QString& hieraYamlPath)
{
    const QString library = nodeLibrary(hieraYamlPath);
    if (library.isEmpty())
        return {};
    const QDir factsDir(library);
    const QString preferred = factsDir.filePath(QStringLiteral("web01.example.com.yaml"));
    if (QFileInfo::exists(preferred))
        return preferred;
    const QStringList files =
        factsDir.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : factsDir.filePath(files.first());
}

QString nodeLibrary(const QString& hieraYamlPath)
{
    const QFileInfo factsDir(QFileInfo(hieraYamlPath).absolutePath() + QStringLiteral("/facts"));
    return factsDir.isDir() ? QDir::cleanPath(factsDir.absoluteFilePath()) : QString();
}

QString defaultKey()
{
    return QStringLiteral("profile::ntp");
}

bool isDemoFile(const QString& path)
{
    const QString demo = hieraYaml();
    if (demo.isEmpty() || path.isEmpty())
        return false;
    const QString root = QFileInfo(demo).canonicalPath();
    const QString file = QFileInfo(path).canonicalFilePath();
    return !root.isEmpty() && !file.isEmpty() && file.startsWith(root + QLatin1Char('/'));
}

} // namespace Demo

} // namespace hiera::ui
