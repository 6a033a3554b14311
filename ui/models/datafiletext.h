#pragma once

// DataFileText — a data file's bytes as the Source pane shows and edits them, and the bytes an edit is
// saved as: the file as read with only the span the user changed replaced, so that every byte the
// user did not edit is written back as it was (line endings, a byte-order mark, a missing final
// newline, an ENC[…] block: docs/editing-data.md). Files whose bytes could not be shown and written
// back exactly are not editable, with the reason in one line.

#include <QByteArray>
#include <QList>
#include <QString>

namespace hiera::ui {

class DataFileText
{
public:
    DataFileText() = default;
    // `bytes`: the whole file. `maxLineChars`: longer lines are cut in the view, so such a file is
    // not editable.
    static DataFileText fromBytes(const QByteArray& bytes, int maxLineChars);

    const QByteArray& bytes() const { return m_bytes; }
    // What the editor shows: UTF-8 decoded, CRLF shown as one line break, the byte-order mark left out.
    const QString& shown() const { return m_shown; }
    // Empty when the text can be edited and saved exactly; else why not (one line).
    const QString& notEditableReason() const { return m_reason; }
    bool editable() const { return m_reason.isEmpty(); }

    // The bytes to save for `edited` (what the editor holds now, line breaks as '\n'): the common start
    // and end of shown() and `edited` kept byte for byte from bytes(), the rest encoded with the
    // file's own line ending (CRLF when most of its lines end so).
    QByteArray saved(const QString& edited) const;

    // QTextDocument::toRawText() as text with '\n' line breaks (it separates blocks with U+2029, and
    // toPlainText() would also turn non-breaking spaces into spaces: a byte the user did not edit).
    static QString fromRawText(QString raw);

private:
    qsizetype byteOffset(qsizetype shownIndex) const;

    QByteArray m_bytes;
    QByteArray m_bom;
    QString m_shown;
    QList<qsizetype> m_crlfAt; // indices in m_shown of the '\n' that were "\r\n" in the file
    bool m_crlf = false;
    QString m_reason;
};

} // namespace hiera::ui
