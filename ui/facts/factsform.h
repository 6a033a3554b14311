#pragma once

// FactsForm — the shape a facts file was opened in, and writing a scope back in that shape.
//
// Saving used to turn any facts file into a "scope saved by Hiera Explorer" (facts: and trusted:
// sections, comments gone), which `puppet lookup --facts` then read differently. A file now keeps its
// form: a facter -y / -j hash stays one, `puppet facts` output keeps its {name, values} wrapper, and only
// a scope saved here is written as a scope. YAML keeps its comments when only values changed: the new
// scalars are written over the old ones in the original text (found through the values' source marks),
// and the result is parsed again to prove it reads as the new facts. When keys were added, removed or
// renamed the document is written anew, keeping the leading comment block, and the caller is told.

#include <hiera/value.h>

#include <QByteArray>
#include <QString>

#include <string>

namespace hiera::ui {

namespace FactsForm {

enum class Shape {
    Facts, // facter -y / -j: a hash of facts
    PuppetFacts, // `puppet facts`: {"name": certname, "values": {facts...}, ...}
    Scope, // a scope saved by this window: facts, trusted and the top-scope variables
    PuppetDB, // one node's entry in a PuppetDB factsets export (PuppetDBNode reads and writes it)
};

struct Form
{
    Shape shape = Shape::Facts;
    bool json = false;
    std::string text; // the file as read (YAML only: what in-place edits patch)
    hiera::Value document; // the file as parsed (the wrapper's other keys survive a save)
    std::string node; // PuppetDB: the certname of the entry; the export is the document's file
};

// What a file's text and parsed document are. A `.json` name or a document starting with `{` is JSON.
Form detect(const std::string& text, const hiera::Value& document);

// A form for a new file at `path`: the shape given, JSON for a `.json` name.
Form forNewFile(Shape shape, const QString& path);

struct Written
{
    QByteArray bytes;
    // Comments other than the leading block were dropped (the structure changed, or a scalar could not
    // be edited in place): the caller says so, nothing is lost silently.
    bool commentsDropped = false;
    Form form; // the file's form once written (its text and marks: the next save edits in place again)
};

// The bytes of `form` holding `scope` (the explorer's whole scope: facts, trusted, variables).
// Throws std::exception if the value cannot be written.
Written write(const Form& form, const hiera::Value& scope);

// The document that `write` puts in the file for `scope` (facts, the wrapper, or the scope).
hiera::Value documentFor(const Form& form, const hiera::Value& scope);

} // namespace FactsForm

} // namespace hiera::ui
