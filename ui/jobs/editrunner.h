#pragma once

// EditRunner — an unsaved edit of a data file worked on off the GUI thread (docs/editing-data.md): each
// text parsed as the file's format (textParsed: its error at file:line:col, or none), and a text that
// parses evaluated against the node library (hiera::EditSession: every node and key whose answer the
// edit changes, before -> after; impactEvaluated), with the engine that reads the edit for the answer
// (editEngineReady). Typing on supersedes: the evaluation running is stopped at its next node and its
// result never announced, and only the newest text waits behind it.

#include "jobs/jobchannel.h"
#include "jobs/jobprogress.h"
#include "models/nodereports.h"
#include "models/revisiondiffreport.h"
#include "models/snapshots.h"

#include <QObject>
#include <QString>

#include <memory>

namespace hiera {
class EditSession;
}

namespace hiera::ui {

struct ParsedEdit
{
    QString path;
    QString text; // as parsed
    QString error; // one line, "file:line:col: message"; empty when it parses
    int line = 0, column = 0;
};
using ParsedEditPtr = std::shared_ptr<const ParsedEdit>;

class EditRunner : public QObject, private JobHost
{
    Q_OBJECT
public:
    explicit EditRunner(QObject* parent = nullptr);
    ~EditRunner() override;

    // Parses `text` as the data file `path` would be read; textParsed follows (the newest only).
    void parse(const QString& path, const QString& text);

    // Edits of `path` are evaluated with `engine` (the window's) over `library`; `root` names files in
    // reports. Called again when any of them changes or the disk does (a session is for one state of it).
    void startSession(EnginePtr engine, NodeLibraryPtr library, const QString& path, const QString& root);
    void endSession();
    bool hasSession() const { return m_session != nullptr; }
    QString sessionFile() const { return m_sessionFile; }
    // Evaluates `text` (it parsed) in the session: impactEvaluated and editEngineReady follow.
    void evaluate(const QString& text);
    bool isEvaluating() const { return m_impacts.isBusy(); }

Q_SIGNALS:
    void textParsed(ParsedEditPtr parsed);
    // `report->diff` is the edit's impact: from "on disk" to "unsaved edit".
    void impactEvaluated(RevisionDiffReportPtr report);
    // The engine reading the edited text for its file and the disk for the rest.
    void editEngineReady(EnginePtr engine);
    void busyChanged(bool busy);

private:
    struct Evaluated
    {
        RevisionDiffReportPtr report;
        EnginePtr engine;
    };

    QObject* jobContext() override { return this; }
    JobTracker& jobTracker() override { return m_jobs; }
    void jobStateChanged() override;
    void jobDropped() override { }

    std::shared_ptr<const hiera::EditSession> m_session;
    QString m_sessionFile;
    QString m_root;
    NodeLibraryPtr m_library;
    JobProgress m_progress;
    bool m_wasBusy = false;
    JobChannel<ParsedEditPtr> m_parses;
    JobChannel<Evaluated> m_impacts;
    JobTracker m_jobs; // last member: destroyed first, it waits for the jobs still running
};

} // namespace hiera::ui
