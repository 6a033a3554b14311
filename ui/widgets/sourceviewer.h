#pragma once

// SourceViewer — a read-only view of a data file (or hiera.yaml) with YAML highlighting, scrolled to
// a value's line with the line and its key marked. Re-reads the file when asked (the main window
// calls reload() when its watcher sees the file change). Its Impact button asks what the file decides
// across the node library (impactRequested).

#include <QWidget>

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

    QString currentFile() const { return m_path; }
    int currentLine() const { return m_line; }
    QPlainTextEdit* editor() const { return m_editor; }
    QToolButton* openInEditorButton() const { return m_openInEditor; }
    QToolButton* impactButton() const { return m_impact; }
    // The shown file at its line in the user's editor (ExternalEditor).
    void openInEditor();

Q_SIGNALS:
    void impactRequested(const QString& path);

private:
    bool loadFile();
    void markLine();

    ElidedLabel* m_header; // the file:line shown, elided to the dock's width
    QToolButton* m_openInEditor;
    QToolButton* m_impact;
    QPlainTextEdit* m_editor;
    YamlHighlighter* m_highlighter;
    QString m_path;
    int m_line = 0;
    int m_column = 0;
    QString m_key;
};

} // namespace hiera::ui
