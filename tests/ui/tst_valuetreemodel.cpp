#include "models/modelroles.h"
#include "uitestutils.h"
#include "models/valuetreemodel.h"

#include <hiera/yaml.h>

#include <QAbstractItemModelTester>
#include <QTest>

class TestValueTreeModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void treeWithOrigins()
    {
        ValueTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);

        const hiera::Value data = hiera::parseData("ntp:\n"
                                                   "  servers:\n"
                                                   "    - a.example.com\n"
                                                   "    - b.example.com\n"
                                                   "  iburst: true\n"
                                                   "  minpoll: 4\n",
            "/demo/data/common.yaml");
        const hiera::Value ntp = *data.asHash().find(std::string_view("ntp"));
        model.setValue(ntp, QStringLiteral("ntp"), QStringLiteral("/demo"));
        const QStringList expected = {
            QStringLiteral("ntp | {3 keys} | hash | data/common.yaml:2"),
            QStringLiteral("  servers | [2 items] | array | data/common.yaml:3"),
            QStringLiteral("    [0] | a.example.com | string | data/common.yaml:3"),
            QStringLiteral("    [1] | b.example.com | string | data/common.yaml:4"),
            QStringLiteral("  iburst | true | boolean | data/common.yaml:5"),
            QStringLiteral("  minpoll | 4 | integer | data/common.yaml:6"),
        };
        QCOMPARE(UiTest::printModel(&model), expected);

        const QModelIndex minpoll = model.index(2, ValueTreeModel::OriginColumn, model.index(0, 0));
        QCOMPARE(minpoll.data(HieraRoles::SourceFileRole).toString(), QStringLiteral("/demo/data/common.yaml"));
        QCOMPARE(minpoll.data(HieraRoles::SourceLineRole).toInt(), 6);
        QCOMPARE(minpoll.data(HieraRoles::SourceColumnRole).toInt(), 12);
        QCOMPARE(minpoll.data(HieraRoles::SourceKeyRole).toString(), QStringLiteral("minpoll"));
        // Array elements highlight the key that holds the array.
        const QModelIndex server = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
        QCOMPARE(server.data(HieraRoles::SourceKeyRole).toString(), QStringLiteral("servers"));
        QVERIFY(model.index(0, 0).data(HieraRoles::YamlRole).toString().contains(QLatin1String("servers:\n")));

        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void scalarWithoutOrigin()
    {
        ValueTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setValue(hiera::Value(42), QStringLiteral("a.b.c"));
        QCOMPARE(UiTest::printModel(&model), QStringList { QStringLiteral("a.b.c | 42 | integer | ") });
        QCOMPARE(model.index(0, 0).data(HieraRoles::SourceFileRole).toString(), QString());
        QCOMPARE(model.index(0, 0).data(HieraRoles::SourceKeyRole).toString(), QStringLiteral("c"));
    }
};

QTEST_MAIN(TestValueTreeModel)
#include "tst_valuetreemodel.moc"
