#pragma once

// ImpactRunner — the Impact panel's work off the GUI thread: one data file against every node of the
// library, with the window's engine (so its parses are shared), progress and cancel.

#include "jobs/jobchannel.h"
#include "jobs/jobprogress.h"
#include "models/fileimpactreport.h"
#include "models/nodereports.h"
#include "models/snapshots.h"

#include <QObject>
#include <QString>

namespace hiera::ui {

class ImpactRunner : public QObject, private JobHost
{
    Q_OBJECT
public:
    explicit ImpactRunner(QObject* parent = nullptr);
    ~ImpactRunner() override;

    // What `file` decides for each node of `library` with `engine` (files named from `root`);
    // impactFinished follows (also when cancelled).
    void run(EnginePtr engine, NodeLibraryPtr library, const QString& file, const QString& root);
    void cancel();
    bool isRunning() const { return m_impacts.isBusy(); }

Q_SIGNALS:
    void impactFinished(FileImpactReportPtr report);
    void progress(qulonglong done, qulonglong total);
    void busyChanged(bool busy);

private:
    QObject* jobContext() override { return this; }
    JobTracker& jobTracker() override { return m_jobs; }
    void jobStateChanged() override;
    void jobDropped() override { }

    JobProgress m_progress;
    bool m_wasBusy = false;
    JobChannel<FileImpactReportPtr> m_impacts;
    JobTracker m_jobs; // last member: destroyed first, it waits for the jobs still running
};

} // namespace hiera::ui
