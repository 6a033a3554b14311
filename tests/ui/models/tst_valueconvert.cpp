#include "models/valueconvert.h"

#include <hiera/value.h>
#include <hiera/yaml.h>

#include <QTest>

#include <cmath>

using namespace hiera::ui;

using hiera::Value;
Q_DECLARE_METATYPE(hiera::Value::Type)
Q_DECLARE_METATYPE(hiera::Value)

namespace QTest {
template <>
char* toString(const hiera::Value& value)
{
    return qstrdup(ValueConvert::displayText(value).toUtf8().constData());
}
} // namespace QTest

class TestValueConvert : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One line of JSON for a report's cell: types stay apart, secrets masked unless revealed, and
    // NaN (which JSON cannot hold) still shown.
    void compactJson()
    {
        QCOMPARE(ValueConvert::compactJson(Value(std::string("true")), false), QStringLiteral("\"true\""));
        QCOMPARE(ValueConvert::compactJson(Value(true), false), QStringLiteral("true"));
        Value secret(std::string("hunter2"));
        hiera::SourceMark mark;
        mark.flags |= hiera::SourceMark::Decrypted;
        secret.setMark(mark);
        hiera::Array array;
        array.push_back(Value(std::int64_t(1)));
        array.push_back(secret);
        const Value holder{std::move(array)};
        QCOMPARE(ValueConvert::compactJson(holder, false), QStringLiteral("[1,\"<sensitive>\"]"));
        QCOMPARE(ValueConvert::compactJson(holder, true), QStringLiteral("[1,\"hunter2\"]"));
        QCOMPARE(ValueConvert::compactJson(Value(std::nan("")), false), QStringLiteral("NaN"));
    }

    // A view cell holds at most maxCellCharacters and counts the rest; a character outside the BMP is
    // never split in two.
    void cellShown()
    {
        const QString small(ValueConvert::maxCellCharacters, QLatin1Char('a'));
        QCOMPARE(ValueConvert::cellShown(small), small);
        const QString big = small + QStringLiteral("bcd");
        QCOMPARE(ValueConvert::cellShown(big), small + QStringLiteral(" … (3 more characters)"));
        const QString emoji = QStringLiteral("\U0001F600");
        const QString straddling = QString(ValueConvert::maxCellCharacters - 1, QLatin1Char('a')) + emoji + emoji;
        const QString shown = ValueConvert::cellShown(straddling);
        QCOMPARE(shown,
                 QString(ValueConvert::maxCellCharacters - 1, QLatin1Char('a'))
                     + QStringLiteral(" … (2 more characters)"));
        QVERIFY(!shown.isEmpty());
    }

    // clang-format off
    void parseScalar_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Value::Type>("type");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("display");

        QTest::newRow("int") << "42" << Value::Type::Integer << true << "42";
        QTest::newRow("int negative") << "-7" << Value::Type::Integer << true << "-7";
        QTest::newRow("int max") << "9223372036854775807" << Value::Type::Integer << true << "9223372036854775807";
        QTest::newRow("int overflow") << "9223372036854775808" << Value::Type::Integer << false << "";
        QTest::newRow("int leading zero stays decimal") << "015" << Value::Type::Integer << true << "15";
        QTest::newRow("int garbage") << "4x" << Value::Type::Integer << false << "";
        QTest::newRow("float") << "1.5" << Value::Type::Float << true << "1.5";
        QTest::newRow("float integral") << "1000" << Value::Type::Float << true << "1000.0";
        QTest::newRow("float inf") << "-.inf" << Value::Type::Float << true << "-Infinity";
        QTest::newRow("float garbage") << "1.5.2" << Value::Type::Float << false << "";
        QTest::newRow("bool true") << "true" << Value::Type::Boolean << true << "true";
        QTest::newRow("bool yes") << "Yes" << Value::Type::Boolean << true << "true";
        QTest::newRow("bool off") << "off" << Value::Type::Boolean << true << "false";
        QTest::newRow("bool garbage") << "maybe" << Value::Type::Boolean << false << "";
        QTest::newRow("string keeps blanks") << " a b " << Value::Type::String << true << " a b ";
        QTest::newRow("null") << "whatever" << Value::Type::Null << true << "null";
        QTest::newRow("hash") << "{}" << Value::Type::Hash << false << "";
    }
    // clang-format on
    void parseScalar()
    {
        QFETCH(QString, text);
        QFETCH(Value::Type, type);
        QFETCH(bool, ok);
        QFETCH(QString, display);
        QString error;
        const auto value = ValueConvert::parseScalar(text, type, &error);
        QCOMPARE(value.has_value(), ok);
        if (ok) {
            QCOMPARE(value->type(), type);
            if (type == Value::Type::Float && std::isinf(value->asFloat()))
                QVERIFY(value->asFloat() < 0);
            else
                QCOMPARE(ValueConvert::displayText(*value), display);
        } else {
            QVERIFY(!error.isEmpty());
        }
    }

    // clang-format off
    void convertValue_data()
    {
        QTest::addColumn<Value>("from");
        QTest::addColumn<Value::Type>("to");
        QTest::addColumn<Value>("expected");
        QTest::newRow("string to int") << Value("42") << Value::Type::Integer << Value(42);
        QTest::newRow("bad string to int") << Value("abc") << Value::Type::Integer << Value(0);
        QTest::newRow("int to string") << Value(42) << Value::Type::String << Value("42");
        QTest::newRow("int to bool") << Value(1) << Value::Type::Boolean << Value(true);
        QTest::newRow("bool to int") << Value(true) << Value::Type::Integer << Value(1);
        QTest::newRow("float to int") << Value(2.9) << Value::Type::Integer << Value(2);
        QTest::newRow("int to float") << Value(2) << Value::Type::Float << Value(2.0);
        QTest::newRow("scalar to array") << Value("x") << Value::Type::Array << hiera::makeArray({ Value("x") });
        QTest::newRow("hash to string") << hiera::makeHash({ { "a", 1 } }) << Value::Type::String << Value("");
        QTest::newRow("null to string") << Value() << Value::Type::String << Value("");
        QTest::newRow("string to hash") << Value("x") << Value::Type::Hash << Value(hiera::Hash());
    }
    // clang-format on
    void convertValue()
    {
        QFETCH(Value, from);
        QFETCH(Value::Type, to);
        QFETCH(Value, expected);
        const Value converted = ValueConvert::convertValue(from, to);
        QCOMPARE(converted.type(), to);
        QCOMPARE(converted, expected);
    }

    void typeNames()
    {
        for (const QString& name : ValueConvert::typeNames()) {
            const auto type = ValueConvert::typeFromName(name);
            QVERIFY(type);
            QCOMPARE(ValueConvert::typeName(*type), name);
        }
        QVERIFY(!ValueConvert::typeFromName(QStringLiteral("date")));
    }

    void originText()
    {
        const Value parsed = hiera::parseData("a:\n  b: 1\n", "/tmp/x/data/common.yaml");
        const Value* b = parsed.asHash().find(std::string_view("a"))->asHash().find(std::string_view("b"));
        QVERIFY(b);
        QCOMPARE(ValueConvert::originText(b->mark(), QStringLiteral("/tmp/x")), QStringLiteral("data/common.yaml:2"));
        QCOMPARE(ValueConvert::originText(b->mark()), QStringLiteral("/tmp/x/data/common.yaml:2"));
        QCOMPARE(ValueConvert::originText(hiera::SourceMark{}), QString());
    }

    void displayText()
    {
        QCOMPARE(ValueConvert::displayText(hiera::makeArray({1, 2, 3})), QStringLiteral("[3 items]"));
        QCOMPARE(ValueConvert::displayText(hiera::makeHash({{"a", 1}})), QStringLiteral("{1 key}"));
        QCOMPARE(ValueConvert::displayText(Value()), QStringLiteral("null"));
        QCOMPARE(ValueConvert::editText(Value()), QString());
        QCOMPARE(ValueConvert::keyText(Value(1)), QStringLiteral("1"));
    }
};

QTEST_APPLESS_MAIN(TestValueConvert)
#include "tst_valueconvert.moc"
