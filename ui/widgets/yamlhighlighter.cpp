#include "widgets/yamlhighlighter.h"

#include <QColor>
#include <QFont>

namespace hiera::ui {

namespace {
QTextCharFormat formatOf(const QColor& color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}
} // namespace

YamlHighlighter::YamlHighlighter(QTextDocument* document, const QPalette& palette) : QSyntaxHighlighter(document)
{
    // The hues were chosen on white; on a dark base they are lightened until they read.
    const bool darkBase = palette.color(QPalette::Base).lightness() < 128;
    auto makeFormat = [darkBase](const QColor& color, bool bold = false, bool italic = false) {
        return formatOf(darkBase ? color.lighter(190) : color, bold, italic);
    };
    // Later rules paint over earlier ones: scalars first, then strings, keys, interpolation.
    m_rules.push_back({QRegularExpression(QStringLiteral(
                           "(?<=[:\\-\\[,]\\s)\\s*(true|false|yes|no|on|off|null|~|[-+]?[0-9][0-9_.eE+-]*)\\s*$")),
                       makeFormat(QColor(0x8a, 0x3f, 0xa8))});
    m_rules.push_back({QRegularExpression(QStringLiteral("[&*][A-Za-z0-9_-]+|!![a-z]+|![A-Za-z]+")),
                       makeFormat(QColor(0x00, 0x7a, 0x7a), false, true)});
    m_rules.push_back({QRegularExpression(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^']|'')*'")),
                       makeFormat(QColor(0xa3, 0x4a, 0x00))});
    m_rules.push_back(
        {QRegularExpression(QStringLiteral("^\\s*(?:-\\s+)*((?:\"[^\"]*\"|'[^']*'|[^#\\s\"'][^#]*?))\\s*:(?=\\s|$)")),
         formatOf(palette.color(QPalette::Link), true), 1});
    m_rules.push_back({QRegularExpression(QStringLiteral("%\\{[^}]*\\}")), makeFormat(QColor(0xb0, 0x1e, 0x5c), true)});
    m_rules.push_back(
        {QRegularExpression(QStringLiteral("^(---|\\.\\.\\.)\\s*$")), makeFormat(QColor(0x70, 0x70, 0x70), true)});
    m_commentFormat = makeFormat(QColor(0x6a, 0x8a, 0x5a), false, true);
}

void YamlHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : m_rules) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto match = it.next();
            setFormat(static_cast<int>(match.capturedStart(rule.group)),
                      static_cast<int>(match.capturedLength(rule.group)), rule.format);
        }
    }
    // A comment starts at '#' at line start or after a blank, outside quotes.
    bool inSingle = false;
    bool inDouble = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\'') && !inDouble)
            inSingle = !inSingle;
        else if (c == QLatin1Char('"') && !inSingle)
            inDouble = !inDouble;
        else if (c == QLatin1Char('#') && !inSingle && !inDouble && (i == 0 || text.at(i - 1).isSpace())) {
            setFormat(i, static_cast<int>(text.size()) - i, m_commentFormat);
            break;
        }
    }
}

} // namespace hiera::ui
