#pragma once

// Saving a panel's report (the fleet view, all keys of a node, a node diff) as a file the user names:
// the save dialog with one filter per format, and an atomic write. Written once for every panel.

#include <QString>
#include <QStringList>

#include <string>

class QWidget;

namespace ReportExport {

struct Format {
    QString name;   // "CSV"
    QString suffix; // "csv", without the dot
};

// The save dialog; a name typed without a known suffix gets the chosen filter's. Empty if cancelled.
QString chooseFile(QWidget* parent, const QString& title, const QList<Format>& formats);
// The suffix of `path` in lower case ("csv"), for choosing a writer.
QString suffixOf(const QString& path);
// Writes `text` to `path` atomically (QSaveFile). On failure, false and `error` says it in one line.
bool write(const QString& path, const std::string& text, QString* error);

} // namespace ReportExport
