// The YAML loader: Psych (YAML 1.1) typing as Puppet 7 reads data files (docs/hiera-reference.md §6), structure,
// errors with 1-based positions, limits, and JSON's own typing.

#include "testutils.h"

#include <hiera/error.h>
#include <hiera/sourcelocation.h>
#include <hiera/yaml.h>

#include <QTest>

#include <cmath>
#include <limits>

using namespace hiera;
using namespace testutils;

class TestYamlLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scalarTyping_data();
    void scalarTyping();
    void resolvePlainScalarDirect_data();
    void resolvePlainScalarDirect();
    void nonFiniteFloats_data();
    void nonFiniteFloats();
    void typeErrors_data();
    void typeErrors();
    void dateInAnotherKeyFailsTheFile();
    void integerOverflowIsError();
    void int64Bounds();
    void anchorsAndAliases();
    void unknownAlias();
    void recursiveAlias();
    void mergeKeys_data();
    void mergeKeys();
    void duplicateKeys();
    void nonStringKeys();
    void symbolKeys();
    void blockScalars();
    void escapesAsTheSpecSays_data();
    void escapesAsTheSpecSays();
    void keepChomping_data();
    void keepChomping();
    void byteOrderMark();
    void invalidUtf8();
    void syntaxErrors_data();
    void keysWithoutValues();
    void syntaxErrors();
    void onlyFirstDocument();
    void emptyDocuments_data();
    void emptyDocuments();
    void marks();
    void marksInFlowAndNested();
    void limits();
    void jsonTyping_data();
    void jsonTyping();
    void jsonDuplicateKeysLastWins();
    void jsonErrors_data();
    void jsonErrors();
    void jsonErrorPosition();
    void loadDataFile();
};

static Value valueOf(const QByteArray& doc)
{
    const Value root = parseData(doc.toStdString(), "typing.yaml");
    if (!root.isHash() || !root.asHash().find("v"))
        return Value("<<no v>>");
    return *root.asHash().find("v");
}

// clang-format off
void TestYamlLoader::scalarTyping_data()
{
    QTest::addColumn<QByteArray>("scalar"); // as written after "v: "
    QTest::addColumn<QByteArray>("expected"); // JSON
    // booleans
    for (const char* s : {"yes", "Yes", "YES", "on", "On", "true", "True", "TRUE", "tRue"})
        QTest::newRow(s) << QByteArray(s) << QByteArray("true");
    for (const char* s : {"no", "No", "NO", "off", "Off", "false", "False"})
        QTest::newRow(s) << QByteArray(s) << QByteArray("false");
    for (const char* s : {"y", "n", "Y", "N"})
        QTest::newRow(s) << QByteArray(s) << (QByteArray("\"") + s + "\"");
    // nulls
    for (const char* s : {"~", "null", "Null", "NULL", "nULL"})
        QTest::newRow(s) << QByteArray(s) << QByteArray("null");
    QTest::newRow("empty value") << QByteArray("") << QByteArray("null");
    // octal, hex, binary
    QTest::newRow("0755") << QByteArray("0755") << QByteArray("493");
    QTest::newRow("-0755") << QByteArray("-0755") << QByteArray("-493");
    QTest::newRow("012_3") << QByteArray("012_3") << QByteArray("83");
    QTest::newRow("08") << QByteArray("08") << QByteArray("\"08\"");
    QTest::newRow("09") << QByteArray("09") << QByteArray("\"09\"");
    QTest::newRow("0o755") << QByteArray("0o755") << QByteArray("\"0o755\"");
    QTest::newRow("0X1f") << QByteArray("0X1f") << QByteArray("\"0X1f\"");
    QTest::newRow("0x") << QByteArray("0x") << QByteArray("\"0x\"");
    QTest::newRow("0x1F") << QByteArray("0x1F") << QByteArray("31");
    QTest::newRow("+0x1F") << QByteArray("+0x1F") << QByteArray("31");
    QTest::newRow("-0x1F") << QByteArray("-0x1F") << QByteArray("-31");
    QTest::newRow("0b1010") << QByteArray("0b1010") << QByteArray("10");
    // decimal integers
    QTest::newRow("1_000") << QByteArray("1_000") << QByteArray("1000");
    QTest::newRow("1,000") << QByteArray("1,000") << QByteArray("1000");
    QTest::newRow("+1") << QByteArray("+1") << QByteArray("1");
    QTest::newRow("-0") << QByteArray("-0") << QByteArray("0");
    QTest::newRow("0") << QByteArray("0") << QByteArray("0");
    QTest::newRow("42") << QByteArray("42") << QByteArray("42");
    QTest::newRow("-17") << QByteArray("-17") << QByteArray("-17");
    // strings that look numeric
    for (const char* s : {"1__0", "0.1.2", "1e", "Infinity", "NaN", "1e3", "1.0e3", "=", "<<", "abc", "1.2.3.4"})
        QTest::newRow(s) << QByteArray(s) << (QByteArray("\"") + s + "\"");
    // floats
    QTest::newRow("1.0e+3") << QByteArray("1.0e+3") << QByteArray("1000.0");
    QTest::newRow("1.5E-2") << QByteArray("1.5E-2") << QByteArray("0.015");
    QTest::newRow("1.") << QByteArray("1.") << QByteArray("1.0");
    QTest::newRow(".5") << QByteArray(".5") << QByteArray("0.5");
    QTest::newRow("1_000.5") << QByteArray("1_000.5") << QByteArray("1000.5");
    QTest::newRow("1.5") << QByteArray("1.5") << QByteArray("1.5");
    QTest::newRow("-2.25") << QByteArray("-2.25") << QByteArray("-2.25");
    // sexagesimal (Psych weights two-part values as h:m:0)
    QTest::newRow("1:30") << QByteArray("1:30") << QByteArray("5400");
    QTest::newRow("-1:30") << QByteArray("-1:30") << QByteArray("-1800");
    QTest::newRow("12:30:45") << QByteArray("12:30:45") << QByteArray("45045");
    QTest::newRow("190:20:30") << QByteArray("190:20:30") << QByteArray("685230");
    QTest::newRow("1:30.5") << QByteArray("1:30.5") << QByteArray("5430.0");
    // quoted scalars are strings
    QTest::newRow("quoted date") << QByteArray("\"2024-01-01\"") << QByteArray("\"2024-01-01\"");
    QTest::newRow("quoted yes") << QByteArray("'yes'") << QByteArray("\"yes\"");
    QTest::newRow("quoted octal") << QByteArray("\"0755\"") << QByteArray("\"0755\"");
    QTest::newRow("quoted null") << QByteArray("'~'") << QByteArray("\"~\"");
    QTest::newRow("quoted empty") << QByteArray("''") << QByteArray("\"\"");
    // tags
    QTest::newRow("!!str 123") << QByteArray("!!str 123") << QByteArray("\"123\"");
    QTest::newRow("!!int \"5\"") << QByteArray("!!int \"5\"") << QByteArray("5");
    QTest::newRow("!!float 1") << QByteArray("!!float 1") << QByteArray("1.0");
    QTest::newRow("!!bool yes") << QByteArray("!!bool yes") << QByteArray("true");
    QTest::newRow("!!null x") << QByteArray("!!null x") << QByteArray("\"x\"");
    QTest::newRow("!foo bar") << QByteArray("!foo bar") << QByteArray("\"bar\"");
    QTest::newRow("!!binary") << QByteArray("!!binary aGVsbG8=") << QByteArray("\"hello\"");
    QTest::newRow("!!omap") << QByteArray("!!omap [a: 1]") << QByteArray("{\"a\":1}");
    QTest::newRow("!!str yes") << QByteArray("!!str yes") << QByteArray("\"yes\"");
    // flow collections
    QTest::newRow("flow seq typing") << QByteArray("[yes, 0x1F, ~, '1', 1.5]")
                                     << QByteArray("[true, 31, null, \"1\", 1.5]");
    QTest::newRow("flow map") << QByteArray("{a: 1, b: off}") << QByteArray("{\"a\":1,\"b\":false}");
    QTest::newRow("unicode") << QByteArray("Zürich") << QByteArray("\"Zürich\"");
    QTest::newRow("trailing blanks trimmed") << QByteArray("abc   ") << QByteArray("\"abc\"");
}
// clang-format on

void TestYamlLoader::scalarTyping()
{
    QFETCH(QByteArray, scalar);
    QFETCH(QByteArray, expected);
    const Value want = json(expected.toStdString());
    Value got;
    try {
        got = valueOf("v: " + scalar + "\n");
    } catch (const Error& e) {
        QFAIL(e.what());
    }
    QCOMPARE(got, want);
}

// clang-format off
void TestYamlLoader::resolvePlainScalarDirect_data()
{
    QTest::addColumn<QString>("scalar");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("yes") << "yes" << QByteArray("true");
    QTest::newRow("NO") << "NO" << QByteArray("false");
    QTest::newRow("~") << "~" << QByteArray("null");
    QTest::newRow("0755") << "0755" << QByteArray("493");
    QTest::newRow("0x1F") << "0x1F" << QByteArray("31");
    QTest::newRow("1,000") << "1,000" << QByteArray("1000");
    QTest::newRow("1:30") << "1:30" << QByteArray("5400");
    QTest::newRow("1e3") << "1e3" << QByteArray("\"1e3\"");
    QTest::newRow("1.0e+3") << "1.0e+3" << QByteArray("1000.0");
    QTest::newRow("08") << "08" << QByteArray("\"08\"");
    QTest::newRow("plain") << "hello world" << QByteArray("\"hello world\"");
}
// clang-format on

void TestYamlLoader::resolvePlainScalarDirect()
{
    QFETCH(QString, scalar);
    QFETCH(QByteArray, expected);
    QCOMPARE(resolvePlainScalar(ss(scalar)), json(expected.toStdString()));
}

// clang-format off
void TestYamlLoader::nonFiniteFloats_data()
{
    QTest::addColumn<QByteArray>("scalar");
    QTest::addColumn<int>("kind"); // 1 = +inf, -1 = -inf, 0 = NaN
    for (const char* s : {".inf", ".Inf", ".INF", "+.inf"})
        QTest::newRow(s) << QByteArray(s) << 1;
    QTest::newRow("-.inf") << QByteArray("-.inf") << -1;
    QTest::newRow("-.Inf") << QByteArray("-.Inf") << -1;
    for (const char* s : {".nan", ".NaN", ".NAN"})
        QTest::newRow(s) << QByteArray(s) << 0;
}
// clang-format on

void TestYamlLoader::nonFiniteFloats()
{
    QFETCH(QByteArray, scalar);
    QFETCH(int, kind);
    const Value v = valueOf("v: " + scalar + "\n");
    QVERIFY(v.isFloat());
    if (kind == 0) {
        QVERIFY(std::isnan(v.asFloat()));
    } else {
        QVERIFY(std::isinf(v.asFloat()));
        QCOMPARE(v.asFloat() > 0, kind > 0);
    }
}

// clang-format off
void TestYamlLoader::typeErrors_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::newRow("date") << QByteArray("v: 2024-01-01\n");
    QTest::newRow("short date") << QByteArray("v: 2024-1-1\n");
    QTest::newRow("datetime space") << QByteArray("v: 2024-01-01 12:00:00\n");
    QTest::newRow("datetime T Z") << QByteArray("v: 2024-01-01T12:00:00Z\n");
    QTest::newRow("datetime t offset") << QByteArray("v: 2001-12-14t21:59:43.10-05:00\n");
    QTest::newRow("date in array") << QByteArray("v: [a, 2024-01-01]\n");
    QTest::newRow("date nested") << QByteArray("v:\n  when: 2024-01-01\n");
    QTest::newRow("symbol") << QByteArray("v: :sym\n");
    QTest::newRow("ruby object") << QByteArray("v: !ruby/object:Object {}\n");
    QTest::newRow("set") << QByteArray("v: !!set {a, b}\n");
    QTest::newRow("!!timestamp") << QByteArray("v: !!timestamp 2024-01-01\n");
}
// clang-format on

void TestYamlLoader::typeErrors()
{
    QFETCH(QByteArray, doc);
    const auto err = catchError([&] { parseData(doc.toStdString(), "types.yaml"); });
    QVERIFY2(err.has_value(), "expected a hiera::Error");
    QCOMPARE(err->code(), ErrorCode::DataType);
    QCOMPARE(qs(err->location().file), QStringLiteral("types.yaml"));
    QVERIFY(err->location().line >= 1);
}

void TestYamlLoader::dateInAnotherKeyFailsTheFile()
{
    const auto err = catchError([] { parseData("a: 1\nb: fine\nd: 2024-01-01\n", "dates.yaml"); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataType);
    QCOMPARE(err->location().line, 3);
    QCOMPARE(err->location().column, 4);
}

void TestYamlLoader::integerOverflowIsError()
{
    // [open] integers are int64; beyond that is a DataType error (Puppet accepts bignums)
    for (const char* doc : {"v: 12345678901234567890\n", "v: 9223372036854775808\n", "v: -9223372036854775809\n",
                            "v: 0x10000000000000000\n"}) {
        const auto err = catchError([&] { parseData(doc, "big.yaml"); });
        QVERIFY2(err.has_value(), doc);
        QCOMPARE(err->code(), ErrorCode::DataType);
        QCOMPARE(err->location().line, 1);
    }
}

void TestYamlLoader::int64Bounds()
{
    QCOMPARE(valueOf("v: 9223372036854775807\n"), Value(std::numeric_limits<std::int64_t>::max()));
    QCOMPARE(valueOf("v: -9223372036854775808\n"), Value(std::numeric_limits<std::int64_t>::min()));
}

void TestYamlLoader::anchorsAndAliases()
{
    const Value v = yaml("base: &b [1, 2]\n"
                         "copy: *b\n"
                         "s: &s hello\n"
                         "s2: *s\n"
                         "h: &h {x: 1}\n"
                         "h2: *h\n"
                         "i: &i \"%{osfamily}\"\n"
                         "i2: *i\n");
    const Hash& h = v.asHash();
    QCOMPARE(*h.find("copy"), makeArray({1, 2}));
    QCOMPARE(*h.find("s2"), Value("hello"));
    QCOMPARE(*h.find("h2"), makeHash({{"x", 1}}));
    QCOMPARE(*h.find("i2"), Value("%{osfamily}")); // interpolation happens at lookup, not in the loader
}

void TestYamlLoader::unknownAlias()
{
    const auto err = catchError([] { yaml("a: *nope\n"); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataSyntax);
    QCOMPARE(err->location().line, 1);
}

void TestYamlLoader::recursiveAlias()
{
    // [open] a self-referencing alias is an error (Puppet: stack level too deep)
    const auto err = catchError([] { yaml("a: &x [1, *x]\n"); });
    QVERIFY2(err.has_value(), "a recursive alias must be a hiera::Error");
    QVERIFY2(err->code() == ErrorCode::DataSyntax || err->code() == ErrorCode::DataLimit
                 || err->code() == ErrorCode::DataType,
             errorCodeName(err->code()));
    const auto err2 = catchError([] { yaml("a: &x {k: *x}\n"); });
    QVERIFY(err2.has_value());
}

// clang-format off
void TestYamlLoader::mergeKeys_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::addColumn<QByteArray>("expected"); // JSON of key m, order significant
    const QByteArray b = "b: &b {x: 1, y: 1}\n";
    QTest::newRow("merge only") << b + "m: {<<: *b}\n" << QByteArray(R"({"x":1,"y":1})");
    QTest::newRow("key before << is overridden") << b + "m: {x: 5, <<: *b}\n" << QByteArray(R"({"x":1,"y":1})");
    QTest::newRow("key after << wins") << b + "m: {<<: *b, x: 5}\n" << QByteArray(R"({"x":5,"y":1})");
    QTest::newRow("inserted at position of <<") << b + "m: {z: 0, <<: *b, w: 2}\n"
                                                << QByteArray(R"({"z":0,"x":1,"y":1,"w":2})");
    QTest::newRow("list: first map wins")
        << QByteArray("b1: &b1 {x: 1}\nb2: &b2 {x: 2, y: 2}\nm: {<<: [*b1, *b2]}\n") << QByteArray(R"({"x":1,"y":2})");
    QTest::newRow("block style") << b + "m:\n  <<: *b\n  y: 9\n" << QByteArray(R"({"x":1,"y":9})");
    QTest::newRow("inline map") << QByteArray("m: {<<: {p: 1}, q: 2}\n") << QByteArray(R"({"p":1,"q":2})");
    QTest::newRow("a scalar after << is a key") << QByteArray("m: {'<<': 1}\n") << QByteArray(R"({"<<":1})");
    // Psych's revive_hash (docs/engine-semantics.md, "Round five"). A quoted "<<" merges as the plain one does;
    // only !!str makes it a key.
    QTest::newRow("double-quoted << merges") << b + "m: {\"<<\": *b, z: 0}\n" << QByteArray(R"({"x":1,"y":1,"z":0})");
    QTest::newRow("single-quoted << merges") << QByteArray("m:\n  z: 0\n  '<<': {x: 2}\n") << QByteArray(R"({"z":0,"x":2})");
    QTest::newRow("!!str << is a key") << QByteArray("m: {!!str \"<<\": {x: 3}, z: 0}\n")
                                       << QByteArray(R"({"<<":{"x":3},"z":0})");
    // What Ruby's Hash#merge! refuses stays an ordinary key named <<.
    QTest::newRow("alias of a list of maps is a key")
        << QByteArray("l: &l [{p: 1}, {q: 2}]\nm: {<<: *l, z: 0}\n") << QByteArray(R"({"<<":[{"p":1},{"q":2}],"z":0})");
    QTest::newRow("alias of a scalar is a key") << QByteArray("s: &s hi\nm: {<<: *s, z: 0}\n")
                                                << QByteArray(R"({"<<":"hi","z":0})");
    QTest::newRow("alias of null is a key") << QByteArray("n: &n ~\nm: {<<: *n, z: 0}\n")
                                            << QByteArray(R"({"<<":null,"z":0})");
    QTest::newRow("list with a scalar is a key")
        << b + "m: {<<: [*b, 5], z: 0}\n" << QByteArray(R"({"<<":[{"x":1,"y":1},5],"z":0})");
    QTest::newRow("list with a list is a key")
        << QByteArray("m:\n  <<: [[1], {x: 9}]\n  z: 0\n") << QByteArray(R"({"<<":[[1],{"x":9}],"z":0})");
    QTest::newRow("quoted << with a list of scalars") << QByteArray("m: {\"<<\": [a, b]}\n")
                                                      << QByteArray(R"({"<<":["a","b"]})");
    QTest::newRow("plain scalar is a key") << QByteArray("m: {<<: text, z: 0}\n") << QByteArray(R"({"<<":"text","z":0})");
    QTest::newRow("block: quoted << merges a mapping") << QByteArray("m:\n  \"<<\":\n    x: 1\n  z: 0\n")
                                                      << QByteArray(R"({"x":1,"z":0})");
    QTest::newRow("block: quoted << with a list of scalars") << QByteArray("m:\n  '<<':\n    - a\n    - b\n")
                                                             << QByteArray(R"({"<<":["a","b"]})");
    QTest::newRow("empty list merges nothing") << QByteArray("m: {<<: [], z: 0}\n") << QByteArray(R"({"z":0})");
    QTest::newRow("list of a literal map and an alias")
        << b + "m: {<<: [*b, {x: 7, w: 7}], z: 0}\n" << QByteArray(R"({"x":1,"w":7,"y":1,"z":0})");
}
// clang-format on

void TestYamlLoader::mergeKeys()
{
    QFETCH(QByteArray, doc);
    QFETCH(QByteArray, expected);
    const Value v = yaml(doc.toStdString());
    QVERIFY(v.asHash().find("m"));
    HIERA_COMPARE_ORDERED(*v.asHash().find("m"), json(expected.toStdString()));
}

void TestYamlLoader::duplicateKeys()
{
    // last value wins, at the position of the first occurrence
    HIERA_COMPARE_ORDERED(yaml("{a: 1, b: 2, a: 3}"), json(R"({"a":3,"b":2})"));
    HIERA_COMPARE_ORDERED(yaml("a: 1\nb: 2\na: 3\n"), json(R"({"a":3,"b":2})"));
    HIERA_COMPARE_ORDERED(yaml("h:\n  x: 1\n  x: [2]\n"), json(R"({"h":{"x":[2]}})"));
}

void TestYamlLoader::nonStringKeys()
{
    const Value v = yaml("1: int\n010: octal\n2.5: float\n\"1\": str\n");
    const Hash& h = v.asHash();
    QCOMPARE(h.size(), std::size_t(4));
    QCOMPARE(*h.find(Value(1)), Value("int"));
    QCOMPARE(*h.find(Value(8)), Value("octal"));
    QCOMPARE(*h.find(Value(2.5)), Value("float"));
    QCOMPARE(*h.find("1"), Value("str"));
    QVERIFY(h.entries()[0].key.isInteger());
    QVERIFY(h.entries()[2].key.isFloat());
    QVERIFY(h.entries()[3].key.isString());
    // booleans become boolean keys: not reachable by the string "on"
    const Value b = yaml("on: 1\nyes: 2\n");
    QVERIFY(!b.asHash().find("on"));
    QVERIFY(!b.asHash().find("yes"));
    QVERIFY(b.asHash().find(Value(true)));
}

void TestYamlLoader::symbolKeys()
{
    // docs/hiera-reference.md §4.11: symbol keys (:foo:) are converted to the string foo
    const Value v = yaml(":foo: 1\n");
    QVERIFY(v.isHash());
    QVERIFY(v.asHash().find("foo"));
    QCOMPARE(*v.asHash().find("foo"), Value(1));
}

void TestYamlLoader::blockScalars()
{
    const Value v = yaml("lit: |\n  line1\n  line2\nfold: >\n  a\n  b\nstrip: |-\n  x\n  y\nkeep: \"yes\"\n"
                         "multi: this is\n  one string\n");
    const Hash& h = v.asHash();
    QCOMPARE(*h.find("lit"), Value("line1\nline2\n"));
    QCOMPARE(*h.find("fold"), Value("a b\n"));
    QCOMPARE(*h.find("strip"), Value("x\ny"));
    QCOMPARE(*h.find("keep"), Value("yes"));
    QCOMPARE(*h.find("multi"), Value("this is one string"));
}

// yaml-cpp writes \N, \_ and \x80..\xFF as one raw byte; parse/scalarcorrections.h reads them again.
// Expected values are Ruby's Psych (libyaml, what Puppet reads data with), from the YAML 1.2 spec's
// Example 5.13 "Escaped Characters" (yaml-test-suite "Spec Example 5.13") and cases around it.
// clang-format off
void TestYamlLoader::escapesAsTheSpecSays_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected"); // UTF-8
    QTest::newRow("spec example 5.13")
        << QByteArray("k: \"Fun with \\\\\n  \\\" \\a \\b \\e \\f \\\n  \\n \\r \\t \\v \\0 \\\n  \\  \\_ \\N \\L \\P \\\n  \\x41 \\u0041 \\U00000041\"\n")
        << QByteArray("Fun with \\ \" \a \b \x1b \f \n \r \t \v \0 \x20 \xc2\xa0 \xc2\x85 \xe2\x80\xa8 \xe2\x80\xa9 A A A", 52);
    QTest::newRow("next line") << QByteArray("k: \"a\\Nb\"\n") << QByteArray("a\xc2\x85" "b");
    QTest::newRow("no-break space") << QByteArray("k: \"a\\_b\"\n") << QByteArray("a\xc2\xa0" "b");
    QTest::newRow("\\x85 is U+0085") << QByteArray("k: \"\\x85\"\n") << QByteArray("\xc2\x85");
    QTest::newRow("\\xC3\\xA9 is two characters") << QByteArray("k: \"\\xC3\\xA9\"\n") << QByteArray("\xc3\x83\xc2\xa9");
    QTest::newRow("with raw UTF-8 beside") << QByteArray("k: \"\xc3\xa9\\N\xc3\xa9\"\n") << QByteArray("\xc3\xa9\xc2\x85\xc3\xa9");
    QTest::newRow("folded lines") << QByteArray("k: \"one\\N\n  two  \n\n  three\\\n  four\"\n") << QByteArray("one\xc2\x85 two\nthreefour");
    QTest::newRow("after an anchor") << QByteArray("k: &a \"\\_y\"\nl: *a\n") << QByteArray("\xc2\xa0y");
    QTest::newRow("as a key") << QByteArray("\"\\N\": k\n") << QByteArray();
}
// clang-format on

void TestYamlLoader::escapesAsTheSpecSays()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    const Value v = yaml(text.toStdString());
    if (expected.isEmpty()) { // the key itself
        QCOMPARE(v.asHash().begin()->key, Value(std::string("\xc2\x85")));
        return;
    }
    QCOMPARE(*v.asHash().find("k"), Value(expected.toStdString()));
    if (const Value* alias = v.asHash().find("l"))
        QCOMPARE(*alias, Value(expected.toStdString()));
}

// Keep chomping keeps every trailing line break; yaml-cpp drops one of a folded scalar's when blank lines
// follow. Expected values are Psych's, from the spec's Example 8.5 "Chomping Trailing Lines"
// (yaml-test-suite "Spec Example 8.5") in both styles and the issue's own case.
// clang-format off
void TestYamlLoader::keepChomping_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const QByteArray example85 = " # Strip\n  # Comments:\nstrip: |-\n  # text\n  \n # Clip\n  # comments:\n\n"
                                 "clip: |\n  # text\n \n # Keep\n  # comments:\n\nk: |+\n  # text\n\n # Trail\n  # comments.\n";
    QTest::newRow("spec example 8.5, literal") << example85 << "# text\n\n";
    QTest::newRow("spec example 8.5, folded") << QByteArray(example85).replace('|', '>') << "# text\n\n";
    QTest::newRow("folded keep, a key after a blank line") << QByteArray("k: >+\n  a\n  b\n\nnext: x\n") << "a b\n\n";
    QTest::newRow("folded keep, two blank lines") << QByteArray("k: >+\n  a\n\n\nnext: x\n") << "a\n\n\n";
    QTest::newRow("folded keep, blank lines inside and after") << QByteArray("k: >+\n  a\n\n  b\n\n\nnext: x\n") << "a\nb\n\n\n";
    QTest::newRow("folded keep, a line of spaces") << QByteArray("k: >+\n  a\n  \n\nnext: x\n") << "a\n\n\n";
    QTest::newRow("folded keep at the end") << QByteArray("k: >+\n  a\n") << "a\n";
    QTest::newRow("folded keep in a sequence") << QByteArray("k:\n  - >+\n    s\n\n  - z\n") << "s\n\n";
    QTest::newRow("literal keep, a key after blank lines") << QByteArray("k: |+\n  a\n\n\nnext: x\n") << "a\n\n\n";
    QTest::newRow("folded clip is not touched") << QByteArray("k: >\n  a\n\n\nnext: x\n") << "a\n";
}
// clang-format on

void TestYamlLoader::keepChomping()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const Value v = yaml(text.toStdString());
    const Value* k = v.asHash().find("k");
    QVERIFY(k);
    const Value got = k->isArray() ? k->asArray().front() : *k;
    QCOMPARE(got, Value(expected.toStdString()));
}

void TestYamlLoader::byteOrderMark()
{
    QCOMPARE(yaml("\xEF\xBB\xBF"
                  "a: 1\n"),
             makeHash({{"a", 1}}));
    QCOMPARE(yaml("\xEF\xBB\xBF"
                  "a: 1\r\nb: two\r\n"),
             makeHash({{"a", 1}, {"b", "two"}}));
}

void TestYamlLoader::invalidUtf8()
{
    const auto err = catchError([] { yaml("ok: 1\nbad: \xff\xfe\n", "utf8.yaml"); });
    QVERIFY2(err.has_value(), "invalid UTF-8 must be an error");
    QCOMPARE(err->code(), ErrorCode::DataSyntax);
    QCOMPARE(qs(err->location().file), QStringLiteral("utf8.yaml"));
    QCOMPARE(err->location().line, 2);
    QVERIFY(err->location().column >= 1);

    const auto first = catchError([] { yaml("\xc3\x28: 1\n", "utf8.yaml"); });
    QVERIFY(first.has_value());
    QCOMPARE(first->location().line, 1);
    QCOMPARE(first->location().column, 1);
}

// clang-format off
void TestYamlLoader::syntaxErrors_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::addColumn<int>("line"); // 0: any line >= 1
    QTest::newRow("unclosed flow seq") << QByteArray("a: 1\nb: [1, 2\n") << 0;
    QTest::newRow("tab indentation") << QByteArray("a:\n\tb: 1\n") << 2;
    QTest::newRow("bad indentation") << QByteArray("a:\n  b: 1\n c: 2\n") << 0;
    QTest::newRow("unclosed quote") << QByteArray("a: \"abc\n") << 0;
    QTest::newRow("stray mapping") << QByteArray("a: b: c\n") << 1;
    // A line of a block mapping without ':' (yaml-cpp made it a key with a null value; Psych refuses it).
    QTest::newRow("key without colon") << QByteArray("a: 1\nx\n") << 2;
    QTest::newRow("key without colon, then a comment") << QByteArray("a: 1\nx # note\n") << 2;
    QTest::newRow("quoted key without colon") << QByteArray("a: 1\n'x'\n") << 0;
    QTest::newRow("key without colon in a compact mapping") << QByteArray("a:\n  - c: 1\n    d\n") << 3;
    QTest::newRow("key without colon before an anchor") << QByteArray("a: 1\nx\nc: &A 3\n") << 0;
}
// clang-format on

// The null values YAML does allow: `x:`, an explicit `? x`, a flow `{x}`, `x: ~`, a key
// whose ':' follows its closing quote or a space.
void TestYamlLoader::keysWithoutValues()
{
    for (const char* doc : {"a: 1\nx:\n", "a: 1\n? x\n", "a: 1\nb: {x}\n", "a: 1\nx: ~\n", "a: 1\n'x' :\n",
                            "a: 1\n\"x\":\n", "a: 1\nhttp://x:\n", "a: 1\n- x\n"}) {
        const auto err = catchError([&] { yaml(doc, "ok.yaml"); });
        if (std::string_view(doc).find("- x") != std::string_view::npos) {
            QVERIFY2(err.has_value(), doc); // a sequence entry in a mapping: still an error
            continue;
        }
        QVERIFY2(!err.has_value(), err ? err->what() : doc);
    }
}

void TestYamlLoader::syntaxErrors()
{
    QFETCH(QByteArray, doc);
    QFETCH(int, line);
    const auto err = catchError([&] { yaml(doc.toStdString(), "bad.yaml"); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataSyntax);
    QCOMPARE(qs(err->location().file), QStringLiteral("bad.yaml"));
    if (line)
        QCOMPARE(err->location().line, line);
    else
        QVERIFY(err->location().line >= 1);
    QVERIFY(err->location().column >= 1);
    QVERIFY(QByteArray(err->what()).startsWith("bad.yaml:"));
}

void TestYamlLoader::onlyFirstDocument()
{
    QCOMPARE(yaml("a: 1\n---\na: 2\nb: 3\n"), makeHash({{"a", 1}}));
    QCOMPARE(yaml("---\na: 1\n...\n---\nb: 2\n"), makeHash({{"a", 1}}));
}

// clang-format off
void TestYamlLoader::emptyDocuments_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("comments") << QByteArray("# nothing\n# here\n");
    QTest::newRow("document marker") << QByteArray("---\n");
    QTest::newRow("tilde") << QByteArray("~\n");
    QTest::newRow("blank lines") << QByteArray("\n\n  \n");
}
// clang-format on

void TestYamlLoader::emptyDocuments()
{
    QFETCH(QByteArray, doc);
    QVERIFY(yaml(doc.toStdString()).isNull());
}

void TestYamlLoader::marks()
{
    const std::string file = "/virtual/marks.yaml";
    const Value v = yaml("a: 1\n"
                         "b:\n"
                         "  c: hello\n"
                         "  d:\n"
                         "    - x\n"
                         "    - 'y'\n"
                         "e: [p, q]\n",
                         file);
    auto at = [&](const Value& val) { return SourceFiles::locate(val.mark()); };
    const Hash& h = v.asHash();
    QCOMPARE(qs(at(*h.find("a")).file), qs(file));
    QCOMPARE(at(*h.find("a")).line, 1);
    QCOMPARE(at(*h.find("a")).column, 4);
    const Hash& b = h.find("b")->asHash();
    QCOMPARE(at(*b.find("c")).line, 3);
    QCOMPARE(at(*b.find("c")).column, 6);
    const Array& d = b.find("d")->asArray();
    QCOMPARE(at(d[0]).line, 5);
    QCOMPARE(at(d[0]).column, 7);
    QCOMPARE(at(d[1]).line, 6);
    QCOMPARE(at(d[1]).column, 7);
    const Array& e = h.find("e")->asArray();
    QCOMPARE(at(*h.find("e")).line, 7);
    QCOMPARE(at(*h.find("e")).column, 4);
    QCOMPARE(at(e[1]).line, 7);
    QCOMPARE(at(e[1]).column, 8);
    QCOMPARE(v.mark().file, SourceFiles::intern(file));
}

void TestYamlLoader::marksInFlowAndNested()
{
    const Value v = yaml("\n\nk: {x: 10, y: [1, 2]}\n", "flow.yaml");
    const Hash& k = v.asHash().find("k")->asHash();
    const SourceLocation x = SourceFiles::locate(k.find("x")->mark());
    QCOMPARE(x.line, 3);
    QCOMPARE(x.column, 8);
    const SourceLocation y1 = SourceFiles::locate(k.find("y")->asArray()[1].mark());
    QCOMPARE(y1.line, 3);
    QCOMPARE(y1.column, 19);
    // a merged-in value keeps the mark of where it was written (the anchor), not the << line
    const Value m = yaml("base: &b\n  p: 1\nuse:\n  <<: *b\n", "merge.yaml");
    const SourceLocation p = SourceFiles::locate(m.asHash().find("use")->asHash().find("p")->mark());
    QCOMPARE(p.line, 2);
}

void TestYamlLoader::limits()
{
    ParseLimits depth;
    depth.maxDepth = 10;
    std::string deep = "v: ";
    for (int i = 0; i < 20; ++i)
        deep += "[";
    for (int i = 0; i < 20; ++i)
        deep += "]";
    auto err = catchError([&] { parseData(deep, "deep.yaml", DataFormat::Yaml, depth); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataLimit);
    // within the limit is fine
    QVERIFY(parseData("v: [[[1]]]\n", "ok.yaml", DataFormat::Yaml, depth).isHash());

    ParseLimits nodes;
    nodes.maxNodes = 1000;
    const std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                               "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                               "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                               "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n";
    err = catchError([&] { parseData(laughs, "laughs.yaml", DataFormat::Yaml, nodes); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataLimit);

    ParseLimits scalar;
    scalar.maxScalarBytes = 16;
    err = catchError([&] { parseData("v: " + std::string(100, 'x') + "\n", "big.yaml", DataFormat::Yaml, scalar); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataLimit);

    ParseLimits doc;
    doc.maxDocumentBytes = 64;
    err = catchError([&] { parseData("v: " + std::string(200, 'x') + "\n", "doc.yaml", DataFormat::Yaml, doc); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataLimit);
}

// clang-format off
void TestYamlLoader::jsonTyping_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<Value>("expected");
    QTest::newRow("exponent is float") << QByteArray(R"({"v": 1e3})") << Value(1000.0);
    QTest::newRow("fraction is float") << QByteArray(R"({"v": 1.0})") << Value(1.0);
    QTest::newRow("integer") << QByteArray(R"({"v": 42})") << Value(42);
    QTest::newRow("negative") << QByteArray(R"({"v": -7})") << Value(-7);
    QTest::newRow("yes is a string") << QByteArray(R"({"v": "yes"})") << Value("yes");
    QTest::newRow("octal-looking string") << QByteArray(R"({"v": "0755"})") << Value("0755");
    QTest::newRow("date string") << QByteArray(R"({"v": "2024-01-01"})") << Value("2024-01-01");
    QTest::newRow("null") << QByteArray(R"({"v": null})") << Value();
    QTest::newRow("bool") << QByteArray(R"({"v": false})") << Value(false);
    QTest::newRow("escapes") << QByteArray(R"({"v": "a\"b\u00fc\n"})") << Value("a\"b\xc3\xbc\n");
    QTest::newRow("nested") << QByteArray(R"({"v": {"a": [1, "x", null]}})")
                            << makeHash({{"a", makeArray({1, "x", Value()})}});
}
// clang-format on

void TestYamlLoader::jsonTyping()
{
    QFETCH(QByteArray, text);
    QFETCH(Value, expected);
    const Value v = parseData(text.toStdString(), "t.json", DataFormat::Json);
    QVERIFY(v.isHash());
    QCOMPARE(*v.asHash().find("v"), expected);
}

void TestYamlLoader::jsonDuplicateKeysLastWins()
{
    const Value v = parseData(R"({"a": 1, "b": 2, "a": 3})", "d.json", DataFormat::Json);
    QCOMPARE(*v.asHash().find("a"), Value(3));
    QCOMPARE(v.asHash().size(), std::size_t(2));
}

// clang-format off
void TestYamlLoader::jsonErrors_data()
{
    // JSON is read with a JSON parser: what YAML's flow syntax would accept is still a syntax error
    QTest::addColumn<QByteArray>("text");
    for (const char* text : {"{\"a\": }", "{\"a\": 1", "{a: 1}", "[1, 2,]", "{\"a\": 1} x", "{\"a\": [1,]}",
                             "{\"a\": 1,}", "{'a': 1}", "{\"a\": 1} # comment", "{\"a\": \"x\",, \"b\": 1}",
                             "{\"a\": yes}", "{\"a\": 01}", "{\"a\": .5}", "{\"a\": NaN}", "{\"a\": 'x'}"})
        QTest::newRow(text) << QByteArray(text);
}
// clang-format on

void TestYamlLoader::jsonErrors()
{
    QFETCH(QByteArray, text);
    const auto err = catchError([&] { parseData(text.toStdString(), "e.json", DataFormat::Json); });
    QVERIFY2(err.has_value(), "expected a JSON syntax error");
    QCOMPARE(err->code(), ErrorCode::DataSyntax);
    QCOMPARE(qs(err->location().file), QStringLiteral("e.json"));
}

void TestYamlLoader::jsonErrorPosition()
{
    const auto line = catchError([] { parseData("{\n  \"a\": 1,\n  \"b\": ?\n}", "e.json", DataFormat::Json); });
    QVERIFY(line.has_value());
    QCOMPARE(line->location().line, 3);
}

void TestYamlLoader::loadDataFile()
{
    TempTree tree({{"ok.yaml", "a: 1\n"}, {"dir/", {}}, {"ok.json", R"({"a": 2})"}});
    QVERIFY(tree.isValid());
    QCOMPARE(hiera::loadDataFile(tree.path("ok.yaml")), makeHash({{"a", 1}}));
    QCOMPARE(hiera::loadDataFile(tree.path("ok.json"), DataFormat::Json), makeHash({{"a", 2}}));
    const Value loaded = hiera::loadDataFile(tree.path("ok.yaml"));
    QCOMPARE(qs(SourceFiles::locate(loaded.asHash().find("a")->mark()).file), qs(tree.path("ok.yaml")));

    auto err = catchError([&] { hiera::loadDataFile(tree.path("dir")); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataUnreadable);
    QVERIFY(QByteArray(err->what()).contains(QByteArray::fromStdString(tree.path("dir"))));

    err = catchError([&] { hiera::loadDataFile(tree.path("missing.yaml")); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataUnreadable);

    err = catchError([&] { hiera::readFile(tree.path("missing.yaml")); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::DataUnreadable);
    QCOMPARE(qs(hiera::readFile(tree.path("ok.yaml"))), QStringLiteral("a: 1\n"));
}

QTEST_APPLESS_MAIN(TestYamlLoader)
#include "tst_yamlloader.moc"
