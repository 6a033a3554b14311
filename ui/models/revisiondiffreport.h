#pragma once

// What the Revision diff panel shows, as its runner (jobs/revisiondiffrunner.h) hands it over: the
// repository's revisions to pick from, and a node library diffed between two of them. Immutable and
// shared.

#include <hiera/gitrevisionlist.h>
#include <hiera/revisiondiff.h>

#include <QMetaType>
#include <QString>

#include <memory>
#include <string>
#include <vector>

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
    QString error; // one line: an unknown revision, a hierarchy that cannot be read
    double elapsedMs = 0;
};

using RevisionListPtr = std::shared_ptr<const RevisionList>;
using RevisionDiffReportPtr = std::shared_ptr<const RevisionDiffReport>;
Q_DECLARE_METATYPE(RevisionListPtr)
Q_DECLARE_METATYPE(RevisionDiffReportPtr)
