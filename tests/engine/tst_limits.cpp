// Limits against exhaustion (docs/bad-input.md): alias bombs, nesting depth, enormous scalars and
// files, interpolation recursion and runaway expansion. Each must end in a hiera::Error with a
// message (DataLimit, InterpolationLimit, RecursiveLookup), quickly and in bounded memory — never a
// stack overflow, an abort or gigabytes of allocation.

#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/scope.h>

#include <QElapsedTimer>
#include <QTest>

using namespace hiera;
using namespace testutils;

Q_DECLARE_METATYPE(hiera::DataFormat)

namespace {

// Generous for a sanitizer build on a loaded CI machine; a runaway takes minutes or never ends.
constexpr qint64 kQuickMs = 20000;

// "Billion laughs": `levels` anchors, each a list of `width` aliases of the previous one.
std::string aliasBomb(int levels, int width, const std::string& leaf = "lol")
{
    std::string s = "a0: &a0 \"" + leaf + "\"\n";
    for (int i = 1; i <= levels; ++i) {
        s += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
        for (int k = 0; k < width; ++k)
            s += (k ? ", *a" : "*a") + std::to_string(i - 1);
        s += "]\n";
    }
    s += "bomb: *a" + std::to_string(levels) + "\n";
    return s;
}

std::string repeat(const std::string& piece, std::size_t n)
{
    std::string s;
    s.reserve(piece.size() * n);
    for (std::size_t i = 0; i < n; ++i)
        s += piece;
    return s;
}

QByteArray qb(const std::string& s)
{
    return QByteArray::fromStdString(s);
}

const QByteArray kHiera = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";

LookupResult lookupIn(const TempTree& tree, const std::string& key, EngineOptions options = {},
                      const Value& scopeTree = Value(Hash()))
{
    auto engine = Engine::load(tree.hieraYaml(), std::move(options));
    MapScope scope(scopeTree);
    return engine->lookup(scope, key);
}

LookupRequest explainIf(bool explain)
{
    LookupRequest o;
    o.explain = explain;
    return o;
}

QString errorText(const LookupResult& r)
{
    return r.error ? QString::fromUtf8(r.error->what()) : QStringLiteral("<no error>");
}

} // namespace

#define EXPECT_LOOKUP_ERROR(r, expectedCode, fragment)                                                                 \
    do {                                                                                                               \
        QVERIFY2((r).status == LookupResult::Status::Error, qPrintable("not an error: " + errorText(r)));              \
        QVERIFY((r).error.has_value());                                                                                \
        QCOMPARE((r).error->code(), (expectedCode));                                                                   \
        QVERIFY2(errorText(r).contains(fragment), qPrintable(errorText(r)));                                           \
    } while (false)

class TestLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // alias bombs
    void aliasBombRefused();
    void aliasBombRefusedInLookup();
    void aliasBombWithinLimitIsShared();
    void aliasBombSmallLimit();
    void aliasBombRendersBounded();
    void aliasBombInterpolatedIntoString();
    void aliasBombWithInterpolatedLeaves();
    void aliasBombAliasedWhole();
    void aliasBombAsKeys();
    void hashFloodKeys();
    // nesting depth
    void deepNesting_data();
    void deepNesting();
    void deepNestingInLookup();
    void deepNestingInConfigAndFacts();
    void depthLimitIsConfigurable();
    void longJsonLine();
    // sizes
    void scalarLimit_data();
    void scalarLimit();
    void documentLimit_data();
    void documentLimit();
    void limitsInLookup();
    // interpolation
    void recursion_data();
    void recursion();
    void nestingDepthLimit();
    void doublingLookupChain_data();
    void doublingLookupChain();
    void doublingScopeChain();
    void manyLargeStrings();
    void oneStringOverLimit();
    void repeatedLookupsStillCorrect();
    // lookup_options patterns
    void longKeyAgainstPatterns_data();
    void longKeyAgainstPatterns();
    void catastrophicPatternGivesUp();
    void manySearchesShareOneBudget();
};

// ---- alias bombs --------------------------------------------------------------------------------

void TestLimits::aliasBombRefused()
{
    // 10^9 expanded nodes: refused as soon as the count passes maxNodes (20 million), in bounded time.
    QElapsedTimer t;
    t.start();
    auto e = catchError([&] { parseData(aliasBomb(9, 10), "bomb.yaml"); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::DataLimit);
    QVERIFY2(QString::fromUtf8(e->what()).contains("alias bomb"), e->what());
    QCOMPARE(e->location().file, std::string("bomb.yaml"));
    QVERIFY(e->location().line > 0);
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
}

void TestLimits::aliasBombRefusedInLookup()
{
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(aliasBomb(9, 10) + "other: 1\n")}});
    QVERIFY(tree.isValid());
    // Every lookup reads the file (lookup_options), so every lookup reports it.
    for (const char* key : {"bomb", "other", "a1"}) {
        const LookupResult r = lookupIn(tree, key);
        EXPECT_LOOKUP_ERROR(r, ErrorCode::DataLimit, "common.yaml");
    }
}

void TestLimits::aliasBombWithinLimitIsShared()
{
    // 10^6 leaves: under the limit, parsed with shared storage (a few KB of text, not a million copies).
    const Value v = parseData(aliasBomb(6, 10), "bomb.yaml");
    const Value* bomb = v.asHash().find("bomb");
    QVERIFY(bomb && bomb->isArray());
    QVERIFY(bomb->nodeCount() > 1'000'000);
    QVERIFY(bomb->nodeCount() <= ParseLimits{}.maxNodes);
    // Shared: the ten elements of the root are the same storage.
    QCOMPARE(&bomb->asArray()[0].asArray(), &bomb->asArray()[9].asArray());

    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(aliasBomb(6, 10))}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "bomb.3.4.5.6.7.8");
    QVERIFY2(r.found(), qPrintable(errorText(r)));
    QCOMPARE(r.value, Value("lol"));
}

void TestLimits::aliasBombSmallLimit()
{
    ParseLimits limits;
    limits.maxNodes = 1000;
    auto e = catchError([&] { parseData(aliasBomb(4, 10), "bomb.yaml", DataFormat::Yaml, limits); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::DataLimit);
    QVERIFY2(QString::fromUtf8(e->what()).contains("1000 nodes"), e->what());
    QVERIFY(!catchError([&] { parseData(aliasBomb(2, 10), "bomb.yaml", DataFormat::Yaml, limits); }));
    // JSON has no aliases; its limit counts values.
    const std::string json = "[" + repeat("1,", 1000) + "1]";
    e = catchError([&] { parseData(json, "big.json", DataFormat::Json, limits); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::DataLimit);
}

void TestLimits::aliasBombRendersBounded()
{
    // What passes the parse limit renders in time and space linear in the expanded size: the node
    // limit is what bounds toJson/toYaml (the renderers expand shared storage).
    const Value v = parseData(aliasBomb(6, 10), "bomb.yaml");
    const Value& bomb = *v.asHash().find("bomb");
    QElapsedTimer t;
    t.start();
    const std::string json = toJson(bomb);
    const std::string yaml = toYaml(bomb);
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
    // "lol" (5 bytes) x 10^6, 111'111 arrays (2 brackets each), 9 commas in each array
    QCOMPARE(json.size(), std::size_t(5'000'000 + 222'222 + 999'999));
    QVERIFY(yaml.size() < 40u * bomb.nodeCount());
}

void TestLimits::aliasBombInterpolatedIntoString()
{
    // "%{lookup('bomb')}" renders the found array into the string: bounded by maxInterpolatedBytes,
    // checked while rendering, not after.
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(aliasBomb(6, 10) + "s: \"x%{lookup('bomb')}\"\n")}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.maxInterpolatedBytes = 1u << 20;
    QElapsedTimer t;
    t.start();
    const LookupResult r = lookupIn(tree, "s", options);
    EXPECT_LOOKUP_ERROR(r, ErrorCode::InterpolationLimit, "expands to more than 1048576 bytes");
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
    // Within the limit it works (one level of the bomb: ["lol", ...] x 10).
    TempTree small({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(aliasBomb(1, 3) + "s: \"%{lookup('bomb')}\"\n")}});
    const LookupResult ok = lookupIn(small, "s");
    QVERIFY2(ok.found(), qPrintable(errorText(ok)));
    QCOMPARE(ok.value, Value(R"(["lol", "lol", "lol"])"));
}

void TestLimits::aliasBombWithInterpolatedLeaves()
{
    // A bomb whose leaf interpolates: each shared array is interpolated once, so the lookup costs the
    // distinct nodes, and the result stays shared.
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(aliasBomb(6, 10, "%{facts.os}") + "\n")}});
    QVERIFY(tree.isValid());
    const Value scope = scopeFromFacts(parseData("os: Debian\n", "facts.yaml"));
    QElapsedTimer t;
    t.start();
    const LookupResult r = lookupIn(tree, "bomb", {}, scope);
    QVERIFY2(r.found(), qPrintable(errorText(r)));
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(r.value.asArray()[3].asArray()[2].asArray()[1].asArray()[0].asArray()[9].asArray()[4], Value("Debian"));
    QCOMPARE(&r.value.asArray()[0].asArray(), &r.value.asArray()[9].asArray());
}

void TestLimits::aliasBombAliasedWhole()
{
    // alias() returns the value itself (shared), not a rendering.
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(aliasBomb(6, 10) + "x: \"%{alias('bomb')}\"\n")}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "x");
    QVERIFY2(r.found(), qPrintable(errorText(r)));
    QVERIFY(r.value.isArray());
    QVERIFY(r.value.nodeCount() > 1'000'000);
    QCOMPARE(&r.value.asArray()[0].asArray(), &r.value.asArray()[9].asArray());
}

void TestLimits::aliasBombAsKeys()
{
    // Keys are hashed by their content, so their expansion counts towards maxNodes as values' does:
    // otherwise `? *a6` (10^6 nodes) a hundred times would hash 10^8 nodes within the limit.
    std::string text = aliasBomb(6, 10);
    for (int i = 0; i < 100; ++i)
        text += "? *a6\n: " + std::to_string(i) + "\n";
    QElapsedTimer t;
    t.start();
    auto e = catchError([&] { parseData(text, "keys.yaml"); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::DataLimit);
    QVERIFY2(QString::fromUtf8(e->what()).contains("alias bomb"), e->what());
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
    // A few such keys are fine, and equal keys are one key.
    const Value v = parseData(aliasBomb(4, 10) + "? *a4\n: x\n? *a4\n: y\n", "keys.yaml");
    QCOMPARE(v.asHash().size(), std::size_t(7));
    QCOMPARE(*v.asHash().find(*v.asHash().find("a4")), Value("y"));
}

void TestLimits::hashFloodKeys()
{
    // Integer keys differing only above bit 32 and flow-sequence keys: each used to share one hash
    // slot, which made a file of them quadratic to load.
    const int n = 40'000;
    std::string text;
    for (int i = 1; i <= n; ++i)
        text += std::to_string(std::int64_t(i) << 32) + ": " + std::to_string(i) + "\n";
    for (int i = 0; i < n; ++i)
        text += "? [" + std::to_string(i / 200) + ", " + std::to_string(i % 200) + "]\n: " + std::to_string(i) + "\n";
    const Value v = parseData(text, "flood.yaml");
    QCOMPARE(v.asHash().size(), std::size_t(2 * n));
    QCOMPARE(*v.asHash().find(Value(std::int64_t(n) << 32)), Value(n));
    QCOMPARE(*v.asHash().find(makeArray({199, 199})), Value(199 * 200 + 199));
}

// ---- nesting depth ----------------------------------------------------------------------------------

// clang-format off
void TestLimits::deepNesting_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<hiera::DataFormat>("format");
    const std::size_t n = 100'000;
    QTest::newRow("yaml flow sequences") << qb("k: " + repeat("[", n) + repeat("]", n) + "\n") << DataFormat::Yaml;
    QTest::newRow("yaml flow mappings") << qb("k: " + repeat("{a: ", n) + "1" + repeat("}", n) + "\n")
                                        << DataFormat::Yaml;
    QTest::newRow("yaml flow, unclosed") << qb("k: " + repeat("[", n)) << DataFormat::Yaml;
    QTest::newRow("yaml flow mixed") << qb("k: " + repeat("[{a: ", n / 2)) << DataFormat::Yaml;
    QTest::newRow("yaml block sequences (compact)") << qb("k:\n  " + repeat("- ", n) + "x\n") << DataFormat::Yaml;
    std::string block;
    for (std::size_t i = 0; i < 2000; ++i)
        block += std::string(i, ' ') + "a:\n";
    QTest::newRow("yaml block mappings (indented, 2000)") << qb(block) << DataFormat::Yaml;
    QTest::newRow("yaml anchors of deep") << qb("k: &x " + repeat("[", 600) + repeat("]", 600) + "\nj: *x\n")
                                          << DataFormat::Yaml;
    QTest::newRow("json arrays") << qb(repeat("[", n) + repeat("]", n)) << DataFormat::Json;
    QTest::newRow("json objects") << qb(repeat("{\"a\":", n) + "1" + repeat("}", n)) << DataFormat::Json;
    QTest::newRow("json unclosed") << qb(repeat("[", n)) << DataFormat::Json;
}
// clang-format on

void TestLimits::deepNesting()
{
    QFETCH(QByteArray, text);
    QFETCH(hiera::DataFormat, format);
    QElapsedTimer t;
    t.start();
    auto e = catchError([&] { parseData(text.toStdString(), "deep.data", format); });
    QVERIFY2(e, "parsed");
    QCOMPARE(e->code(), ErrorCode::DataLimit);
    // ParseLimits::maxDepth (512), or yaml-cpp's own guard (500 recursions), whichever stops first.
    QVERIFY2(QString::fromUtf8(e->what()).contains("nesting deeper than"), e->what());
    QCOMPARE(e->location().file, std::string("deep.data"));
    QVERIFY(e->location().line >= 1 && e->location().column >= 1);
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
}

void TestLimits::deepNestingInLookup()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - {name: y, path: a.yaml}\n"
                    "  - {name: j, path: b.json, data_hash: json_data}\n"},
                   {"data/a.yaml", qb("k: " + repeat("[", 100'000) + "\n")},
                   {"data/b.json", qb("{\"k\": " + repeat("[", 100'000) + "}")}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_LOOKUP_ERROR(r, ErrorCode::DataLimit, "a.yaml:1:");
}

void TestLimits::deepNestingInConfigAndFacts()
{
    auto e = catchError([&] { Config::parse("version: 5\nx: " + repeat("[", 100'000), "/tmp"); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::ConfigSyntax);
    QVERIFY2(QString::fromUtf8(e->what()).contains("nesting deeper"), e->what());
    for (const std::string& facts : {"{\"a\": " + repeat("[", 100'000), "a: " + repeat("{b: ", 100'000)}) {
        e = catchError([&] { parseFacts(facts, "facts.json"); });
        QVERIFY(e);
        QCOMPARE(e->code(), ErrorCode::DataLimit);
        QCOMPARE(e->location().file, std::string("facts.json"));
    }
}

void TestLimits::depthLimitIsConfigurable()
{
    ParseLimits limits;
    limits.maxDepth = 3;
    QVERIFY(!catchError([&] { parseData("[[[1]]]", "d.yaml", DataFormat::Yaml, limits); }));
    QVERIFY(!catchError([&] { parseData("[[[1]]]", "d.json", DataFormat::Json, limits); }));
    for (DataFormat f : {DataFormat::Yaml, DataFormat::Json}) {
        auto e = catchError([&] { parseData("[[[[1]]]]", "d", f, limits); });
        QVERIFY(e);
        QCOMPARE(e->code(), ErrorCode::DataLimit);
        QCOMPARE(e->location().line, 1);
        QCOMPARE(e->location().column, 4);
    }
}

// ---- sizes --------------------------------------------------------------------------------------------

void TestLimits::longJsonLine()
{
    // A minified JSON file: several MB on one line. Columns used to be found by rescanning the line
    // for each value (quadratic: 1.4 MB took 25 s, this would take hours); the marks must still be
    // right, counted in characters, with multibyte UTF-8 before them.
    const std::size_t n = 300'000;
    std::string json = "{\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\":\"\xC3\xBC\",";
    std::size_t chars = 11; // {"é€😀":"ü", is 11 characters in 20 bytes
    std::size_t probeColumn = 0;
    const std::size_t probe = n - 7;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string entry = "\"k" + std::to_string(i) + "\":";
        json += entry;
        chars += entry.size();
        if (i == probe)
            probeColumn = chars + 1;
        const std::string value = std::to_string(i) + ",";
        json += value;
        chars += value.size();
    }
    json += "\n\"last\":  \"\xC3\xA9\",\"end\":true}";
    QVERIFY(json.size() > 4'000'000);

    const Value v = parseData(json, "minified.json", DataFormat::Json);
    QVERIFY(v.isHash());
    QCOMPARE(v.asHash().size(), n + 3);
    const Value* p = v.asHash().find("k" + std::to_string(probe));
    QVERIFY(p);
    QCOMPARE(*p, Value(std::int64_t(probe)));
    QCOMPARE(p->mark().line, 1u);
    QCOMPARE(p->mark().column, std::uint32_t(probeColumn));
    const Value* first = v.asHash().find("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    QVERIFY(first);
    QCOMPARE(first->mark().column, 8u);
    // After the line break the count starts again.
    const Value* end = v.asHash().find("end");
    QVERIFY(end);
    QCOMPARE(end->mark().line, 2u);
    QCOMPARE(end->mark().column, 20u); // "last":  "é","end":true — 'true' is the 20th character

    // An error at the end of the long line is placed in characters too.
    auto e =
        catchError([&] { parseData(json.substr(0, json.find('\n') - 1) + "?", "minified.json", DataFormat::Json); });
    QVERIFY(e);
    QCOMPARE(e->location().line, 1);
    QCOMPARE(e->location().column, int(chars));
}

// clang-format off
void TestLimits::scalarLimit_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<hiera::DataFormat>("format");
    QTest::addColumn<int>("line");
    const std::string big(2000, 'x');
    QTest::newRow("plain") << qb("a: 1\nk: " + big + "\n") << DataFormat::Yaml << 2;
    QTest::newRow("double-quoted") << qb("a: 1\nk: \"" + big + "\"\n") << DataFormat::Yaml << 2;
    QTest::newRow("single-quoted") << qb("a: 1\nk: '" + big + "'\n") << DataFormat::Yaml << 2;
    QTest::newRow("literal block") << qb("a: 1\nk: |\n  " + big + "\n") << DataFormat::Yaml << 2;
    QTest::newRow("key") << qb("a: 1\n? " + big + "\n: v\n") << DataFormat::Yaml << 2;
    QTest::newRow("binary") << qb("a: 1\nk: !!binary " + big + "\n") << DataFormat::Yaml << 2;
    QTest::newRow("json string") << qb("{\"a\": 1,\n\"k\": \"" + big + "\"}") << DataFormat::Json << 2;
    QTest::newRow("json escapes") << qb("{\"a\": 1,\n\"k\": \"" + repeat("\\u00e9", 1000) + "\"}") << DataFormat::Json
                                  << 2;
}
// clang-format on

void TestLimits::scalarLimit()
{
    QFETCH(QByteArray, text);
    QFETCH(hiera::DataFormat, format);
    QFETCH(int, line);
    ParseLimits limits;
    limits.maxScalarBytes = 1000;
    auto e = catchError([&] { parseData(text.toStdString(), "s.data", format, limits); });
    QVERIFY2(e, "parsed");
    QCOMPARE(e->code(), ErrorCode::DataLimit);
    QVERIFY2(QString::fromUtf8(e->what()).contains("1000"), e->what());
    QCOMPARE(e->location().file, std::string("s.data"));
    QCOMPARE(e->location().line, line);
    // The default limit (64 MiB) takes them.
    QVERIFY(!catchError([&] { parseData(text.toStdString(), "s.data", format); }));
}

// clang-format off
void TestLimits::documentLimit_data()
{
    QTest::addColumn<hiera::DataFormat>("format");
    QTest::newRow("yaml") << DataFormat::Yaml;
    QTest::newRow("json") << DataFormat::Json;
}
// clang-format on

void TestLimits::documentLimit()
{
    QFETCH(hiera::DataFormat, format);
    ParseLimits limits;
    limits.maxDocumentBytes = 4096;
    const std::string text = "{\"a\": \"" + std::string(5000, 'x') + "\"}";
    auto e = catchError([&] { parseData(text, "big.data", format, limits); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::DataLimit);
    QCOMPARE(QString::fromUtf8(e->what()), QStringLiteral("big.data: file of 5009 bytes exceeds the limit of 4096"));
    QVERIFY(!catchError([&] { parseData(text.substr(0, 10) + "\"}", "ok.data", format, limits); }));
}

void TestLimits::limitsInLookup()
{
    // EngineOptions::limits reaches the data files (not hiera.yaml, read with the defaults).
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb("k: " + std::string(5000, 'x') + "\n")}});
    QVERIFY(tree.isValid());
    EngineOptions scalar;
    scalar.limits.maxScalarBytes = 1000;
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "k", scalar), ErrorCode::DataLimit, "common.yaml:1:4: scalar of 5000 bytes");
    EngineOptions document;
    document.limits.maxDocumentBytes = 1000;
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "k", document), ErrorCode::DataLimit,
                        "file of 5004 bytes exceeds the limit of 1000");
    QVERIFY(lookupIn(tree, "k").found());
}

// ---- interpolation -------------------------------------------------------------------------------------

// clang-format off
void TestLimits::recursion_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("chain");
    QTest::newRow("self") << QByteArray("a: \"%{lookup('a')}\"\n") << "a" << "[a]";
    QTest::newRow("pair") << QByteArray("a: \"%{lookup('b')}\"\nb: \"%{hiera('a')}\"\n") << "a" << "[a, b]";
    QTest::newRow("alias cycle") << QByteArray("a: \"%{alias('b')}\"\nb: \"%{alias('a')}\"\n") << "a" << "[a, b]";
    QTest::newRow("dotted") << QByteArray("a: {x: \"%{lookup('a.x')}\"}\n") << "a" << "[a, a.x]";
    QTest::newRow("through second use") << QByteArray("a: \"%{lookup('b')}%{lookup('c')}\"\nb: x\nc: \"%{lookup('a')}\"\n")
                                        << "a" << "[a, c]";
    QTest::newRow("scope variable") << QByteArray("a: \"%{self}\"\n") << "a" << "scope:self";
}
// clang-format on

void TestLimits::recursion()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, key);
    QFETCH(QString, chain);
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", data}});
    QVERIFY(tree.isValid());
    const Value scope = parseData("self: \"%{self}\"\n", "scope.yaml");
    for (bool explain : {false, true}) {
        auto engine = Engine::load(tree.hieraYaml());
        MapScope s(scope);
        const LookupResult r = engine->lookup(s, key.toStdString(), explainIf(explain));
        EXPECT_LOOKUP_ERROR(r, ErrorCode::RecursiveLookup, "Recursive lookup detected in");
        QVERIFY2(errorText(r).contains(chain), qPrintable(errorText(r)));
    }
}

void TestLimits::nestingDepthLimit()
{
    std::string data;
    for (int i = 0; i < 100; ++i)
        data += "k" + std::to_string(i) + ": \"%{lookup('k" + std::to_string(i + 1) + "')}\"\n";
    data += "k100: end\n";
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(data)}});
    QVERIFY(tree.isValid());
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "k0"), ErrorCode::InterpolationLimit, "lookups nested deeper than 64 levels");
    const LookupResult near = lookupIn(tree, "k40");
    QVERIFY2(near.found(), qPrintable(errorText(near)));
    QCOMPARE(near.value, Value("end"));
    EngineOptions deeper;
    deeper.maxInterpolationDepth = 128;
    QCOMPARE(lookupIn(tree, "k0", deeper).value, Value("end"));
}

// clang-format off
void TestLimits::doublingLookupChain_data()
{
    QTest::addColumn<int>("maxBytes");
    QTest::addColumn<bool>("explain");
    QTest::newRow("default limit (16 MiB)") << (16 << 20) << false;
    QTest::newRow("1 MiB") << (1 << 20) << false;
    QTest::newRow("1 MiB, explain") << (1 << 20) << true;
}
// clang-format on

void TestLimits::doublingLookupChain()
{
    // k0 = k1 k1, k1 = k2 k2, ... k40 = 16 bytes: 16 TiB if expanded. Nested lookups are done once
    // per key and the limit is checked before each append, so this fails after about 20 doublings.
    QFETCH(int, maxBytes);
    QFETCH(bool, explain);
    std::string data;
    const int levels = explain ? 24 : 40; // the trace records every occurrence: keep it smaller
    for (int i = 0; i < levels; ++i)
        data += "k" + std::to_string(i) + ": \"%{lookup('k" + std::to_string(i + 1) + "')}%{lookup('k"
            + std::to_string(i + 1) + "')}\"\n";
    data += "k" + std::to_string(levels) + ": \"0123456789abcdef\"\n";
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(data)}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.maxInterpolatedBytes = std::size_t(maxBytes);
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    QElapsedTimer t;
    t.start();
    const LookupResult r = engine->lookup(scope, "k0", explainIf(explain));
    EXPECT_LOOKUP_ERROR(r, ErrorCode::InterpolationLimit, "bytes");
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
    // A level within the limit is right.
    const LookupResult ok = engine->lookup(scope, "k" + std::to_string(levels - 4));
    QVERIFY2(ok.found(), qPrintable(errorText(ok)));
    QCOMPARE(ok.value, Value(repeat("0123456789abcdef", 16)));
}

void TestLimits::doublingScopeChain()
{
    // The same through the Scope: v0 = "%{v1}%{v1}", ... (variables whose values interpolate again).
    std::string facts;
    for (int i = 0; i < 40; ++i)
        facts += "v" + std::to_string(i) + ": \"%{v" + std::to_string(i + 1) + "}%{v" + std::to_string(i + 1) + "}\"\n";
    facts += "v40: \"0123456789abcdef\"\n";
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", "k: \"%{v0}\"\nj: \"%{v30}\"\n"}});
    QVERIFY(tree.isValid());
    QElapsedTimer t;
    t.start();
    const Value scope = parseData(facts, "facts.yaml");
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "k", {}, scope), ErrorCode::InterpolationLimit, "bytes");
    QVERIFY2(t.elapsed() < kQuickMs, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(lookupIn(tree, "j", {}, scope).value, Value(repeat("0123456789abcdef", 1024)));
}

void TestLimits::manyLargeStrings()
{
    // Each string stays under maxInterpolatedBytes, but a hash of many of them would add up to
    // gigabytes: the interpolations of one lookup together are held to 4 x maxInterpolatedBytes.
    std::string data = "big: \"" + std::string(1000, 'x') + "\"\nh:\n";
    for (int i = 0; i < 200; ++i)
        data += "  e" + std::to_string(i) + ": \"%{lookup('big')}%{lookup('big')}\"\n";
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(data)}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.maxInterpolatedBytes = 10'000; // total 40'000: 20 entries of 2000 bytes
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "h", options), ErrorCode::InterpolationLimit, "40000 bytes in total");
    const LookupResult r = lookupIn(tree, "h");
    QVERIFY2(r.found(), qPrintable(errorText(r)));
    QCOMPARE(r.value.asHash().size(), std::size_t(200));
}

void TestLimits::oneStringOverLimit()
{
    TempTree tree({{"hiera.yaml", kHiera},
                   {"data/common.yaml",
                    qb("big: \"" + std::string(6000, 'x')
                       + "\"\nk: \"%{lookup('big')}\"\n"
                         "two: \"%{lookup('big')}%{lookup('big')}\"\n"
                         "lit: \"%{literal('"
                       + std::string(6000, 'y') + "')}\"\n")}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.maxInterpolatedBytes = 10'000;
    QVERIFY(lookupIn(tree, "k", options).found());
    EXPECT_LOOKUP_ERROR(
        lookupIn(tree, "two", options), ErrorCode::InterpolationLimit,
        "common.yaml:3:6: interpolation of '%{lookup('big')}%{lookup('big')}' expands to more than 10000 bytes");
    options.maxInterpolatedBytes = 5'000;
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "k", options), ErrorCode::InterpolationLimit, "more than 5000 bytes");
    EXPECT_LOOKUP_ERROR(lookupIn(tree, "lit", options), ErrorCode::InterpolationLimit, "more than 5000 bytes");
}

void TestLimits::repeatedLookupsStillCorrect()
{
    // Nested lookups are remembered within one lookup: same results, explain or not, and a later
    // lookup sees changed files.
    TempTree tree({{"hiera.yaml", kHiera},
                   {"data/common.yaml",
                    "a: \"%{lookup('b')}-%{lookup('b')}-%{hiera('c')}\"\nb: \"%{lookup('c')}\"\n"
                    "c: \"%{facts.x}\"\nh: {p: \"%{lookup('b')}\", q: [\"%{lookup('b')}\"]}\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(scopeFromFacts(parseData("x: X\n", "f.yaml")));
    for (bool explain : {false, true}) {
        QCOMPARE(engine->lookup(scope, "a", explainIf(explain)).value, Value("X-X-X"));
        QCOMPARE(engine->lookup(scope, "h", explainIf(explain)).value, json(R"({"p": "X", "q": ["X"]})"));
    }
    MapScope other(scopeFromFacts(parseData("x: Y\n", "f.yaml")));
    QCOMPARE(engine->lookup(other, "a").value, Value("Y-Y-Y"));
}

// std::regex recursed once per character of the key: a key of some tens of thousands of characters
// overflowed the stack (SIGSEGV) even against `^profile::.*`, and an interpolation in data is enough to
// make such a key. Patterns now run on Oniguruma, whose backtracking stack lives on the heap.
// clang-format off
void TestLimits::longKeyAgainstPatterns_data()
{
    QTest::addColumn<QByteArray>("pattern"); // which entry applies is tst_lookup's business: here, answers
    QTest::newRow("^profile::.*") << QByteArray("^profile::.*");
    QTest::newRow("^profile::(x|y)*$") << QByteArray("^profile::(x|y)*$");
    QTest::newRow("no match: ^role::") << QByteArray("^role::");
    QTest::newRow("no match: ^.*z$") << QByteArray("^.*z$");
}
// clang-format on

void TestLimits::longKeyAgainstPatterns()
{
    QFETCH(QByteArray, pattern);
    const std::string longKey = "profile::" + repeat("x", 600000);
    // Looked up directly, and through an interpolation in data (whose lookup reaches the same table).
    // A key of over 1024 characters is written as YAML's explicit `? key` form.
    TempTree tree({{"hiera.yaml", kHiera},
                   {"data/common.yaml",
                    "lookup_options:\n  \"" + pattern + "\": {merge: unique}\n" + "? " + qb(longKey)
                        + "\n: [a]\nvia_data: \"%{lookup('" + qb(longKey) + "')}\"\n"}});
    QVERIFY(tree.isValid());
    QElapsedTimer timer;
    timer.start();
    const LookupResult direct = lookupIn(tree, longKey);
    QVERIFY2(direct.found(), qPrintable(errorText(direct)));
    QCOMPARE(direct.value, Value(Array{Value("a")}));
    const LookupResult viaData = lookupIn(tree, "via_data");
    QVERIFY2(viaData.found(), qPrintable(errorText(viaData)));
    QCOMPARE(viaData.value, Value("[\"a\"]")); // an array interpolated into a string
    QVERIFY(timer.elapsed() < kQuickMs);
}

// `^(a+)+$` against `aaaa…b` backtracks exponentially: std::regex hung. The match now gives up after
// a bounded number of steps, and the lookup fails naming the pattern and where it is written.
void TestLimits::catastrophicPatternGivesUp()
{
    TempTree tree({{"hiera.yaml", kHiera},
                   {"data/common.yaml",
                    "lookup_options:\n  \"^(a+)+$\": {merge: deep}\n"
                    "plain: 1\n"
                        + qb(repeat("a", 40)) + "b: 2\n"}});
    QVERIFY(tree.isValid());
    QElapsedTimer timer;
    timer.start();
    const LookupResult r = lookupIn(tree, repeat("a", 40) + "b");
    QVERIFY(timer.elapsed() < kQuickMs);
    EXPECT_LOOKUP_ERROR(r, ErrorCode::LookupOptions,
                        "lookup_options pattern /^(a+)+$/ gave up matching a key of 41 bytes");
    QVERIFY2(errorText(r).contains(QLatin1String("common.yaml:2:3:")), qPrintable(errorText(r)));
    // Keys the pattern settles quickly still answer.
    const LookupResult plain = lookupIn(tree, "plain");
    QVERIFY2(plain.found(), qPrintable(errorText(plain)));
    QCOMPARE(plain.value, Value(1));
}

// Each search is bounded, but one lookup may make thousands, each just under the bound: 20,000
// patterns `^(a+)+$(?#N)` against `aaaaaaaaaaaaaaaab` (2^16 steps each, under the step limit) took
// seconds per thousand. A lookup's searches share one time budget: the lookup fails, saying so.
void TestLimits::manySearchesShareOneBudget()
{
    std::string options = "lookup_options:\n";
    for (int i = 0; i < 20000; ++i)
        options += "  \"^(a+)+$(?#" + std::to_string(i) + ")\": {merge: deep}\n";
    const std::string key = repeat("a", 16) + "b";
    TempTree tree({{"hiera.yaml", kHiera}, {"data/common.yaml", qb(options + key + ": 1\nplain: 2\n")}});
    QVERIFY(tree.isValid());
    QElapsedTimer timer;
    timer.start();
    const LookupResult r = lookupIn(tree, key);
    const qint64 ms = timer.elapsed();
    EXPECT_LOOKUP_ERROR(r, ErrorCode::LookupOptions, "already took more than 2 s of matching");
    QVERIFY2(ms < kQuickMs, qPrintable(QString::number(ms)));
    qInfo("20,000 near-catastrophic patterns: the lookup gave up after %lld ms", ms);
}

QTEST_APPLESS_MAIN(TestLimits)
#include "tst_limits.moc"
