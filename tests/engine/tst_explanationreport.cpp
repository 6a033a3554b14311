// The explanation report (hiera/explanationreport.h) and the override chain behind it
// (hiera/overridechain.h), through the public API and through `hiera-lookup --explain --format
// markdown|html`: a deep merge whose leaves come from two levels, one leaf overriding another, and
// values written to break the documents (markup, a table pipe, a formula). Every document is read
// back by the strict readers of tests/support/.

#include "support/hieralookupcli.h"
#include "support/htmlreader.h"
#include "support/jsonreader.h"
#include "support/markdownreader.h"
#include "testutils.h"

#include <hiera/explanationreport.h>
#include <hiera/overridechain.h>

#include <QTest>

using namespace hiera;
using namespace testutils;

namespace {

const char* const kHostileNote = "<script>alert(1)</script> | `x` *b* [l](http://x)";

FileList repository()
{
    return {{"hiera.yaml",
             "version: 5\nhierarchy:\n"
             "  - name: Per node\n    path: \"nodes/%{trusted.certname}.yaml\"\n"
             "  - name: common\n    path: common.yaml\n"},
            {"data/common.yaml",
             "lookup_options:\n  app::cfg:\n    merge: deep\n"
             "app::cfg:\n  port: 4\n  host: \"=cmd|' /C calc'!A0\"\n"},
            {"data/nodes/n1.yaml", QByteArray("app::cfg:\n  port: 16\n  note: \"") + kHostileNote + "\"\n"},
            {"facts.yaml", "trusted:\n  certname: n1\n"}};
}

MapScope nodeScope()
{
    return MapScope{yaml("trusted:\n  certname: n1\n")};
}

// Every table of a Markdown document: consecutive lines starting with '|', each row's cells.
std::vector<std::vector<std::vector<std::string>>> markdownTables(const std::string& text, std::string* error)
{
    std::vector<std::vector<std::vector<std::string>>> tables;
    bool inTable = false;
    for (std::string_view line : testsupport::markdownLines(text)) {
        if (line.empty() || line.front() != '|') {
            inTable = false;
            continue;
        }
        const auto cells = testsupport::markdownRowCells(line, error);
        if (!cells)
            return {};
        if (!inTable)
            tables.emplace_back();
        inTable = true;
        std::vector<std::string> row;
        for (const std::string& cell : *cells) {
            const auto read = testsupport::markdownInline(cell, false, error);
            if (!read)
                return {};
            row.push_back(*read);
        }
        tables.back().push_back(std::move(row));
    }
    return tables;
}

// The rows of the table whose header starts with `firstHeader`.
const std::vector<std::vector<std::string>>*
tableHeaded(const std::vector<std::vector<std::vector<std::string>>>& tables, const std::string& firstHeader)
{
    for (const auto& table : tables)
        if (!table.empty() && !table.front().empty() && table.front().front() == firstHeader)
            return &table;
    return nullptr;
}

const std::vector<std::string>* rowFor(const std::vector<std::vector<std::string>>& table, const std::string& first)
{
    for (const auto& row : table)
        if (!row.empty() && row.front() == first)
            return &row;
    return nullptr;
}

} // namespace

class TestExplanationReport : public QObject
{
    Q_OBJECT

private slots:
    void overrideChainNamesWhatEachLeafOverrode();
    void markdownReadsBack();
    void htmlReadsBack();
    void jsonReadsBack();
    void cliWritesTheSameReport_data();
    void cliWritesTheSameReport();

private:
    struct Made
    {
        std::string markdown, html, json;
    };
    Made make(const TempTree& tree);
};

TestExplanationReport::Made TestExplanationReport::make(const TempTree& tree)
{
    auto engine = Engine::load(tree.hieraYaml());
    const MapScope scope = nodeScope();
    LookupRequest request;
    request.explain = true;
    const LookupResult result = engine->lookup(scope, "app::cfg", request);
    const OverrideChain chain = overrideChain(*engine, scope, "app::cfg", std::nullopt);
    ExplanationReport report;
    report.engine = engine.get();
    report.key = "app::cfg";
    report.result = &result;
    report.scope = &scope;
    report.overrides = &chain;
    report.hieraYaml = tree.hieraYaml();
    report.factsFile = "facts.yaml";
    report.tool = "tst_explanationreport";
    report.time = "2026-12-04T00:00:00+00:00";
    return {explanationMarkdown(report), explanationHtml(report), explanationJson(report)};
}

void TestExplanationReport::overrideChainNamesWhatEachLeafOverrode()
{
    TempTree tree(repository());
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    const OverrideChain chain = overrideChain(*engine, nodeScope(), "app::cfg", std::nullopt);
    QVERIFY2(chain.error.empty(), chain.error.c_str());
    QVERIFY(chain.found);
    QCOMPARE(chain.levels.size(), std::size_t(2));
    QCOMPARE(chain.levels[0].level, std::string("Per node")); // highest priority first
    QVERIFY(chain.levels[0].contributed && chain.levels[1].contributed);
    const OverrideLeaf* port = nullptr;
    const OverrideLeaf* host = nullptr;
    for (const OverrideLeaf& leaf : chain.leaves) {
        if (leaf.path == "port")
            port = &leaf;
        if (leaf.path == "host")
            host = &leaf;
    }
    QVERIFY(port && host);
    QCOMPARE(port->value, Value(16));
    QVERIFY2(port->origin.file.find("nodes/n1.yaml") != std::string::npos, port->origin.file.c_str());
    QCOMPARE(port->origin.line, 2);
    QCOMPARE(port->overrode.size(), std::size_t(1));
    QCOMPARE(port->overrode[0].value, Value(4));
    QCOMPARE(port->overrode[0].level, std::string("common"));
    QCOMPARE(port->overrode[0].location.line, 5);
    QVERIFY(host->overrode.empty()); // only common holds it
    QCOMPARE(host->origin.line, 6);
}

void TestExplanationReport::markdownReadsBack()
{
    TempTree tree(repository());
    QVERIFY(tree.isValid());
    const Made made = make(tree);
    std::string error;
    const auto tables = markdownTables(made.markdown, &error);
    QVERIFY2(!tables.empty(), (error + "\n" + made.markdown).c_str());
    for (const auto& table : tables) // every row as wide as its header: nothing in the data added a column
        for (const auto& row : table)
            QVERIFY2(row.size() == table.front().size(), made.markdown.c_str());
    const auto* leaves = tableHeaded(tables, "Leaf");
    QVERIFY2(leaves, made.markdown.c_str());
    const auto* port = rowFor(*leaves, "port");
    QVERIFY(port);
    QCOMPARE(port->at(1), std::string("16"));
    QCOMPARE(port->at(2), std::string("data/nodes/n1.yaml:2"));
    QCOMPARE(port->at(3), std::string("4 (data/common.yaml:5)"));
    const auto* note = rowFor(*leaves, "note");
    QVERIFY(note);
    QCOMPARE(note->at(1), std::string(kHostileNote)); // read back as written, not as markup
    const auto* host = rowFor(*leaves, "host");
    QVERIFY(host);
    QCOMPARE(host->at(1), std::string("=cmd|' /C calc'!A0"));
    const auto* consulted = tableHeaded(tables, "Level");
    QVERIFY(consulted);
    QCOMPARE(consulted->size(), std::size_t(1 + 1 + 2)); // header, delimiter row, two levels
    // No raw HTML anywhere outside code: CommonMark would render the script tag.
    for (std::string_view line : testsupport::markdownLines(made.markdown))
        if (line.rfind("```", 0) != 0 && line.find("<script>") != std::string_view::npos)
            QVERIFY2(line.find("`") != std::string_view::npos, std::string(line).c_str());
}

void TestExplanationReport::htmlReadsBack()
{
    TempTree tree(repository());
    QVERIFY(tree.isValid());
    const Made made = make(tree);
    std::string error;
    const auto doc = testsupport::readHtml(made.html, &error);
    QVERIFY2(doc, (error + "\n" + made.html).c_str());
    QVERIFY2(doc->contentSecurityPolicy.find("default-src 'none'") != std::string::npos,
             doc->contentSecurityPolicy.c_str());
    QCOMPARE(doc->title, std::string("Hiera lookup of app::cfg"));
    bool sawNote = false, sawPort = false;
    for (const auto& table : doc->tables)
        for (const auto& row : table) {
            if (row.size() >= 2 && row[0] == "note" && row[1] == kHostileNote)
                sawNote = true;
            if (row.size() >= 4 && row[0] == "port" && row[1] == "16"
                && row[3].find("data/common.yaml:5") != std::string::npos)
                sawPort = true;
        }
    QVERIFY2(sawNote, made.html.c_str());
    QVERIFY2(sawPort, made.html.c_str());
    QVERIFY(made.html.find("<script>") == std::string::npos);
}

void TestExplanationReport::jsonReadsBack()
{
    TempTree tree(repository());
    QVERIFY(tree.isValid());
    const Made made = make(tree);
    std::string error;
    const auto doc = testsupport::readJson(made.json, &error);
    QVERIFY2(doc, (error + "\n" + made.json).c_str());
    const Hash& o = doc->asHash();
    QCOMPARE(*o.find("key"), Value("app::cfg"));
    QCOMPARE(*o.find("result"), Value("found"));
    QCOMPARE(*o.find("value")->asHash().find("note"), Value(kHostileNote));
    QCOMPARE(o.find("consulted")->asArray().size(), std::size_t(2));
    bool sawPort = false;
    for (const Value& leaf : o.find("leaves")->asArray()) {
        const Hash& l = leaf.asHash();
        if (*l.find("path") != Value("port"))
            continue;
        sawPort = true;
        QCOMPARE(*l.find("value"), Value(16));
        const Array& over = l.find("overrode")->asArray();
        QCOMPARE(over.size(), std::size_t(1));
        QCOMPARE(*over[0].asHash().find("value"), Value(4));
    }
    QVERIFY2(sawPort, made.json.c_str());
}

// clang-format off
void TestExplanationReport::cliWritesTheSameReport_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("markdown") << "markdown";
    QTest::newRow("html") << "html";
}
// clang-format on

// The command line writes the document the API writes (the time and the tool's name aside).
void TestExplanationReport::cliWritesTheSameReport()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#else
    QFETCH(QString, format);
    TempTree tree(repository());
    QVERIFY(tree.isValid());
    const CliResult r = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--facts"),
                                        qs(tree.path(QStringLiteral("facts.yaml"))), QStringLiteral("--explain"),
                                        QStringLiteral("--format"), format, QStringLiteral("app::cfg")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const Made made = make(tree);
    const std::string out = r.out.toStdString();
    std::string error;
    if (format == QLatin1String("html")) {
        const auto cli = testsupport::readHtml(out, &error);
        const auto api = testsupport::readHtml(made.html, &error);
        QVERIFY2(cli && api, error.c_str());
        QCOMPARE(cli->tables.size(), api->tables.size());
        for (std::size_t t = 1; t < cli->tables.size(); ++t) // table 0 holds the facts file, tool and time
            QVERIFY(cli->tables[t] == api->tables[t]);
    } else {
        const auto cli = markdownTables(out, &error);
        const auto api = markdownTables(made.markdown, &error);
        QVERIFY2(!cli.empty(), (error + "\n" + out).c_str());
        QVERIFY(cli == api);
    }
#endif
}

QTEST_GUILESS_MAIN(TestExplanationReport)
#include "tst_explanationreport.moc"
