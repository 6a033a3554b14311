// LookupKey: splitting dotted keys (docs/seed-rules.md §1), Puppet's quoted segments and syntax errors (semantics
// §5.3), and the one dig walk (§5.1, [open] digits-only indices).

#include "testutils.h"

#include <hiera/error.h>
#include <hiera/lookupkey.h>
#include <hiera/value.h>

#include <QTest>

using namespace hiera;
using namespace testutils;

class TestLookupKey : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void split_data();
    void split();
    void syntaxErrors_data();
    void syntaxErrors();
    void subKey_data();
    void subKey();
    void dig_data();
    void dig();
    void digReturnsPointerIntoRoot();
    void forRootNamesTheRootItself();
};

// Segments written as "text" for strings, "#N" for index segments, "'text'" for quoted ones.
static QStringList describe(const LookupKey& k)
{
    QStringList out;
    for (const KeySegment& s : k.segments()) {
        if (s.index)
            out << QStringLiteral("#%1").arg(*s.index) + (s.text.empty() ? QString() : "=" + qs(s.text));
        else if (s.quoted)
            out << "'" + qs(s.text) + "'";
        else
            out << qs(s.text);
    }
    return out;
}

// clang-format off
void TestLookupKey::split_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("root");
    QTest::addColumn<QStringList>("segments");
    QTest::newRow("plain") << "ntp"
                           << "ntp" << QStringList {};
    QTest::newRow(":: is part of the name") << "ntp::servers"
                                            << "ntp::servers" << QStringList {};
    QTest::newRow("leading :: kept") << "::k"
                                     << "::k" << QStringList {};
    QTest::newRow("leading blank kept without dots") << " k"
                                                     << " k" << QStringList {};
    QTest::newRow("trailing blank kept without dots") << "k "
                                                      << "k " << QStringList {};
    QTest::newRow("empty key") << ""
                               << "" << QStringList {};
    QTest::newRow("case kept") << "K"
                               << "K" << QStringList {};
    QTest::newRow("one dot") << "profile::ntp.port"
                             << "profile::ntp" << QStringList {"port"};
    QTest::newRow("index") << "profile::ntp.servers.0"
                           << "profile::ntp" << QStringList {"servers", "#0=0"};
    QTest::newRow("many") << "a.b.c.d"
                          << "a" << QStringList {"b", "c", "d"};
    QTest::newRow("leading zeros index") << "k.01"
                                         << "k" << QStringList {"#1=01"};
    QTest::newRow("plus sign index (Puppet's to_i)") << "k.+1"
                                                     << "k" << QStringList {"#1=+1"};
    QTest::newRow("minus sign index (the integer key -1)") << "k.-1"
                                                           << "k" << QStringList {"#-1=-1"};
    QTest::newRow("sign alone is not an index") << "k.-"
                                                << "k" << QStringList {"-"};
    QTest::newRow("colon is not an index") << "k.:1"
                                           << "k" << QStringList {":1"};
    QTest::newRow("digits then letter") << "k.1x"
                                        << "k" << QStringList {"1x"};
    QTest::newRow("numeric root is a string") << "5.x"
                                              << "5" << QStringList {"x"};
    QTest::newRow("numeric root alone") << "5"
                                        << "5" << QStringList {};
    QTest::newRow("double-quoted root") << "\"a.b\".c"
                                        << "a.b" << QStringList {"c"};
    QTest::newRow("single-quoted root") << "'a.b'.c"
                                        << "a.b" << QStringList {"c"};
    QTest::newRow("quoted root alone") << "\"a.b\""
                                       << "a.b" << QStringList {};
    QTest::newRow("quoted segment") << "k.\"x.y\""
                                    << "k" << QStringList {"'x.y'"};
    QTest::newRow("quoted digits are a string") << "k.\"1\""
                                                << "k" << QStringList {"'1'"};
    QTest::newRow("single-quoted digits") << "k.'1'"
                                          << "k" << QStringList {"'1'"};
    QTest::newRow("outer blanks trimmed") << " k . x "
                                          << "k" << QStringList {"x"};
    QTest::newRow("blanks inside quotes kept") << "k.\" x \""
                                               << "k" << QStringList {"' x '"};
    QTest::newRow("blanks around quotes trimmed") << "k . 'x' "
                                                  << "k" << QStringList {"'x'"};
    QTest::newRow("inner blank kept in segment") << "k.a b"
                                                 << "k" << QStringList {"a b"};
    QTest::newRow("other quote inside quotes") << "k.\"it's\""
                                               << "k" << QStringList {"'it's'"};
    QTest::newRow("quoted root then index") << "'a.b'.2"
                                            << "a.b" << QStringList {"#2=2"};
    QTest::newRow("quoted only root") << "'k'"
                                      << "k" << QStringList {};
}
// clang-format on

void TestLookupKey::split()
{
    QFETCH(QString, key);
    QFETCH(QString, root);
    QFETCH(QStringList, segments);
    LookupKey k;
    try {
        k = LookupKey::parse(ss(key));
    } catch (const Error& e) {
        QFAIL(e.what());
    }
    QCOMPARE(qs(k.original()), key);
    QCOMPARE(qs(k.root()), root);
    QCOMPARE(describe(k), segments);
    QCOMPARE(k.isDotted(), !segments.isEmpty());
    QVERIFY(LookupKey::tryParse(ss(key)).has_value());
}

// clang-format off
void TestLookupKey::syntaxErrors_data()
{
    QTest::addColumn<QString>("key");
    QTest::newRow("trailing dot") << "k.";
    QTest::newRow("leading dot") << ".k";
    QTest::newRow("only a dot") << ".";
    QTest::newRow("empty segment") << "k..x";
    QTest::newRow("empty double quotes") << "k.\"\".x";
    QTest::newRow("empty single quotes") << "k.''";
    QTest::newRow("empty quotes alone") << "\"\"";
    QTest::newRow("quote inside segment") << "k.a\"b";
    QTest::newRow("single quote inside segment") << "k.it's";
    QTest::newRow("unbalanced double") << "\"k.x";
    QTest::newRow("unbalanced single") << "'k";
    QTest::newRow("unbalanced in segment") << "k.'x";
    QTest::newRow("text after quoted segment") << "k.'x'y";
    QTest::newRow("text before quoted segment") << "k.y'x'";
    QTest::newRow("two quoted in a row") << "'a''b'";
    QTest::newRow("trailing dot after quotes") << "'a'.";
    QTest::newRow("dot dot at start") << "..k";
}
// clang-format on

void TestLookupKey::syntaxErrors()
{
    QFETCH(QString, key);
    const auto err = catchError([&] { LookupKey::parse(ss(key)); });
    QVERIFY2(err.has_value(), qPrintable(key));
    QCOMPARE(err->code(), ErrorCode::KeySyntax);
    QCOMPARE(qs(err->message()), QStringLiteral("Syntax error in key: '%1'").arg(key));
    QVERIFY(!LookupKey::tryParse(ss(key)).has_value());
}

// clang-format off
void TestLookupKey::subKey_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("sub");
    QTest::newRow("none") << "ntp"
                          << "";
    QTest::newRow("two") << "profile::ntp.servers.0"
                         << "servers.0";
    QTest::newRow("one") << "a.b"
                         << "b";
}
// clang-format on

void TestLookupKey::subKey()
{
    QFETCH(QString, key);
    QFETCH(QString, sub);
    QCOMPARE(qs(LookupKey::parse(ss(key)).subKey()), sub);
}

// clang-format off
void TestLookupKey::dig_data()
{
    QTest::addColumn<QString>("path"); // parsed as "root." + path; the root is ignored
    QTest::addColumn<bool>("found");
    QTest::addColumn<Value>("expected");
    const Value nothing;
    QTest::newRow("hash key") << "port" << true << Value(123);
    QTest::newRow("array index") << "servers.0" << true << Value("s0");
    QTest::newRow("second index") << "servers.1" << true << Value("s1");
    QTest::newRow("leading zero index") << "servers.01" << true << Value("s1");
    QTest::newRow("whole array") << "servers" << true << makeArray({"s0", "s1"});
    QTest::newRow("out of range") << "servers.9" << false << nothing;
    QTest::newRow("negative") << "servers.-1" << false << nothing;
    QTest::newRow("30-digit index") << "servers.999999999999999999999999999999" << false << nothing;
    QTest::newRow("2^64 index (wraps to 0 if unchecked)") << "servers.18446744073709551616" << false << nothing;
    QTest::newRow("2^64 + 1 index (wraps to 1 if unchecked)") << "servers.18446744073709551617" << false << nothing;
    QTest::newRow("2^63 index") << "servers.9223372036854775808" << false << nothing;
    QTest::newRow("30 digits, leading zeros") << "servers.000000000000000000000000000001" << true << Value("s1");
    QTest::newRow("30-digit integer key") << "h.999999999999999999999999999999" << false << nothing;
    QTest::newRow("negative integer key") << "h.-1" << true << Value("minus1");
    QTest::newRow("plus-signed integer key") << "h.+1" << true << Value("int1");
    QTest::newRow("leading zeros, string key first (seed)") << "h.007" << true << Value("str007");
    QTest::newRow("negative text, string key first (seed)") << "h.-5" << true << Value("str-5");
    QTest::newRow("negative, no such key") << "h.-2" << false << nothing;
    QTest::newRow("plus sign (Puppet's to_i)") << "servers.+1" << true << Value("s1");
    QTest::newRow("colon") << "servers.:1" << false << nothing;
    QTest::newRow("name on array") << "servers.x" << false << nothing;
    QTest::newRow("quoted index on array") << "servers.\"1\"" << false << nothing;
    QTest::newRow("into string") << "s.x" << false << nothing;
    QTest::newRow("index into string") << "s.0" << false << nothing;
    QTest::newRow("into integer") << "i.x" << false << nothing;
    QTest::newRow("index into integer") << "i.0" << false << nothing;
    QTest::newRow("into float") << "f.x" << false << nothing;
    QTest::newRow("into boolean") << "b.x" << false << nothing;
    QTest::newRow("into null") << "n.x" << false << nothing;
    QTest::newRow("null leaf is found") << "n" << true << Value();
    QTest::newRow("missing key") << "nosuch" << false << nothing;
    QTest::newRow("integer key") << "h.1" << true << Value("int1");
    QTest::newRow("quoted string key") << "h.\"2\"" << true << Value("str2");
    QTest::newRow("quoted does not match integer key") << "h.'1'" << false << nothing;
    QTest::newRow("nested arrays") << "matrix.1.0" << true << Value("c");
    QTest::newRow("hash in array") << "objs.1.name" << true << Value("second");
    QTest::newRow("array in hash in array") << "objs.1.tags.1" << true << Value("y");
    QTest::newRow("dotted name") << "\"x.y\"" << true << Value("dotted");
    QTest::newRow("unquoted dotted name misses") << "x.y" << false << nothing;
    QTest::newRow("case sensitive") << "PORT" << false << nothing;
}
// clang-format on

void TestLookupKey::dig()
{
    QFETCH(QString, path);
    QFETCH(bool, found);
    QFETCH(Value, expected);
    const Value root = yaml("port: 123\n"
                            "servers: [s0, s1]\n"
                            "s: str\n"
                            "i: 7\n"
                            "f: 1.5\n"
                            "b: true\n"
                            "n: ~\n"
                            "h: {1: int1, \"2\": str2, -1: minus1, \"007\": str007, \"-5\": str-5}\n"
                            "matrix: [[a, b], [c, d]]\n"
                            "objs: [{name: first}, {name: second, tags: [x, y]}]\n"
                            "\"x.y\": dotted\n");
    const LookupKey key = LookupKey::parse(ss("root." + path));
    const Value* v = hiera::dig(root, key.segments());
    QCOMPARE(v != nullptr, found);
    if (found)
        QCOMPARE(*v, expected);
}

void TestLookupKey::digReturnsPointerIntoRoot()
{
    const Value root = makeHash({{"a", makeArray({makeHash({{"b", 1}})})}});
    QCOMPARE(hiera::dig(root, {}), &root);
    const Value* v = hiera::dig(root, LookupKey::parse("r.a.0.b").segments());
    QVERIFY(v);
    QCOMPARE(*v, Value(1));
    QVERIFY(!hiera::dig(Value(5), LookupKey::parse("r.x").segments()));
    QVERIFY(!hiera::dig(Value(), LookupKey::parse("r.0").segments()));
}

// The key of a root key as the All keys view and the revision diff list it: parsed back, it is that
// root and nothing under it.
void TestLookupKey::forRootNamesTheRootItself()
{
    QCOMPARE(LookupKey::forRoot("profile::ntp::servers"), std::string("profile::ntp::servers"));
    QCOMPARE(LookupKey::forRoot("a.b"), std::string("\"a.b\""));
    QCOMPARE(LookupKey::forRoot("say \"hi\""), std::string("'say \"hi\"'"));
    for (const char* root : {"plain", "a.b", "x.0", "it's", "say \"hi\"", " spaced ", "0"}) {
        const LookupKey k = LookupKey::parse(LookupKey::forRoot(root));
        QCOMPARE(k.root(), std::string(root));
        QVERIFY(!k.isDotted());
    }
}

QTEST_APPLESS_MAIN(TestLookupKey)
#include "tst_lookupkey.moc"
