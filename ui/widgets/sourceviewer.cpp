#include "widgets/sourceviewer.h"

#include "widgets/elidedlabel.h"
#include "widgets/externaleditor.h"
#include "widgets/yamlhighlighter.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
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
    , m_editor(new QPlainTextEdit(this))
    , m_highlighter(new YamlHighlighter(m_editor->document(), m_editor->palette()))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* headerRow = new QHBoxLayout;
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(m_impact);
    headerRow->addWidget(m_openInEditor);
    layout->addLayout(headerRow);
    layout->addWidget(m_editor, 1);
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
    loadFile();
    markLine();
}

void SourceViewer::clear()
{
    m_path.clear();
    m_line = 0;
    m_openInEditor->setEnabled(false);
    m_impact->setEnabled(false);
    m_editor->clear();
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
    if (!problem.isEmpty()) {
        m_editor->setPlainText(problem);
        m_header->setFullText(problem);
        return false;
    }
    const QByteArray bytes = file.read(maxViewBytes + 1); // the file may have grown since it was measured
    m_highlighter->setDocument(bytes.size() > maxHighlightedBytes ? nullptr : m_editor->document());
    m_editor->setPlainText(withLongLinesCut(QString::fromUtf8(bytes.left(maxViewBytes))));
    m_header->setFullText(m_line > 0 ? QStringLiteral("%1:%2").arg(m_path).arg(m_line) : m_path);
    return true;
}

void SourceViewer::markLine()
{
    m_header->setFullText(m_line > 0 ? QStringLiteral("%1:%2").arg(m_path).arg(m_line) : m_path);
    QList<QTextEdit::ExtraSelection> selections;
    const QTextBlock block = m_line > 0 ? m_editor->document()->findBlockByNumber(m_line - 1) : QTextBlock();
    if (!block.isValid()) {
        m_editor->setExtraSelections(selections);
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
    m_editor->setExtraSelections(selections);

    QTextCursor cursor(block);
    m_editor->setTextCursor(cursor);
    m_editor->centerCursor();
}

} // namespace hiera::ui
