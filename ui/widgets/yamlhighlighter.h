#pragma once

// YamlHighlighter — enough YAML colouring to read Hiera data: keys, comments, quoted strings,
// %{...} interpolations, anchors/aliases/tags, numbers and booleans, document markers.

#include <QPalette>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace hiera::ui {

class YamlHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    // Colours follow `palette`: keys in its link colour, the other hues lightened on a dark base, so
    // that the source reads under a dark theme as under a light one.
    YamlHighlighter(QTextDocument* document, const QPalette& palette);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    std::vector<Rule> m_rules;
    QTextCharFormat m_commentFormat;
};

} // namespace hiera::ui
