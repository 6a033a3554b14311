#include "document/datafilesync.h"

#include "document/datafilewatcher.h"
#include "jobs/lookuprunner.h"
#include "models/valueconvert.h"

#include <QTimer>

namespace hiera::ui {

namespace {
// Editors save in several steps (write, rename, chmod): one reload for all of them.
constexpr int fileChangeDelayMs = 150;
} // namespace

DataFileSync::DataFileSync(LookupRunner* runner, QObject* parent)
    : QObject(parent)
    , m_runner(runner)
    , m_watcher(new DataFileWatcher(this))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(fileChangeDelayMs);
    connect(m_timer, &QTimer::timeout, this, &DataFileSync::process);
    connect(m_watcher, &DataFileWatcher::configChanged, this, [this] {
        m_configChanged = true;
        m_timer->start();
    });
    connect(m_watcher, &DataFileWatcher::dataChanged, this,
            [this](const QStringList& files, const QStringList& directories) {
                for (const QString& file : files)
                    m_files.insert(file);
                for (const QString& directory : directories)
                    m_directories.insert(directory);
                m_timer->start();
            });

    connect(runner, &LookupRunner::engineLoaded, this, [this](const QString& hieraYaml, const EnginePtr& engine) {
        if (hieraYaml != m_hieraYaml)
            m_watcher->clear(); // another hierarchy
        m_hieraYaml = hieraYaml;
        m_watcher->watchConfig(hieraYaml);
        // Every layer's hiera.yaml (global, modules): a change to any of them reloads the repository.
        for (const hiera::Layer& layer : engine->layers()) {
            if (!layer.config.path.empty())
                m_watcher->watchConfig(ValueConvert::toQString(layer.config.path));
        }
    });
    // Keep watching a broken hiera.yaml: fixing it should bring the explorer back by itself.
    connect(runner, &LookupRunner::loadFailed, this, [this](const QString& hieraYaml) {
        m_watcher->watchConfig(hieraYaml);
        if (m_hieraYaml.isEmpty())
            m_hieraYaml = hieraYaml;
    });
    connect(runner, &LookupRunner::scopeResolved, m_watcher, &DataFileWatcher::setCandidates);
}

void DataFileSync::process()
{
    QSet<QString> files = std::exchange(m_files, {});
    const QSet<QString> directories = std::exchange(m_directories, {});
    if (std::exchange(m_configChanged, false)) {
        m_runner->load(m_hieraYaml);
        files.insert(m_hieraYaml);
    } else if (const EnginePtr engine = m_runner->engine()) {
        for (const QString& file : files)
            engine->invalidate(ValueConvert::toStd(file));
        // A file appeared or vanished there: the globs are matched again (invalidate(path) drops the
        // glob cache; the directory itself is no cached file).
        for (const QString& directory : directories)
            engine->invalidate(ValueConvert::toStd(directory));
        Q_EMIT dataInvalidated();
    }
    Q_EMIT filesChanged(files, directories);
}

} // namespace hiera::ui
