// One node of a PuppetDB export read and written back: the entry keeps its shape and members, the other
// entries and every type stay as they were, a node that is gone is nothing (not an error), and a broken
// export is one located error.

#include "testutils.h"

#include <hiera/error.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodes/puppetdbexport.h>
#include <hiera/valueformat.h>

#include <QTest>

#include <tuple>
#include <vector>

using namespace hiera;
using namespace testutils;

class TestPuppetDBExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsTheEntry();
    void replaceKeepsShapesAndTheOtherNodes();
    void onlyTheFactListChangesInTheText();
    void entriesTheScanCannotFollow();
    void yamlExportStaysYaml();
    void loneFactset();
    void goneNodeIsNothing();
    void brokenExportIsLocated();
    void factsWithoutAPuppetDBForm();
    void replaceSaysThePreviousFacts();
};

namespace {

// Both shapes of `facts`, members around them, and values whose JSON types must survive.
const char* const kExport = R"([
  {"certname": "db1.example.com", "environment": "production", "hash": "abc",
   "facts": {"href": "/pdb/query/v4/factsets/db1.example.com/facts",
             "data": [{"name": "role", "value": "db"}, {"name": "cores", "value": 8},
                      {"name": "load", "value": 1.0}, {"name": "flag", "value": "true"}]},
   "producer": "puppet.example.com"},
  {"certname": "web1.example.com", "environment": "staging",
   "facts": [{"name": "role", "value": "web"}, {"name": "uptime", "value": 12345678901},
             {"name": "ratio", "value": 0.1}, {"name": "on", "value": true}, {"name": "none", "value": null}]},
  {"certname": "web2.example.com", "facts": [{"name": "role", "value": "web"}]}
])";

// web1's facts as written back into kExport, role changed: indented as the line the list starts on.
const char* const kWeb1List = "[\n"
                              "     {\n"
                              "       \"name\": \"role\",\n"
                              "       \"value\": \"db\"\n"
                              "     },\n"
                              "     {\n"
                              "       \"name\": \"uptime\",\n"
                              "       \"value\": 12345678901\n"
                              "     },\n"
                              "     {\n"
                              "       \"name\": \"ratio\",\n"
                              "       \"value\": 0.1\n"
                              "     },\n"
                              "     {\n"
                              "       \"name\": \"on\",\n"
                              "       \"value\": true\n"
                              "     },\n"
                              "     {\n"
                              "       \"name\": \"none\",\n"
                              "       \"value\": null\n"
                              "     }\n"
                              "   ]";

Value parsed(const std::string& text)
{
    return parseData(text, "export.json", DataFormat::Json);
}

const Value& at(const Value& v, std::string_view key)
{
    const Value* found = v.asHash().find(key);
    if (!found)
        throw std::runtime_error("no " + std::string(key));
    return *found;
}

} // namespace

void TestPuppetDBExport::findsTheEntry()
{
    const auto db = findPuppetDBFactset(kExport, "export.json", "db1.example.com");
    QVERIFY(db);
    QCOMPARE(db->environment, std::string("production"));
    QCOMPARE(toJson(db->facts), std::string(R"({"role":"db","cores":8,"load":1.0,"flag":"true"})"));
    const auto web = findPuppetDBFactset(kExport, "export.json", "web1.example.com");
    QVERIFY(web);
    QCOMPARE(at(web->facts, "uptime").type(), Value::Type::Integer);
    QCOMPARE(at(web->facts, "ratio").type(), Value::Type::Float);
}

void TestPuppetDBExport::replaceKeepsShapesAndTheOtherNodes()
{
    const Value before = parsed(kExport);
    // The data-wrapped shape.
    Value dbFacts = findPuppetDBFactset(kExport, "export.json", "db1.example.com")->facts;
    dbFacts.mutableHash().set("role", Value("database"));
    dbFacts.mutableHash().set("new", makeArray({Value(std::int64_t(1)), Value(2.5)}));
    const auto written = replacePuppetDBFacts(kExport, "export.json", "db1.example.com", dbFacts);
    QVERIFY(written);
    const Value after = parsed(*written);
    QCOMPARE(after.asArray().size(), std::size_t(3));
    const Value& db = after.asArray()[0];
    // Members, and their order, kept; only facts.data changed.
    std::vector<std::string> keys;
    for (const auto& e : db.asHash())
        keys.push_back(e.key.asString());
    QCOMPARE(keys, (std::vector<std::string>{"certname", "environment", "hash", "facts", "producer"}));
    QCOMPARE(toJson(at(at(db, "facts"), "href")), std::string(R"("/pdb/query/v4/factsets/db1.example.com/facts")"));
    QCOMPARE(toJson(at(at(db, "facts"), "data")),
             std::string(R"([{"name":"role","value":"database"},{"name":"cores","value":8},)"
                         R"({"name":"load","value":1.0},{"name":"flag","value":"true"},)"
                         R"({"name":"new","value":[1,2.5]}])"));
    QVERIFY(orderedEqual(after.asArray()[1], before.asArray()[1]));
    QVERIFY(orderedEqual(after.asArray()[2], before.asArray()[2]));

    // The plain-array shape, through the library that reads it.
    Value webFacts = findPuppetDBFactset(*written, "export.json", "web1.example.com")->facts;
    webFacts.mutableHash().set("ratio", Value(0.25));
    const auto again = replacePuppetDBFacts(*written, "export.json", "web1.example.com", webFacts);
    QVERIFY(again);
    const Value web = parsed(*again).asArray()[1];
    QVERIFY(at(web, "facts").isArray());
    TempTree tree({{QStringLiteral("export.json"), QByteArray::fromStdString(*again)}});
    const NodeLibrary library = NodeLibrary::load(tree.path(QStringLiteral("export.json")));
    QVERIFY(library.errors().empty());
    QCOMPARE(library.size(), std::size_t(3));
    const Value readBack = library.find("web1.example.com")->facts();
    QCOMPARE(toJson(readBack),
             std::string(R"({"role":"web","uptime":12345678901,"ratio":0.25,"on":true,"none":null})"));
    QVERIFY(orderedEqual(library.find("db1.example.com")->facts(), dbFacts));
    QCOMPARE(library.find("web1.example.com")->environment, std::string("staging"));
}

void TestPuppetDBExport::onlyTheFactListChangesInTheText()
{
    const std::string text = kExport;
    Value facts = findPuppetDBFactset(text, "export.json", "web1.example.com")->facts;
    facts.mutableHash().set("role", Value("db"));
    const auto written = replacePuppetDBFacts(text, "export.json", "web1.example.com", facts);
    QVERIFY(written);
    // Everything before web1's fact list and after it is the export's own text.
    const std::size_t begin = text.find(R"("facts": [{"name": "role", "value": "web"}, {"name": "uptime")") + 9;
    const std::size_t end = text.find(R"(]},
  {"certname": "web2)")
        + 1;
    QCOMPARE(written->substr(0, begin), text.substr(0, begin));
    QVERIFY(written->ends_with(text.substr(end)));
    // The new list, pretty-printed and indented as its line.
    const std::string list = written->substr(begin, written->size() - begin - (text.size() - end));
    QCOMPARE(list, std::string(kWeb1List));
    QCOMPARE(toJson(findPuppetDBFactset(*written, "export.json", "web1.example.com")->facts), toJson(facts));

    // A one-line export with strings that hold brackets and escaped quotes.
    const std::string compact =
        R"([{"certname":"a","facts":[{"name":"x","value":"]}\"["}]},{"certname":"b","facts":[]}])";
    Value a = findPuppetDBFactset(compact, "c.json", "a")->facts;
    a.mutableHash().set("y", Value(std::int64_t(1)));
    const auto one = replacePuppetDBFacts(compact, "c.json", "a", a);
    QVERIFY(one);
    QVERIFY2(one->starts_with(R"([{"certname":"a","facts":[)") && one->ends_with(R"(]},{"certname":"b","facts":[]}])"),
             one->c_str());
    QCOMPARE(toJson(findPuppetDBFactset(*one, "c.json", "a")->facts), std::string(R"({"x":"]}\"[","y":1})"));
    QCOMPARE(toJson(findPuppetDBFactset(*one, "c.json", "b")->facts), std::string("{}"));
}

// The quick scan gives up on what is not an array of objects (the whole document is parsed then, with
// the same result), and a bad entry it finds is reported at its line in the file, not in the entry.
// The entry's facts before the replacement come from the same pass, equal to what findPuppetDBFactset
// reads, whether the entry was found by the scan, by reading the whole export, or in YAML.
void TestPuppetDBExport::replaceSaysThePreviousFacts()
{
    const std::string mixed = "[\"junk\", {\"certname\": \"a\",\n  \"facts\": [{\"name\": \"x\", \"value\": 1}]}]";
    const std::string yaml = "- certname: y1\n  facts:\n  - {name: role, value: web}\n  - {name: port, value: '80'}\n";
    const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
        {kExport, "export.json", "db1.example.com"},
        {kExport, "export.json", "web1.example.com"},
        {mixed, "m.json", "a"},
        {yaml, "export.yaml", "y1"},
    };
    for (const auto& [text, file, node] : cases) {
        const Value before = findPuppetDBFactset(text, file, node)->facts;
        Value previous;
        QVERIFY(replacePuppetDBFacts(text, file, node, Value(Hash()), {}, &previous));
        QVERIFY2(previous == before, (file + " " + node + ": " + toJson(previous)).c_str());
        QVERIFY(previous.isHash() && !previous.asHash().empty());
    }
    Value untouched("unchanged");
    QVERIFY(!replacePuppetDBFacts(kExport, "export.json", "gone.example.com", Value(Hash()), {}, &untouched));
    QCOMPARE(untouched, Value("unchanged"));
}

void TestPuppetDBExport::entriesTheScanCannotFollow()
{
    const std::string mixed = "[\"junk\", {\"certname\": \"a\",\n  \"facts\": [{\"name\": \"x\", \"value\": 1}]}]";
    Value facts = findPuppetDBFactset(mixed, "m.json", "a")->facts;
    facts.mutableHash().set("x", Value(std::int64_t(2)));
    const auto written = replacePuppetDBFacts(mixed, "m.json", "a", facts);
    QVERIFY(written);
    QVERIFY2(written->starts_with("[\"junk\", {\"certname\": \"a\",\n  \"facts\": [\n    {")
                 && written->ends_with("  ]}]"),
             written->c_str());
    QCOMPARE(toJson(findPuppetDBFactset(*written, "m.json", "a")->facts), std::string(R"({"x":2})"));
    QVERIFY(!replacePuppetDBFacts(mixed, "m.json", "b", facts));

    // Text after the array (here YAML: a mapping whose key is the array) is not a JSON export: it is
    // read whole, and never spliced into (fuzz_puppetdbexport: the written text no longer parsed).
    const std::string trailing = "[{\"certname\": \"a\", \"facts\": []}]:";
    try {
        const auto set = findPuppetDBFactset(trailing, "t.json", "a");
        const auto out = replacePuppetDBFacts(trailing, "t.json", "a", facts);
        QVERIFY(!set && !out);
    } catch (const Error& e) {
        QVERIFY2(QByteArray(e.what()).startsWith("t.json"), e.what());
    }

    const std::string bad =
        "[\n  {\"certname\": \"ok\", \"facts\": []},\n  {\"certname\": \"bad\", \"facts\": [{\"value\": 1}]}\n]";
    try {
        (void)findPuppetDBFactset(bad, "/tmp/bad.json", "bad");
        QFAIL("no error");
    } catch (const Error& e) {
        QVERIFY2(QByteArray(e.what()).startsWith("/tmp/bad.json:3:"), e.what());
    }
}

void TestPuppetDBExport::yamlExportStaysYaml()
{
    const std::string yaml = "- certname: y1\n  facts:\n  - {name: role, value: web}\n  - {name: port, value: '80'}\n";
    Value facts = findPuppetDBFactset(yaml, "export.yaml", "y1")->facts;
    facts.mutableHash().set("role", Value("db"));
    const auto written = replacePuppetDBFacts(yaml, "export.yaml", "y1", facts);
    QVERIFY(written);
    QVERIFY2(written->rfind("---", 0) == 0, written->c_str());
    const auto back = findPuppetDBFactset(*written, "export.yaml", "y1");
    QCOMPARE(toJson(back->facts), std::string(R"({"role":"db","port":"80"})"));
}

void TestPuppetDBExport::loneFactset()
{
    const std::string one = R"({"certname": "solo", "facts": {"data": [{"name": "a", "value": 1}], "href": "h"}})";
    Value facts = findPuppetDBFactset(one, "solo.json", "solo")->facts;
    facts.mutableHash().set("a", Value(std::int64_t(2)));
    const auto written = replacePuppetDBFacts(one, "solo.json", "solo", facts);
    QVERIFY(written);
    QCOMPARE(toJson(parsed(*written)),
             std::string(R"({"certname":"solo","facts":{"data":[{"name":"a","value":2}],"href":"h"}})"));
}

void TestPuppetDBExport::goneNodeIsNothing()
{
    QVERIFY(!findPuppetDBFactset(kExport, "export.json", "gone.example.com"));
    QVERIFY(!replacePuppetDBFacts(kExport, "export.json", "gone.example.com", Value(Hash())));
}

void TestPuppetDBExport::brokenExportIsLocated()
{
    const std::string broken = "[\n  {\"certname\": \"a\",\n   \"facts\": [}\n]";
    try {
        (void)replacePuppetDBFacts(broken, "/tmp/export.json", "a", Value(Hash()));
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(e.location().file, std::string("/tmp/export.json"));
        QCOMPARE(e.location().line, 3);
        QVERIFY2(QByteArray(e.what()).startsWith("/tmp/export.json:3:"), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(Error, findPuppetDBFactset("{\"role\": \"web\"}", "facts.json", "a"));
}

void TestPuppetDBExport::factsWithoutAPuppetDBForm()
{
    Hash facts;
    facts.set(Value(std::int64_t(5)), Value("x"));
    QVERIFY_THROWS_EXCEPTION(Error, replacePuppetDBFacts(kExport, "export.json", "web2.example.com", Value(facts)));
    // A key that is not a string deep in a fact's value (a YAML export can hold one): JSON would write it
    // as a string, and a null key and an empty string key would read back as one (fuzz_puppetdbexport).
    Hash inner;
    inner.set(Value(), Value("null key"));
    inner.set(Value(""), Value("empty key"));
    Hash deep;
    deep.set("disks", Value(Array{Value(std::int64_t(1)), Value(std::move(inner))}));
    try {
        (void)replacePuppetDBFacts(kExport, "export.json", "web2.example.com", Value(deep));
        QFAIL("no error");
    } catch (const Error& e) {
        QVERIFY2(QByteArray(e.what()).contains("disks") && !QByteArray(e.what()).contains('\n'), e.what());
    }
}

QTEST_APPLESS_MAIN(TestPuppetDBExport)
#include "tst_puppetdbexport.moc"
