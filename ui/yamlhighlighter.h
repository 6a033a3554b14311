#pragma once

// YamlHighlighter — enough YAML colouring to read Hiera data: keys, comments, quoted strings,
// %{...} interpolations, anchors/aliases/tags, numbers and booleans, document markers.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

class YamlHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit YamlHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    std::vector<Rule> m_rules;
    QTextCharFormat m_commentFormat;
};
