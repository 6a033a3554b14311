#include "widgets/sourceviewer.h"

#include "widgets/elidedlabel.h"
#include "widgets/externaleditor.h"
#include "widgets/yamlhighlighter.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace hiera::ui {

namespace {
// Data files are small; these guard the GUI thread against a huge or hostile one (docs/bad-input.md,
// "The explorer"). QPlainTextEdit lays a line out whole and the highlighter runs its patterns over
// every line when the text is set: a 3 MB ENC block on one line froze the window for two seconds.
constexpr qint64 maxViewBytes = 8 * 1024 * 1024;
// Longer lines are cut in the view (the line numbers stay right: only a line's tail goes).
constexpr int maxLineChars = 2000;
// Above this the text is shown without highlighting.
constexpr qint64 maxHighlightedBytes = 1024 * 1024;

// `text` with each line longer than maxLineChars cut, saying how much of it is not shown.
QString withLongLinesCut(const QString& text)
{
    QString out;
    out.reserve(std::min<qsizetype>(text.size(), 1 << 20));
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        const qsizetype length = end - start;
        if (length > maxLineChars) {
            out += QStringView(text).mid(start, maxLineChars);
            out +=
                SourceViewer::tr(" [… %n more characters not shown]", nullptr, static_cast<int>(length - maxLineChars));
        } else {
            out += QStringView(text).mid(start, length);
        }
        if (end < text.size())
            out += QLatin1Char('\n');
        start = end + 1;
    }
    return out;
}
} // namespace

SourceViewer::SourceViewer(QWidget* parent)
    : QWidget(parent)
    , m_header(new ElidedLabel(Qt::ElideMiddle, this))
    , m_openInEditor(new QToolButton(this))
    , m_impact(new QToolButton(this))
    , m_save(new QToolButton(this))
    , m_revert(new QToolButton(this))
    , m_status(new QLabel(this))
    , m_editor(new QPlainTextEdit(this))
    , m_highlighter(new YamlHighlighter(m_editor->document(), m_editor->palette()))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* headerRow = new QHBoxLayout;
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(m_impact);
    headerRow->addWidget(m_save);
    headerRow->addWidget(m_revert);
    headerRow->addWidget(m_openInEditor);
    layout->addLayout(headerRow);
    layout->addWidget(m_status);
    layout->addWidget(m_editor, 1);
    m_status->setObjectName(QStringLiteral("sourceStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setContentsMargins(4, 0, 4, 2);
    m_status->hide();
    m_save->setText(tr("Save"));
    m_save->setObjectName(QStringLiteral("sourceSave"));
    m_save->setToolTip(tr("Write the edited file (only the bytes you changed differ)"));
    // Ctrl+S in the editor saves the data file, not the facts (the window's Save): eventFilter.
    m_editor->installEventFilter(this);
    m_save->setEnabled(false);
    connect(m_save, &QToolButton::clicked, this, &SourceViewer::saveRequested);
    m_revert->setText(tr("Revert"));
    m_revert->setObjectName(QStringLiteral("sourceRevert"));
    m_revert->setToolTip(tr("Drop the unsaved edits and read the file again"));
    m_revert->setEnabled(false);
    connect(m_revert, &QToolButton::clicked, this, &SourceViewer::revertRequested);
    m_openInEditor->setText(tr("Open in Editor"));
    m_openInEditor->setObjectName(QStringLiteral("openInEditor"));
    m_openInEditor->setToolTip(tr("Open this file at this line in $VISUAL / $EDITOR (else the desktop's editor)"));
    m_openInEditor->setEnabled(false);
    connect(m_openInEditor, &QToolButton::clicked, this, &SourceViewer::openInEditor);
    m_impact->setText(tr("Impact"));
    m_impact->setObjectName(QStringLiteral("sourceImpact"));
    m_impact->setToolTip(tr("Which nodes read this file, and which keys it decides for them"));
    m_impact->setEnabled(false);
    connect(m_impact, &QToolButton::clicked, this, [this] {
        if (!m_path.isEmpty())
            Q_EMIT impactRequested(m_path);
    });
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setContentsMargins(4, 2, 4, 2);
    m_header->setFullText(tr("Click an origin (file:line) to see it here."));
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setObjectName(QStringLiteral("sourceText"));
    connect(m_editor->document(), &QTextDocument::contentsChanged, this, [this] {
        if (m_loading || m_editor->isReadOnly())
            return;
        updateStatus();
        Q_EMIT textEdited();
    });
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, [this] { updateStatus(); });
}

bool SourceViewer::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_editor && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)
        && static_cast<QKeyEvent*>(event)->matches(QKeySequence::Save) && isEditable()) {
        // Overriding the shortcut delivers the key here instead of to the window's Save action.
        event->accept();
        if (event->type() == QEvent::KeyPress && isModified())
            Q_EMIT saveRequested();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString SourceViewer::editedText() const
{
    return DataFileText::fromRawText(m_editor->document()->toRawText());
}

bool SourceViewer::isModified() const
{
    return m_editor->document()->isModified();
}

bool SourceViewer::isEditable() const
{
    return !m_editor->isReadOnly();
}

void SourceViewer::setReadOnlyReason(const QString& reason)
{
    m_readOnlyReason = !reason.isEmpty() ? reason : m_text.notEditableReason();
    m_editor->setReadOnly(m_path.isEmpty() || !m_readOnlyReason.isEmpty());
    updateStatus();
}

void SourceViewer::showProblem(const QString& text, int line, int column)
{
    m_problem = text;
    m_problemLine = text.isEmpty() ? 0 : line;
    m_problemColumn = text.isEmpty() ? 0 : column;
    updateStatus();
    updateSelections();
}

QString SourceViewer::problemText() const
{
    return m_problem;
}

void SourceViewer::setNotice(const QString& text)
{
    m_notice = text;
    updateStatus();
}

void SourceViewer::markSaved(const QByteArray& bytes)
{
    m_text = DataFileText::fromBytes(bytes, maxLineChars);
    // The editor keeps its text (and its undo history): it is what the saved bytes show.
    m_editor->document()->setModified(false);
    m_notice.clear();
    updateStatus();
}

void SourceViewer::revert()
{
    if (m_path.isEmpty())
        return;
    m_editor->document()->setModified(false);
    loadFile();
    markLine();
}

void SourceViewer::updateStatus()
{
    const bool modified = isModified();
    m_save->setEnabled(modified && isEditable());
    m_revert->setEnabled(modified);
    QString text;
    QString style;
    if (!m_problem.isEmpty()) {
        text = m_problem;
        style = QStringLiteral("color: #b00020;");
    } else if (!m_notice.isEmpty()) {
        text = m_notice;
    } else if (!m_path.isEmpty() && !m_readOnlyReason.isEmpty()) {
        text = tr("Read-only: %1").arg(m_readOnlyReason);
    } else if (modified) {
        text = tr("Modified: not saved (the answer and the Impact panel show the edit)");
    }
    m_status->setStyleSheet(style);
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
    m_header->setFullText((m_line > 0 ? QStringLiteral("%1:%2").arg(m_path).arg(m_line) : m_path)
                          + (modified ? QStringLiteral(" *") : QString()));
}

void SourceViewer::openInEditor()
{
    if (!m_path.isEmpty())
        ExternalEditor::open(m_path, m_line);
}

bool SourceViewer::showLocation(const QString& path, int line, int column, const QString& key)
{
    m_openInEditor->setEnabled(!path.isEmpty());
    m_impact->setEnabled(!path.isEmpty());
    const bool sameFile = path == m_path && !m_editor->document()->isEmpty();
    if (!sameFile && isModified() && !(m_leaveGuard && m_leaveGuard()))
        return false; // the edits stay on screen
    m_path = path;
    m_line = line;
    m_column = column;
    m_key = key;
    const bool ok = sameFile ? true : loadFile();
    markLine();
    return ok;
}

void SourceViewer::reload()
{
    if (m_path.isEmpty())
        return;
    if (isModified()) {
        // Never over the user's edits: said, and asked about when they save (DataFileEditor).
        Q_EMIT changedOnDiskWhileEdited(m_path);
        return;
    }
    // The file as shown (saved from here, or touched without a change): the editor keeps its cursor and
    // its undo history.
    if (QFile file(m_path); QFileInfo(m_path).isFile() && !m_text.bytes().isEmpty() && file.open(QIODevice::ReadOnly)
        && file.size() == m_text.bytes().size() && file.readAll() == m_text.bytes())
        return;
    loadFile();
    markLine();
}

void SourceViewer::clear()
{
    if (isModified())
        return; // an answer with no file leaves an edit on screen (it is not asked about: nothing replaces it)
    m_path.clear();
    m_line = 0;
    m_openInEditor->setEnabled(false);
    m_impact->setEnabled(false);
    m_loading = true;
    m_editor->clear();
    m_loading = false;
    m_text = {};
    m_problem.clear();
    m_notice.clear();
    m_editor->setReadOnly(true);
    updateStatus();
    m_header->setFullText(tr("Click an origin (file:line) to see it here."));
}

bool SourceViewer::loadFile()
{
    QFile file(m_path);
    const QFileInfo info(m_path);
    QString problem;
    // Only a regular file is opened: opening a FIFO blocks until someone writes to it, and a device
    // (a link to /dev/zero) never ends. QFileInfo::isFile follows links and is false for both.
    if (!info.exists())
        problem = tr("%1 does not exist.").arg(m_path);
    else if (!info.isFile())
        problem = tr("%1 is not a regular file: not shown.").arg(m_path);
    else if (info.size() > maxViewBytes)
        problem = tr("%1 is too large to show (%2 bytes).").arg(m_path).arg(info.size());
    else if (!file.open(QIODevice::ReadOnly))
        problem = tr("Cannot read %1: %2").arg(m_path, file.errorString());
    m_problem.clear();
    m_notice.clear();
    m_loading = true;
    if (!problem.isEmpty()) {
        m_text = {};
        m_editor->setReadOnly(true);
        m_editor->setPlainText(problem);
        m_editor->document()->setModified(false);
        m_loading = false;
        updateStatus();
        m_header->setFullText(problem);
        return false;
    }
    const QByteArray bytes = file.read(maxViewBytes + 1); // the file may have grown since it was measured
    m_text = DataFileText::fromBytes(bytes, maxLineChars);
    if (bytes.size() > maxViewBytes)
        m_text = DataFileText::fromBytes(bytes.left(maxViewBytes), 0); // never editable: not all of it is shown
    m_highlighter->setDocument(bytes.size() > maxHighlightedBytes ? nullptr : m_editor->document());
    // An editable file is shown exactly as DataFileText shows it (what saving maps back to its bytes);
    // the editor's undo history starts with it.
    m_editor->setPlainText(m_text.editable() ? m_text.shown()
                                             : withLongLinesCut(QString::fromUtf8(bytes.left(maxViewBytes))));
    m_editor->document()->setModified(false);
    m_loading = false;
    m_readOnlyReason = m_text.notEditableReason();
    m_editor->setReadOnly(true); // until its owner says it may be edited (setReadOnlyReason)
    updateStatus();
    Q_EMIT fileLoaded(m_path);
    return true;
}

void SourceViewer::markLine()
{
    updateStatus();
    QList<QTextEdit::ExtraSelection>& selections = m_lineSelections;
    selections.clear();
    const QTextBlock block = m_line > 0 ? m_editor->document()->findBlockByNumber(m_line - 1) : QTextBlock();
    if (!block.isValid()) {
        updateSelections();
        return;
    }
    QTextEdit::ExtraSelection lineSelection;
    // The theme's highlight, faint enough to read the line's own colours through it.
    QColor lineColour = m_editor->palette().color(QPalette::Highlight);
    lineColour.setAlpha(70);
    lineSelection.format.setBackground(lineColour);
    lineSelection.format.setProperty(QTextFormat::FullWidthSelection, true);
    lineSelection.cursor = QTextCursor(block);
    selections << lineSelection;

    // The key on that line (a value's own line carries its key, "key: value"); else the column.
    const QString text = block.text();
    int start = m_key.isEmpty() ? -1 : static_cast<int>(text.indexOf(m_key));
    int length = static_cast<int>(m_key.size());
    if (start < 0 && m_column > 0 && m_column <= text.size()) {
        start = m_column - 1;
        length = 1;
        while (start + length < text.size() && !text.at(start + length).isSpace())
            ++length;
    }
    if (start >= 0) {
        QTextEdit::ExtraSelection keySelection;
        keySelection.format.setBackground(QColor(0xff, 0xd0, 0x50));
        keySelection.format.setFontWeight(QFont::Bold);
        QTextCursor cursor(block);
        cursor.setPosition(block.position() + start);
        cursor.setPosition(block.position() + start + length, QTextCursor::KeepAnchor);
        keySelection.cursor = cursor;
        selections << keySelection;
    }
    updateSelections();

    QTextCursor cursor(block);
    m_editor->setTextCursor(cursor);
    m_editor->centerCursor();
}

void SourceViewer::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections = m_lineSelections;
    const QTextBlock block =
        m_problemLine > 0 ? m_editor->document()->findBlockByNumber(m_problemLine - 1) : QTextBlock();
    if (block.isValid()) {
        // The problem's line underlined where the parser stopped (from its column to the line's end).
        QTextEdit::ExtraSelection problem;
        problem.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        problem.format.setUnderlineColor(QColor(0xb0, 0x00, 0x20));
        QTextCursor cursor(block);
        const int column = std::clamp(m_problemColumn - 1, 0, std::max(0, block.length() - 1));
        cursor.setPosition(block.position() + column);
        cursor.setPosition(block.position() + std::max(column + 1, block.length() - 1), QTextCursor::KeepAnchor);
        problem.cursor = cursor;
        selections << problem;
    }
    m_editor->setExtraSelections(selections);
}

} // namespace hiera::ui
