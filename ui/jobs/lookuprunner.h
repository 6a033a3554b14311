#pragma once

// LookupRunner — runs the engine off the GUI thread, and is where the explorer's panels subscribe to
// its results (engineLoaded, scopeResolved, lookupFinished, factsRead ...).
//
// Every job gets copies of what it needs (a shared_ptr<const Engine>, the scope Value snapshot, the
// request) and runs in the interactive lane of the explorer's one pool (jobs/workpool.h).
// Each kind of job is one JobChannel (jobchannel.h): a result whose request is no longer the newest
// (the user typed on, edited another fact, loaded another hierarchy) is dropped, never shown.
//
// This class and snapshots.h are where the explorer meets the engine's API: keep it that way.

#include "facts/factsautosave.h"
#include "facts/factsfile.h"
#include "jobs/jobchannel.h"
#include "jobs/repositoryoptions.h"
#include "models/snapshots.h"

#include <hiera/value.h>

#include <QObject>
#include <QString>

#include <array>
#include <functional>
#include <memory>
#include <optional>

namespace hiera::ui {

class LookupRunner : public QObject, private JobHost
{
    Q_OBJECT
public:
    explicit LookupRunner(QObject* parent = nullptr);
    ~LookupRunner() override;

    // Opens a control repository in the background (hiera::Environment::discover: `path` is its root
    // directory or its hiera.yaml, see RepositoryOptions::hieraYamlFor); engineLoaded (with that
    // hiera.yaml) or loadFailed follows. Without options, those of the previous load are used (a
    // reload after the hiera.yaml changed on disk).
    void load(const QString& path, std::optional<RepositoryOptions> options = std::nullopt);
    RepositoryOptions repositoryOptions() const { return m_options; }
    // The loaded environment's $environment (what lookups set the top-scope variable to, unless the
    // facts do) and what discovery warned about (modules left out...). Valid from engineLoaded.
    QString environmentName() const { return m_environmentName; }
    QStringList discoveryWarnings() const { return m_discoveryWarnings; }
    // Lines to say where the repository is read differently from how it is written (absolute datadirs
    // of the deployment read from the checkout: hiera::Environment::notices). Valid from engineLoaded.
    QStringList discoveryNotices() const { return m_discoveryNotices; }
    // Uses an engine loaded elsewhere (tests); drops results of the previous one.
    void setEngine(EnginePtr engine, const QString& hieraYaml = {});
    EnginePtr engine() const { return m_engine; }
    QString hieraYaml() const { return m_hieraYaml; }
    // The one line that says a load failed, worded for what the user did: opening a hierarchy (with
    // what stays on screen, if anything) or reloading the one shown after it changed on disk. Call it
    // from loadFailed, before anything else is loaded.
    QString loadFailureText(const QString& hieraYaml, const QString& error) const;

    void resolveScope(const hiera::Value& scope);
    void lookup(const hiera::Value& scope, AnswerRequest request);
    // What every level holds for the outcome's key and what each leaf overrode (hiera::overrideChain);
    // overridesFound follows. Asked for after an answer: it takes two more lookups.
    void findOverrides(const LookupOutcomePtr& outcome);

    // Decrypted eyaml values are announced masked (LookupOutcome::masked) unless this is set. Changing
    // it announces the current answer again, masked or not (lookupFinished).
    void setRevealSecrets(bool reveal);
    bool revealSecrets() const { return m_revealSecrets; }

    // Reads a facts file into a scope in the background (FactsFile::read); factsRead or factsReadFailed
    // follows. A later call supersedes one still running: only the newest read is announced, whatever
    // order they finish in. The GUI thread never parses a facts file. With a `node`, `path` is a PuppetDB
    // export and the facts are that node's entry (PuppetDBNode::read).
    void readFacts(const QString& path, const QString& node = {});
    // True from readFacts() until its result is announced (not while only superseded reads still run).
    bool isReadingFacts() const { return m_facts.awaitsResult(); }
    // Reads the autosave of a hierarchy in the background; autosaveRead follows, with the entry if it
    // holds edits newer than its facts file (FactsAutosave::isNewerThanLastSave), else null.
    void readAutosave(const QString& hieraYaml);
    bool isReadingAutosave() const { return m_autosaves.awaitsResult(); }

    // The git revision of the loaded repository (hiera::gitRevision), read in the background after
    // each load and whenever readRevision() is called (the window calls it when data files change);
    // revisionRead follows. Empty outside a git work tree. What exported reports name as their source.
    void readRevision();
    QString revisionText() const { return m_revisionText; }

    bool isBusy() const;
    // Drops a result the GUI thread no longer needs on a worker: freeing the key inventory and trace
    // of a large hierarchy (a hundred thousand strings) took the GUI thread tens of ms.
    void releaseLater(std::shared_ptr<const void> data) override;

    // How many finished results were dropped as stale (for tests and the curious).
    int droppedResults() const { return m_dropped; }
    quint64 lookupGeneration() const { return m_lookups.generation(); }

    // The options hierarchies are loaded with: files are also re-checked on disk every second, a safety
    // net under the QFileSystemWatcher that normally drives Engine::invalidate().
    static hiera::EngineOptions engineOptions();
    // The same, with a repository's skip mode and eyaml key.
    static hiera::EngineOptions engineOptions(const RepositoryOptions& options);

Q_SIGNALS:
    void engineLoaded(const QString& hieraYaml, EnginePtr engine);
    void loadFailed(const QString& hieraYaml, const QString& message);
    void scopeResolved(ScopeSnapshotPtr snapshot);
    void lookupFinished(LookupOutcomePtr outcome);
    void overridesFound(OverrideChainPtr overrides);
    // `facts` is the runner's: a slot may take its scope and tree (the runner frees what is left on a worker).
    void factsRead(const QString& path, const std::shared_ptr<FactsFile::Contents>& facts);
    void factsReadFailed(const QString& path, const QString& message);
    void autosaveRead(const QString& hieraYaml, std::shared_ptr<const FactsAutosave::Entry> entry);
    void revisionRead(const QString& text);
    void busyChanged(bool busy);

private:
    struct LoadResult
    {
        QString hieraYaml;
        EnginePtr engine;
        QString error;
        QString environmentName;
        QStringList warnings;
        QStringList notices;
    };
    struct AutosaveResult
    {
        QString hieraYaml;
        std::shared_ptr<const FactsAutosave::Entry> entry;
    };

    QObject* jobContext() override { return this; }
    JobTracker& jobTracker() override { return m_jobs; }
    void jobStateChanged() override;
    void jobDropped() override { ++m_dropped; }

    // What announced outcomes are shown as: the masked copy of an outcome with secrets, unless revealed.
    LookupOutcomePtr shown(const LookupOutcomePtr& outcome) const;

    EnginePtr m_engine;
    QString m_hieraYaml;
    RepositoryOptions m_options;
    QString m_environmentName = QStringLiteral("production");
    QStringList m_discoveryWarnings;
    QStringList m_discoveryNotices;
    bool m_revealSecrets = false;
    LookupOutcomePtr m_secretOutcome; // the newest answer, when it holds secrets (to reveal or mask it again)
    bool m_wasBusy = false;
    int m_dropped = 0;

    // The kinds of background job. A failed load keeps the previous engine; a read of facts or of an
    // autosave supersedes the one before; resolutions and lookups coalesce.
    JobChannel<LoadResult> m_loads;
    JobChannel<ScopeSnapshotPtr> m_scopes;
    JobChannel<LookupOutcomePtr> m_lookups;
    JobChannel<std::shared_ptr<FactsFile::Contents>> m_facts;
    JobChannel<AutosaveResult> m_autosaves;
    JobChannel<OverrideChainPtr> m_overrides;
    JobChannel<QString> m_revisions;
    QString m_revisionText;
    const std::array<const JobChannelBase*, 7> m_channels{&m_loads,     &m_scopes,    &m_lookups,  &m_facts,
                                                          &m_autosaves, &m_overrides, &m_revisions};

    JobTracker m_jobs; // last member: destroyed first, it waits for the jobs still running
};

} // namespace hiera::ui
