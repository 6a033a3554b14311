// Interpolation (docs/hiera-reference.md §3 and the edge cases §8 items 44-59, with the seed's Scope rules), tested
// through lookups in a temporary two-level hierarchy.

#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/scope.h>
#include <hiera/trace.h>

#include <QTest>

#include <atomic>
#include <memory>

using namespace hiera;
using namespace testutils;

static const char* kHigh = R"YAML(plain: "%{osfamily}"
top: "%{::osfamily}"
dotted: "%{facts.os.family}"
scope1: "%{scope('osfamily')}"
scope2: '%{scope("facts.os.family")}'
scope3: "%{scope('::osfamily')}"
mixed: "x-%{osfamily}-%{facts.os.name}-y"
ws: "%{ osfamily }"
wstab: "%{	osfamily	}"
quotedvar: "%{'osfamily'}"
quotedseg: "%{facts.'os'.name}"
hashfact: "%{facts.os.release}"
arrfact: "%{facts.dcs}"
arrmiss: "[%{facts.dcs.9}]"
arridx: "%{facts.lh.1.name}"
boolfact: "%{facts.boolf}"
booltrue: "%{facts.boolt}"
numfact: "%{facts.num}"
flfact: "%{facts.fl}"
bigfact: "%{facts.big}"
e15fact: "%{facts.e15}"
e15key: {"%{facts.e15}": v}
e15lookup: "%{lookup('e15list')}"
e15list: [1.0e+15, 100000000000000.0, 1.5e+15]
nulfact: "[%{facts.nul}]"
hashnil: "%{facts.hashnil}"
intoscalar: "[%{facts.os.family.x}]"
intonum: "[%{facts.num.x}]"
undef: "[%{nosuch}]"
trustedundef: "[%{trusted.certname}]"
env: "%{environment}"
empty1: "[%{}]"
empty2: "[%{::}]"
empty3: "[%{''}]"
empty4: '[%{""}]'
empty5: "[%{ }]"
empty6: "[%{'::'}]"
empty7: '[%{"::"}]'
nested: "%{facts.%{osfamily}}"
literaltext: "100% {x} %{"
dollar: "${osfamily}"
lonepct: "50%"
unclosed: "a %{osfamily"
o: other
lookup1: "%{lookup('o')}"
hiera1: "%{hiera('o')}"
lookupdq: '%{lookup("o")}'
lookupmiss: "[%{lookup('nosuch')}]"
lookupvar: "[%{lookup(other)}]"
twice: "%{lookup('o')}%{lookup('o')}"
fromlow: "%{lookup('lowonly')}"
num: 5
numlookup: "n=%{lookup('num')}"
hv: {a: [1, ~]}
hvlookup: "%{lookup('hv')}"
fv: 1000.0
fvlookup: "%{lookup('fv')}"
bv: true
bvlookup: "%{lookup('bv')}"
arr: [1, 2]
arrlookup: "%{lookup('arr')}"
aliasarr: "%{alias('arr')}"
aliashash: "%{alias('hv')}"
aliasnum: "%{alias('num')}"
aliasbool: "%{alias('bv')}"
aliasws: "%{ alias('arr') }"
aliasmiss: "%{alias('nosuch')}"
n: ~
aliasnull: "%{alias('n')}"
aliasdotted: "%{alias('hv.a')}"
aliasnotentire: "x%{alias('o')}"
aliastrailing: "%{alias('o')} "
aliasinarray: ["ok", "x%{alias('o')}"]
aliaselement: ["%{alias('arr')}", z]
aliasinhash: {k: "%{alias('arr')}"}
lit: "%{literal('%')}{osfamily}"
pct: "%{literal('%')}"
litdq: '%{literal("x.y")}'
vialookup: "%{lookup('lit')}"
viaalias: "%{alias('lit')}"
unknownupper: "%{LOOKUP('o')}"
unknownfoo: "%{foo('x')}"
syn1: "%{lookup( 'o' )}"
syn2: "%{lookup('')}"
syn3: "%{lookup('o', 'p')}"
syn4: "%{lookup('o)}"
syn5: "%{lookup('%{osfamily}')}"
synkey: "%{lookup('k..x')}"
evilref: "[%{evil}]"
selfk: "%{selfref}"
rec: "%{lookup('rec')}"
ra: "%{lookup('rb')}"
rb: "%{lookup('ra')}"
rx: "%{lookup('rx.y')}"
recalias: "%{alias('recalias')}"
hk: {"%{osfamily}": 1, Debian: 2}
hkorder: {"%{osfamily}": 1, z: 0, Debian: 2}
hknested: {outer: {"k_%{facts.os.name}": v}}
deep: {a: ["%{osfamily}", {b: "%{facts.os.name}"}]}
5: five
intkey: "[%{lookup('5')}]"
"a.b": {c: quoted}
qlookup: "%{lookup('\"a.b\".c')}"
broken: "%{foo('x')}"
merged: "%{lookup('mo')}"
subdig: "%{lookup('hv.a.0')}"
aliasdig: "%{alias('hv')}"
anchored: &anc "%{osfamily}"
aliased: *anc
multiline: |
  family=%{osfamily}
  name=%{facts.os.name}
mo: [h]
)YAML";

static const char* kLow = R"YAML(lowonly: fromlow
mo: [l]
lookup_options:
  mo:
    merge: unique
)YAML";

static const char* kScope = R"YAML(osfamily: Debian
environment: production
facts:
  os: {family: Debian, name: Ubuntu, release: {major: "22"}}
  dcs: [dc1, dc2]
  lh: [{name: a}, {name: b}]
  boolf: false
  boolt: true
  num: 5
  fl: 1.5
  big: 1.0e+20
  e15: 1.0e+15
  nul: ~
  hashnil: {a: [1, ~]}
evil: "%{osfamily}"
selfref: "%{selfref}"
)YAML";

class TestInterpolation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void forms_data();
    void forms();
    void errors_data();
    void errors();
    void hashKeysCollide();
    void aliasAsHashKey();
    void brokenInterpolationElsewhereIsHarmless();
    void brokenInLowerLevelOnlyMattersForMerges();
    void depthLimit();
    void sizeLimit();
    void lazyOncePerFoundValue();
    void traceOfSubLookup();

private:
    LookupResult lookup(const std::string& key, const LookupRequest& o = {}) const
    {
        return m_engine->lookup(*m_scope, key, o);
    }

    std::unique_ptr<TempTree> m_tree;
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<MapScope> m_scope;
};

static const QByteArray kHieraYaml = "version: 5\n"
                                     "hierarchy:\n"
                                     "  - name: high\n"
                                     "    path: high.yaml\n"
                                     "  - name: low\n"
                                     "    path: low.yaml\n";

void TestInterpolation::initTestCase()
{
    m_tree = std::make_unique<TempTree>(
        FileList{{"hiera.yaml", kHieraYaml}, {"data/high.yaml", kHigh}, {"data/low.yaml", kLow}});
    QVERIFY(m_tree->isValid());
    m_engine = Engine::load(m_tree->hieraYaml());
    m_scope = std::make_shared<MapScope>(yaml(kScope));
}

// clang-format off
void TestInterpolation::forms_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QByteArray>("expected"); // JSON
    auto row = [](const char* key, const QByteArray& expected) { QTest::newRow(key) << QString(key) << expected; };
    auto str = [](const QByteArray& s) { return QByteArray("\"") + s + "\""; };
    // variables (§3.2, seed: the raw reference goes to the Scope)
    for (const char* k : {"plain", "top", "dotted", "scope1", "scope2", "scope3", "ws", "wstab", "quotedvar"})
        row(k, str("Debian"));
    row("quotedseg", str("Ubuntu"));
    row("mixed", str("x-Debian-Ubuntu-y"));
    row("env", str("production"));
    row("arridx", str("b"));
    // §3.6 stringification, §8 items 44-45
    row("hashfact", R"("{\"major\"=>\"22\"}")");
    row("arrfact", R"("[\"dc1\", \"dc2\"]")");
    row("hashnil", R"("{\"a\"=>[1, nil]}")");
    row("boolfact", str("false"));
    row("booltrue", str("true"));
    row("numfact", str("5"));
    row("flfact", str("1.5"));
    row("bigfact", str("1.0e+20"));
    // Ruby writes the exponent form from 1e15 on, 1e14 in full (Puppet 7.23 gives the same;
    // docs/engine-semantics.md, "Round five")
    row("e15fact", str("1.0e+15"));
    row("e15key", R"({"1.0e+15": "v"})");
    row("e15lookup", str("[1.0e+15, 100000000000000.0, 1.5e+15]"));
    // absent references → "" (seed: digging into scalars is "not present" too)
    for (const char* k : {"arrmiss", "nulfact", "intoscalar", "intonum", "undef", "trustedundef"})
        row(k, str("[]"));
    // §3.1 / item 56: empty expressions
    for (const char* k : {"empty1", "empty2", "empty3", "empty4", "empty5", "empty6", "empty7"})
        row(k, str("[]"));
    // item 50: no nesting, literal text
    row("nested", str("}"));
    row("literaltext", str("100% {x} %{"));
    row("dollar", str("${osfamily}"));
    row("lonepct", str("50%"));
    row("unclosed", str("a %{osfamily"));
    // lookup() / hiera() (§3.3)
    for (const char* k : {"lookup1", "hiera1", "lookupdq"})
        row(k, str("other"));
    row("lookupmiss", str("[]"));
    row("lookupvar", str("[]")); // item 49: a variable named "lookup(other)"
    row("twice", str("otherother"));
    row("fromlow", str("fromlow")); // from the top of the hierarchy, not just this level
    row("numlookup", str("n=5"));
    row("hvlookup", R"("{\"a\"=>[1, nil]}")");
    row("fvlookup", str("1000.0"));
    row("bvlookup", str("true"));
    row("arrlookup", str("[1, 2]"));
    row("intkey", str("[]")); // item 58: integer keys are unreachable
    row("qlookup", str("quoted"));
    row("merged", R"("[\"h\", \"l\"]")"); // lookup_options merge of the sub-looked-up key
    row("subdig", str("1"));
    // alias() (§3.4)
    row("aliasarr", "[1, 2]");
    row("aliashash", R"({"a": [1, null]})");
    row("aliasnum", "5");
    row("aliasbool", "true");
    row("aliasws", "[1, 2]");
    row("aliasmiss", str("")); // not found → "" (a string)
    row("aliasnull", "null");
    row("aliasdotted", "[1, null]");
    row("aliaselement", R"([[1, 2], "z"])");
    row("aliasinhash", R"({"k": [1, 2]})");
    row("aliasdig.a", "[1, null]");
    row("aliasdig.a.0", "1");
    // literal() and re-interpolation (§3.5, §3.7, item 51-52)
    row("lit", str("%{osfamily}"));
    row("pct", str("%"));
    row("litdq", str("x.y"));
    row("vialookup", str("Debian"));
    row("viaalias", str("%{osfamily}"));
    row("evilref", str("[Debian]"));
    // keys and nested values (§3.8, item 54)
    row("hk", R"({"Debian": 2})");
    row("hknested", R"({"outer": {"k_Ubuntu": "v"}})");
    row("deep", R"({"a": ["Debian", {"b": "Ubuntu"}]})");
    row("aliased", str("Debian")); // an aliased string is interpolated at its use
    row("multiline", str("family=Debian\\nname=Ubuntu\\n"));
}
// clang-format on

void TestInterpolation::forms()
{
    QFETCH(QString, key);
    QFETCH(QByteArray, expected);
    const LookupResult r = lookup(ss(key));
    if (r.error)
        QFAIL(r.error->what());
    QVERIFY(r.found());
    QCOMPARE(r.value, json(expected.toStdString()));
}

// clang-format off
void TestInterpolation::errors_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("fragment");
    const QString notEntire = "'alias' interpolation is only permitted if the expression is equal to the entire string";
    QTest::newRow("alias not entire") << "aliasnotentire" << ErrorCode::AliasNotEntireString << notEntire;
    QTest::newRow("alias trailing blank") << "aliastrailing" << ErrorCode::AliasNotEntireString << notEntire;
    QTest::newRow("alias not entire in array") << "aliasinarray" << ErrorCode::AliasNotEntireString << notEntire;
    QTest::newRow("LOOKUP") << "unknownupper" << ErrorCode::UnknownMethod << "Unknown interpolation method 'LOOKUP'";
    QTest::newRow("foo") << "unknownfoo" << ErrorCode::UnknownMethod << "Unknown interpolation method 'foo'";
    QTest::newRow("blanks in parens") << "syn1" << ErrorCode::InterpolationSyntax << "Syntax error in string";
    QTest::newRow("empty argument") << "syn2" << ErrorCode::InterpolationSyntax << "Syntax error in string";
    QTest::newRow("two arguments") << "syn3" << ErrorCode::InterpolationSyntax << "Syntax error in string";
    QTest::newRow("unbalanced quote") << "syn4" << ErrorCode::InterpolationSyntax << "Syntax error in string";
    QTest::newRow("nested in argument") << "syn5" << ErrorCode::InterpolationSyntax << "Syntax error in string";
    QTest::newRow("fact referencing itself")
        << "selfk" << ErrorCode::RecursiveLookup << "Recursive lookup detected in [selfk, scope:selfref]";
    QTest::newRow("key looking itself up")
        << "rec" << ErrorCode::RecursiveLookup << "Recursive lookup detected in [rec]";
    QTest::newRow("two keys in a cycle") << "ra" << ErrorCode::RecursiveLookup
                                         << "Recursive lookup detected in [ra, rb]";
    QTest::newRow("the other way round") << "rb" << ErrorCode::RecursiveLookup
                                         << "Recursive lookup detected in [rb, ra]";
    QTest::newRow("dotted self lookup") << "rx" << ErrorCode::RecursiveLookup
                                        << "Recursive lookup detected in [rx, rx.y]";
    QTest::newRow("alias of itself") << "recalias" << ErrorCode::RecursiveLookup
                                     << "Recursive lookup detected in [recalias]";
}
// clang-format on

void TestInterpolation::errors()
{
    QFETCH(QString, key);
    QFETCH(ErrorCode, code);
    QFETCH(QString, fragment);
    const LookupResult r = lookup(ss(key));
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QVERIFY(r.error.has_value());
    QCOMPARE(r.error->code(), code);
    QVERIFY2(QString::fromUtf8(r.error->what()).contains(fragment), r.error->what());
}

void TestInterpolation::hashKeysCollide()
{
    // after interpolation two keys collide: the later value wins, the first key's position is kept
    const LookupResult r = lookup("hkorder");
    QVERIFY(r.found());
    HIERA_COMPARE_ORDERED(r.value, json(R"({"Debian": 2, "z": 0})"));
}

void TestInterpolation::brokenInterpolationElsewhereIsHarmless()
{
    // `broken` (an unknown method) sits in the same file; other keys are unaffected (lazy, per root key)
    QVERIFY(lookup("plain").found());
    const LookupResult r = lookup("broken");
    QCOMPARE(r.error ? r.error->code() : ErrorCode::None, ErrorCode::UnknownMethod);
}

// alias() written as a hash key may make any key: Puppet checks the value as written, before
// interpolation, keeps the key (null, an array, a hash) and renders it as Ruby's to_s ("", "[1]").
// The engine refused such a value (docs/engine-semantics.md, "Round five"; tests/conformance/cases/e18 has Puppet's
// answers).
void TestInterpolation::aliasAsHashKey()
{
    TempTree tree({{"hiera.yaml", kHieraYaml},
                   {"data/high.yaml",
                    "nul: ~\narr: [1]\narr2: [a, 1, ~, 1.5]\nhsh: {a: 1}\nboo: true\n"
                    "knul: {\"%{alias('nul')}\": v, other: 1}\n"
                    "karr: {\"%{alias('arr')}\": v}\n"
                    "karr2: {\"%{alias('arr2')}\": v}\n"
                    "khsh: {\"%{alias('hsh')}\": v}\n"
                    "kboo: {\"%{alias('boo')}\": v}\n"
                    "kmiss: {\"%{alias('nosuch')}\": v}\n"
                    "nested: {deeper: {\"%{alias('arr')}\": v}}\n"
                    "written: {[1]: v}\n"},
                   {"data/low.yaml", "x: 1\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const std::pair<const char*, const char*> rows[] = {
        {"knul", R"({"":"v","other":1})"},
        {"karr", R"({"[1]":"v"})"},
        {"karr2", R"({"[\"a\", 1, nil, 1.5]":"v"})"},
        {"khsh", R"({"{\"a\"=>1}":"v"})"},
        {"kboo", R"({"true":"v"})"},
        {"kmiss", R"({"":"v"})"},
        {"nested", R"({"deeper":{"[1]":"v"}})"},
    };
    for (const auto& [key, expected] : rows) {
        const LookupResult r = engine->lookup(scope, key);
        QVERIFY2(!r.error, r.error ? r.error->what() : key);
        QVERIFY2(r.found(), key);
        QCOMPARE(qs(toJson(r.value)), QString::fromUtf8(expected));
    }
    // The key is the aliased value itself, as in Puppet: null, the array.
    QVERIFY(engine->lookup(scope, "knul").value.asHash().begin()->key.isNull());
    QCOMPARE(engine->lookup(scope, "karr").value.asHash().begin()->key, makeArray({1}));
    // A collection key written in the data is still refused (Puppet: "expects Puppet::LookupValue").
    const LookupResult written = engine->lookup(scope, "written");
    QVERIFY(written.error);
    QCOMPARE(written.error->code(), ErrorCode::DataType);
}

void TestInterpolation::brokenInLowerLevelOnlyMattersForMerges()
{
    TempTree tree(
        {{"hiera.yaml", kHieraYaml}, {"data/high.yaml", "k: [high]\n"}, {"data/low.yaml", "k: [\"%{foo('x')}\"]\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const LookupResult first = engine->lookup(scope, "k");
    QVERIFY(first.found());
    QCOMPARE(first.value, makeArray({"high"}));
    LookupRequest o;
    o.merge = mergeOf(MergeStrategy::Unique);
    const LookupResult merged = engine->lookup(scope, "k", o);
    QCOMPARE(int(merged.status), int(LookupResult::Status::Error));
    QCOMPARE(merged.error->code(), ErrorCode::UnknownMethod);
}

void TestInterpolation::depthLimit()
{
    QByteArray data;
    for (int i = 0; i < 12; ++i)
        data += QStringLiteral("c%1: \"%{lookup('c%2')}\"\n").arg(i).arg(i + 1).toUtf8();
    data += "c12: end\n";
    TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", data}});
    QVERIFY(tree.isValid());
    MapScope scope;
    // the default depth (64) allows a chain of 12
    const LookupResult ok = Engine::load(tree.hieraYaml())->lookup(scope, "c0");
    QVERIFY(ok.found());
    QCOMPARE(ok.value, Value("end"));
    EngineOptions shallow;
    shallow.maxInterpolationDepth = 4;
    const LookupResult r = Engine::load(tree.hieraYaml(), shallow)->lookup(scope, "c0");
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QCOMPARE(r.error->code(), ErrorCode::InterpolationLimit);
}

void TestInterpolation::sizeLimit()
{
    // "billion laughs" through interpolation: each level doubles the string
    QByteArray data = "l0: \"" + QByteArray(64, 'x') + "\"\n";
    for (int i = 1; i <= 24; ++i)
        data += QStringLiteral("l%1: \"%{lookup('l%2')}%{lookup('l%2')}\"\n").arg(i).arg(i - 1).toUtf8();
    TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", data}});
    QVERIFY(tree.isValid());
    EngineOptions small;
    small.maxInterpolatedBytes = 4096;
    auto engine = Engine::load(tree.hieraYaml(), small);
    MapScope scope;
    const LookupResult fits = engine->lookup(scope, "l5"); // 64 * 32 = 2048 bytes
    QVERIFY(fits.found());
    QCOMPARE(fits.value.asString().size(), std::size_t(2048));
    const LookupResult r = engine->lookup(scope, "l24");
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QCOMPARE(r.error->code(), ErrorCode::InterpolationLimit);
}

void TestInterpolation::lazyOncePerFoundValue()
{
    // a scope that counts reads: interpolation of one found value reads each token once
    struct CountingScope : Scope
    {
        mutable std::atomic<int> reads{0};
        std::optional<Value> lookup(std::string_view ref) const override
        {
            ++reads;
            if (ref == "x")
                return Value("X");
            return std::nullopt;
        }
    };
    TempTree tree(
        {{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "a: \"%{x}-%{x}\"\nb: \"%{x}\"\nc: \"%{x}\"\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    CountingScope scope;
    const LookupResult r = engine->lookup(scope, "a");
    QVERIFY(r.found());
    QCOMPARE(r.value, Value("X-X"));
    // only the root key's value is interpolated: b and c are not read (2 reads, not 4)
    QCOMPARE(scope.reads.load(), 2);
}

static void collectKind(const TraceNode& n, TraceNode::Kind kind, std::vector<const TraceNode*>& out)
{
    if (n.kind == kind)
        out.push_back(&n);
    for (const auto& c : n.children)
        collectKind(*c, kind, out);
}

void TestInterpolation::traceOfSubLookup()
{
    // §7.1: interpolation, scope reads and nested lookups hang under the location being interpolated
    LookupRequest o;
    o.explain = true;
    const LookupResult r = lookup("vialookup", o);
    QVERIFY(r.found());
    QVERIFY(r.trace);
    std::vector<const TraceNode*> subs;
    collectKind(*r.trace, TraceNode::Kind::SubLookup, subs);
    QVERIFY(!subs.empty());
    QVERIFY2(qs(subs[0]->key) == "lit" || qs(subs[0]->name).contains("lit"), subs[0]->name.c_str());
    std::vector<const TraceNode*> interps;
    collectKind(*r.trace, TraceNode::Kind::Interpolation, interps);
    QVERIFY(!interps.empty());
    QCOMPARE(qs(interps[0]->expression), QStringLiteral("%{lookup('lit')}"));
}

QTEST_APPLESS_MAIN(TestInterpolation)
#include "tst_interpolation.moc"
