#pragma once

// ExplanationDocument — the current explanation as a document an auditor can keep (README.md, File ▸ Export
// Explanation): the engine's report (hiera/explanationreport.h: what was looked up, the merge, the facts the hierarchy
// used, every level and file consulted, the value with each leaf's file:line and what it overrode, the program and the
// time) as Markdown, self-contained HTML or JSON — the same documents `hiera-lookup --explain --format markdown|html`
// prints — or printed (QPrinter: a printer or a PDF) from its HTML. Here: the window's outcome handed to it, and the
// export dialog's formats and names. Decrypted eyaml values are redacted unless the user revealed them.

#include "models/snapshots.h"

#include <QDateTime>
#include <QString>

class QPrinter;

namespace hiera::ui {

struct ExplanationDocument
{
    LookupOutcomePtr outcome; // the answer and its trace (required)
    OverrideChainPtr overrides; // every level's value and the leaves' chains (optional)
    QString hieraYaml;
    QString factsFile;
    // The facts were edited since factsFile was read or saved; fileScope is the scope it holds (null:
    // not known). The report lists every fact the lookup used that differs from it.
    bool factsEdited = false;
    hiera::Value fileScope;
    QString revision; // the repository's git revision (LookupRunner::revisionText)
    QDateTime time = QDateTime::currentDateTime(); // written with its zone's offset
    bool revealSecrets = false; // the user chose to show decrypted values

    enum class Format { Markdown, Html, Json, Pdf };
    // From a file name's extension (.md, .html/.htm, .json, .pdf); Markdown otherwise.
    static Format formatFor(const QString& path);
    // The export dialog's filters, and the name it suggests: what was looked up, for which facts
    // (profile--ntp-web01.example.com.md), with the extension of `filter` (Markdown's without one).
    static QString fileFilters();
    static QString suggestedFileName(const std::string& key, const QString& factsPath,
                                     const QString& filter = QString());
    // The filter of the format the last explanation was exported in (Markdown's before any), and
    // remembering it from the name of a file just saved.
    static QString lastFilter();
    static void rememberFormat(const QString& savedPath);
    // A path typed without an extension gets the one of the filter chosen (the format follows it).
    static QString withExtension(const QString& path, const QString& selectedFilter);

    QString toMarkdown() const;
    QString toHtml() const;
    QByteArray toJson() const;
    void print(QPrinter* printer) const;
    // Writes in the format of the name. False with `error` set on failure.
    bool save(const QString& path, QString* error) const;
};

} // namespace hiera::ui
