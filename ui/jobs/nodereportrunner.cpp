#include "jobs/nodereportrunner.h"

#include <QElapsedTimer>

namespace hiera::ui {

namespace {

double elapsedMs(const QElapsedTimer& timer)
{
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

} // namespace

NodeReportRunner::NodeReportRunner(QObject* parent)
    : QObject(parent)
    , m_allKeys(
          *this, JobChannelBase::Policy::Coalesce, [this](AllKeysReportPtr& report) { Q_EMIT allKeysResolved(report); },
          WorkPool::Lane::Background)
    , m_diffs(
          *this, JobChannelBase::Policy::Coalesce, [this](NodeDiffReportPtr& report) { Q_EMIT nodesCompared(report); },
          WorkPool::Lane::Background)
{
}

NodeReportRunner::~NodeReportRunner()
{
    m_allKeysStop.request_stop();
    m_diffStop.request_stop();
    m_jobs.waitForIdle();
}

void NodeReportRunner::resolveAllKeys(EnginePtr engine, std::shared_ptr<const hiera::Scope> scope)
{
    if (!engine || !scope) {
        m_allKeys.invalidate();
        return;
    }
    m_allKeysStop.request_stop();
    m_allKeysStop = std::stop_source();
    m_allKeys.submit([engine = std::move(engine), scope = std::move(scope), stop = m_allKeysStop.get_token()] {
        QElapsedTimer timer;
        timer.start();
        auto report = std::make_shared<AllKeysReport>();
        report->engine = engine;
        hiera::ResolveOptions options;
        options.stop = stop;
        report->data = hiera::resolveAllKeys(*engine, *scope, options);
        report->elapsedMs = elapsedMs(timer);
        return AllKeysReportPtr(std::move(report));
    });
}

void NodeReportRunner::compare(EnginePtr engine, NodeSide a, NodeSide b, const std::string& prefix)
{
    if (!engine || !a.scope || !b.scope) {
        m_diffs.invalidate();
        return;
    }
    m_diffStop.request_stop();
    m_diffStop = std::stop_source();
    m_diffs.submit(
        [engine = std::move(engine), a = std::move(a), b = std::move(b), prefix, stop = m_diffStop.get_token()] {
            QElapsedTimer timer;
            timer.start();
            auto report = std::make_shared<NodeDiffReport>();
            report->engine = engine;
            report->nameA = a.name;
            report->nameB = b.name;
            report->prefix = prefix;
            hiera::DiffOptions options;
            options.prefix = prefix;
            options.stop = stop;
            report->diff = hiera::diffNodes(*engine, *a.scope, *b.scope, options);
            report->elapsedMs = elapsedMs(timer);
            return NodeDiffReportPtr(std::move(report));
        });
}

} // namespace hiera::ui
