#pragma once

// Saving a panel's report (the fleet view, all keys of a node, a node diff) as a file the user names:
// the save dialog with one filter per format, the writer the file's suffix asks for, and an atomic
// write. Written once for every panel.
//
//     QList<ReportExport::Format> formats() const  // empty while there is nothing to save
//     { return { { tr("CSV"), "csv", [r] { return hiera::fleetCsv(*r); } }, ... }; }
//     ReportExport::chooseAndSave(this, tr("Export …"), formats(), m_summary, "profile--ntp-nodes");

#include <QList>
#include <QString>

#include <functional>
#include <string>

class QLabel;
class QWidget;

namespace hiera::ui {

namespace ReportExport {

struct Format
{
    QString name; // "CSV", for the dialog's filter
    QString suffix; // "csv", without the dot
    std::function<std::string()> write; // the file's text
};

// Writes `path` in the format its suffix names (the first format for any other suffix), atomically
// (QSaveFile). On failure (nothing to save, a write error), false and `error` says it in one line.
bool save(const QString& path, const QList<Format>& formats, QString* error);
// The save dialog, opening in the folder of the last export (any kind) with `suggestedName` (made safe
// for a file name, the suffix of the format last saved from these formats added, else the first's) filled
// in and that format's filter chosen; a name typed without a known suffix gets the chosen filter's.
// Then save(); a failure is said in `status`.
void chooseAndSave(QWidget* parent, const QString& title, const QList<Format>& formats, QLabel* status,
                   const QString& suggestedName);

// The folder exports start in (the last one used, else the home folder), and remembering it.
QString lastFolder();
void rememberFolder(const QString& savedFile);
// Which of `formats` the dialog starts with: the one last saved from the same formats (so each panel
// remembers its own), else the first. rememberFormat() records the format of a file just saved.
qsizetype preferredFormat(const QList<Format>& formats);
void rememberFormat(const QList<Format>& formats, const QString& savedFile);
// `name` made safe as a file name: "::" becomes "--", each run of anything but letters, digits, '.',
// '_' and '-' becomes one '-' (none at the ends).
QString safeFileName(const QString& name);

} // namespace ReportExport

} // namespace hiera::ui
