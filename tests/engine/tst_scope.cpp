// The Scope seam (docs/seed-rules.md §3): MapScope's dotted dig, leading ::, absence, arrays by index, quoted
// segments; BoundScope's loop variable over a parent scope.

#include "testutils.h"

#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/nodescope.h>
#include <hiera/scope.h>
#include <hiera/value.h>

#include <QTest>

using namespace hiera;
using namespace testutils;

class TestScope : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void mapScope_data();
    void mapScope();
    void nonHashRootIsEmpty();
    void defaultIsEmpty();
    void rootAccessor();
    void boundScope_data();
    void boundScope();
    void boundScopeNests();
    void scopeFromFacts();
    void nodeScope();
    void nodeScopeOfTree();
    void scopeDifferencesListEachFactOnce();
    void factsFiles_data();
    void factsFiles();
    void factsErrors();

private:
    Value m_facts;
};

void TestScope::initTestCase()
{
    m_facts = yaml("facts:\n"
                   "  os:\n"
                   "    family: Debian\n"
                   "    name: Ubuntu\n"
                   "    release: {major: '22'}\n"
                   "  networking: {fqdn: web01.example.com}\n"
                   "trusted: {certname: web01.example.com}\n"
                   "certname: web01\n"
                   "datacenters: [dc1, dc2]\n"
                   "list: [{name: a}, {name: b}]\n"
                   "port: 8080\n"
                   "enabled: false\n"
                   "\"dotted.name\": dv\n"
                   "\"::odd\": o\n");
}

// clang-format off
void TestScope::mapScope_data()
{
    QTest::addColumn<QString>("ref");
    QTest::addColumn<bool>("present");
    QTest::addColumn<Value>("expected");
    const Value none;
    QTest::newRow("bare") << "certname" << true << Value("web01");
    QTest::newRow("top-scope ::") << "::certname" << true << Value("web01");
    QTest::newRow("dotted") << "facts.os.family" << true << Value("Debian");
    QTest::newRow(":: dotted") << "::facts.os.family" << true << Value("Debian");
    QTest::newRow("trusted") << "trusted.certname" << true << Value("web01.example.com");
    QTest::newRow("whole hash") << "facts.os.release" << true << makeHash({{"major", "22"}});
    QTest::newRow("array") << "datacenters" << true << makeArray({"dc1", "dc2"});
    QTest::newRow("array index") << "datacenters.1" << true << Value("dc2");
    QTest::newRow("array index out of range") << "datacenters.5" << false << none;
    QTest::newRow("negative index") << "datacenters.-1" << false << none;
    QTest::newRow("30-digit index") << "datacenters.999999999999999999999999999999" << false << none;
    QTest::newRow("2^64 + 1 index") << "datacenters.18446744073709551617" << false << none;
    QTest::newRow("name on array") << "datacenters.x" << false << none;
    QTest::newRow("hash in array") << "list.1.name" << true << Value("b");
    QTest::newRow("integer") << "port" << true << Value(8080);
    QTest::newRow("false is present") << "enabled" << true << Value(false);
    QTest::newRow("absent") << "nosuch" << false << none;
    QTest::newRow("absent :: ") << "::nosuch" << false << none;
    QTest::newRow("absent nested") << "facts.os.nosuch" << false << none;
    QTest::newRow("into scalar") << "certname.x" << false << none;
    QTest::newRow("into integer") << "port.x" << false << none;
    QTest::newRow("quoted segment") << "facts.'os'.family" << true << Value("Debian");
    QTest::newRow("double-quoted segment") << "facts.\"os\".name" << true << Value("Ubuntu");
    QTest::newRow("quoted dotted root") << "'dotted.name'" << true << Value("dv");
    QTest::newRow("unquoted dotted root misses") << "dotted.name" << false << none;
    QTest::newRow("case sensitive") << "Certname" << false << none;
    QTest::newRow("no implicit facts prefix") << "os.family" << false << none;
}
// clang-format on

void TestScope::mapScope()
{
    QFETCH(QString, ref);
    QFETCH(bool, present);
    QFETCH(Value, expected);
    const MapScope scope(m_facts);
    const std::optional<Value> v = scope.lookup(ss(ref));
    QCOMPARE(v.has_value(), present);
    if (present)
        QCOMPARE(*v, expected);
}

void TestScope::nonHashRootIsEmpty()
{
    for (const Value& root : {Value(5), makeArray({"a"}), Value("certname"), Value()}) {
        const MapScope scope(root);
        QVERIFY(!scope.lookup("certname").has_value());
        QVERIFY(!scope.lookup("0").has_value());
    }
}

void TestScope::defaultIsEmpty()
{
    const MapScope scope;
    QVERIFY(!scope.lookup("x").has_value());
    QVERIFY(!scope.lookup("::x").has_value());
}

void TestScope::rootAccessor()
{
    const MapScope scope(m_facts);
    QCOMPARE(scope.root(), m_facts);
}

// clang-format off
void TestScope::boundScope_data()
{
    QTest::addColumn<QString>("ref");
    QTest::addColumn<bool>("present");
    QTest::addColumn<Value>("expected");
    QTest::newRow("the variable") << "dc" << true << makeHash({{"name", "ams"}, {"tags", makeArray({"x", "y"})}});
    QTest::newRow("dotted into it") << "dc.name" << true << Value("ams");
    QTest::newRow("index into it") << "dc.tags.1" << true << Value("y");
    QTest::newRow("missing sub-key") << "dc.nosuch" << false << Value();
    QTest::newRow("parent variable") << "certname" << true << Value("web01");
    QTest::newRow("parent dotted") << "facts.os.family" << true << Value("Debian");
    QTest::newRow("prefix is not the variable") << "dcx" << false << Value();
    QTest::newRow("absent") << "nosuch" << false << Value();
    QTest::newRow("shadows parent") << "datacenters" << true << Value("bound");
}
// clang-format on

void TestScope::boundScope()
{
    QFETCH(QString, ref);
    QFETCH(bool, present);
    QFETCH(Value, expected);
    const MapScope parent(m_facts);
    const BoundScope dc(parent, "dc", makeHash({{"name", "ams"}, {"tags", makeArray({"x", "y"})}}));
    // a second binding for the shadowing row
    const BoundScope shadow(dc, "datacenters", Value("bound"));
    const std::optional<Value> v = shadow.lookup(ss(ref));
    QCOMPARE(v.has_value(), present);
    if (present)
        QCOMPARE(*v, expected);
}

void TestScope::boundScopeNests()
{
    const MapScope parent(m_facts);
    const BoundScope scalar(parent, "dc", Value("dc1"));
    QCOMPARE(*scalar.lookup("dc"), Value("dc1"));
    QVERIFY(!scalar.lookup("dc.x").has_value()); // dig into a scalar: absent
    QCOMPARE(*parent.lookup("datacenters.0"), Value("dc1"));
    QVERIFY(!parent.lookup("dc").has_value()); // the parent is unchanged
}

void TestScope::scopeFromFacts()
{
    // puppet lookup --facts: each fact is facts.NAME and the top-scope NAME; --node sets trusted.certname
    const Value facts = yaml("os: {family: Debian}\nnetworking: {fqdn: web01.example.com}\nrole: web\n");
    const MapScope scope(hiera::scopeFromFacts(facts, "web01.example.com"));
    QCOMPARE(*scope.lookup("facts.os.family"), Value("Debian"));
    QCOMPARE(*scope.lookup("os.family"), Value("Debian"));
    QCOMPARE(*scope.lookup("::role"), Value("web"));
    QCOMPARE(*scope.lookup("trusted.certname"), Value("web01.example.com"));
    // No --node: the facts' own certname (clientcert, else fqdn, else networking.fqdn), else no trusted.
    const MapScope noNode(hiera::scopeFromFacts(facts));
    QCOMPARE(*noNode.lookup("trusted.certname"), Value("web01.example.com"));
    const MapScope clientcert(hiera::scopeFromFacts(yaml("clientcert: c1\nfqdn: f1\n")));
    QCOMPARE(*clientcert.lookup("trusted.certname"), Value("c1"));
    const MapScope anonymous(hiera::scopeFromFacts(yaml("role: web\n")));
    QVERIFY(!anonymous.lookup("trusted").has_value());
    // entries of `extra` win over facts at top scope
    const MapScope extra(hiera::scopeFromFacts(facts, {}, makeHash({{"role", "db"}, {"environment", "production"}})));
    QCOMPARE(*extra.lookup("role"), Value("db"));
    QCOMPARE(*extra.lookup("facts.role"), Value("web"));
    QCOMPARE(*extra.lookup("environment"), Value("production"));
}

void TestScope::nodeScope()
{
    // The overlay answers what the materialised tree does, and $environment when nothing else does.
    const Value facts = yaml("clientcert: db01.example.com\nos: {family: RedHat}\nrole: db\n"
                             "trusted: {extensions: {pp_role: db}}\nlist: [a, {b: c}]\n");
    const Value variables = makeHash({{"role", "override"}, {"extra", makeHash({{"x", 1}})}});
    const NodeScope node({facts, certnameFor(facts), "staging", variables});
    Value tree = hiera::scopeFromFacts(facts, {}, variables);
    tree.mutableHash().set("environment", Value("staging"));
    const MapScope expected(tree);
    for (const char* ref : {"facts.os.family", "os.family", "::os", "role", "facts.role", "extra.x", "trusted",
                            "trusted.certname", "trusted.extensions.pp_role", "::trusted.certname", "environment",
                            "::environment", "environment.x", "list.1.b", "facts.'os'.family", "nope", "", "::"})
        QCOMPARE(node.lookup(ref), expected.lookup(ref));
    QCOMPARE(*node.lookup("trusted.certname"), Value("db01.example.com"));
    QCOMPARE(*node.lookup("environment"), Value("staging"));
    // A fact named environment does not answer for $environment (Puppet: "The node parameter
    // 'environment' ... could not be set"); it stays facts.environment. A host's variable does.
    const NodeScope own({yaml("environment: dev\n"), {}, "staging", Value()});
    QCOMPARE(*own.lookup("environment"), Value("staging"));
    QCOMPARE(*own.lookup("::environment"), Value("staging"));
    QCOMPARE(*own.lookup("facts.environment"), Value("dev"));
    QVERIFY(!hiera::scopeFromFacts(yaml("environment: dev\n")).asHash().contains("environment"));
    const NodeScope chosen({yaml("environment: dev\n"), {}, "staging", makeHash({{"environment", "mine"}})});
    QCOMPARE(*chosen.lookup("environment"), Value("mine"));
    // Without a trusted hash in the facts, trusted is Puppet's local one, split from the certname.
    const NodeScope local(
        {yaml("clientcert: web01.dc1.example.com\n"), "web01.dc1.example.com", "production", Value()});
    QCOMPARE(*local.lookup("trusted.hostname"), Value("web01"));
    QCOMPARE(*local.lookup("trusted.domain"), Value("dc1.example.com"));
    QCOMPARE(*local.lookup("trusted.authenticated"), Value("local"));
    QCOMPARE(*local.lookup("trusted"),
             *MapScope(hiera::scopeFromFacts(yaml("clientcert: web01.dc1.example.com\n"))).lookup("trusted"));
    const NodeScope bare({yaml("clientcert: db7\n"), "db7", "production", Value()});
    QCOMPARE(*bare.lookup("trusted.hostname"), Value("db7"));
    QVERIFY(bare.lookup("trusted.domain")->isNull());
    // No certname: no trusted overlay; the facts' own trusted fact, if any, shows through.
    const NodeScope anonymous({yaml("trusted: plain\n"), {}, {}, Value()});
    QCOMPARE(*anonymous.lookup("trusted"), Value("plain"));
    QVERIFY(!anonymous.lookup("environment").has_value());
    // Facts that are not a hash are no facts.
    const NodeScope none({Value("text"), {}, {}, Value()});
    QCOMPARE(*none.lookup("facts"), Value(Hash()));
}

void TestScope::nodeScopeOfTree()
{
    // The explorer's fact tree: its rows answer, $environment under them.
    const Value tree = hiera::scopeFromFacts(yaml("role: web\nclientcert: w1\n"));
    const NodeScope scope = NodeScope::ofTree(tree, "production");
    const MapScope map(tree);
    for (const char* ref : {"role", "facts.role", "trusted.certname", "trusted", "clientcert", "nope"})
        QCOMPARE(scope.lookup(ref), map.lookup(ref));
    QCOMPARE(*scope.lookup("::environment"), Value("production"));
    QVERIFY(!NodeScope::ofTree(tree, {}).lookup("environment").has_value());
}

void TestScope::scopeDifferencesListEachFactOnce()
{
    // An edited fact shows as facts.<path> once, not again as its top-scope copy; a variable of its own
    // (a row that is not its fact's copy) is listed by name.
    const Value file = hiera::scopeFromFacts(yaml("role: web\nos: {family: Debian}\nclientcert: w1\n"));
    Value edited = hiera::scopeFromFacts(yaml("role: db\nos: {family: Debian}\nclientcert: w1\n"));
    edited.mutableHash().set("extra", Value("x"));
    const std::vector<LeafDifference> d = scopeDifferences(file, edited);
    QCOMPARE(d.size(), std::size_t(2));
    QCOMPARE(d[0].path, std::string("facts.role"));
    QCOMPARE(*d[0].before, Value("web"));
    QCOMPARE(*d[0].after, Value("db"));
    QCOMPARE(d[1].path, std::string("extra"));
    QVERIFY(!d[1].before);
    QVERIFY(scopeDifferences(file, file).empty());
}

// clang-format off
void TestScope::factsFiles_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("facter -y") << "facts.yaml" << QByteArray("os:\n  family: Debian\nport: 22\n");
    QTest::newRow("facter -j") << "facts.json" << QByteArray(R"({"os": {"family": "Debian"}, "port": 22})");
    QTest::newRow("puppet facts wrapper")
        << "node.json" << QByteArray(R"({"name": "web01", "values": {"os": {"family": "Debian"}, "port": 22}})");
    QTest::newRow("puppet facts wrapper yaml")
        << "node.yaml" << QByteArray("name: web01\nvalues:\n  os: {family: Debian}\n  port: 22\n");
}
// clang-format on

void TestScope::factsFiles()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    TempTree tree({{name, content}});
    QVERIFY(tree.isValid());
    Value facts;
    try {
        facts = hiera::loadFactsFile(tree.path(name));
    } catch (const Error& e) {
        QFAIL(e.what());
    }
    QVERIFY(facts.isHash());
    QCOMPARE(*facts.asHash().find("port"), Value(22));
    QCOMPARE(*facts.asHash().find("os"), makeHash({{"family", "Debian"}}));
    QCOMPARE(hiera::parseFacts(content.toStdString(), "inline"), facts);
}

void TestScope::factsErrors()
{
    TempTree tree({{"bad.yaml", "os: [\n"}, {"list.yaml", "- a\n"}});
    QVERIFY(tree.isValid());
    for (const char* name : {"bad.yaml", "list.yaml", "missing.yaml"}) {
        const auto err = catchError([&] { hiera::loadFactsFile(tree.path(name)); });
        QVERIFY2(err.has_value(), name);
        QVERIFY2(QByteArray(err->what()).contains(name), err->what());
    }
}

QTEST_APPLESS_MAIN(TestScope)
#include "tst_scope.moc"
