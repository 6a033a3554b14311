#pragma once

// What the Impact panel shows, as its runner (jobs/impactrunner.h) hands it over: one data file of
// the repository against every node of the library (hiera::fileImpact). Immutable and shared.

#include <hiera/nodes/fileimpact.h>

#include <QMetaType>
#include <QString>

#include <memory>
#include <string>

namespace hiera::ui {

struct FileImpactReport
{
    QString file; // as asked
    std::string root; // the repository's root: the file and exports are named relative to it
    hiera::FileImpact impact;
    double elapsedMs = 0;
};

using FileImpactReportPtr = std::shared_ptr<const FileImpactReport>;

} // namespace hiera::ui

Q_DECLARE_METATYPE(hiera::ui::FileImpactReportPtr)
