#pragma once

// DataFileWatcher — notices changes on disk to the hiera.yaml and to the data files a scope consults,
// so that the window can drop the engine's cached parses and look up again.
//
// A glob level can match a hundred thousand files. Watching each of them (one inotify watch per file
// through QFileSystemWatcher::addPaths, then a linear `contains` per file) froze the window for 37 s,
// and would run into the per-user inotify limit (fs.inotify.max_user_watches: 8192 on many systems,
// shared by every program of the user). So the number of watches is bounded:
// - up to maxFileWatches existing data files: each file is watched, and the directories they are in
//   (for files that appear or vanish);
// - more files: only their directories (at most maxDirectoryWatches), plus a poll. Qt's directory
//   watches report entries created, removed or renamed (an editor saving by rename), but not a file
//   rewritten in place (Qt asks inotify for no IN_MODIFY on a directory), so every few seconds the
//   files' mtime, ctime, size and inode are compared with the ones seen last;
// - more directories than that: the poll alone.
// Every stat runs on the watcher's own worker thread, one job at a time (requests that come meanwhile
// are merged into the next job); the GUI thread adds and removes at most maxFileWatches +
// maxDirectoryWatches paths and looks paths up in hashes.

#include "jobs/workpool.h"
#include "models/snapshots.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <memory>

class QFileSystemWatcher;
class QTimer;

namespace hiera::ui {

class DataFileWatcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int maxFileWatches = 256;
    static constexpr int maxDirectoryWatches = 256;

    explicit DataFileWatcher(QObject* parent = nullptr);
    ~DataFileWatcher() override;

    // A hiera.yaml to watch (as a file, always); configChanged follows its changes.
    void watchConfig(const QString& hieraYaml);
    // Watches the data files of this scope (ScopeSnapshot::candidateFiles, present or not) in place of
    // the previous ones. Files that changed between the two sets' surveys are reported too.
    void setCandidates(ScopeSnapshotPtr snapshot);
    // Stops watching everything (another hierarchy).
    void clear();

    int fileWatchCount() const { return static_cast<int>(m_watchedFiles.size()); } // hiera.yaml included
    int directoryWatchCount() const { return static_cast<int>(m_watchedDirectories.size()); }
    int candidateCount() const;
    bool isPolling() const;
    int pollInterval() const;
    void setPollInterval(int ms); // tests; 0 = as the number of files says
    bool isBusy() const { return m_running; }

    struct FileState
    {
        qint64 mtimeNs = -1; // -1: missing (or not a regular file)
        qint64 ctimeNs = -1;
        qint64 size = -1;
        quint64 inode = 0;
        bool operator==(const FileState&) const = default;
    };
    struct Survey; // what was seen of one candidate set: states and what to watch

Q_SIGNALS:
    void configChanged(const QString& hieraYaml);
    // Data files whose content, existence or identity changed, and directories whose entries changed
    // (a glob may match other files now).
    void dataChanged(const QStringList& files, const QStringList& directories);
    void surveyed(); // a candidate set is watched (tests)

private:
    void onPathChanged(const QString& path, bool directory);
    void scheduleJob();
    void startJob();
    void apply(const std::shared_ptr<const Survey>& survey);
    void updatePolling();

    QFileSystemWatcher* m_watcher = nullptr;
    QTimer* m_pollTimer = nullptr;
    int m_pollIntervalOverride = 0;
    QSet<QString> m_configFiles;
    QSet<QString> m_watchedFiles;
    QSet<QString> m_watchedDirectories;
    std::shared_ptr<const Survey> m_survey; // the last one applied
    // The next job: a new candidate set, directories to rescan, or everything (the poll).
    ScopeSnapshotPtr m_pendingCandidates;
    bool m_hasPendingCandidates = false;
    QSet<QString> m_pendingFiles;
    QSet<QString> m_pendingDirectories;
    bool m_pendingFullScan = false;
    bool m_running = false;
    quint64 m_generation = 0; // clear() drops the results of a job still running
    JobTracker m_jobs; // last member: destroyed first, it waits for the job still running
};

} // namespace hiera::ui
