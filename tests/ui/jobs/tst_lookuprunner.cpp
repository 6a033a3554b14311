#include "jobs/lookuprunner.h"
#include "jobs/memoryrelease.h"
#include "models/contributionmodel.h"
#include "models/explanationmodel.h"
#include "models/modelroles.h"
#include "ui/uitestutils.h"

#include <hiera/facts.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace hiera::ui;

using Outcome = ContributionModel::Outcome;
Q_DECLARE_METATYPE(ContributionModel::Outcome)

namespace {
QList<Outcome> outcomes(const std::vector<ContributionModel::Row>& rows)
{
    QList<Outcome> list;
    for (const auto& row : rows)
        list << row.outcome;
    return list;
}
QStringList files(const std::vector<ContributionModel::Row>& rows)
{
    QStringList list;
    for (const auto& row : rows)
        list << row.path.section(QLatin1Char('/'), -2);
    return list;
}
} // namespace

class TestLookupRunner : public QObject
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
                                        "defaults: {datadir: data, data_hash: yaml_data}\n"
                                        "hierarchy:\n"
                                        "  - name: Node\n"
                                        "    path: \"nodes/%{trusted.certname}.yaml\"\n"
                                        "  - name: Role\n"
                                        "    paths: [\"roles/%{facts.role}.yaml\", \"roles/missing.yaml\"]\n"
                                        "  - name: Common\n"
                                        "    path: common.yaml\n"},
                                       {"bad/hiera.yaml", "version: 5\nhierarchy: [\n"},
                                       {"data/nodes/web01.yaml",
                                        "x: node\n"
                                        "h:\n"
                                        "  a: 1\n"},
                                       {"data/roles/web.yaml",
                                        "y: role\n"
                                        "h:\n"
                                        "  b: 2\n"},
                                       {"data/common.yaml",
                                        "lookup_options:\n"
                                        "  h:\n"
                                        "    merge: deep\n"
                                        "x: common\n"
                                        "z: common\n"
                                        "h:\n"
                                        "  a: 0\n"
                                        "  c: 3\n"},
                                   }));
        m_scope = hiera::scopeFromFacts(hiera::makeHash({{"role", "web"}}), "web01");
    }

    void init()
    {
        m_runner = new LookupRunner(this);
        QSignalSpy loaded(m_runner, &LookupRunner::engineLoaded);
        m_runner->load(m_dir.filePath(QStringLiteral("hiera.yaml")));
        QVERIFY(m_runner->isBusy());
        QVERIFY(loaded.wait(10000));
        QVERIFY(m_runner->engine());
        QCOMPARE(loaded.first().at(0).toString(), m_dir.filePath(QStringLiteral("hiera.yaml")));
    }
    void cleanup()
    {
        QTRY_VERIFY(!m_runner->isBusy());
        delete m_runner;
    }

    LookupOutcomePtr lookupOnce(const QString& key, std::optional<hiera::MergeSpec> merge = {})
    {
        QSignalSpy finished(m_runner, &LookupRunner::lookupFinished);
        m_runner->lookup(m_scope, AnswerRequest{key.toStdString(), merge});
        if (!finished.wait(10000))
            return nullptr;
        return finished.first().at(0).value<LookupOutcomePtr>();
    }

    void loadFailure()
    {
        QSignalSpy failed(m_runner, &LookupRunner::loadFailed);
        const EnginePtr previous = m_runner->engine();
        m_runner->load(m_dir.filePath(QStringLiteral("bad/hiera.yaml")));
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("hiera.yaml")));
        QCOMPARE(m_runner->engine(), previous); // a failed load keeps what worked
    }

    void failedLoadHoldsNothing()
    {
        // A runner whose first load fails: no engine, no job, nothing pending; the memory the attempt
        // used is handed back to the system (MemoryRelease) on the worker.
        LookupRunner runner;
        QSignalSpy failed(&runner, &LookupRunner::loadFailed);
        QSignalSpy resolved(&runner, &LookupRunner::scopeResolved);
        const int releases = MemoryRelease::releaseCount();
        runner.load(m_dir.filePath(QStringLiteral("bad/hiera.yaml")));
        QVERIFY(failed.wait(10000));
        QVERIFY(!runner.engine());
        QVERIFY(runner.hieraYaml().isEmpty());
        QVERIFY(!runner.isBusy());
        QVERIFY(MemoryRelease::releaseCount() > releases);
        runner.resolveScope(m_scope); // no engine: nothing starts
        QVERIFY(!runner.isBusy());
        QTest::qWait(20);
        QCOMPARE(resolved.count(), 0);
    }

    void replacedEngineIsFreed()
    {
        // The runner is the engine's only holder here: loading again frees the previous engine at once,
        // and the memory goes back to the system. (A failed load keeps it: loadFailure.)
        std::weak_ptr<const hiera::Engine> first = m_runner->engine();
        QVERIFY(lookupOnce(QStringLiteral("x")));
        const int releases = MemoryRelease::releaseCount();
        QSignalSpy loaded(m_runner, &LookupRunner::engineLoaded);
        m_runner->load(m_dir.filePath(QStringLiteral("hiera.yaml")));
        QVERIFY(loaded.wait(10000));
        QVERIFY(m_runner->engine());
        // The finished jobs' futures let go of their results (and the engine) a moment later.
        QTRY_VERIFY(first.expired());
        QTRY_VERIFY(MemoryRelease::releaseCount() > releases);
    }

    void unusableFilesReleaseMemory()
    {
        // A scope whose hierarchy meets a file it cannot use (here a directory where a data file should
        // be): the job hands the memory it read back.
        QTemporaryDir dir;
        QVERIFY(UiTest::writeFiles(
            dir, {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: Broken\n    path: broken.yaml\n"}}));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("data/broken.yaml"))));
        QSignalSpy loaded(m_runner, &LookupRunner::engineLoaded);
        m_runner->load(dir.filePath(QStringLiteral("hiera.yaml")));
        QVERIFY(loaded.wait(10000));
        const int releases = MemoryRelease::releaseCount();
        QSignalSpy resolved(m_runner, &LookupRunner::scopeResolved);
        m_runner->resolveScope(m_scope);
        QVERIFY(resolved.wait(10000));
        const auto snapshot = resolved.first().at(0).value<ScopeSnapshotPtr>();
        QCOMPARE(snapshot->levels.size(), std::size_t(1));
        QCOMPARE(snapshot->levels[0].locations.at(0).status, hiera::ResolvedLocation::Status::Failed);
        QVERIFY(MemoryRelease::releaseCount() > releases);
    }

    void readFactsSupersedes()
    {
        QVERIFY(UiTest::writeFiles(m_dir, {{"one.yaml", "role: one\n"}, {"two.yaml", "role: two\n"}}));
        QSignalSpy read(m_runner, &LookupRunner::factsRead);
        QSignalSpy failed(m_runner, &LookupRunner::factsReadFailed);
        const int dropped = m_runner->droppedResults();
        m_runner->readFacts(m_dir.filePath(QStringLiteral("one.yaml")));
        QVERIFY(m_runner->isReadingFacts());
        m_runner->readFacts(m_dir.filePath(QStringLiteral("two.yaml")));
        QTRY_VERIFY(!m_runner->isBusy());
        QVERIFY(!m_runner->isReadingFacts());
        QCOMPARE(read.count(), 1);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(read.first().at(0).toString(), m_dir.filePath(QStringLiteral("two.yaml")));
        QCOMPARE(m_runner->droppedResults(), dropped + 1);

        m_runner->readFacts(m_dir.filePath(QStringLiteral("missing.yaml")));
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.first().at(1).toString().contains(QLatin1String("missing.yaml")));
    }

    void lookupFirst()
    {
        const LookupOutcomePtr outcome = lookupOnce(QStringLiteral("x"));
        QVERIFY(outcome);
        QVERIFY(outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::Value("node"));
        QVERIFY(outcome->result.trace);
        const auto rows = ContributionModel::collect(*outcome->result.trace);
        QVERIFY(!rows.empty());
        QCOMPARE(rows.front().outcome, Outcome::Won);
        QCOMPARE(files(rows).front(), QStringLiteral("nodes/web01.yaml"));
        QCOMPARE(rows.front().location.line, 1);
    }

    void lookupFallsThrough()
    {
        const LookupOutcomePtr outcome = lookupOnce(QStringLiteral("z"));
        QVERIFY(outcome && outcome->result.found());
        const auto rows = ContributionModel::collect(*outcome->result.trace);
        QCOMPARE(files(rows),
                 (QStringList{QStringLiteral("nodes/web01.yaml"), QStringLiteral("roles/web.yaml"),
                              QStringLiteral("roles/missing.yaml"), QStringLiteral("data/common.yaml")}));
        QCOMPARE(outcomes(rows),
                 (QList<Outcome>{Outcome::NotFound, Outcome::NotFound, Outcome::Missing, Outcome::Won}));
        QCOMPARE(rows[0].level, QStringLiteral("Node"));
        QCOMPARE(rows[3].level, QStringLiteral("Common"));

        ContributionModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(outcome->result.trace, m_dir.path());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(3, ContributionModel::OutcomeColumn).data().toString(), QStringLiteral("won"));
        QCOMPARE(model.index(3, ContributionModel::OriginColumn).data().toString(),
                 QStringLiteral("data/common.yaml:5"));
        QCOMPARE(model.index(3, 0).data(HieraRoles::SourceLineRole).toInt(), 5);
        QCOMPARE(model.index(3, 0).data(HieraRoles::SourceKeyRole).toString(), QStringLiteral("z"));
        QCOMPARE(model.index(2, ContributionModel::OutcomeColumn).data().toString(), QStringLiteral("missing"));
    }

    void lookupDeepMerge()
    {
        const LookupOutcomePtr outcome = lookupOnce(QStringLiteral("h"));
        QVERIFY(outcome && outcome->result.found());
        const hiera::Value& h = outcome->result.value;
        QVERIFY(h.isHash());
        QCOMPARE(*h.asHash().find(std::string_view("a")), hiera::Value(1));
        QCOMPARE(*h.asHash().find(std::string_view("b")), hiera::Value(2));
        QCOMPARE(*h.asHash().find(std::string_view("c")), hiera::Value(3));
        // Every leaf keeps its own file and line through the merge.
        QCOMPARE(hiera::SourceFiles::locate(h.asHash().find(std::string_view("a"))->mark()).line, 3);
        QVERIFY(QString::fromStdString(hiera::SourceFiles::locate(h.asHash().find(std::string_view("b"))->mark()).file)
                    .endsWith(QLatin1String("roles/web.yaml")));

        const hiera::TraceNode& root = *outcome->result.trace;
        QVERIFY(root.merge);
        QCOMPARE(root.merge->strategy, hiera::MergeStrategy::Deep);
        QCOMPARE(root.lookupOptionsEntry, std::string("h"));
        const auto rows = ContributionModel::collect(root);
        QCOMPARE(outcomes(rows), (QList<Outcome>{Outcome::Merged, Outcome::Merged, Outcome::Missing, Outcome::Merged}));

        ExplanationModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(outcome->result.trace, m_dir.path());
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Searching for \"h\""));
        const QStringList dump = UiTest::printModel(&model);
        QVERIFY2(dump.filter(QStringLiteral("Hierarchy entry \"Node\"")).size() >= 1, qPrintable(dump.join('\n')));
        QVERIFY2(dump.filter(QStringLiteral("Path \"data/nodes/web01.yaml\" | found")).size() == 1,
                 qPrintable(dump.join('\n')));
        QVERIFY2(dump.filter(QStringLiteral("path not found")).size() >= 1, qPrintable(dump.join('\n')));
    }

    void mergeOverride()
    {
        hiera::MergeSpec first;
        const LookupOutcomePtr outcome = lookupOnce(QStringLiteral("h"), first);
        QVERIFY(outcome && outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::makeHash({{"a", 1}}));
    }

    void notFoundAndErrors()
    {
        const LookupOutcomePtr missing = lookupOnce(QStringLiteral("nope"));
        QVERIFY(missing);
        QCOMPARE(missing->result.status, hiera::LookupResult::Status::NotFound);
        const LookupOutcomePtr bad = lookupOnce(QStringLiteral("a..b"));
        QVERIFY(bad);
        QCOMPARE(bad->result.status, hiera::LookupResult::Status::Error);
        QVERIFY(bad->result.error);
        QCOMPARE(bad->result.error->code(), hiera::ErrorCode::KeySyntax);
    }

    void staleResultsAreDropped()
    {
        QSignalSpy finished(m_runner, &LookupRunner::lookupFinished);
        const int droppedBefore = m_runner->droppedResults();
        m_runner->lookup(m_scope, AnswerRequest{"x", {}});
        m_runner->lookup(m_scope, AnswerRequest{"y", {}});
        m_runner->lookup(m_scope, AnswerRequest{"z", {}});
        QVERIFY(finished.wait(10000));
        QTRY_VERIFY(!m_runner->isBusy());
        QTest::qWait(50);
        // Only the newest request is answered: "x" ran and was dropped, "y" was replaced before it started.
        QCOMPARE(finished.count(), 1);
        const auto outcome = finished.first().at(0).value<LookupOutcomePtr>();
        QCOMPARE(outcome->request.key, std::string("z"));
        QCOMPARE(m_runner->droppedResults(), droppedBefore + 1);
    }

    void newEngineDropsOldResults()
    {
        QSignalSpy finished(m_runner, &LookupRunner::lookupFinished);
        m_runner->lookup(m_scope, AnswerRequest{"x", {}});
        m_runner->setEngine(hiera::Engine::load(m_dir.filePath(QStringLiteral("hiera.yaml")).toStdString()));
        QTRY_VERIFY(!m_runner->isBusy());
        QTest::qWait(50);
        QCOMPARE(finished.count(), 0);
    }

    void resolveScope()
    {
        QSignalSpy resolved(m_runner, &LookupRunner::scopeResolved);
        m_runner->resolveScope(m_scope);
        QVERIFY(resolved.wait(10000));
        const auto snapshot = resolved.first().at(0).value<ScopeSnapshotPtr>();
        QVERIFY(snapshot);
        QVERIFY(snapshot->error.empty());
        QCOMPARE(snapshot->levels.size(), std::size_t(3));
        const QStringList keys = [&] {
            QStringList list;
            for (const auto& k : snapshot->keys)
                list << QString::fromStdString(k);
            return list;
        }();
        QVERIFY2(keys.contains(QStringLiteral("h")) && keys.contains(QStringLiteral("h.a")),
                 qPrintable(keys.join(',')));
        QVERIFY(!keys.contains(QStringLiteral("lookup_options")));
        QVERIFY(snapshot->candidateFiles.size() >= 4);
    }

private:
    QTemporaryDir m_dir;
    hiera::Value m_scope;
    LookupRunner* m_runner = nullptr;
};

QTEST_MAIN(TestLookupRunner)
#include "tst_lookuprunner.moc"
