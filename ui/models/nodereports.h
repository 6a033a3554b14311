#pragma once

// The node-library results the fleet and report jobs (jobs/fleetrunner.h, jobs/nodereportrunner.h) hand
// to the GUI thread: a library, one key across it, every key of one node, two nodes compared. Immutable
// and shared, as the one-node results of models/snapshots.h; here, below the jobs, so that the models
// showing them need not know the runners.

#include "models/snapshots.h"

#include <hiera/nodes/fleet.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodediff.h>
#include <hiera/nodes/nodelibrary.h>

#include <QMetaType>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace hiera::ui {

using NodeLibraryPtr = std::shared_ptr<const hiera::NodeLibrary>;
using FleetResultPtr = std::shared_ptr<const hiera::FleetResult>;

// Some nodes of a library: those the Nodes panel's filter shows.
struct NodeSelection
{
    NodeLibraryPtr library; // the library the indices are of
    std::shared_ptr<const std::vector<std::size_t>> nodes; // indices into library->nodes(); null: every node
    QString filter; // the filter that chose them, to say so
};

// One node's data and how it was asked for.
struct AllKeysReport
{
    EnginePtr engine;
    hiera::NodeData data;
    double elapsedMs = 0;
};

// One side of a comparison: a name to show and the scope to resolve.
struct NodeSide
{
    QString name;
    std::shared_ptr<const hiera::Scope> scope;
};

struct NodeDiffReport
{
    EnginePtr engine;
    QString nameA, nameB;
    std::string prefix;
    hiera::NodeDiff diff;
    double elapsedMs = 0;
};

using AllKeysReportPtr = std::shared_ptr<const AllKeysReport>;
using NodeDiffReportPtr = std::shared_ptr<const NodeDiffReport>;

} // namespace hiera::ui

Q_DECLARE_METATYPE(hiera::ui::NodeLibraryPtr)
Q_DECLARE_METATYPE(hiera::ui::FleetResultPtr)
Q_DECLARE_METATYPE(hiera::ui::AllKeysReportPtr)
Q_DECLARE_METATYPE(hiera::ui::NodeDiffReportPtr)
