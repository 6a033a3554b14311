#include "jobs/fleetrunner.h"

#include "models/valueconvert.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>

namespace hiera::ui {

FleetRunner::FleetRunner(QObject* parent)
    : QObject(parent)
    , m_loads(
          *this, JobChannelBase::Policy::Supersede,
          [this](LibraryResult& result) {
              if (result.cancelled) {
                  Q_EMIT libraryCancelled(result.path);
                  return;
              }
              if (!result.library) {
                  Q_EMIT libraryFailed(result.path, result.error);
                  return;
              }
              releaseLater(std::exchange(m_library, result.library));
              releaseLater(std::exchange(m_contexts, nullptr)); // they point into the old library
              m_libraryPath = result.path;
              Q_EMIT libraryLoaded(m_library);
          },
          WorkPool::Lane::Background)
    , m_runs(
          *this, JobChannelBase::Policy::Coalesce, [this](FleetResultPtr& result) { Q_EMIT fleetFinished(result); },
          WorkPool::Lane::Background)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, &FleetRunner::poll);
}

FleetRunner::~FleetRunner()
{
    cancel();
    m_jobs.waitForIdle();
}

void FleetRunner::loadLibrary(const QString& path)
{
    auto progress = std::make_shared<Progress>();
    progress->what = tr("Reading facts");
    track(progress);
    Q_EMIT libraryLoading(path);
    m_loads.submit([path, progress, executor = &jobPool().executor()]() -> LibraryResult {
        LibraryResult result{path, nullptr, {}};
        try {
            hiera::NodeLibraryOptions options;
            options.executor = executor;
            options.stop = progress->stop.get_token();
            options.progress = [progress](std::size_t done, std::size_t total) {
                progress->total = total;
                progress->done = done;
            };
            auto library =
                std::make_shared<hiera::NodeLibrary>(hiera::NodeLibrary::load(ValueConvert::toStd(path), options));
            if (library->cancelled())
                result.cancelled = true;
            else
                result.library = std::move(library);
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        return result;
    });
}

bool FleetRunner::reloadIfHolds(const QString& file)
{
    if (!m_library || m_libraryPath.isEmpty())
        return false;
    // Canonical paths: the library and the saved file may be named through different links.
    const QFileInfo library(m_libraryPath);
    const QFileInfo saved(file);
    const QString savedPath = saved.canonicalFilePath();
    bool holds = false;
    if (library.isDir()) {
        // A new file in the folder counts too: the library reads every facts file there.
        static const QStringList suffixes{QStringLiteral("yaml"), QStringLiteral("yml"), QStringLiteral("json")};
        holds = saved.dir().canonicalPath() == library.canonicalFilePath() && suffixes.contains(saved.suffix());
    } else {
        holds = !savedPath.isEmpty() && savedPath == library.canonicalFilePath();
    }
    if (holds)
        loadLibrary(m_libraryPath); // in the background, as the first read; the fleet view runs again on it
    return holds;
}

void FleetRunner::run(EnginePtr engine, const std::string& key, const hiera::LookupRequest& request,
                      std::shared_ptr<const std::vector<std::size_t>> nodes)
{
    if (!engine || !m_library)
        return;
    // A new engine (a reload): new contexts. The old ones hold every node's snapshot (hundreds of MB on
    // a large fleet): they are freed on a worker, not here. They are made on the worker too: 20,000
    // Contexts took the GUI thread ~200 ms.
    if (!m_contexts || m_contexts->engine != engine)
        releaseLater(std::exchange(m_contexts, std::make_shared<ContextsSlot>(engine)));
    auto progress = std::make_shared<Progress>();
    progress->what = tr("Looking up %1").arg(ValueConvert::toQString(key));
    track(progress);
    // The library and the contexts travel with the job: replacing them meanwhile frees them after it.
    m_runs.submit([slot = m_contexts, library = m_library, key, request, progress, nodes,
                   executor = &jobPool().executor()]() -> FleetResultPtr {
        const std::shared_ptr<const hiera::FleetContexts> contexts = slot->contextsFor(*library);
        hiera::FleetOptions options;
        options.nodes = nodes.get();
        options.executor = executor;
        options.stop = progress->stop.get_token();
        options.progress = [progress](std::size_t done, std::size_t total) {
            progress->total = total;
            progress->done = done;
        };
        return std::make_shared<hiera::FleetResult>(hiera::lookupAcross(*contexts, key, request, options));
    });
}

std::shared_ptr<const hiera::FleetContexts> FleetRunner::ContextsSlot::contextsFor(const hiera::NodeLibrary& library)
{
    const std::lock_guard lock(mutex);
    if (!contexts)
        contexts = std::make_shared<hiera::FleetContexts>(engine, library);
    return contexts;
}

void FleetRunner::cancel()
{
    if (m_progress)
        m_progress->stop.request_stop();
}

void FleetRunner::track(std::shared_ptr<Progress> progress)
{
    m_progress = std::move(progress);
    Q_EMIT this->progress(m_progress->what, 0, 0);
    m_poll.start();
}

void FleetRunner::poll()
{
    if (m_progress)
        Q_EMIT progress(m_progress->what, m_progress->done.load(), m_progress->total.load());
}

void FleetRunner::jobStateChanged()
{
    const bool busy = isBusy();
    if (!busy)
        m_poll.stop();
    if (busy != m_wasBusy) {
        m_wasBusy = busy;
        Q_EMIT busyChanged(busy);
    }
}

} // namespace hiera::ui
