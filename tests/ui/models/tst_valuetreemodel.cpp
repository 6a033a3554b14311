#include "models/allkeysmodel.h"
#include "models/contributionmodel.h"
#include "models/facttreemodel.h"
#include "models/fleetmodel.h"
#include "models/hierarchymodel.h"
#include "models/modelroles.h"
#include "models/valuetreemodel.h"
#include "ui/uitestutils.h"

#include <hiera/yaml.h>

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hiera::ui;

class TestValueTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Column labels come from one list per model (models/columnheaders.h): each column has its own
    // label, in the enum's order, and nothing vertical or past the last column.
    void headersNameEachColumn()
    {
        ValueTreeModel values;
        QCOMPARE(values.columnCount(), int(ValueTreeModel::ColumnCount));
        QCOMPARE(values.headerData(ValueTreeModel::KeyColumn, Qt::Horizontal).toString(), QStringLiteral("Key"));
        QCOMPARE(values.headerData(ValueTreeModel::OriginColumn, Qt::Horizontal).toString(), QStringLiteral("Origin"));
        QVERIFY(!values.headerData(ValueTreeModel::ColumnCount, Qt::Horizontal).isValid());
        QVERIFY(!values.headerData(ValueTreeModel::KeyColumn, Qt::Vertical).isValid());
        QVERIFY(!values.headerData(ValueTreeModel::KeyColumn, Qt::Horizontal, Qt::ToolTipRole).isValid());
        FactTreeModel facts;
        QCOMPARE(facts.columnCount(), int(FactTreeModel::ColumnCount));
        QCOMPARE(facts.headerData(FactTreeModel::TypeColumn, Qt::Horizontal).toString(), QStringLiteral("Type"));
        ContributionModel contributions;
        QCOMPARE(contributions.headerData(ContributionModel::OriginColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Origin"));
        QCOMPARE(contributions.headerData(ContributionModel::ValueColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Value"));
        QCOMPARE(contributions.headerData(2, Qt::Vertical).toInt(), 3);
        AllKeysModel allKeys;
        QCOMPARE(allKeys.headerData(AllKeysModel::MergeColumn, Qt::Horizontal).toString(), QStringLiteral("Merge"));
        FleetModel fleet;
        QCOMPARE(fleet.headerData(FleetModel::FileColumn, Qt::Horizontal).toString(), QStringLiteral("Deciding files"));
        HierarchyModel hierarchy;
        QCOMPARE(hierarchy.headerData(HierarchyModel::StatusColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Status"));
    }

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
        QCOMPARE(UiTest::printModel(&model), QStringList{QStringLiteral("a.b.c | 42 | integer | ")});
        QCOMPARE(model.index(0, 0).data(HieraRoles::SourceFileRole).toString(), QString());
        QCOMPARE(model.index(0, 0).data(HieraRoles::SourceKeyRole).toString(), QStringLiteral("c"));
    }
};

QTEST_MAIN(TestValueTreeModel)
#include "tst_valuetreemodel.moc"
