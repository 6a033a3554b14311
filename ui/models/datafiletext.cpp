#include "models/datafiletext.h"

#include <QCoreApplication>
#include <QStringView>

#include <algorithm>

namespace hiera::ui {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(DataFileText)
};
} // namespace

DataFileText DataFileText::fromBytes(const QByteArray& bytes, int maxLineChars)
{
    DataFileText text;
    text.m_bytes = bytes;
    QByteArrayView body(bytes);
    if (body.startsWith("\xEF\xBB\xBF")) {
        text.m_bom = bytes.left(3);
        body = body.sliced(3);
    }
    // Bytes that decoding would change cannot be written back as they were.
    if (!body.isValidUtf8()) {
        text.m_reason = Tr::tr("not valid UTF-8: read-only, so that no byte is changed by saving");
        text.m_shown = QString::fromUtf8(body);
        return text;
    }
    const QString decoded = QString::fromUtf8(body);
    text.m_shown.reserve(decoded.size());
    int lineChars = 0, lines = 0;
    bool longLine = false;
    for (qsizetype i = 0; i < decoded.size(); ++i) {
        const QChar c = decoded.at(i);
        if (c == QLatin1Char('\r') && i + 1 < decoded.size() && decoded.at(i + 1) == QLatin1Char('\n')) {
            text.m_crlfAt.append(text.m_shown.size());
            continue; // the '\n' follows
        }
        if (c == QLatin1Char('\r') || c == QChar::LineSeparator || c == QChar::ParagraphSeparator) {
            // The editor breaks lines there too: it would be written back as '\n'.
            text.m_reason = Tr::tr("holds a line break other than LF or CRLF: read-only, so that saving changes no "
                                   "byte of it");
        }
        if (c == QLatin1Char('\n')) {
            ++lines;
            lineChars = 0;
        } else if (++lineChars > maxLineChars) {
            longLine = true;
        }
        text.m_shown.append(c);
    }
    if (longLine && text.m_reason.isEmpty())
        text.m_reason = Tr::tr("a line longer than %n characters is cut in the view: read-only (edit it in your "
                               "editor)",
                               nullptr, maxLineChars);
    text.m_crlf = lines > 0 && text.m_crlfAt.size() * 2 > lines;
    return text;
}

qsizetype DataFileText::byteOffset(qsizetype shownIndex) const
{
    const auto crlfBefore = std::lower_bound(m_crlfAt.begin(), m_crlfAt.end(), shownIndex) - m_crlfAt.begin();
    return m_bom.size() + QStringView(m_shown).left(shownIndex).toUtf8().size() + crlfBefore;
}

QByteArray DataFileText::saved(const QString& edited) const
{
    const QString& a = m_shown;
    const qsizetype shortest = std::min(a.size(), edited.size());
    qsizetype prefix = 0;
    while (prefix < shortest && a.at(prefix) == edited.at(prefix))
        ++prefix;
    if (prefix > 0 && a.at(prefix - 1).isHighSurrogate())
        --prefix; // never split a character
    qsizetype suffix = 0;
    while (suffix < shortest - prefix && a.at(a.size() - 1 - suffix) == edited.at(edited.size() - 1 - suffix))
        ++suffix;
    if (suffix > 0 && a.at(a.size() - suffix).isLowSurrogate())
        --suffix;
    if (prefix == a.size() && prefix == edited.size())
        return m_bytes;
    QByteArray middle = QStringView(edited).mid(prefix, edited.size() - prefix - suffix).toUtf8();
    if (m_crlf)
        middle.replace("\n", "\r\n");
    const qsizetype begin = byteOffset(prefix);
    const qsizetype end = byteOffset(a.size() - suffix);
    return m_bytes.left(begin) + middle + m_bytes.mid(end);
}

QString DataFileText::fromRawText(QString raw)
{
    raw.replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
    raw.replace(QChar::LineSeparator, QLatin1Char('\n'));
    return raw;
}

} // namespace hiera::ui
