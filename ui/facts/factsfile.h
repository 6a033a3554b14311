#pragma once

// FactsFile — a facts file made into the explorer's scope: facter -y / -j or `puppet facts` output
// (facts.<name> plus the top-scope copies, trusted.certname from clientcert or fqdn), or a scope this
// window saved, taken as it is; with the form it came in (FactsForm), for saving it back. A plain
// function of the file: LookupRunner::readFacts runs it on a worker, since a large facts
// file took seconds to parse and froze the window when read on the GUI thread.

#include "facts/factsform.h"
#include "models/facttreemodel.h"

#include <hiera/value.h>

#include <QDateTime>
#include <QString>

#include <memory>

namespace hiera::ui {

namespace FactsFile {

// What a file on disk looked like (its size and time of change), taken before reading it: a save over
// the file compares it with the file then, so a change made by another program is not overwritten unasked.
struct DiskStamp
{
    qint64 size = -1; // -1: no such file
    QDateTime modified;
    bool operator==(const DiskStamp&) const = default;
};
DiskStamp stampOf(const QString& path);

// What a facts file holds, read: the scope (not a hiera::Scope: the tree of facts, trusted and variables), its
// tree for the facts panel, and what a save needs to write it back.
struct Contents
{
    hiera::Value scope;
    std::shared_ptr<FactTreeModel::Prepared> tree; // the scope's tree for the facts panel
    QString error; // one line naming the file; empty on success
    QString path; // the file read
    FactsForm::Form form; // the shape it was written in: a save writes it back so
    DiskStamp stamp; // the file as it was when read
};

// Reads the file and builds the scope and its tree (everything but showing it).
Contents read(const QString& path);

} // namespace FactsFile

} // namespace hiera::ui
