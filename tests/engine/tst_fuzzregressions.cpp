// Regressions for what the libFuzzer targets in fuzz/ found (docs/bad-input.md, "fuzzing"). Each row
// is the minimised input, checked against the invariant the fuzz target checks; the inputs are also
// in fuzz/corpus/<target>/ so that every fuzz run replays them.

#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/scope.h>

#include <QTest>

using namespace hiera;
using namespace testutils;

class TestFuzzRegressions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void yamlRoundTrip_data();
    void yamlRoundTrip();
    void sexagesimalOverflow_data();
    void sexagesimalOverflow();
    void sexagesimalInRange();
};

// fuzz_yaml: parseData(text) -> toYaml -> parseData must give the same value (valueformat.h).
// clang-format off
void TestFuzzRegressions::yamlRoundTrip_data()
{
    QTest::addColumn<QByteArray>("text");
    // toYaml wrote a collection key as `? ["a","b"]: v`, which YAML reads as the key {[a, b]: v}.
    QTest::newRow("sequence key") << QByteArray("? [complex, key]\n: v\n? {a: 1}\n: w\n");
    QTest::newRow("nested collection keys") << QByteArray("? [[1, {2: [3]}], {? [x]: y}]\n: [z]\n");
    // ... then wrote the strings of a flow key plain: yaml-cpp reads `/? o` in a flow map differently.
    QTest::newRow("indicator in a flow key") << QByteArray("? o[cuokxAp_ke\x7f" "y: /? o w\n");
    QTest::newRow("flow indicators in a key") << QByteArray("? [\"a,b\", \"c]d\", \"{e}\", \"f: g\", \"h #i\"]\n: 1\n");
    // A !!binary scalar holds bytes that are not UTF-8: toYaml wrote them raw, which does not read back.
    QTest::newRow("binary, not UTF-8") << QByteArray("k: !!binary /w==\nl: !!binary gICA\n");
    QTest::newRow("binary key") << QByteArray("? !!binary /w==\n: v\n");
    // A key longer than 1024 characters cannot be an implicit YAML key.
    // (written as explicit keys here: the input must be valid YAML too).
    QTest::newRow("long key") << QByteArray("? \"" + QByteArray(1500, 'k') + "\"\n: v\n");
    QTest::newRow("long key in a flow key") << QByteArray("? [{? \"" + QByteArray(1500, 'k') + "\": v}]\n: w\n");
    QTest::newRow("long key with escapes") << QByteArray("? \"y:d" + QByteArray(400, '\x06') + "\"\n: 1\n");
}
// clang-format on

void TestFuzzRegressions::yamlRoundTrip()
{
    QFETCH(QByteArray, text);
    const Value v = parseData(text.toStdString(), "fuzz.yaml");
    const std::string yaml = toYaml(v);
    Value back;
    auto e = catchError([&] { back = parseData(yaml, "roundtrip.yaml"); });
    QVERIFY2(!e, qPrintable(QString::fromUtf8(e ? e->what() : "") + "\n" + qs(yaml)));
    QVERIFY2(back == v, yaml.c_str());
}

// fuzz_interpolation (UBSan): a sexagesimal integer beyond 64 bits was cast from a double, which is
// undefined behaviour. It is now the DataType error of any other out-of-range integer (docs/hiera-reference.md §4.11).
// clang-format off
void TestFuzzRegressions::sexagesimalOverflow_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("fuzz input") << QByteArray("22222222222222222222222222222222222222222222222:22");
    QTest::newRow("first part just over") << QByteArray("2562047788015215:30:08");
    QTest::newRow("negative") << QByteArray("-22222222222222222222:22");
    QTest::newRow("negative, first part just over") << QByteArray("-2562047788015216:00:00");
}
// clang-format on

void TestFuzzRegressions::sexagesimalOverflow()
{
    QFETCH(QByteArray, text);
    auto e = catchError([&] { parseData("k: " + text.toStdString() + "\n", "s.yaml"); });
    QVERIFY(e);
    QCOMPARE(e->code(), ErrorCode::DataType);
    QVERIFY2(QString::fromUtf8(e->what()).contains("out of the 64-bit range"), e->what());
    QCOMPARE(e->location().line, 1);
    QCOMPARE(e->location().column, 4);
}

void TestFuzzRegressions::sexagesimalInRange()
{
    // Psych's weights (60^|e-2|): unchanged by the overflow checks.
    QCOMPARE(resolvePlainScalar("1:30"), Value(std::int64_t(5400)));
    QCOMPARE(resolvePlainScalar("1:30:00"), Value(std::int64_t(5400)));
    QCOMPARE(resolvePlainScalar("-1:30:00"), Value(std::int64_t(-3600 + 1800)));
    QCOMPARE(resolvePlainScalar("1_0:00:00"), Value(std::int64_t(36000)));
    QCOMPARE(resolvePlainScalar("2562047788015215:30:07"), Value(std::int64_t(9223372036854775807)));
}

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
