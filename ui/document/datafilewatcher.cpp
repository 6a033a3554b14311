#include "document/datafilewatcher.h"

#include "models/valueconvert.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

#include <algorithm>
#include <utility>

#ifdef Q_OS_LINUX
#include <sys/stat.h>

namespace hiera::ui {

#endif

using FileState = DataFileWatcher::FileState;

struct DataFileWatcher::Survey
{
    QHash<QString, FileState> states; // every candidate, present or not
    QHash<QString, QStringList> byDirectory; // the candidates of each directory
    QStringList watchFiles; // the existing files, when there are few enough to watch each
    QStringList watchDirectories; // the existing directories, when there are few enough
    bool poll = false;
};

namespace {
FileState statFile(const QString& path)
{
#ifdef Q_OS_LINUX
    // stat(2) itself: nanosecond times (a file rewritten twice within a millisecond still differs), and
    // about three times cheaper than a QFileInfo on a hundred thousand files.
    struct stat st;
    const QByteArray native = QFile::encodeName(path);
    if (::stat(native.constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return {};
    return {static_cast<qint64>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
            static_cast<qint64>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec, static_cast<qint64>(st.st_size),
            static_cast<quint64>(st.st_ino)};
#else
    const QFileInfo info(path);
    if (!info.isFile())
        return {};
    return {info.lastModified().toMSecsSinceEpoch() * 1000000, info.metadataChangeTime().toMSecsSinceEpoch() * 1000000,
            info.size(), 0};
#endif
}

QString directoryOf(const QString& path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash > 0 ? path.left(slash) : QStringLiteral("/");
}

struct Job
{
    std::shared_ptr<const DataFileWatcher::Survey> base;
    ScopeSnapshotPtr candidates; // a new candidate set (then everything is stat'ed afresh)
    bool newCandidates = false;
    QSet<QString> files; // files whose watch fired
    QSet<QString> directories; // directories whose watch fired
    bool everything = false; // the poll
};

struct JobResult
{
    std::shared_ptr<const DataFileWatcher::Survey> survey;
    QStringList changedFiles;
    QStringList changedDirectories;
    bool newCandidates = false;
};

// Runs on the watcher's worker: every stat, every comparison, every hash of paths.
JobResult runJob(Job job)
{
    JobResult result;
    result.newCandidates = job.newCandidates;
    result.changedDirectories = QStringList(job.directories.cbegin(), job.directories.cend());
    auto survey = std::make_shared<DataFileWatcher::Survey>();
    auto compare = [&](const QString& path, const FileState& now) {
        if (!job.base)
            return;
        const auto before = job.base->states.constFind(path);
        if (before != job.base->states.cend() && !(*before == now))
            result.changedFiles << path;
    };
    if (job.newCandidates) {
        QSet<QString> directories;
        int existing = 0;
        if (job.candidates) {
            for (const std::string& candidate : job.candidates->candidateFiles) {
                const QString path = ValueConvert::toQString(candidate);
                if (survey->states.contains(path))
                    continue;
                const FileState state = statFile(path);
                survey->states.insert(path, state);
                compare(path, state);
                const QString directory = directoryOf(path);
                survey->byDirectory[directory] << path;
                if (state.mtimeNs >= 0) {
                    ++existing;
                    if (existing <= DataFileWatcher::maxFileWatches)
                        survey->watchFiles << path;
                }
                directories.insert(directory);
            }
        }
        if (existing > DataFileWatcher::maxFileWatches) {
            survey->watchFiles.clear();
            survey->poll = true;
        }
        for (const QString& directory : std::as_const(directories)) {
            if (QFileInfo(directory).isDir())
                survey->watchDirectories << directory;
        }
        if (survey->watchDirectories.size() > DataFileWatcher::maxDirectoryWatches) {
            survey->watchDirectories.clear();
            survey->poll = true;
        }
    } else if (job.base) {
        *survey = *job.base;
        auto restat = [&](const QString& path) {
            const auto it = survey->states.find(path);
            if (it == survey->states.end())
                return;
            const FileState now = statFile(path);
            compare(path, now);
            *it = now;
        };
        if (job.everything) {
            for (auto it = survey->states.begin(); it != survey->states.end(); ++it)
                restat(it.key());
        } else {
            for (const QString& path : std::as_const(job.files))
                restat(path);
            for (const QString& directory : std::as_const(job.directories)) {
                for (const QString& path : survey->byDirectory.value(directory))
                    restat(path);
            }
        }
    }
    result.survey = std::move(survey);
    return result;
}
} // namespace

DataFileWatcher::DataFileWatcher(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFileSystemWatcher(this))
    , m_pollTimer(new QTimer(this))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this,
            [this](const QString& path) { onPathChanged(path, false); });
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this,
            [this](const QString& path) { onPathChanged(path, true); });
    connect(m_pollTimer, &QTimer::timeout, this, [this] {
        m_pendingFullScan = true;
        scheduleJob();
    });
}

DataFileWatcher::~DataFileWatcher() = default;

void DataFileWatcher::watchConfig(const QString& hieraYaml)
{
    m_configFiles.insert(hieraYaml);
    if (!m_watchedFiles.contains(hieraYaml) && QFileInfo::exists(hieraYaml) && m_watcher->addPath(hieraYaml))
        m_watchedFiles.insert(hieraYaml);
}

void DataFileWatcher::setCandidates(ScopeSnapshotPtr snapshot)
{
    m_pendingCandidates = std::move(snapshot);
    m_hasPendingCandidates = true;
    scheduleJob();
}

void DataFileWatcher::clear()
{
    ++m_generation;
    const QStringList watched = m_watcher->files() + m_watcher->directories();
    if (!watched.isEmpty())
        m_watcher->removePaths(watched);
    m_watchedFiles.clear();
    m_watchedDirectories.clear();
    m_configFiles.clear();
    m_pendingCandidates.reset();
    m_hasPendingCandidates = false;
    m_pendingDirectories.clear();
    m_pendingFullScan = false;
    m_survey.reset();
    updatePolling();
}

int DataFileWatcher::candidateCount() const
{
    return m_survey ? static_cast<int>(m_survey->states.size()) : 0;
}

bool DataFileWatcher::isPolling() const
{
    return m_pollTimer->isActive();
}

int DataFileWatcher::pollInterval() const
{
    if (m_pollIntervalOverride > 0)
        return m_pollIntervalOverride;
    // A stat costs about a microsecond: 2 s for a few thousand files, up to 10 s for half a million,
    // so that the poll never takes more than a few percent of a core.
    return std::clamp(2000 + candidateCount() / 50, 2000, 10000);
}

void DataFileWatcher::setPollInterval(int ms)
{
    m_pollIntervalOverride = ms;
    updatePolling();
}

void DataFileWatcher::onPathChanged(const QString& path, bool directory)
{
    if (!directory) {
        // An editor that saves by rename, or a delete, ends the watch: put it back on whatever the
        // path is now (the directory watch brings back a file that is missing for a moment).
        m_watcher->removePath(path);
        if (QFileInfo::exists(path) && m_watcher->addPath(path))
            m_watchedFiles.insert(path);
        else
            m_watchedFiles.remove(path);
        if (m_configFiles.contains(path)) {
            Q_EMIT configChanged(path);
            return;
        }
        m_pendingFiles.insert(path);
    } else {
        m_pendingDirectories.insert(path);
    }
    scheduleJob();
}

void DataFileWatcher::scheduleJob()
{
    if (!m_running)
        startJob();
}

void DataFileWatcher::startJob()
{
    Job job;
    job.base = m_survey;
    if (m_hasPendingCandidates) {
        job.newCandidates = true;
        job.candidates = std::exchange(m_pendingCandidates, nullptr);
        m_hasPendingCandidates = false;
    } else if (!m_survey) {
        m_pendingFiles.clear();
        m_pendingFullScan = false; // nothing to compare with yet
    }
    job.files = std::exchange(m_pendingFiles, {});
    job.directories = std::exchange(m_pendingDirectories, {});
    job.everything = std::exchange(m_pendingFullScan, false);
    if (!job.newCandidates && job.files.isEmpty() && job.directories.isEmpty() && !job.everything)
        return;
    m_running = true;
    const quint64 generation = m_generation;
    // On the explorer's one pool (jobs/workpool.h); one job at a time (m_running), so no lane limit. The
    // result is posted from the worker, as a JobChannel's is (jobs/jobchannel.h says why that is safe).
    WorkPool::shared().start(WorkPool::Lane::Interactive, m_jobs.track([this, generation, job = std::move(job)] {
        QMetaObject::invokeMethod(
            this,
            [this, generation, result = runJob(job)] {
                m_running = false;
                if (generation == m_generation) {
                    apply(result.survey);
                    if (!result.changedFiles.isEmpty() || !result.changedDirectories.isEmpty())
                        Q_EMIT dataChanged(result.changedFiles, result.changedDirectories);
                    if (result.newCandidates)
                        Q_EMIT surveyed();
                }
                startJob(); // whatever came in meanwhile
            },
            Qt::QueuedConnection);
    }));
}

void DataFileWatcher::apply(const std::shared_ptr<const Survey>& survey)
{
    std::shared_ptr<const Survey> previous = std::exchange(m_survey, survey);
    // Freeing a hundred thousand paths is the worker's job too.
    if (previous && previous != survey && previous.use_count() == 1)
        WorkPool::shared().start(WorkPool::Lane::Interactive,
                                 [previous = std::move(previous)]() mutable { previous.reset(); });

    // At most maxFileWatches + maxDirectoryWatches paths: these sets stay small.
    QSet<QString> files = m_configFiles;
    for (const QString& file : survey->watchFiles)
        files.insert(file);
    const QSet<QString> directories(survey->watchDirectories.cbegin(), survey->watchDirectories.cend());
    QStringList removed;
    for (const QString& file : std::as_const(m_watchedFiles)) {
        if (!files.contains(file))
            removed << file;
    }
    for (const QString& directory : std::as_const(m_watchedDirectories)) {
        if (!directories.contains(directory))
            removed << directory;
    }
    for (const QString& path : std::as_const(removed)) {
        m_watchedFiles.remove(path);
        m_watchedDirectories.remove(path);
    }
    if (!removed.isEmpty())
        m_watcher->removePaths(removed);
    QStringList added;
    for (const QString& file : std::as_const(files)) {
        if (!m_watchedFiles.contains(file) && QFileInfo::exists(file))
            added << file;
    }
    for (const QString& directory : directories) {
        if (!m_watchedDirectories.contains(directory))
            added << directory;
    }
    if (!added.isEmpty()) {
        const QStringList failedList = m_watcher->addPaths(added);
        const QSet<QString> failed(failedList.cbegin(), failedList.cend());
        for (const QString& path : std::as_const(added)) {
            if (failed.contains(path))
                continue;
            if (directories.contains(path))
                m_watchedDirectories.insert(path);
            else
                m_watchedFiles.insert(path);
        }
    }
    updatePolling();
}

void DataFileWatcher::updatePolling()
{
    if (m_survey && m_survey->poll) {
        if (m_pollTimer->interval() != pollInterval() || !m_pollTimer->isActive())
            m_pollTimer->start(pollInterval());
    } else {
        m_pollTimer->stop();
    }
}

} // namespace hiera::ui
