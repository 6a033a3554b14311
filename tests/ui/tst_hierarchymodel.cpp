#include "hierarchymodel.h"
#include "modelroles.h"
#include "uitestutils.h"

#include <hiera/engine.h>
#include <hiera/facts.h>
#include <hiera/scope.h>

#include <QAbstractItemModelTester>
#include <QTest>

using hiera::ResolvedLocation;

class TestHierarchyModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(UiTest::writeFiles(m_dir,
            {
                { "hiera.yaml",
                    "version: 5\n"
                    "defaults:\n"
                    "  datadir: data\n"
                    "  data_hash: yaml_data\n"
                    "hierarchy:\n"
                    "  - name: Per-node\n"
                    "    path: \"nodes/%{trusted.certname}.yaml\"\n"
                    "  - name: Per-role\n"
                    "    paths: [\"roles/%{facts.role}.yaml\", \"roles/missing.yaml\"]\n"
                    "  - name: Broken\n"
                    "    path: broken.yaml\n"
                    "  - name: Common\n"
                    "    path: common.yaml\n" },
                { "data/nodes/web01.yaml", "x: 1\n" },
                { "data/roles/web.yaml", "x: 2\n" },
                { "data/broken.yaml", "a: [1, 2\n" },
                { "data/common.yaml", "x: 3\n" },
            }));
        m_engine = hiera::Engine::load(m_dir.filePath(QStringLiteral("hiera.yaml")).toStdString());
    }

    ScopeSnapshotPtr snapshotFor(const hiera::Value& scope)
    {
        auto snapshot = std::make_shared<ScopeSnapshot>();
        snapshot->engine = m_engine;
        snapshot->levels = m_engine->resolveHierarchy(hiera::MapScope(scope));
        return snapshot;
    }

    void levelsAndLocations()
    {
        HierarchyModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setBaseDirectory(m_dir.path());
        QCOMPARE(model.rowCount(), 0);

        // No certname: the node path interpolates to nodes/.yaml and must say why.
        const hiera::Value scope = hiera::scopeFromFacts(hiera::makeHash({ { "role", "web" } }));
        model.setSnapshot(snapshotFor(scope));
        QCOMPARE(model.rowCount(), 4);
        QStringList names;
        for (int row = 0; row < model.rowCount(); ++row)
            names << model.index(row, HierarchyModel::NameColumn).data().toString();
        QCOMPARE(names,
            (QStringList { QStringLiteral("Per-node"), QStringLiteral("Per-role"), QStringLiteral("Broken"),
                QStringLiteral("Common") }));
        QCOMPARE(
            model.index(0, HierarchyModel::BackendColumn).data().toString(), QStringLiteral("yaml_data (data_hash)"));

        const QModelIndex node = model.index(0, 0, model.index(0, 0));
        QCOMPARE(node.siblingAtColumn(HierarchyModel::DeclaredColumn).data().toString(),
            QStringLiteral("nodes/%{trusted.certname}.yaml"));
        QCOMPARE(
            node.siblingAtColumn(HierarchyModel::InterpolatedColumn).data().toString(), QStringLiteral("nodes/.yaml"));
        QVERIFY(node.data(HieraRoles::SuspiciousRole).toBool());
        QCOMPARE(node.data(HieraRoles::LocationStatusRole).toInt(), int(ResolvedLocation::Status::Missing));
        QVERIFY(
            node.siblingAtColumn(HierarchyModel::StatusColumn).data().toString().startsWith(QStringLiteral("missing")));
        QVERIFY(node.data(Qt::ToolTipRole).toString().contains(QStringLiteral("trusted.certname")));

        const QModelIndex role = model.index(0, 0, model.index(1, 0));
        QCOMPARE(role.siblingAtColumn(HierarchyModel::InterpolatedColumn).data().toString(),
            QStringLiteral("roles/web.yaml"));
        QCOMPARE(role.data(HieraRoles::LocationStatusRole).toInt(), int(ResolvedLocation::Status::Present));
        QVERIFY(!role.data(HieraRoles::SuspiciousRole).toBool());
        QCOMPARE(
            role.data(HieraRoles::SourceFileRole).toString(), m_dir.filePath(QStringLiteral("data/roles/web.yaml")));
        QCOMPARE(model.index(1, HierarchyModel::StatusColumn).data().toString(), QStringLiteral("1 of 2 present"));

        const QModelIndex broken = model.index(0, 0, model.index(2, 0));
        QCOMPARE(broken.data(HieraRoles::LocationStatusRole).toInt(), int(ResolvedLocation::Status::Failed));
        QVERIFY(broken.siblingAtColumn(HierarchyModel::StatusColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("failed: ")));

        // With a certname the node file is found and nothing is suspicious any more.
        model.setSnapshot(snapshotFor(hiera::scopeFromFacts(hiera::makeHash({ { "role", "web" } }), "web01")));
        const QModelIndex found = model.index(0, 0, model.index(0, 0));
        QCOMPARE(found.data(HieraRoles::LocationStatusRole).toInt(), int(ResolvedLocation::Status::Present));
        QVERIFY(!found.data(HieraRoles::SuspiciousRole).toBool());

        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const hiera::Engine> m_engine;
};

QTEST_MAIN(TestHierarchyModel)
#include "tst_hierarchymodel.moc"
