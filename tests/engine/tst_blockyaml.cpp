// The fast block-YAML reader (engine/src/parse/blockyaml.cpp) against yaml-cpp: whenever the reader takes
// a text, it must emit yaml-cpp's events exactly, marks included; and it must take the plain block
// YAML that hiera data is written in (or it would be dead code that only looks fast). The fuzz target
// fuzz/fuzz_blockyaml.cpp checks the same claim on generated inputs.

#include "parse/blockyaml.h"
#include "support/testpaths.h"
#include "support/yamleventlog.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <string>

using hiera::testing::yamlCppEvents;
using hiera::testing::YamlEventLog;

namespace {

// Reads `text` with the block reader; when it takes it, checks yaml-cpp agrees. Returns whether it took it.
bool agrees(const std::string& text, QString* failure)
{
    YamlEventLog fast;
    if (!hiera::detail::parseBlockYaml(text, fast))
        return false;
    bool ok = false;
    const std::string expected = yamlCppEvents(text, ok);
    if (!ok || expected != fast.text)
        *failure = QString::fromStdString("input:\n" + text + "\n--- yaml-cpp:" + expected
                                          + "\n--- block reader:" + fast.text);
    return true;
}

QStringList yamlFilesUnder(const QString& dir, const QStringList& patterns = {"*.yaml", "*.yml", "*.eyaml"})
{
    QStringList files;
    QDirIterator it(dir, patterns, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

std::string readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

} // namespace

class TestBlockYaml : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void subset_data();
    void subset();
    void demoDataIsWithinTheSubset();
    void filesAgree_data();
    void filesAgree();
    void mutationsAgree();
};

// clang-format off
void TestBlockYaml::subset_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("taken");

    // What hiera data is written in: the reader takes it.
    QTest::newRow("flat mapping") << QByteArray("a: 1\nb: two words\nc: true\n") << true;
    QTest::newRow("document marker and comments")
        << QByteArray("--- # data\n# about a\na: 1 # one\n\n  # indented comment\nb: x#y\n") << true;
    QTest::newRow("nested mappings") << QByteArray("x:\n  a: 1\n  b:\n    c: d\nz: 1\n") << true;
    QTest::newRow("sequence under a key") << QByteArray("k:\n  - a\n  - b c\n") << true;
    QTest::newRow("indentless sequence") << QByteArray("a:\n- x\n- y\nb: 2\n") << true;
    QTest::newRow("compact mappings in a sequence")
        << QByteArray("users:\n  - name: ann\n    uid: 1\n  -   name: bob\n      groups:\n      - ops\n") << true;
    QTest::newRow("root sequence") << QByteArray("- a\n- b:\n- c\n") << true;
    QTest::newRow("empty values") << QByteArray("a:\nb:\n  c:\n\n# c\nd:\n- \n-\n") << true;
    QTest::newRow("null spellings") << QByteArray("a: ~\nb: null\nc: Null\nd: NULL\ne: nULL\n~: k\n") << true;
    QTest::newRow("quoted keys and values")
        << QByteArray("'k': 'it''s'\n\"q\" : \"x y\"\nempty: ''\nhash: '#not a comment'\n") << true;
    QTest::newRow("colons and dashes in plain scalars")
        << QByteArray("url: http://x:8080/p\nneg: -1\nopt: -x\nratio: 1:2\nkey with spaces  : v\n") << true;
    QTest::newRow("interpolation") << QByteArray("a: \"%{facts.os.family}\"\nb: '%{lookup(\"x\")}'\nc: x-%{::role}\n")
                                   << true;
    QTest::newRow("one-line flow sequences")
        << QByteArray("a: [x, 'y', \"z w\", http://h:1, -1]\nb: []\nc: { }\nd: [~, null, v]\n") << true;
    QTest::newRow("one-line flow mappings, nested")
        << QByteArray("users: {alice: {uid: 100, shell: zsh}, 'bob': {groups: [ops, dev]}}\nl: [[1, 2], {k: v}]\n")
        << true;
    QTest::newRow("literal blocks")
        << QByteArray("a: |\n  l1\n\n  l2\n\nb: |-\n   x\n  \nc: |+\n  y\n\n\nd: |\n\n  after blank\ne: |\n\nf: 1\n")
        << true;
    QTest::newRow("folded blocks")
        << QByteArray("a: >\n  x\n  y\n\n  z\nb: >-\n  p\n  q\nd: >\n\n  s\n") << true;
    QTest::newRow("eyaml value") << QByteArray("pw: >\n  ENC[PKCS7,MIIBeQYJKoZIhvcNAQcDoIIBajCCAWYCAQAxggEhMIIBHQIBADAF\n"
                                               "  DQYJKoZIhvcNAQEBBQAEggEAX9uoi83Ar16F/g23]\nuser: svc\n")
                                 << true;
    QTest::newRow("blocks ending the text without a line break")
        << QByteArray("a: |\n  x\n  y\nb: >\n  ENC[PKCS7,MIIB\n  DQYJ]") << true;
    QTest::newRow("literal block in a sequence") << QByteArray("- |\n  x\n  # kept\n- y\n") << true;
    QTest::newRow("merge key with a block mapping") << QByteArray("a:\n  <<:\n    x: 1\n  y: 2\n") << true;
    QTest::newRow("keys with colons") << QByteArray("profile::base::ntp_servers:\n  - a\nx::y: 1\na:b: c\nq:\n  r::s:t: u\n")
                                      << true;
    QTest::newRow("hash signs before and after the colon")
        << QByteArray("a#b: c\nk: v # c: d\nm::n: # x: y\n  o: p\n") << true;
    QTest::newRow("comment before any colon") << QByteArray("a #b: c\n") << false;
    QTest::newRow("UTF-8") << QByteArray("\xC3\xA9: 1\nb: \xC3\xA9 x\nc: [\xE2\x82\xAC, d]\n") << true;
    QTest::newRow("mapping indented as a whole") << QByteArray("  a: 1\n  b: 2\n") << true;
    QTest::newRow("CRLF line breaks")
        << QByteArray("---\r\na: 1\r\nb:\r\n  - x # c\r\n  - 'y'\r\nc: |\r\n  l1\r\n\r\n  l2\r\nd: >-\r\n  f1\r\n  f2\r\ne:\r\n")
        << true;
    QTest::newRow("no line break at the end") << QByteArray("a: 1\nb: x") << true;
    QTest::newRow("empty text") << QByteArray("") << true;
    QTest::newRow("only comments") << QByteArray("# nothing\n\n") << true;
    QTest::newRow("only a document marker") << QByteArray("---\n") << true;

    // Everything else goes to yaml-cpp.
    QTest::newRow("anchor and alias") << QByteArray("a: &x 1\nb: *x\n") << false;
    QTest::newRow("tag") << QByteArray("a: !!str 1\n") << false;
    QTest::newRow("escape in double quotes") << QByteArray("a: \"x\\ty\"\n") << false;
    QTest::newRow("multi-line plain scalar") << QByteArray("a: b\n  c\n") << false;
    QTest::newRow("multi-line quoted scalar") << QByteArray("a: 'x\n  y'\n") << false;
    QTest::newRow("scalar on its own line") << QByteArray("a:\n  value\n") << false;
    QTest::newRow("folded block with a more-indented line") << QByteArray("a: >\n  x\n    y\n") << false;
    QTest::newRow("folded block, kept line breaks") << QByteArray("c: >+\n  r\n\n\nd: 1\n") << false;
    QTest::newRow("indentation indicator") << QByteArray("a: |2\n   x\n") << false;
    QTest::newRow("spaces past the block's indentation") << QByteArray("a: |\n  x\n     \n") << false;
    QTest::newRow("flow mapping without a space after the colon") << QByteArray("a: {b:1}\n") << false;
    QTest::newRow("flow mapping entry without a value") << QByteArray("a: {b}\n") << false;
    QTest::newRow("one-pair mapping in a flow sequence") << QByteArray("a: [b: 1]\n") << false;
    QTest::newRow("multi-line flow") << QByteArray("a: [1,\n  2]\n") << false;
    QTest::newRow("trailing comma") << QByteArray("a: [1, 2,]\n") << false;
    QTest::newRow("tab") << QByteArray("a:\t1\n") << false;
    QTest::newRow("lone CR") << QByteArray("a: 1\rb: 2\n") << false;
    QTest::newRow("CR before CR LF") << QByteArray("a: 1\r\r\n") << false;
    QTest::newRow("control character") << QByteArray("a:\x04 1\n") << false;
    QTest::newRow("NEL") << QByteArray("a: x\xC2\x85y\n") << false;
    QTest::newRow("second document") << QByteArray("a: 1\n---\nb: 2\n") << false;
    QTest::newRow("document end") << QByteArray("a: 1\n...\n") << false;
    QTest::newRow("directive") << QByteArray("%YAML 1.1\n---\na: 1\n") << false;
    QTest::newRow("complex key") << QByteArray("? a\n: b\n") << false;
    QTest::newRow("mapping in a value") << QByteArray("a: b: c\n") << false;
    QTest::newRow("key longer than 1000 bytes") << QByteArray(std::string(1100, 'k').append(": v\n").c_str()) << false;
    QTest::newRow("empty value at an unterminated end") << QByteArray("a:\n  b:") << false;
    QTest::newRow("nested compact sequence") << QByteArray("- - x\n") << false;
    QTest::newRow("root scalar") << QByteArray("just text\n") << false;
    QTest::newRow("bad indentation") << QByteArray("a:\n  b: 1\n c: 2\n") << false;
    QTest::newRow("junk after a quoted scalar") << QByteArray("a: 'x' y\n") << false;
    QTest::newRow("unterminated quote") << QByteArray("a: 'x\n") << false;

    // What fuzz_blockyaml found while the reader was written (docs/bad-input.md): each disagreed with
    // yaml-cpp before the fix.
    QTest::newRow("fuzz: indented document marker") << QByteArray("   ---") << false;
    QTest::newRow("fuzz: control character after a colon") << QByteArray("n:\x04  ~: n\nf: ok\n") << false;
    QTest::newRow("fuzz: null before unterminated spaces") << QByteArray("---\nk:\n  - #q\n  ") << false;
    QTest::newRow("fuzz: null before an unterminated comment") << QByteArray("\n  - #q:- \n#q") << false;
    QTest::newRow("fuzz: document end marker with text") << QByteArray("a: 1\nb:\n...   c: d\n") << false;
    QTest::newRow("fuzz: kept block before unterminated spaces")
        << QByteArray("lt: |+\n\n\n lt: |+\n\n\n ") << true;
    QTest::newRow("fuzz: folded block before unterminated spaces") << QByteArray("a: >\n  x\n  y:\n  ") << false;
    QTest::newRow("fuzz: key just over yaml-cpp's 1024 bytes")
        << QByteArray(("a:\n  " + std::string(1030, 'w') + ": 394\n").c_str()) << false;
}
// clang-format on

void TestBlockYaml::subset()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, taken);
    QString failure;
    QCOMPARE(agrees(text.toStdString(), &failure), taken);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

// The bundled demo is ordinary hiera data, so every data file of it should take the fast path.
void TestBlockYaml::demoDataIsWithinTheSubset()
{
    const QStringList files = yamlFilesUnder(testpaths::demoDir() + QStringLiteral("/data"));
    QVERIFY(files.size() >= 10);
    for (const QString& file : files) {
        QString failure;
        QVERIFY2(agrees(readAll(file), &failure), qPrintable(file + " was not taken by the block reader"));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }
}

// clang-format off
void TestBlockYaml::filesAgree_data()
{
    QTest::addColumn<QString>("dir");
    QTest::newRow("demo") << testpaths::demoDir();
    QTest::newRow("conformance cases") << testpaths::sourceDir() + QStringLiteral("/../shared/conformance");
    QTest::newRow("real-world repositories") << testpaths::sourceDir() + QStringLiteral("/../shared/realworld");
    QTest::newRow("yaml fuzz corpus") << testpaths::sourceDir() + QStringLiteral("/fuzz/corpus/fuzz_yaml");
    QTest::newRow("block fuzz corpus") << testpaths::sourceDir() + QStringLiteral("/fuzz/corpus/fuzz_blockyaml");
}
// clang-format on

void TestBlockYaml::filesAgree()
{
    QFETCH(QString, dir);
    if (!QFileInfo::exists(dir))
        QSKIP(qPrintable(dir + " is not here"));
    // libFuzzer names its inputs by hash, without an extension.
    const QStringList files = dir.contains("fuzz/corpus") ? yamlFilesUnder(dir, {"*"}) : yamlFilesUnder(dir);
    int taken = 0;
    for (const QString& file : files) {
        QString failure;
        taken += agrees(readAll(file), &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(file + "\n" + failure));
    }
    qInfo("%d of %d files taken by the block reader", taken, int(files.size()));
    QVERIFY(taken > 0);
}

// Small edits of the demo's files (a line dropped, doubled, indented or dedented by one, a byte
// dropped, CRLF line breaks): well-formed or not, whatever the reader takes must match yaml-cpp.
void TestBlockYaml::mutationsAgree()
{
    int checked = 0, taken = 0;
    for (const QString& file : yamlFilesUnder(testpaths::demoDir() + QStringLiteral("/data"))) {
        const std::string text = readAll(file);
        std::vector<std::size_t> lineStarts{0};
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n' && i + 1 < text.size())
                lineStarts.push_back(i + 1);
        std::vector<std::string> variants;
        for (std::size_t l = 0; l < lineStarts.size(); ++l) {
            const std::size_t start = lineStarts[l];
            const std::size_t end = l + 1 < lineStarts.size() ? lineStarts[l + 1] : text.size();
            const std::string line = text.substr(start, end - start);
            variants.push_back(text.substr(0, start) + text.substr(end));
            variants.push_back(text.substr(0, start) + line + line + text.substr(end));
            variants.push_back(text.substr(0, start) + " " + text.substr(start));
            if (text[start] == ' ')
                variants.push_back(text.substr(0, start) + text.substr(start + 1));
        }
        for (std::size_t i = 0; i < text.size(); i += 7)
            variants.push_back(text.substr(0, i) + text.substr(i + 1));
        std::string crlf; // the whole file with CRLF line breaks
        for (const char c : text)
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        variants.push_back(crlf);
        for (const std::string& v : variants) {
            QString failure;
            taken += agrees(v, &failure);
            ++checked;
            QVERIFY2(failure.isEmpty(), qPrintable(file + "\n" + failure));
        }
    }
    qInfo("%d edits checked, %d taken by the block reader", checked, taken);
    QVERIFY(checked > 1000);
    QVERIFY(taken > checked / 4);
}

QTEST_GUILESS_MAIN(TestBlockYaml)
#include "tst_blockyaml.moc"
