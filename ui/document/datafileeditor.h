#pragma once

// DataFileEditor — the data file open in the Source pane, as a document (docs/editing-data.md): which
// files may be edited (a read-only, deployed or bundled file, a hiera.yaml, bytes that could not be
// written back exactly: shown read-only with the reason), the edited text parsed off the GUI thread as
// the user types (its error shown at its line and column, the last text that parsed kept), saving
// exactly the edit (DataFileText::saved through QSaveFile: every byte not edited stays), a file
// changed on disk meanwhile never overwritten without asking, and unsaved edits asked about before
// they are left (another file, closing the window), as the facts document asks of facts.
//
// A text that parses is evaluated (EditRunner): its impact across the node library is announced
// (editImpactReady), and the window's lookups run on the engine that reads it (the LookupRunner's
// engine is swapped for it, and back to the disk's when the edit is saved or dropped), so that the
// answer and every panel that looks up follow the edit.

#include "document/factsdocument.h"
#include "models/nodereports.h"
#include "models/revisiondiffreport.h"
#include "models/snapshots.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <functional>

class QTimer;

namespace hiera::ui {

class EditRunner;
class LookupRunner;
class SourceViewer;
struct ParsedEdit;

class DataFileEditor : public QObject
{
    Q_OBJECT
public:
    enum class Question {
        SaveChanges, // unsaved data edits, before closing or showing another file
        OverwriteChanged, // saving over a data file another program changed since it was read
    };
    using Answer = FactsDocument::Answer;
    using QuestionHandler = std::function<Answer(Question question, const QString& text)>;

    DataFileEditor(SourceViewer* viewer, EditRunner* edits, LookupRunner* runner, QObject* parent = nullptr);

    void setQuestionHandler(QuestionHandler handler) { m_questionHandler = std::move(handler); }

    QString path() const;
    bool isModified() const;
    // The newest edited text that parses (the file's own text before any edit).
    QString lastGoodText() const { return m_lastGood; }
    // Why `path` may not be edited here (one line), or empty.
    QString readOnlyReason(const QString& path) const;

    // Writes the edit (asking first if the file changed on disk); true when written or nothing to write.
    bool save();
    // Unsaved edits: asks to save, discard (the file is read again) or cancel. True: go on.
    bool maybeSave();

    // The nodes an edit's impact is evaluated over (the Nodes panel's library); null: none.
    void setNodeLibrary(NodeLibraryPtr library);
    // Files changed on disk (DataFileSync): the edit is evaluated again against them.
    void filesChangedOnDisk(const QSet<QString>& files);
    // The lookups run on the edit's engine now (not the disk's).
    bool followsEdit() const { return m_swapped; }

Q_SIGNALS:
    // A text that parses is being edited (also the file's own text when an edit is dropped or saved):
    // what the answer and the Impact panel follow.
    void editParsed(const QString& path, const QString& text);
    // The edit was dropped or saved: the files on disk are the answer again.
    void editEnded(const QString& path);
    void saved(const QString& path);
    // One line: the file could not be written.
    void saveFailed(const QString& message);
    // The unsaved edit of `file` changes these answers (report->diff: from the disk to the edit).
    void editImpactReady(const RevisionDiffReportPtr& report, const QString& file);
    // No unsaved edit any more.
    void editImpactCleared();
    // The LookupRunner's engine was swapped (to the edit's or back to the disk's): look up again.
    void answerEngineChanged();

private:
    void fileLoaded(const QString& path);
    void textEdited();
    void parsed(const std::shared_ptr<const ParsedEdit>& parsed);
    Answer ask(Question question, const QString& text) const;
    void evaluate(const QString& text);
    void useEngine(const EnginePtr& engine);
    void endEdit();

    SourceViewer* m_viewer;
    EditRunner* m_edits;
    LookupRunner* m_runner;
    QTimer* m_parseTimer;
    QString m_lastGood;
    NodeLibraryPtr m_library;
    EnginePtr m_diskEngine; // while the lookups follow the edit: the engine they ran on before
    bool m_swapped = false;
    QuestionHandler m_questionHandler;
};

} // namespace hiera::ui
