#pragma once

// SourceViewer — a data file (or hiera.yaml) with YAML highlighting, scrolled to a value's line with
// the line and its key marked. Re-reads the file when asked (the main window calls reload() when its
// watcher sees the file change). Its Impact button asks what the file decides across the node library
// (impactRequested).
//
// It is also the editor of a data file (docs/editing-data.md): the text as DataFileText shows it, with
// the editor's undo and redo; Save and Revert are asked of whoever owns the edit (DataFileEditor),
// which also says whether the file may be edited (setReadOnlyReason) and what is wrong with the text
// (showProblem). Unsaved edits are never replaced by another file or a reload without leaveGuard's
// consent.

#include "models/datafiletext.h"

#include <QTextEdit>
#include <QWidget>

#include <functional>

class QLabel;
class QToolButton;
class QPlainTextEdit;

namespace hiera::ui {

class ElidedLabel;
class YamlHighlighter;

class SourceViewer : public QWidget
{
    Q_OBJECT
public:
    explicit SourceViewer(QWidget* parent = nullptr);

    // Shows `path` with `line` (1-based; 0 = none) marked and `key` highlighted on it. Returns false
    // (and says why in the view) if the file cannot be read.
    bool showLocation(const QString& path, int line = 0, int column = 0, const QString& key = {});
    void reload();
    void clear();

    // The file's text as read (its bytes, what is shown of them, why it cannot be edited).
    const DataFileText& fileText() const { return m_text; }
    // The text being edited, line breaks as '\n'.
    QString editedText() const;
    bool isModified() const;
    // Why the shown file may not be edited (one line, shown above the text); empty: editable, when its
    // bytes allow (DataFileText::notEditableReason). Set after each fileLoaded.
    void setReadOnlyReason(const QString& reason);
    bool isEditable() const;
    // A problem of the edited text at `line`:`column` (1-based; 0: none), said above the text and
    // underlined; an empty text clears it.
    void showProblem(const QString& text, int line = 0, int column = 0);
    QString problemText() const;
    // What is said above the text when nothing is wrong: the read-only reason, "modified" …
    void setNotice(const QString& text);
    // The edited text is what is now on disk (saved): not modified any more, its bytes those written.
    void markSaved(const QByteArray& bytes);
    // Asked before unsaved edits would be replaced (another file shown, the file re-read after it
    // changed on disk): true lets it happen. None set: never replaced.
    void setLeaveGuard(std::function<bool()> guard) { m_leaveGuard = std::move(guard); }
    QToolButton* saveButton() const { return m_save; }
    QToolButton* revertButton() const { return m_revert; }
    // Re-reads the file whatever the edits (Revert, once the user agreed).
    void revert();

    QString currentFile() const { return m_path; }
    int currentLine() const { return m_line; }
    QPlainTextEdit* editor() const { return m_editor; }
    QToolButton* openInEditorButton() const { return m_openInEditor; }
    QToolButton* impactButton() const { return m_impact; }
    // The shown file at its line in the user's editor (ExternalEditor).
    void openInEditor();

Q_SIGNALS:
    void impactRequested(const QString& path);
    // The file was read (shown, re-read or reverted): its read-only reason is to be set again.
    void fileLoaded(const QString& path);
    // The user typed (or undid) in an editable file.
    void textEdited();
    void saveRequested();
    void revertRequested();
    // reload() found unsaved edits: the file changed on disk under them and was not re-read.
    void changedOnDiskWhileEdited(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool loadFile();
    void markLine();
    void updateSelections();
    void updateStatus();

    ElidedLabel* m_header; // the file:line shown, elided to the dock's width
    QToolButton* m_openInEditor;
    QToolButton* m_impact;
    QToolButton* m_save;
    QToolButton* m_revert;
    QLabel* m_status; // the read-only reason, the text's problem or a notice
    QPlainTextEdit* m_editor;
    YamlHighlighter* m_highlighter;
    DataFileText m_text;
    QString m_readOnlyReason;
    QString m_problem;
    int m_problemLine = 0;
    int m_problemColumn = 0;
    QString m_notice;
    bool m_loading = false; // setPlainText's own change signals are no edit
    std::function<bool()> m_leaveGuard;
    QString m_path;
    int m_line = 0;
    int m_column = 0;
    QString m_key;
    QList<QTextEdit::ExtraSelection> m_lineSelections; // the value's line and key
};

} // namespace hiera::ui
