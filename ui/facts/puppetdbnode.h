#pragma once

// PuppetDBNode — one node of a PuppetDB factsets export as a facts document: read into the explorer's
// scope (as FactsFile reads a facts file, on a worker), and its edited facts written back into that
// node's entry of the export (hiera::replacePuppetDBFacts keeps the entry's shape and every other node).
// The export is read again at save time, so that what changed in it meanwhile is kept; only the node's
// own entry is replaced.

#include "facts/factsfile.h"
#include "facts/factsform.h"

#include <hiera/value.h>

#include <QString>

#include <stdexcept>

namespace hiera::ui {

namespace PuppetDBNode {

// The export no longer holds the node (removed by a new export, or renamed): nothing was written.
class NodeGone : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The node's entry changed in the export since it was read (or last written) here: nothing was written.
class EntryChanged : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The form of a document that is `certname`'s entry in an export.
FactsForm::Form formFor(const QString& certname);

// "web01.example.com (in factsets.json)": how the title and the messages name the document.
QString displayName(const QString& exportPath, const QString& certname);

// Reads `certname`'s facts from the export and builds the scope and its tree (what FactsFile::read does
// for a file); the error, if any, is one line naming the file (line:column where known).
FactsFile::Contents read(const QString& exportPath, const QString& certname);

// The export's new bytes with the node's facts taken from `scope` (its facts hash). Reads the export as
// it is now. Throws NodeGone when the node is not in it, EntryChanged when its entry no longer holds the
// facts it held when read (`form.document`) unless `overwriteChanges`, hiera::Error (file:line:col) when
// the export cannot be read or used, std::exception when the facts cannot be written. The written form's
// document is the facts written, for the next save's comparison.
FactsForm::Written write(const QString& exportPath, const FactsForm::Form& form, const hiera::Value& scope,
                         bool overwriteChanges = false);

} // namespace PuppetDBNode

} // namespace hiera::ui
