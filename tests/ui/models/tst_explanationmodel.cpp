// The explain trace as a tree: one row per step, the outcome, the value and the file:line of a found
// value; a level row takes the strongest event below it; the filter proxy keeps the path to a match.

#include "models/explanationmodel.h"
#include "models/modelroles.h"
#include "ui/lookuptestutils.h"
#include "ui/uitestutils.h"

#include <hiera/trace.h>
#include <hiera/value.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

using namespace hiera::ui;

class TestExplanationModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(UiTest::writeFiles(m_dir,
                                   {
                                       {"hiera.yaml",
                                        "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n"
                                        "  - name: Role\n    path: \"roles/%{facts.role}.yaml\"\n"
                                        "  - name: Missing\n    path: nowhere.yaml\n"
                                        "  - name: Common\n    path: common.yaml\n"},
                                       {"data/roles/web.yaml", "workers: 4\n"},
                                       {"data/common.yaml", "workers: 16\ngreeting: \"hello %{facts.role}\"\n"},
                                   }));
        m_scope = hiera::makeHash({{"facts", hiera::makeHash({{"role", "web"}})}});
    }

    void tree()
    {
        ExplanationModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        const auto outcome = UiTest::lookUp(m_dir.filePath(QStringLiteral("hiera.yaml")), m_scope, "workers");
        QVERIFY(outcome && outcome->result.trace);
        model.setTrace(outcome->result.trace, m_dir.path());
        // Step | Outcome | Value: the lookup_options meta-lookup first, then the key, as Puppet explains it.
        const QStringList expected = {
            QStringLiteral("Searching for \"workers\" | result | 4"),
            QStringLiteral("  lookup_options for \"lookup_options\" | no such key | "),
            QStringLiteral("    Data provider: Global Data Provider (hiera configuration version 5) | no such key | "),
            QStringLiteral("      Hierarchy entry \"Role\" | no such key | "),
            QStringLiteral("        Path \"data/roles/web.yaml\" | no such key | "),
            QStringLiteral("      Hierarchy entry \"Missing\" | no such key | "),
            QStringLiteral("        Path \"data/nowhere.yaml\" | path not found | "),
            QStringLiteral("      Hierarchy entry \"Common\" | no such key | "),
            QStringLiteral("        Path \"data/common.yaml\" | no such key | "),
            QStringLiteral("  Data provider: Global Data Provider (hiera configuration version 5) | result | 4"),
            QStringLiteral("    Hierarchy entry \"Role\" | result | 4"),
            QStringLiteral("      Path \"data/roles/web.yaml\" | found | 4"),
        };
        QCOMPARE(UiTest::printModel(&model, {}, 0, ExplanationModel::OriginColumn), expected);

        // The found value's row points at its file and line; its level is marked as where it was found.
        const QModelIndex provider = model.index(1, 0, model.index(0, 0));
        const QModelIndex level = model.index(0, 0, provider);
        const QModelIndex path = model.index(0, ExplanationModel::OriginColumn, level);
        QCOMPARE(path.data().toString(), QStringLiteral("data/roles/web.yaml:1"));
        QCOMPARE(path.data(HieraRoles::SourceFileRole).toString(),
                 m_dir.filePath(QStringLiteral("data/roles/web.yaml")));
        QCOMPARE(path.data(HieraRoles::SourceLineRole).toInt(), 1);
        QCOMPARE(path.data(HieraRoles::SourceKeyRole).toString(), QStringLiteral("workers"));
        QCOMPARE(path.data(HieraRoles::TraceEventRole).toInt(), int(hiera::TraceNode::Event::Found));
        QCOMPARE(level.data(HieraRoles::TraceKindRole).toInt(), int(hiera::TraceNode::Kind::Level));
        QVERIFY(level.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!level.data(Qt::DecorationRole).isNull());
        // Misses are greyed, the find is not.
        const QModelIndex missing = model.index(1, 0, model.index(0, 0, model.index(0, 0, model.index(0, 0))));
        QCOMPARE(missing.data().toString(), QStringLiteral("Hierarchy entry \"Missing\""));
        QVERIFY(missing.data(Qt::ForegroundRole).value<QBrush>().color()
                != path.data(Qt::ForegroundRole).value<QBrush>().color());

        model.setTrace(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void filterKeepsThePathToAMatch()
    {
        ExplanationModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setFilterKeyColumn(-1);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto outcome = UiTest::lookUp(m_dir.filePath(QStringLiteral("hiera.yaml")), m_scope, "greeting");
        QVERIFY(outcome && outcome->result.found());
        model.setTrace(outcome->result.trace, m_dir.path());
        proxy.setFilterFixedString(QStringLiteral("NOWHERE"));
        const QStringList expected = {
            QStringLiteral("Searching for \"greeting\""),
            QStringLiteral("  lookup_options for \"lookup_options\""),
            QStringLiteral("    Data provider: Global Data Provider (hiera configuration version 5)"),
            QStringLiteral("      Hierarchy entry \"Missing\""),
            QStringLiteral("        Path \"data/nowhere.yaml\""),
            QStringLiteral("  Data provider: Global Data Provider (hiera configuration version 5)"),
            QStringLiteral("    Hierarchy entry \"Missing\""),
            QStringLiteral("      Path \"data/nowhere.yaml\""),
        };
        QCOMPARE(UiTest::printModel(&proxy, {}, 0, 1), expected);
        // The interpolation of the found value is a step of its own, with the scope variable it read.
        proxy.setFilterFixedString(QStringLiteral("facts.role"));
        QVERIFY(proxy.rowCount() == 1);
        QVERIFY(UiTest::printModel(&proxy, {}, 0, 1).join(QLatin1Char('\n')).contains(QLatin1String("Scope variable")));
    }

private:
    QTemporaryDir m_dir;
    hiera::Value m_scope;
};

QTEST_MAIN(TestExplanationModel)
#include "tst_explanationmodel.moc"
