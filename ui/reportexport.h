#pragma once

// Saving a panel's report (the fleet view, all keys of a node, a node diff) as a file the user names:
// the save dialog with one filter per format, the writer the file's suffix asks for, and an atomic
// write. Written once for every panel.
//
//     QList<ReportExport::Format> formats() const  // empty while there is nothing to save
//     { return { { tr("CSV"), "csv", [r] { return hiera::fleetCsv(*r); } }, ... }; }
//     ReportExport::chooseAndSave(this, tr("Export …"), formats(), m_summary);

#include <QList>
#include <QString>

#include <functional>
#include <string>

class QLabel;
class QWidget;

namespace ReportExport {

struct Format {
    QString name;   // "CSV", for the dialog's filter
    QString suffix; // "csv", without the dot
    std::function<std::string()> write; // the file's text
};

// Writes `path` in the format its suffix names (the first format for any other suffix), atomically
// (QSaveFile). On failure (nothing to save, a write error), false and `error` says it in one line.
bool save(const QString& path, const QList<Format>& formats, QString* error);
// The save dialog (a name typed without a known suffix gets the chosen filter's), then save(); a
// failure is said in `status`.
void chooseAndSave(QWidget* parent, const QString& title, const QList<Format>& formats, QLabel* status);

} // namespace ReportExport
