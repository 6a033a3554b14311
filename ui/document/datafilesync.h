#pragma once

// DataFileSync — keeps the engine in step with the files on disk: it watches the hiera.yaml (every
// layer's) and the data files of the current scope (DataFileWatcher), and when they change (folded over a short
// pause) reloads a changed hiera.yaml or drops the engine's cached parses of the changed files, then
// says so: the scheduler looks up again, the source view re-reads what it shows.

#include "models/snapshots.h"

#include <QObject>
#include <QSet>
#include <QString>

class QTimer;

namespace hiera::ui {

class DataFileWatcher;
class LookupRunner;

class DataFileSync : public QObject
{
    Q_OBJECT
public:
    explicit DataFileSync(LookupRunner* runner, QObject* parent = nullptr);

    DataFileWatcher* watcher() const { return m_watcher; }

Q_SIGNALS:
    // Data files changed and the engine forgot them: answers may differ now (a changed hiera.yaml is
    // reloaded instead: engineLoaded follows).
    void dataInvalidated();
    // Every file whose content changed (the hiera.yaml included), and directories whose entries changed.
    void filesChanged(const QSet<QString>& files, const QSet<QString>& directories);

private:
    void process();

    LookupRunner* m_runner;
    DataFileWatcher* m_watcher;
    QTimer* m_timer;
    QString m_hieraYaml;
    bool m_configChanged = false;
    QSet<QString> m_files;
    QSet<QString> m_directories;
};

} // namespace hiera::ui
