#include "jobs/impactrunner.h"

#include <hiera/engine.h>
#include <hiera/nodes/nodelibrary.h>

#include <QElapsedTimer>

namespace hiera::ui {

ImpactRunner::ImpactRunner(QObject* parent)
    : QObject(parent)
    , m_impacts(
          *this, JobChannelBase::Policy::Supersede,
          [this](FileImpactReportPtr& report) { Q_EMIT impactFinished(report); }, WorkPool::Lane::Background)
{
    connect(&m_progress, &JobProgress::progress, this, &ImpactRunner::progress);
}

ImpactRunner::~ImpactRunner()
{
    cancel();
    m_jobs.waitForIdle();
}

void ImpactRunner::run(EnginePtr engine, NodeLibraryPtr library, const QString& file, const QString& root)
{
    if (!engine || !library)
        return;
    m_impacts.submit([engine = std::move(engine), library = std::move(library), file, root,
                      progress = m_progress.start(), executor = &jobPool().executor()] {
        QElapsedTimer timer;
        timer.start();
        auto report = std::make_shared<FileImpactReport>();
        report->file = file;
        report->root = root.toStdString();
        hiera::FileImpactOptions options;
        options.executor = executor;
        options.stop = progress->stop.get_token();
        options.progress = progress->reporter();
        report->impact = hiera::fileImpact(*engine, *library, file.toStdString(), options);
        report->elapsedMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        return FileImpactReportPtr(std::move(report));
    });
}

void ImpactRunner::cancel()
{
    m_progress.cancel();
}

void ImpactRunner::jobStateChanged()
{
    const bool busy = m_impacts.isBusy();
    if (!busy)
        m_progress.stopPolling();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}

} // namespace hiera::ui
