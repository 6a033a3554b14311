#pragma once

// RevisionDiffRunner — the Revision diff panel's work off the GUI thread: the repository's revisions
// listed (hiera::listRevisions), and the node library resolved on two of them, every changed answer
// grouped by change (hiera::diffRevisions over two engines that share their parses), with progress
// and cancel; then one node's answer to one key explained on both sides. The engines are opened as the
// window opens the repository (its RepositoryOptions), each reading its revision straight from git; the
// working tree is the newer side by default.

#include "jobs/fleetrunner.h"
#include "jobs/jobchannel.h"
#include "jobs/jobprogress.h"
#include "jobs/repositoryoptions.h"
#include "models/revisiondiffreport.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace hiera::ui {

class RevisionDiffRunner : public QObject, private JobHost
{
    Q_OBJECT
public:
    explicit RevisionDiffRunner(QObject* parent = nullptr);
    ~RevisionDiffRunner() override;

    // Lists the revisions of the repository holding `hieraYaml`; revisionsListed follows.
    void listRevisions(const QString& hieraYaml);
    // Diffs `library` between revision `from` and `to` (empty: the working tree) of the repository
    // holding `hieraYaml`, opened with `repository`; diffFinished follows (also when cancelled or failed).
    void run(const QString& hieraYaml, const RepositoryOptions& repository, const QString& from, const QString& to,
             NodeLibraryPtr library, const std::string& prefix = {});
    void cancel();
    bool isRunning() const { return m_diffs.isBusy(); }
    // Explains `node`'s answer to the root key `key` on both revisions of `report` (opened again with
    // `repository`: one node's files are read, not the library's); answerExplained follows.
    void explainAnswer(const RevisionDiffReportPtr& report, const RepositoryOptions& repository, const QString& node,
                       const QString& key, bool revealSecrets);

Q_SIGNALS:
    void revisionsListed(RevisionListPtr list);
    void diffFinished(RevisionDiffReportPtr report);
    void answerExplained(RevisionAnswerPtr answer);
    void progress(qulonglong done, qulonglong total);
    void busyChanged(bool busy);

private:
    QObject* jobContext() override { return this; }
    JobTracker& jobTracker() override { return m_jobs; }
    void jobStateChanged() override;
    void jobDropped() override { }

    JobProgress m_progress;
    bool m_wasBusy = false;
    JobChannel<RevisionListPtr> m_lists;
    JobChannel<RevisionDiffReportPtr> m_diffs;
    JobChannel<RevisionAnswerPtr> m_answers;
    JobTracker m_jobs; // last member: destroyed first, it waits for the jobs still running
};

} // namespace hiera::ui
