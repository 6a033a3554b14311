#pragma once

// ExplanationReport — the current explanation as a document an auditor can keep (issue 11 §3): what
// was looked up, the merge, the facts the hierarchy used, every level and file consulted with its
// outcome, the value with each leaf's file:line and what it overrode, the tool's version and the time.
// Written as Markdown, self-contained HTML (inline style, no external resources), JSON, or printed
// (QPrinter: a printer or a PDF). Decrypted eyaml values are redacted unless the user revealed them.

#include "overrides.h"
#include "snapshots.h"

#include <QDateTime>
#include <QString>

class QPrinter;

struct ExplanationReport
{
    LookupOutcomePtr outcome; // the answer and its trace (required)
    Overrides::ResultPtr overrides; // every level's value and the leaves' chains (optional)
    QString hieraYaml;
    QString factsFile;
    QDateTime time = QDateTime::currentDateTime();
    bool revealSecrets = false; // the user chose to show decrypted values

    enum class Format { Markdown, Html, Json, Pdf };
    // From a file name's extension (.md, .html/.htm, .json, .pdf); Markdown otherwise.
    static Format formatFor(const QString& path);

    QString toMarkdown() const;
    QString toHtml() const;
    QByteArray toJson() const;
    void print(QPrinter* printer) const;
    // Writes in the format of the name. False with `error` set on failure.
    bool save(const QString& path, QString* error) const;
};
