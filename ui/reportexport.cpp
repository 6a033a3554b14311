#include "reportexport.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSaveFile>
#include <QStringList>

namespace ReportExport {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ReportExport", text);
}

} // namespace

bool save(const QString& path, const QList<Format>& formats, QString* error)
{
    if (formats.isEmpty()) {
        *error = tr("Nothing to export yet");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    const Format* format = &formats.front();
    for (const Format& f : formats)
        if (f.suffix == suffix || (f.suffix == QLatin1String("yaml") && suffix == QLatin1String("yml")))
            format = &f;
    const std::string text = format->write();
    QSaveFile file(path);
    const auto size = static_cast<qint64>(text.size());
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), size) != size || !file.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void chooseAndSave(QWidget* parent, const QString& title, const QList<Format>& formats, QLabel* status)
{
    QStringList filters;
    for (const Format& format : formats)
        filters << QStringLiteral("%1 (*.%2)").arg(format.name, format.suffix);
    QString chosen;
    QString path = QFileDialog::getSaveFileName(parent, title, QString(), filters.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty())
        return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool known = std::any_of(formats.begin(), formats.end(), [&](const Format& f) { return f.suffix == suffix; });
    if (!known && !formats.isEmpty()) {
        const qsizetype picked = std::max<qsizetype>(0, filters.indexOf(chosen));
        path += QLatin1Char('.') + formats[picked].suffix;
    }
    QString error;
    if (!save(path, formats, &error))
        status->setText(error);
}

} // namespace ReportExport
