#include "widgets/reportexport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QStringList>

namespace hiera::ui {

namespace ReportExport {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ReportExport", text);
}

// The format a file's name asks for ("yml" is YAML too), or null.
const Format* formatOf(const QString& path, const QList<Format>& formats)
{
    QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("yml"))
        suffix = QStringLiteral("yaml");
    for (const Format& f : formats)
        if (f.suffix == suffix)
            return &f;
    return nullptr;
}

} // namespace

bool save(const QString& path, const QList<Format>& formats, QString* error)
{
    if (formats.isEmpty()) {
        *error = tr("Nothing to export yet");
        return false;
    }
    const Format* format = formatOf(path, formats);
    if (!format)
        format = &formats.front();
    const std::string text = format->write();
    QSaveFile file(path);
    const auto size = static_cast<qint64>(text.size());
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), size) != size || !file.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString lastFolder()
{
    const QString folder = QSettings().value(QStringLiteral("export/folder")).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolder(const QString& savedFile)
{
    QSettings().setValue(QStringLiteral("export/folder"), QFileInfo(savedFile).absolutePath());
}

namespace {

// The formats a panel offers name its remembered choice, so each panel keeps its own
// ("csv-json-md" for the fleet view, "yaml-json-csv" for All keys) whatever the UI language.
QString formatSettingsKey(const QList<Format>& formats)
{
    QStringList suffixes;
    for (const Format& format : formats)
        suffixes << format.suffix;
    return QStringLiteral("export/format/") + suffixes.join(QLatin1Char('-'));
}

} // namespace

qsizetype preferredFormat(const QList<Format>& formats)
{
    const QString suffix = QSettings().value(formatSettingsKey(formats)).toString();
    for (qsizetype i = 0; i < formats.size(); ++i)
        if (formats[i].suffix == suffix)
            return i;
    return 0;
}

void rememberFormat(const QList<Format>& formats, const QString& savedFile)
{
    if (const Format* format = formatOf(savedFile, formats))
        QSettings().setValue(formatSettingsKey(formats), format->suffix);
}

QString safeFileName(const QString& name)
{
    QString in = name;
    in.replace(QStringLiteral("::"), QStringLiteral("--"));
    QString out;
    bool replaced = false; // a run of other characters becomes one '-' ("Current facts (web01)": Current-facts-web01)
    for (const QChar c : in) {
        const bool kept =
            c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-');
        if (kept && !(replaced && c == QLatin1Char('-')))
            out += c;
        else if (!kept && !replaced)
            out += QLatin1Char('-');
        replaced = !kept || (replaced && c == QLatin1Char('-'));
    }
    while (out.endsWith(QLatin1Char('-')) && !out.endsWith(QStringLiteral("--")))
        out.chop(1);
    // Not a hidden file, nor one a shell reads as an option.
    while (out.startsWith(QLatin1Char('.')) || out.startsWith(QLatin1Char('-')))
        out.remove(0, 1);
    return out.isEmpty() ? QStringLiteral("export") : out;
}

void chooseAndSave(QWidget* parent, const QString& title, const QList<Format>& formats, QLabel* status,
                   const QString& suggestedName)
{
    QStringList filters;
    for (const Format& format : formats)
        filters << QStringLiteral("%1 (*.%2)").arg(format.name, format.suffix);
    const qsizetype preferred = preferredFormat(formats);
    QString chosen = filters.value(preferred);
    const QString suggestion =
        QDir(lastFolder())
            .filePath(safeFileName(suggestedName)
                      + (formats.isEmpty() ? QString() : QLatin1Char('.') + formats[preferred].suffix));
    QString path = QFileDialog::getSaveFileName(parent, title, suggestion, filters.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty())
        return;
    if (!formatOf(path, formats) && !formats.isEmpty()) {
        const qsizetype picked = std::max<qsizetype>(0, filters.indexOf(chosen));
        path += QLatin1Char('.') + formats[picked].suffix;
    }
    QString error;
    if (!save(path, formats, &error)) {
        status->setText(error);
        return;
    }
    rememberFolder(path);
    rememberFormat(formats, path);
    // Said where the window says what it did (File ▸ Save does the same).
    if (auto* window = qobject_cast<QMainWindow*>(parent->window()))
        window->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace ReportExport

} // namespace hiera::ui
