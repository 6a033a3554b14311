#include "jobs/repositoryoptions.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace hiera::ui {

namespace {
const auto skipKey = QStringLiteral("lookup/skipUnsupportedLevels");

// One settings group per repository. The path is percent-encoded: QSettings would read its slashes as
// nested groups.
QString groupFor(const QString& root)
{
    return QStringLiteral("repositories/") + QString::fromLatin1(QUrl::toPercentEncoding(root));
}

void setOrRemove(QSettings& settings, const QString& key, const QString& value, const QString& defaultValue = {})
{
    if (value.isEmpty() || value == defaultValue)
        settings.remove(key);
    else
        settings.setValue(key, value);
}
} // namespace

RepositoryOptions RepositoryOptions::read(const QString& root)
{
    RepositoryOptions options;
    QSettings settings;
    settings.beginGroup(groupFor(root));
    options.environment = settings.value(QStringLiteral("environment"), options.environment).toString();
    options.globalHieraYaml = settings.value(QStringLiteral("globalHieraYaml")).toString();
    options.environmentPath = settings.value(QStringLiteral("environmentPath")).toString();
    options.eyamlPrivateKey = settings.value(QStringLiteral("eyamlPrivateKey")).toString();
    settings.endGroup();
    options.skipUnsupportedLevels = skipUnsupportedSetting();
    return options;
}

void RepositoryOptions::write(const QString& root) const
{
    QSettings settings;
    settings.beginGroup(groupFor(root));
    setOrRemove(settings, QStringLiteral("environment"), environment, RepositoryOptions().environment);
    setOrRemove(settings, QStringLiteral("globalHieraYaml"), globalHieraYaml);
    setOrRemove(settings, QStringLiteral("environmentPath"), environmentPath);
    setOrRemove(settings, QStringLiteral("eyamlPrivateKey"), eyamlPrivateKey);
    settings.endGroup();
}

bool RepositoryOptions::skipUnsupportedSetting()
{
    return QSettings().value(skipKey, true).toBool();
}

void RepositoryOptions::setSkipUnsupportedSetting(bool skip)
{
    QSettings().setValue(skipKey, skip);
}

QString RepositoryOptions::hieraYamlFor(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return QDir::cleanPath(info.absoluteFilePath() + QStringLiteral("/hiera.yaml"));
    return QDir::cleanPath(info.absoluteFilePath());
}

QString RepositoryOptions::rootOf(const QString& hieraYaml)
{
    return QFileInfo(hieraYaml).absolutePath();
}

hiera::EnvironmentOptions RepositoryOptions::environmentOptions() const
{
    hiera::EnvironmentOptions options;
    options.name = environment.toStdString();
    options.globalHieraYaml = globalHieraYaml.toStdString();
    for (const QString& dir : environmentPath.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        options.environmentPath.push_back(dir.trimmed().toStdString());
    return options;
}

} // namespace hiera::ui
