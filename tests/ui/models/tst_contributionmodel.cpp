// The sources table: one row per data file a lookup consulted, in priority order, with what it gave.

#include "models/contributionmodel.h"
#include "models/modelroles.h"
#include "ui/lookuptestutils.h"
#include "ui/uitestutils.h"

#include <hiera/value.h>

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

using namespace hiera::ui;

class TestContributionModel : public QObject
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
                                        "  - name: Node\n    path: \"nodes/%{trusted.certname}.yaml\"\n"
                                        "  - name: Role\n    path: \"roles/%{facts.role}.yaml\"\n"
                                        "  - name: Missing\n    path: nowhere.yaml\n"
                                        "  - name: Common\n    path: common.yaml\n"},
                                       {"data/nodes/web01.yaml", "ssh:\n  source: 10.1.0.0/16\n"},
                                       {"data/roles/web.yaml", "workers: 4\nssh:\n  port: 22\n"},
                                       {"data/common.yaml", "workers: 16\nssh:\n  source: 10.0.0.0/8\n  port: 2222\n"},
                                   }));
        m_scope = hiera::makeHash(
            {{"facts", hiera::makeHash({{"role", "web"}})}, {"trusted", hiera::makeHash({{"certname", "web01"}})}});
    }

    void firstFound()
    {
        ContributionModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto outcome = UiTest::lookUp(m_dir.filePath(QStringLiteral("hiera.yaml")), m_scope, "workers");
        QVERIFY(outcome);
        model.setTrace(outcome->result.trace, m_dir.path());
        // The columns Level | File | Outcome | Origin; every file of the hierarchy in priority order.
        const QStringList expected = {
            QStringLiteral("Node | data/nodes/web01.yaml | no key | "),
            QStringLiteral("Role | data/roles/web.yaml | won | data/roles/web.yaml:1"),
        };
        QCOMPARE(UiTest::printModel(&model, {}, 0, ContributionModel::ValueColumn), expected);
        QCOMPARE(model.rows().at(1).outcome, ContributionModel::Outcome::Won);
        QCOMPARE(model.index(1, ContributionModel::ValueColumn).data().toString(), QStringLiteral("4"));
        const QModelIndex origin = model.index(1, ContributionModel::OriginColumn);
        QCOMPARE(origin.data(HieraRoles::SourceFileRole).toString(),
                 m_dir.filePath(QStringLiteral("data/roles/web.yaml")));
        QCOMPARE(origin.data(HieraRoles::SourceLineRole).toInt(), 1);
        QCOMPARE(origin.data(HieraRoles::OutcomeRole).toInt(), int(ContributionModel::Outcome::Won));
    }

    void deepMergeListsEveryFile()
    {
        ContributionModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        hiera::MergeSpec deep;
        deep.strategy = hiera::MergeStrategy::Deep;
        const auto outcome = UiTest::lookUp(m_dir.filePath(QStringLiteral("hiera.yaml")), m_scope, "ssh", deep);
        QVERIFY(outcome);
        model.setTrace(outcome->result.trace, m_dir.path());
        QStringList outcomes;
        for (const auto& row : model.rows())
            outcomes << row.level + QLatin1Char(' ') + ContributionModel::outcomeText(row.outcome);
        QCOMPARE(
            outcomes,
            QStringList(
                {QStringLiteral("Node %1").arg(ContributionModel::outcomeText(ContributionModel::Outcome::Merged)),
                 QStringLiteral("Role %1").arg(ContributionModel::outcomeText(ContributionModel::Outcome::Merged)),
                 QStringLiteral("Missing %1").arg(ContributionModel::outcomeText(ContributionModel::Outcome::Missing)),
                 // Both of common's entries were replaced (source by node's, port by role's): it gave nothing.
                 QStringLiteral("Common %1")
                     .arg(ContributionModel::outcomeText(ContributionModel::Outcome::Overridden))}));

        // A new answer replaces every row; no answer leaves none.
        model.setTrace(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

private:
    QTemporaryDir m_dir;
    hiera::Value m_scope;
};

QTEST_MAIN(TestContributionModel)
#include "tst_contributionmodel.moc"
