#pragma once

// ExplanationReport — the current explanation as a document an auditor can keep (issue 11 §3): what
// was looked up, the merge, the facts the hierarchy used, every level and file consulted with its
// outcome, the value with each leaf's file:line and what it overrode, the tool's version and the time.
// Written as Markdown, self-contained HTML (inline style, no external resources), JSON, or printed
// (QPrinter: a printer or a PDF). Decrypted eyaml values are redacted unless the user revealed them.

#include "overrides.h"
#include "snapshots.h"

#include <QDateTime>
#include <QHash>
#include <QString>

class QPrinter;

struct ExplanationReport
{
    LookupOutcomePtr outcome; // the answer and its trace (required)
    Overrides::ResultPtr overrides; // every level's value and the leaves' chains (optional)
    QString hieraYaml;
    QString factsFile;
    // mapped_paths loop variables and the fact each runs over ("dc" -> "facts.datacenters"): a path's
    // %{dc} is bound per element, so the report names the fact instead of an unset variable.
    QHash<QString, QString> mappedVariables;
    QDateTime time = QDateTime::currentDateTime();
    bool revealSecrets = false; // the user chose to show decrypted values

    enum class Format { Markdown, Html, Json, Pdf };
    // From a file name's extension (.md, .html/.htm, .json, .pdf); Markdown otherwise.
    static Format formatFor(const QString& path);
    // The export dialog's filters, and the name it suggests: what was looked up, for which facts
    // (profile--ntp-web01.example.com.md), with the extension of `filter` (Markdown's without one).
    static QString fileFilters();
    static QString suggestedFileName(const std::string& key, const QString& factsPath, const QString& filter = QString());
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
