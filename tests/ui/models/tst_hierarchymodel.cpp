#include "models/hierarchymodel.h"
#include "models/modelroles.h"
#include "models/statusicons.h"
#include "ui/controlrepofixture.h"
#include "ui/uitestutils.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/facts.h>
#include <hiera/scope.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QTest>

using namespace hiera::ui;

using hiera::ResolvedLocation;

class TestHierarchyModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(UiTest::writeFiles(m_dir,
                                   {
                                       {"hiera.yaml",
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
                                        "    path: common.yaml\n"},
                                       {"data/nodes/web01.yaml", "x: 1\n"},
                                       {"data/roles/web.yaml", "x: 2\n"},
                                       {"data/broken.yaml", "a: [1, 2\n"},
                                       {"data/common.yaml", "x: 3\n"},
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
        const hiera::Value scope = hiera::scopeFromFacts(hiera::makeHash({{"role", "web"}}));
        model.setSnapshot(snapshotFor(scope));
        QCOMPARE(model.rowCount(), 4);
        QStringList names;
        for (int row = 0; row < model.rowCount(); ++row)
            names << model.index(row, HierarchyModel::NameColumn).data().toString();
        QCOMPARE(names,
                 (QStringList{QStringLiteral("Per-node"), QStringLiteral("Per-role"), QStringLiteral("Broken"),
                              QStringLiteral("Common")}));
        QCOMPARE(model.index(0, HierarchyModel::BackendColumn).data().toString(),
                 QStringLiteral("yaml_data (data_hash)"));

        const QModelIndex node = model.index(0, 0, model.index(0, 0));
        QCOMPARE(node.siblingAtColumn(HierarchyModel::DeclaredColumn).data().toString(),
                 QStringLiteral("nodes/%{trusted.certname}.yaml"));
        QCOMPARE(node.siblingAtColumn(HierarchyModel::InterpolatedColumn).data().toString(),
                 QStringLiteral("nodes/.yaml"));
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
        QCOMPARE(role.data(HieraRoles::SourceFileRole).toString(),
                 m_dir.filePath(QStringLiteral("data/roles/web.yaml")));
        QCOMPARE(model.index(1, HierarchyModel::StatusColumn).data().toString(), QStringLiteral("1 of 2 present"));

        const QModelIndex broken = model.index(0, 0, model.index(2, 0));
        QCOMPARE(broken.data(HieraRoles::LocationStatusRole).toInt(), int(ResolvedLocation::Status::Failed));
        QVERIFY(broken.siblingAtColumn(HierarchyModel::StatusColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("failed: ")));

        // With a certname the node file is found and nothing is suspicious any more.
        model.setSnapshot(snapshotFor(hiera::scopeFromFacts(hiera::makeHash({{"role", "web"}}), "web01")));
        const QModelIndex found = model.index(0, 0, model.index(0, 0));
        QCOMPARE(found.data(HieraRoles::LocationStatusRole).toInt(), int(ResolvedLocation::Status::Present));
        QVERIFY(!found.data(HieraRoles::SuspiciousRole).toBool());

        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // A control repository: one row per layer in search order, levels under it, a broken module's
    // error on its row, default_hierarchy marked, and the level this engine cannot run "not run" in
    // the warning colour (strict) or "skipped".
    // clang-format off
    void layersAndUnsupportedLevels_data()
    {
        QTest::addColumn<bool>("skip");
        QTest::newRow("strict") << false;
        QTest::newRow("skip") << true;
    }
    // clang-format on
    void layersAndUnsupportedLevels()
    {
        QFETCH(bool, skip);
        QTemporaryDir repo;
        QVERIFY(UiTest::writeControlRepository(repo));
        hiera::Environment environment = hiera::Environment::discover(repo.path().toStdString());
        hiera::EngineOptions options;
        options.skipUnsupportedLevels = skip;
        auto snapshot = std::make_shared<ScopeSnapshot>();
        snapshot->engine = hiera::Engine::fromLayers(std::move(environment.layers), options);
        snapshot->levels = snapshot->engine->resolveHierarchy(hiera::MapScope(hiera::makeHash({})));

        HierarchyModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setBaseDirectory(repo.path());
        model.setSnapshot(snapshot);
        QVERIFY(model.isGrouped());
        QCOMPARE(
            UiTest::printModel(&model, {}, 0, 1),
            (QStringList{QStringLiteral("environment layer"), QStringLiteral("  Per-environment"),
                         QStringLiteral("    path"), QStringLiteral("  Secrets"), QStringLiteral("    path"),
                         QStringLiteral("  Vault"), QStringLiteral("    path"), QStringLiteral("  Common"),
                         QStringLiteral("    path"), QStringLiteral("module broken layer"),
                         QStringLiteral("module ntp layer"), QStringLiteral("  ntp common"), QStringLiteral("    path"),
                         QStringLiteral("  ntp defaults (default_hierarchy)"), QStringLiteral("    path")}));

        const QModelIndex environmentRow = model.index(0, 0);
        QCOMPARE(environmentRow.data(HieraRoles::HierarchyRowRole).toInt(), int(HierarchyModel::RowKind::Layer));
        QCOMPARE(environmentRow.data(HieraRoles::LayerKindRole).toInt(), int(hiera::Layer::Kind::Environment));
        QCOMPARE(environmentRow.siblingAtColumn(HierarchyModel::DeclaredColumn).data().toString(),
                 QStringLiteral("hiera.yaml"));
        QCOMPARE(environmentRow.siblingAtColumn(HierarchyModel::StatusColumn).data().toString(),
                 QStringLiteral("4 levels"));
        QCOMPARE(environmentRow.data(HieraRoles::SourceFileRole).toString(),
                 repo.filePath(QStringLiteral("hiera.yaml")));

        const QModelIndex broken = model.index(1, HierarchyModel::StatusColumn);
        QVERIFY2(broken.data().toString().startsWith(QStringLiteral("failed: ")), qPrintable(broken.data().toString()));
        QCOMPARE(broken.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0xc0, 0x1c, 0x28));
        QCOMPARE(model.rowCount(broken.siblingAtColumn(0)), 0);

        const QModelIndex vault = model.index(2, HierarchyModel::StatusColumn, environmentRow);
        QCOMPARE(vault.data(HieraRoles::HierarchyRowRole).toInt(), int(HierarchyModel::RowKind::Level));
        const QString reason = vault.data(HieraRoles::UnsupportedRole).toString();
        QVERIFY(reason.contains(QStringLiteral("hiera_vault")));
        QCOMPARE(vault.data().toString(),
                 skip ? QStringLiteral("not run: %1 (skipped)").arg(reason)
                      : QStringLiteral("not run: %1").arg(reason));
        // A warning, not an error: nothing fails until a lookup consults the level.
        QCOMPARE(vault.data(Qt::ForegroundRole).value<QBrush>().color(), StatusIcons::warningColour());
        QVERIFY(
            vault.data(Qt::ToolTipRole).toString().contains(skip ? QStringLiteral("skip") : QStringLiteral("fails")));
        QVERIFY(model.index(0, HierarchyModel::StatusColumn, environmentRow)
                    .data(HieraRoles::UnsupportedRole)
                    .toString()
                    .isEmpty());

        const QModelIndex ntp = model.index(2, 0);
        const QModelIndex defaults = model.index(1, 0, ntp);
        QVERIFY(defaults.data(HieraRoles::DefaultHierarchyRole).toBool());
        QVERIFY(!model.index(0, 0, ntp).data(HieraRoles::DefaultHierarchyRole).toBool());
        QCOMPARE(defaults.data(HieraRoles::LayerKindRole).toInt(), int(hiera::Layer::Kind::Module));
        const QModelIndex defaultsFile = model.index(0, HierarchyModel::InterpolatedColumn, defaults);
        QCOMPARE(defaultsFile.data().toString(), QStringLiteral("defaults.yaml"));
        QCOMPARE(defaultsFile.parent(), defaults);
        // levelIndex() finds a level's row from its place in the snapshot, wherever it is grouped.
        QCOMPARE(model.levelIndex(snapshot->levels.size() - 1), defaults);

        // A lone hiera.yaml has one layer: its levels stay at the top.
        model.setSnapshot(snapshotFor(hiera::makeHash({})));
        QVERIFY(!model.isGrouped());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(0, 0).data(HieraRoles::HierarchyRowRole).toInt(), int(HierarchyModel::RowKind::Level));
        QCOMPARE(model.levelIndex(3), model.index(3, 0));
    }

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const hiera::Engine> m_engine;
};

QTEST_MAIN(TestHierarchyModel)
#include "tst_hierarchymodel.moc"
