#pragma once

// FactsAutosave — where unsaved fact edits survive a crash. One file per hierarchy (keyed by the
// absolute path of its hiera.yaml) in QStandardPaths::AppDataLocation/autosave, or in the directory
// named by HIERA_EXPLORER_AUTOSAVE_DIR (tests). The file is YAML: the scope, the facts file it was
// edited from (and, for a node of a PuppetDB export, the node: facts_node, absent in older files) and
// the hiera.yaml, written atomically with QSaveFile. It never goes near the hierarchy's own files.

#include <hiera/value.h>

#include <QDateTime>
#include <QString>

#include <optional>

namespace hiera::ui {

namespace FactsAutosave {

struct Entry
{
    hiera::Value scope;
    QString factsPath; // the facts file the edits started from; empty if the scope was never saved
    QString factsNode; // the node when factsPath is a PuppetDB export; empty for a facts file
    QString hieraYaml;
    QDateTime written;
};

// The autosave directory (created on write, not here).
QString directory();
// The autosave file for a hierarchy (which need not exist).
QString fileFor(const QString& hieraYaml);
// Writes the entry atomically. Returns false and sets `error` on failure.
bool write(const QString& hieraYaml, const QString& factsPath, const QString& factsNode, const hiera::Value& scope,
           QString* error = nullptr);
// The autosave for a hierarchy, if there is one that can be read.
std::optional<Entry> read(const QString& hieraYaml);
// True when the entry holds edits made after the facts file was last written (or it has none).
bool isNewerThanLastSave(const Entry& entry);
void remove(const QString& hieraYaml);

} // namespace FactsAutosave

} // namespace hiera::ui
