#pragma once

// FactsDocument — the scope the lookups run against, as a document: the editable FactTreeModel, its
// undo stack (whose clean state is "saved"), the file it was opened from, and the ways it must not be
// lost: open, save, revert, autosave and recovery. No widgets: the facts panel shows it, the window
// asks its questions through a handler (a message box; tests answer them).
//
// Files are read on a worker (LookupRunner::readFacts); isSettling() is true while the scope is about
// to change (facts being read, an autosave about to be offered), and lookups wait for settled().

#include "facts/factsautosave.h"
#include "facts/factsfile.h"
#include "facts/factsform.h"
#include "widgets/messagebanner.h"

#include <hiera/value.h>

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QTimer;
class QUndoStack;

namespace hiera::ui {

class FactTreeModel;
class LookupRunner;
class UndoableFactEdits;

class FactsDocument : public QObject
{
    Q_OBJECT
public:
    // The questions asked before anything could be lost.
    enum class Question {
        SaveChanges, // unsaved fact edits, before closing or opening other facts or another hierarchy
        // The same, for facts with no file they may be written to (never saved, or the bundled demo's,
        // which is read-only): accepting asks for a name (Save As).
        SaveChangesAs,
        RecoverAutosave, // edits autosaved by a session that ended without saving them
        OverwriteChanged, // saving over the facts file, which another program changed since it was read
    };
    enum class Answer {
        Accept, // save the facts / recover the autosave / overwrite the changed file
        Discard, // drop the edits (the autosave goes too)
        Cancel, // do not close or open / keep the autosave for later
    };
    using QuestionHandler = std::function<Answer(Question question, const QString& text)>;
    // What a "save as" writes: the facts in their file's form, or the explorer's whole scope.
    enum class SaveKind { Facts, Scope };
    // Where "save as" goes: a path, or empty when the user cancelled.
    using PathPrompt = std::function<QString(const QString& suggestion, SaveKind kind)>;

    explicit FactsDocument(LookupRunner* runner, QObject* parent = nullptr);
    ~FactsDocument() override;

    void setQuestionHandler(QuestionHandler handler) { m_questionHandler = std::move(handler); }
    void setSavePathPrompt(PathPrompt prompt) { m_savePathPrompt = std::move(prompt); }

    FactTreeModel* model() const { return m_model; }
    QUndoStack* undoStack() const { return m_undoStack; }
    QString path() const { return m_path; }
    // The node when the facts are one node's entry of a PuppetDB export (path() is the export); empty
    // for a facts file.
    QString node() const;
    // How the title names the facts: the file's name, or "node (in export.json)".
    QString displayName() const;
    bool isModified() const;
    // The scope as a Value, rebuilt only after an edit.
    hiera::Value scope();
    // The scope as path() holds it: as read, or as last saved here. Null when that is not known (no
    // file, or edits recovered for another file). A report compares it with scope() to list edits.
    hiera::Value fileScope() const { return m_fileScope; }

    // Reads a facts file in the background (asking first about unsaved edits; false if cancelled).
    bool open(const QString& path);
    // Reads `node`'s facts from a PuppetDB export in the background (asking first, as open does). A save
    // writes them back into that node's entry of the export.
    bool openNode(const QString& exportPath, const QString& node);
    // Reads without asking (the caller asked already); with a node, from a PuppetDB export.
    void read(const QString& path, const QString& node = {});
    bool isReading() const;
    // Facts being read or an autosave about to be offered: the scope is about to change.
    bool isSettling() const;

    // Saves to the file the facts came from, in the form it was opened in (FactsForm: a facter or
    // `puppet facts` file stays one, YAML comments stay when only values changed); a new or
    // bundled-demo file asks for a path instead (the demo is never written).
    bool save();
    // The facts, in the form they were opened in, to another file (JSON for a .json name).
    bool saveAs();
    // The whole scope (facts, trusted, top-scope variables) as this window reads it back: a separate
    // action, since `puppet lookup --facts` does not read that form.
    bool saveScopeAs();
    // Writes the scope (or, as an export that leaves the document where it is, only its facts) as YAML,
    // or JSON for a .json name, atomically.
    bool saveTo(const QString& path, bool factsOnly = false);
    // The form of the file the facts came from (or will be saved as).
    const FactsForm::Form& form() const { return m_form; }
    // True when it is fine to go on: nothing unsaved, saved, or discarded (then reverted if asked).
    bool maybeSave(bool revertOnDiscard = false);
    // No facts: an empty scope that belongs to no file, with nothing to undo (a repository switch
    // closes facts the new hierarchy cannot use). Unsaved edits must have been asked about first.
    void close();

    // The hierarchy the autosave belongs to (the window's hiera.yaml). A new one reads its autosave.
    void setHierarchy(const QString& hieraYaml);
    QString autosaveFile() const;
    void setAutosaveDelays(int afterEditMs, int periodMs);

Q_SIGNALS:
    void factsChanged(); // the scope changed (edit, undo, a file read, a recovery)
    void settled(); // the scope stopped settling: lookups that waited may run
    void readStarted(const QString& path);
    void readFinished(bool ok); // the newest read is applied (true) or reported (false)
    void pathChanged(const QString& path);
    void modifiedChanged(bool modified);
    // A save wrote `path` (the document's file, a PuppetDB export, or an export of the facts).
    void fileWritten(const QString& path);
    // In-place messages about the facts (the facts panel's banner); an empty text clears it.
    void message(MessageBanner::Kind kind, const QString& text);
    void statusMessage(const QString& text); // one line for the status bar

private:
    void onFactsRead(const QString& path, const std::shared_ptr<FactsFile::Contents>& facts);
    void onFactsReadFailed(const QString& path, const QString& message);
    void finishRead();
    void setPath(const QString& path);
    // Writes `form` holding the scope to `path`; `becomesDocument`: the facts now live there.
    bool writeFile(const QString& path, const FactsForm::Form& form, bool becomesDocument);
    // The top-scope variables and trusted data a facts file cannot hold (reopening it would rebuild
    // them from the facts): named after a save, so that nothing is lost silently.
    QStringList notInFactsFile(const FactsForm::Form& form) const;
    Answer ask(Question question, const QString& text);
    void revert();
    void writeAutosave();
    void discardAutosave();
    void onAutosaveRead(const QString& hieraYaml, const std::shared_ptr<const FactsAutosave::Entry>& entry);
    void offerRecovery(const FactsAutosave::Entry& entry);

    LookupRunner* m_runner;
    FactTreeModel* m_model;
    QUndoStack* m_undoStack;
    std::unique_ptr<UndoableFactEdits> m_edits; // the model's edits, as commands on m_undoStack
    QuestionHandler m_questionHandler;
    PathPrompt m_savePathPrompt;
    QString m_path;
    QString m_pathNode; // node() when pathChanged was last announced
    FactsForm::Form m_form; // how m_path is written
    // m_path as it was read or last saved here; none when that is not known (recovered edits of
    // another file), and then a save does not compare.
    std::optional<FactsFile::DiskStamp> m_stamp;
    hiera::Value m_fileScope;
    QString m_hieraYaml;
    hiera::Value m_scope;
    bool m_scopeDirty = true;
    quint64 m_changes = 0; // factsChanged so far
    quint64 m_changesAtRead = 0; // ... when the newest read started

    QTimer* m_autosaveTimer; // debounces the autosave after an edit
    QTimer* m_autosaveTick; // the autosave at the latest every few seconds while editing
    bool m_autosavePending = false; // edits not yet in the autosave
    QString m_autosaveKey; // the hiera.yaml the last autosave was written for
    // An autosave read for a newly loaded hierarchy, offered once the facts being read are in (they
    // come first: the recovered edits go on top of them).
    std::shared_ptr<const FactsAutosave::Entry> m_pendingRecovery;
};

} // namespace hiera::ui
