#pragma once

// What the Revision diff panel shows, as its runner (jobs/revisiondiffrunner.h) hands it over: the
// repository's revisions to pick from, a node library diffed between two of them, and one node's
// answer explained on both. Immutable and shared.

#include "models/nodereports.h"

#include <hiera/gitrevisionlist.h>
#include <hiera/nodes/revisiondiff.h>

#include <QMetaType>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace hiera::ui {

struct RevisionList
{
    QString hieraYaml;
    std::vector<hiera::RevisionChoice> revisions;
    QString error; // one line: not a git work tree, an unreadable repository
};

struct RevisionDiffReport
{
    QString hieraYaml;
    QString from, to; // as asked (to empty: the working tree)
    std::string fromName, toName; // as the revisions describe themselves ("commit 1a2b3c4d5e6f (revision HEAD~1)")
    std::string root; // the repository's root: reports name files relative to it
    hiera::RevisionDiff diff;
    NodeLibraryPtr library; // the nodes diffed (their scopes explain an answer again)
    QString error; // one line: an unknown revision, a hierarchy that cannot be read
    double elapsedMs = 0;
};

// One node's answer to one key of a diff, explained on each side as the explanation report explains
// a lookup (hiera::explanationHtml: levels, files, value, each leaf's file:line, the revision).
struct RevisionAnswer
{
    QString node;
    QString key; // a root key, as the diff lists it
    QString beforeHtml, afterHtml;
    QString error; // one line: a revision gone since the diff, a node no longer in the library
};

using RevisionListPtr = std::shared_ptr<const RevisionList>;
using RevisionDiffReportPtr = std::shared_ptr<const RevisionDiffReport>;
using RevisionAnswerPtr = std::shared_ptr<const RevisionAnswer>;

} // namespace hiera::ui

Q_DECLARE_METATYPE(hiera::ui::RevisionListPtr)
Q_DECLARE_METATYPE(hiera::ui::RevisionDiffReportPtr)
Q_DECLARE_METATYPE(hiera::ui::RevisionAnswerPtr)
