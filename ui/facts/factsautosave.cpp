#include "facts/factsautosave.h"

#include "models/valueconvert.h"

#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

#include <exception>

namespace hiera::ui {

using hiera::Value;
using ValueConvert::toQString;
using ValueConvert::toStd;

namespace FactsAutosave {

namespace {
QString absolute(const QString& path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

QString stringAt(const hiera::Hash& hash, const char* key)
{
    const Value* v = hash.find(key);
    return v && v->isString() ? toQString(v->asString()) : QString();
}
} // namespace

QString directory()
{
    const QString fromEnvironment = qEnvironmentVariable("HIERA_EXPLORER_AUTOSAVE_DIR");
    if (!fromEnvironment.isEmpty())
        return QDir(fromEnvironment).absolutePath();
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave");
}

QString fileFor(const QString& hieraYaml)
{
    // The directory's name keeps the file recognisable; the hash keeps two "production" trees apart.
    const QString path = absolute(hieraYaml);
    const QByteArray hash = QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    QString name = path.isEmpty() ? QStringLiteral("none") : QFileInfo(QFileInfo(path).absolutePath()).fileName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
    return directory() + QLatin1Char('/') + name + QLatin1Char('-') + QString::fromLatin1(hash)
        + QStringLiteral(".yaml");
}

bool write(const QString& hieraYaml, const QString& factsPath, const QString& factsNode, const Value& scope,
           QString* error)
{
    hiera::Hash entry;
    entry.set("hiera_yaml", Value(toStd(absolute(hieraYaml))));
    entry.set("facts_file", Value(toStd(absolute(factsPath))));
    if (!factsNode.isEmpty())
        entry.set("facts_node", Value(toStd(factsNode)));
    entry.set("scope", scope);
    QByteArray bytes("# Unsaved fact edits, autosaved by Hiera Explorer. Offered back when the hierarchy is opened.\n");
    try {
        bytes += QByteArray::fromStdString(hiera::toYaml(Value(std::move(entry))));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    const QString file = fileFor(hieraYaml);
    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(QFileInfo(file).absolutePath());
        return false;
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

std::optional<Entry> read(const QString& hieraYaml)
{
    const QString file = fileFor(hieraYaml);
    const QFileInfo info(file);
    if (!info.isFile())
        return std::nullopt;
    try {
        const Value loaded = hiera::loadDataFile(toStd(file));
        if (!loaded.isHash())
            return std::nullopt;
        const hiera::Hash& hash = loaded.asHash();
        const Value* scope = hash.find("scope");
        if (!scope || !scope->isHash())
            return std::nullopt;
        return Entry{*scope, stringAt(hash, "facts_file"), stringAt(hash, "facts_node"), stringAt(hash, "hiera_yaml"),
                     info.lastModified()};
    } catch (const std::exception&) {
        return std::nullopt; // a damaged autosave is no autosave; the next edit overwrites it
    }
}

bool isNewerThanLastSave(const Entry& entry)
{
    if (entry.factsPath.isEmpty())
        return true;
    const QFileInfo facts(entry.factsPath);
    return !facts.exists() || entry.written > facts.lastModified();
}

void remove(const QString& hieraYaml)
{
    QFile::remove(fileFor(hieraYaml));
}

} // namespace FactsAutosave

} // namespace hiera::ui
