#pragma once

// NodeReportRunner — the explorer's whole-node reports off the GUI thread: every key of one node
// resolved (hiera::resolveAllKeys, the All keys panel) and two nodes compared on every key
// (hiera::diffNodes, the Compare nodes panel).
//
// Each report is one JobChannel that coalesces (typing a fact or a prefix does not pile up stale runs)
// and cancels the run a newer request makes stale through its stop token, so a large hierarchy's
// report never makes the newest one wait long. The results are immutable and shared: a panel keeps a
// shared_ptr and converts to QString only when a view asks.

#include "jobs/jobchannel.h"
#include "models/nodereports.h"
#include "models/snapshots.h"

#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodediff.h>

#include <QObject>

#include <memory>
#include <stop_token>

namespace hiera::ui {

class NodeReportRunner : public QObject, private JobHost
{
    Q_OBJECT
public:
    explicit NodeReportRunner(QObject* parent = nullptr);
    ~NodeReportRunner() override;

    // Resolves every key of the hierarchy for `scope`; allKeysResolved follows.
    void resolveAllKeys(EnginePtr engine, std::shared_ptr<const hiera::Scope> scope);
    // Compares two nodes on every key (whose root starts with `prefix`); nodesCompared follows.
    void compare(EnginePtr engine, NodeSide a, NodeSide b, const std::string& prefix);

    bool isResolving() const { return m_allKeys.isBusy(); }
    bool isComparing() const { return m_diffs.isBusy(); }

Q_SIGNALS:
    void allKeysResolved(AllKeysReportPtr report);
    void nodesCompared(NodeDiffReportPtr report);
    void busyChanged();

private:
    QObject* jobContext() override { return this; }
    JobTracker& jobTracker() override { return m_jobs; }
    void jobStateChanged() override { Q_EMIT busyChanged(); }
    void jobDropped() override { }

    // The newest request of each kind stops the run before it (its result would be dropped anyway).
    std::stop_source m_allKeysStop;
    std::stop_source m_diffStop;
    JobChannel<AllKeysReportPtr> m_allKeys;
    JobChannel<NodeDiffReportPtr> m_diffs;
    JobTracker m_jobs; // last member: destroyed first, it waits for the jobs still running
};

} // namespace hiera::ui
