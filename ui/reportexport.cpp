#include "reportexport.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>

namespace ReportExport {

QString chooseFile(QWidget* parent, const QString& title, const QList<Format>& formats)
{
    QStringList filters;
    for (const Format& format : formats)
        filters << QStringLiteral("%1 (*.%2)").arg(format.name, format.suffix);
    QString chosen;
    QString path = QFileDialog::getSaveFileName(parent, title, QString(), filters.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty())
        return {};
    const QString suffix = suffixOf(path);
    for (const Format& format : formats)
        if (format.suffix == suffix)
            return path;
    for (qsizetype i = 0; i < formats.size(); ++i)
        if (filters[i] == chosen)
            return path + QLatin1Char('.') + formats[i].suffix;
    return formats.isEmpty() ? path : path + QLatin1Char('.') + formats.front().suffix;
}

QString suffixOf(const QString& path)
{
    return QFileInfo(path).suffix().toLower();
}

bool write(const QString& path, const std::string& text, QString* error)
{
    QSaveFile file(path);
    const auto size = static_cast<qint64>(text.size());
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), size) != size || !file.commit()) {
        *error = QCoreApplication::translate("ReportExport", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ReportExport
