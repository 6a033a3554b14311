// What an auditor reads must be what the engine did. Each view that credits files (the Sources tab,
// the summary, the source pane, the answer's Origin column, Overridden values, the exported report and
// hiera-lookup's report) is checked against the engine's own account of the lookup, made here from the
// outcome's trace and the answer's source marks: a unique merge credits every level an element came
// from, a deep merge's knockout is "removed by" its entry and never an override, a dotted key credits
// the file behind the dug leaf, and a report of edited facts names every fact that differs from the file.

#include "document/demo.h"
#include "jobs/fleetrunner.h"
#include "jobs/nodereportrunner.h"
#include "jobs/repositoryoptions.h"
#include "models/contributionmodel.h"
#include "models/hierarchymodel.h"
#include "models/keywarningsmodel.h"
#include "models/modelroles.h"
#include "models/nodediffmodel.h"
#include "models/overridesmodel.h"
#include "models/valueconvert.h"
#include "models/valuetreemodel.h"
#include "panels/allkeyspanel.h"
#include "panels/answerpanel.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "support/hieralookupcli.h"
#include "support/testpaths.h"
#include "testutils.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "widgets/messagebanner.h"
#include "widgets/pathdelegate.h"
#include "widgets/sourceviewer.h"
#include "window/environmentdialog.h"
#include "window/explanationreport.h"

#include <hiera/nodescope.h>
#include <hiera/provenance.h>
#include <hiera/valueformat.h>

#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTreeView>

using namespace hiera::ui;

namespace {

// The files the engine credits for the window's answer, as absolute paths.
QSet<QString> creditedFiles(const LookupOutcome& outcome)
{
    QSet<QString> files;
    for (const hiera::SourceContribution& s : hiera::sourceContributions(*outcome.result.trace))
        if (s.contributed())
            files.insert(QString::fromStdString(s.path));
    return files;
}

// The files the answer's leaves carry (what the marks say, independent of any view's logic).
QSet<QString> leafFiles(const hiera::Value& value)
{
    QSet<QString> files;
    for (const auto& [file, count] : hiera::filesOf(value))
        files.insert(QString::fromStdString(file));
    return files;
}

QSet<QString> sourcesTabFiles(MainWindow* window)
{
    QSet<QString> files;
    for (const ContributionModel::Row& row : UiTest::part<TracePanel>(window)->contributionModel()->rows())
        if (row.outcome == ContributionModel::Outcome::Won || row.outcome == ContributionModel::Outcome::Merged)
            files.insert(row.path);
    return files;
}

} // namespace

class TestViewsAgreeWithEngine : public QObject
{
    Q_OBJECT
    WindowFixture m;

    bool waitForOverrides(const QString& key)
    {
        return QTest::qWaitFor(
            [&] {
                const OverrideChainPtr chain = UiTest::part<OverridesPanel>(m.window)->model()->result();
                return chain && chain->key == key.toStdString();
            },
            WindowFixture::timeoutMs);
    }

    // Every view agrees with the engine on which files the answer comes from.
    void checkViewsAgree(const QString& key)
    {
        const LookupOutcomePtr outcome = UiTest::part<AnswerPanel>(m.window)->outcome();
        QVERIFY(outcome && outcome->result.trace);
        const QSet<QString> truth = leafFiles(outcome->result.value);
        QVERIFY(!truth.isEmpty());
        QCOMPARE(creditedFiles(*outcome), truth);
        QCOMPARE(sourcesTabFiles(m.window.get()), truth);
        const QString summary = UiTest::part<AnswerPanel>(m.window)->summaryText();
        const QString files = truth.size() == 1 ? QStringLiteral("1 file contributed")
                                                : QStringLiteral("%1 files contributed").arg(truth.size());
        QVERIFY2(summary.contains(files), qPrintable(summary));
        // The source pane opens a file the answer comes from.
        QTRY_VERIFY_WITH_TIMEOUT(truth.contains(UiTest::part<SourceViewer>(m.window)->currentFile()),
                                 WindowFixture::timeoutMs);
        // Overridden values: a level is greyed exactly when the answer uses none of it.
        QVERIFY(waitForOverrides(key));
        const OverridesModel* model = UiTest::part<OverridesPanel>(m.window)->model();
        QSet<QString> shown;
        for (int row = 0; row < model->rowCount(model->levelsRoot()); ++row) {
            const QModelIndex level = model->index(row, 0, model->levelsRoot());
            const QString file = level.data(HieraRoles::SourceFileRole).toString();
            QCOMPARE(!level.data(OverridesModel::OverriddenRole).toBool(), truth.contains(file));
            shown.insert(file);
        }
        QVERIFY(shown.contains(truth)); // every file the answer comes from is listed
    }

    QStringList childRows(const QModelIndex& parent)
    {
        const OverridesModel* model = UiTest::part<OverridesPanel>(m.window)->model();
        QStringList lines;
        for (int row = 0; row < model->rowCount(parent); ++row)
            lines << model->index(row, 0, parent).data().toString();
        return lines;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_viewsagreewithengine")); }
    void init() { m.createWindow(); }
    void cleanup() { m.destroyWindow(); }

    void uniqueMergeCreditsEveryElement()
    {
        const QString key = QStringLiteral("profile::backup::exclude");
        QVERIFY(m.openDemoCopy(key, QStringLiteral("facts/db01.example.com.yaml")));
        checkViewsAgree(key);
        // The role's and the module's lists both feed it: two files, and neither is "overridden".
        const LookupOutcomePtr outcome = UiTest::part<AnswerPanel>(m.window)->outcome();
        QCOMPARE(leafFiles(outcome->result.value).size(), 2);
        const OverrideChainPtr chain = UiTest::part<OverridesPanel>(m.window)->model()->result();
        QCOMPARE(chain->leaves.size(), std::size_t(1));
        QVERIFY(chain->leaves[0].overrode.empty());
        // The leaf lists each element with its level, as its mark says.
        const OverridesModel* model = UiTest::part<OverridesPanel>(m.window)->model();
        const QStringList elements = childRows(model->index(0, 0, model->leavesRoot()));
        QCOMPARE(elements.size(), static_cast<int>(outcome->result.value.asArray().size()));
        for (int i = 0; i < elements.size(); ++i) {
            const hiera::Value& element = outcome->result.value.asArray()[static_cast<std::size_t>(i)];
            const QModelIndex row = model->index(i, 0, model->index(0, 0, model->leavesRoot()));
            QCOMPARE(row.data(HieraRoles::SourceFileRole).toString(),
                     QString::fromStdString(hiera::SourceFiles::name(element.mark().file)));
            QVERIFY2(elements[i].startsWith(QStringLiteral("[%1] from ").arg(i)), qPrintable(elements[i]));
        }
        // The answer's Origin column: each element row its own file.
        const ValueTreeModel* value = UiTest::part<AnswerPanel>(m.window)->valueModel();
        const QModelIndex top = value->index(0, 0);
        for (int i = 0; i < value->rowCount(top); ++i)
            QCOMPARE(value->index(i, ValueTreeModel::OriginColumn, top).data(HieraRoles::SourceFileRole).toString(),
                     QString::fromStdString(hiera::SourceFiles::name(
                         outcome->result.value.asArray()[static_cast<std::size_t>(i)].mark().file)));
        // The exported report names both files in the leaf's From cell; hiera-lookup's report too.
        const QString md = m.window->explanationReport().toMarkdown();
        QVERIFY2(md.contains(QStringLiteral("data/roles/db.yaml:23 (\\[0\\], \\[1\\])")), qPrintable(md));
        QVERIFY2(md.contains(QStringLiteral("site/profile/data/common.yaml:14 (\\[2\\], \\[3\\])")), qPrintable(md));
        const CliResult cli =
            runHieraLookup({QStringLiteral("--config"), m.demoPath(QStringLiteral("hiera.yaml")),
                            QStringLiteral("--facts"), m.demoPath(QStringLiteral("facts/db01.example.com.yaml")),
                            QStringLiteral("--explain"), QStringLiteral("--format"), QStringLiteral("markdown"), key});
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.out.contains(QStringLiteral("data/roles/db.yaml:23 (\\[0\\], \\[1\\])<br>site/profile/data/"
                                                 "common.yaml:14 (\\[2\\], \\[3\\])")),
                 qPrintable(cli.out));
    }

    void knockoutIsRemovedNotOverridden()
    {
        const QString key = QStringLiteral("profile::ntp");
        QVERIFY(m.openDemoCopy(key));
        checkViewsAgree(key);
        // dc1 knocks out common's two pool servers: listed under servers as removed by dc1's entries.
        const OverridesModel* model = UiTest::part<OverridesPanel>(m.window)->model();
        int servers = -1;
        for (int row = 0; row < model->rowCount(model->leavesRoot()); ++row)
            if (model->index(row, 0, model->leavesRoot()).data().toString() == QLatin1String("servers"))
                servers = row;
        QVERIFY(servers >= 0);
        const QModelIndex leaf = model->index(servers, 0, model->leavesRoot());
        const QStringList under = childRows(leaf);
        QCOMPARE(under.size(), 2);
        for (int i = 0; i < under.size(); ++i) {
            QVERIFY2(under[i].startsWith(QLatin1String("removed from Common defaults by Per-datacenter "
                                                       "(data/datacenters/dc1.yaml:1")),
                     qPrintable(under[i]));
            QVERIFY(
                model->index(i, OverridesModel::ValueColumn, leaf).data().toString().contains(QLatin1String("pool")));
        }
        const OverrideChainPtr chain = model->result();
        for (const hiera::OverrideLeaf& l : chain->leaves)
            for (const hiera::OverriddenValue& o : l.overrode)
                QVERIFY2(hiera::cellText(o.value).find("pool.ntp.org") == std::string::npos,
                         hiera::cellText(o.value).c_str());
        // The report's knockout column says the same.
        const QString md = m.window->explanationReport().toMarkdown();
        QVERIFY2(md.contains(QStringLiteral("`0.pool.ntp.org` (data/common.yaml:53) by data/datacenters/dc1.yaml:14")),
                 qPrintable(md));
    }

    void dottedKeyViewsAgreeOnTheDugLeaf()
    {
        // web02 (dc2): servers = common's two pool servers, then dc2's own; .2 is dc2's, .1 common's.
        for (const char* k : {"profile::ntp.servers.2", "profile::ntp.servers.1"}) {
            const QString key = QString::fromLatin1(k);
            if (UiTest::part<AnswerPanel>(m.window)->outcome())
                m.window->setKey(key);
            QVERIFY(UiTest::part<AnswerPanel>(m.window)->outcome()
                        ? m.waitForAnswer(key)
                        : m.openDemoCopy(key, QStringLiteral("facts/web02.example.com.json")));
            checkViewsAgree(key);
            QCOMPARE(sourcesTabFiles(m.window.get()).size(), 1);
            // The Root value tab marks the element the dotted key picked.
            const ValueTreeModel* root = UiTest::part<AnswerPanel>(m.window)->rootValueModel();
            const QModelIndex serversRow = [&] {
                const QModelIndex top = root->index(0, 0);
                for (int i = 0; i < root->rowCount(top); ++i)
                    if (root->index(i, 0, top).data().toString() == QLatin1String("servers"))
                        return root->index(i, 0, top);
                return QModelIndex();
            }();
            QVERIFY(serversRow.isValid());
            QVERIFY(serversRow.data(HieraRoles::PickedRole).toBool());
            const int picked = key.endsWith(QLatin1Char('2')) ? 2 : 1;
            for (int i = 0; i < root->rowCount(serversRow); ++i)
                QCOMPARE(root->index(i, 0, serversRow).data(HieraRoles::PickedRole).toBool(), i == picked);
        }
    }

    void reportOfEditedFactsNamesTheDifferences()
    {
        const QString key = QStringLiteral("profile::web::workers");
        QVERIFY(m.openDemoCopy(key));
        FactsDocument* facts = UiTest::part<FactsDocument>(m.window);
        QVERIFY(facts->model()->setValueAtPath(QStringLiteral("facts.role"), hiera::Value("db")));
        const auto roleUsed = [&] {
            const hiera::NodeScope scope =
                hiera::NodeScope::ofTree(UiTest::part<AnswerPanel>(m.window)->outcome()->scope, {});
            return scope.lookup("facts.role");
        };
        QTRY_VERIFY_WITH_TIMEOUT(roleUsed() == std::optional<hiera::Value>(hiera::Value("db")),
                                 WindowFixture::timeoutMs);
        QVERIFY(m.waitForAnswer(key));
        const ExplanationDocument report = m.window->explanationReport();
        QVERIFY(report.factsEdited);
        const QString md = report.toMarkdown();
        QVERIFY2(md.contains(QStringLiteral("edited: 1 fact differs from the file")), qPrintable(md));
        QVERIFY2(md.contains(QStringLiteral("| `facts.role` | `web` | `db` |")), qPrintable(md));
        // Reproducible from its own content: the facts file plus the listed difference give the answer.
        const QJsonObject json = QJsonDocument::fromJson(report.toJson()).object();
        QCOMPARE(json.value(QStringLiteral("factsEdited")).toBool(), true);
        const QJsonArray changed = json.value(QStringLiteral("factsChanged")).toArray();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0].toObject().value(QStringLiteral("used")).toString(), QStringLiteral("db"));
        hiera::Value replayed = facts->fileScope();
        QVERIFY(!replayed.isNull());
        hiera::Value replayedFacts = *replayed.asHash().find("facts");
        replayedFacts.mutableHash().set("role", hiera::Value("db"));
        replayed.mutableHash().set("facts", replayedFacts);
        replayed.mutableHash().set("role", hiera::Value("db"));
        const auto engine = UiTest::part<LookupRunner>(m.window)->engine();
        const hiera::LookupResult again = engine->lookup(
            hiera::NodeScope::ofTree(replayed, UiTest::part<LookupRunner>(m.window)->environmentName().toStdString()),
            key.toStdString());
        QCOMPARE(again.value, UiTest::part<AnswerPanel>(m.window)->outcome()->result.value);
        QCOMPARE(QString::fromStdString(hiera::toJson(again.value)),
                 QString::fromUtf8(
                     QJsonDocument(QJsonArray{json.value(QStringLiteral("value"))}).toJson(QJsonDocument::Compact))
                     .mid(1)
                     .chopped(1)); // the report's value is the replayed one
        // An unedited report says nothing of the kind.
        facts->undoStack()->undo();
        QTRY_VERIFY(!facts->isModified());
        QVERIFY(!m.window->explanationReport().toMarkdown().contains(QLatin1String("edited")));
    }

    // Compare nodes: collections leaf by leaf (each leaf row what the engine digs on each node), two
    // differing secrets said to differ without either shown, equal ones not listed; activating a cell
    // opens the answer as that column's node has it.
    void compareListsLeavesAndKeepsSecrets()
    {
        // The copy's secrets readable, as the demo's are when the explorer opens it.
        const QString hieraYaml = m.demoPath(QStringLiteral("hiera.yaml"));
        RepositoryOptions withKey = RepositoryOptions::read(RepositoryOptions::rootOf(hieraYaml));
        withKey.eyamlPrivateKey = m.demoPath(QStringLiteral("keys/private_key.pkcs7.pem"));
        withKey.write(RepositoryOptions::rootOf(hieraYaml));
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(m.demoPath(QStringLiteral("facts")));
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        NodeDiffPanel* panel = UiTest::part<NodeDiffPanel>(m.window);
        m.window->raisePanel(panel);
        const QString web = QStringLiteral("web01.example.com"), db = QStringLiteral("db01.example.com");
        panel->compare(web, db);
        const NodeDiffModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->report() && model->report()->nameA == web && model->report()->nameB == db
                                     && !UiTest::part<NodeReportRunner>(m.window)->isComparing(),
                                 WindowFixture::timeoutMs);
        const hiera::Engine& engine = *UiTest::part<LookupRunner>(m.window)->engine();
        const NodeLibraryPtr library = UiTest::part<FleetRunner>(m.window)->library();
        const hiera::Scope& a = *library->find(web.toStdString())->scope;
        const hiera::Scope& b = *library->find(db.toStdString())->scope;
        const auto cell = [&](int row, int column) { return model->index(row, column).data().toString(); };
        QMap<QString, int> rows;
        int leafRows = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString key = cell(row, NodeDiffModel::KeyColumn);
            rows.insert(key, row);
            for (int column : {NodeDiffModel::ValueAColumn, NodeDiffModel::ValueBColumn})
                QVERIFY2(!cell(row, column).contains(QLatin1String("agent-")), qPrintable(key)); // no plaintext
            if (!key.contains(QLatin1Char('.')))
                continue;
            ++leafRows;
            // A leaf row: what a dotted lookup of it answers on each side, or absent there.
            for (const auto& [scope, column] :
                 {std::pair{&a, int(NodeDiffModel::ValueAColumn)}, std::pair{&b, int(NodeDiffModel::ValueBColumn)}}) {
                const hiera::LookupResult r = engine.lookup(*scope, key.toStdString());
                const QString shown = cell(row, column);
                if (!r.found())
                    QCOMPARE(shown, QStringLiteral("(absent)"));
                else if (!hiera::containsSecret(r.value))
                    QCOMPARE(shown, ValueConvert::cellShown(ValueConvert::compactJson(r.value, false)));
            }
        }
        QVERIFY(leafRows > 0);
        QVERIFY(!rows.contains(QStringLiteral("profile::ntp"))); // a hash on both sides: its leaves instead
        // agent_secret is interpolated per node: both secrets, different; api_token is the same secret.
        const int secret = rows.value(QStringLiteral("profile::monitoring::agent_secret"), -1);
        QVERIFY2(secret >= 0, qPrintable(QStringList(rows.keys()).join(QLatin1Char(' '))));
        QCOMPARE(cell(secret, NodeDiffModel::ValueAColumn), QStringLiteral("differs (secret)"));
        QCOMPARE(cell(secret, NodeDiffModel::ValueBColumn), QStringLiteral("differs (secret)"));
        QVERIFY(!rows.contains(QStringLiteral("profile::monitoring::api_token")));

        // Activating db01's value of a leaf: db01's facts become the scope and the leaf is looked up.
        const auto leaf = std::find_if(rows.keyValueBegin(), rows.keyValueEnd(),
                                       [](const auto& kv) { return kv.first.contains(QLatin1Char('.')); });
        QVERIFY(leaf != rows.keyValueEnd());
        const QString leafKey = leaf->first;
        Q_EMIT panel->view()->activated(model->index(leaf->second, NodeDiffModel::ValueBColumn));
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<AnswerPanel>(m.window)->outcome()
                                     && UiTest::part<AnswerPanel>(m.window)->outcome()->request.key
                                         == leafKey.toStdString()
                                     && hiera::NodeScope::ofTree(UiTest::part<FactsDocument>(m.window)->scope(), {})
                                             .lookup("trusted.certname")
                                         == std::optional<hiera::Value>(hiera::Value(db.toStdString())),
                                 WindowFixture::timeoutMs);
        QVERIFY(m.waitForAnswer(leafKey));
        const hiera::LookupResult expected = engine.lookup(b, leafKey.toStdString());
        QCOMPARE(UiTest::part<AnswerPanel>(m.window)->outcome()->result.value, expected.value);
    }

    // A repository switch keeps the facts only when the new paths can use them, clears a key the new
    // repository does not hold and the key filters typed for the old one, and says each in one line.
    void repositorySwitchLeavesNothingStale()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        UiTest::part<AllKeysPanel>(m.window)->searchEdit()->setText(QStringLiteral("ntp"));
        MessageBanner* banner = UiTest::part<AnswerPanel>(m.window)->banner();
        const auto switchTo = [&](const testutils::TempTree& tree) {
            QSignalSpy loaded(m.window.get(), &MainWindow::engineLoadFinished);
            m.window->openHierarchy(QString::fromStdString(tree.hieraYaml()));
            return loaded.wait(WindowFixture::timeoutMs)
                && QTest::qWaitFor([&] { return banner->text().startsWith(QLatin1String("Opened ")); },
                                   WindowFixture::timeoutMs);
        };

        // Per-node paths: web01's facts serve them; its key is not there.
        const testutils::TempTree perNode({
            {QStringLiteral("hiera.yaml"),
             "version: 5\nhierarchy:\n  - name: Node\n"
             "    path: nodes/%{trusted.certname}.yaml\n"},
            {QStringLiteral("data/nodes/web01.example.com.yaml"), "only_here: 1\n"},
        });
        QVERIFY(perNode.isValid());
        QVERIFY(switchTo(perNode));
        QTRY_VERIFY_WITH_TIMEOUT(banner->text().contains(QLatin1String("cleared the key profile::ntp.servers")),
                                 WindowFixture::timeoutMs);
        QVERIFY2(banner->text().contains(QLatin1String("kept the facts of web01.example.com")),
                 qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QLatin1String("trusted.certname")), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QStringLiteral("cleared the All keys search “ntp”")),
                 qPrintable(banner->text()));
        QVERIFY(UiTest::part<AllKeysPanel>(m.window)->searchEdit()->text().isEmpty());
        QVERIFY(UiTest::part<LookupBar>(m.window)->key().isEmpty());
        m.window->setKey(QStringLiteral("only_here"));
        QVERIFY(m.waitForAnswer(QStringLiteral("only_here")));
        QCOMPARE(UiTest::part<AnswerPanel>(m.window)->outcome()->result.value, hiera::Value(1));

        // Paths on a fact web01 does not have: its facts would interpolate every path to nothing.
        const testutils::TempTree byRack({
            {QStringLiteral("hiera.yaml"),
             "version: 5\nhierarchy:\n  - name: Rack\n    path: racks/%{facts.rack}.yaml\n"},
            {QStringLiteral("data/racks/r1.yaml"), "only_here: 2\n"},
        });
        QVERIFY(byRack.isValid());
        QVERIFY(switchTo(byRack));
        QTRY_VERIFY_WITH_TIMEOUT(banner->text().contains(QLatin1String("closed the facts of web01.example.com")),
                                 WindowFixture::timeoutMs);
        QVERIFY2(banner->text().contains(QLatin1String("facts.rack")), qPrintable(banner->text()));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->path().isEmpty());
        const hiera::Value left = UiTest::part<FactsDocument>(m.window)->scope();
        QVERIFY(!hiera::NodeScope::ofTree(left, {}).lookup("trusted.certname").has_value()
                || hiera::NodeScope::ofTree(left, {}).lookup("trusted.certname")
                    != std::optional<hiera::Value>(hiera::Value("web01.example.com")));
    }

    // The demo opens with its nodes in the Nodes panel (and so in Across nodes and Compare).
    void demoOpensWithItsNodes()
    {
        if (Demo::hieraYaml().isEmpty())
            QSKIP("no demo installed next to the test");
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        QVERIFY(m.window->openDemo());
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<FleetRunner>(m.window)->library(), WindowFixture::timeoutMs);
        const NodeLibraryPtr library = UiTest::part<FleetRunner>(m.window)->library();
        QStringList names;
        for (const hiera::Node& node : library->nodes())
            names << QString::fromStdString(node.name);
        names.sort();
        QCOMPARE(names,
                 (QStringList{QStringLiteral("build01.example.com"), QStringLiteral("db01.example.com"),
                              QStringLiteral("web01.example.com"), QStringLiteral("web02.example.com")}));
        QVERIFY(!UiTest::part<NodesPanel>(m.window)->statusText().contains(QLatin1String("No node library")));

        // The demo's facts are read-only: leaving them edited offers Save As, a copy's offer Save.
        FactsDocument* facts = UiTest::part<FactsDocument>(m.window);
        QTRY_VERIFY_WITH_TIMEOUT(!facts->isReading() && !facts->path().isEmpty(), WindowFixture::timeoutMs);
        QVERIFY(facts->model()->setValueAtPath(QStringLiteral("facts.role"), hiera::Value("db")));
        QVERIFY(m.window->openHierarchy(m.demoPath(QStringLiteral("hiera.yaml"))));
        QCOMPARE(m.questionKinds, QList<MainWindow::Question>{MainWindow::Question::SaveChangesAs});
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QVERIFY(facts->model()->setValueAtPath(QStringLiteral("facts.role"), hiera::Value("db")));
        m.questionKinds.clear();
        QVERIFY(m.window->openHierarchy(testpaths::demoDir() + QStringLiteral("/hiera.yaml")));
        QCOMPARE(m.questionKinds, QList<MainWindow::Question>{MainWindow::Question::SaveChanges});
    }

    // All keys lists its warnings: the key, the file:line of the interpolation, the variable; a
    // click opens the place.
    void allKeysWarningsSayWhere()
    {
        const testutils::TempTree tree({
            {QStringLiteral("hiera.yaml"), "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"},
            {QStringLiteral("data/common.yaml"), "a: \"x-%{facts.nosuch}\"\nok: 1\nb:\n  - \"%{facts.missing_too}\"\n"},
        });
        QVERIFY(tree.isValid());
        QVERIFY(m.openFactsAndWait(m.demoPath(QStringLiteral("facts/web01.example.com.yaml"))));
        m.window->openHierarchy(QString::fromStdString(tree.hieraYaml()));
        AllKeysPanel* panel = UiTest::part<AllKeysPanel>(m.window);
        m.window->raisePanel(panel);
        const KeyWarningsModel* warnings = panel->warningsModel();
        QTRY_VERIFY_WITH_TIMEOUT(warnings->rowCount() == 2, WindowFixture::timeoutMs);
        const auto cell = [&](int row, int column) { return warnings->index(row, column).data().toString(); };
        QCOMPARE(cell(0, KeyWarningsModel::KeyColumn), QStringLiteral("a"));
        QCOMPARE(cell(0, KeyWarningsModel::WhereColumn), QStringLiteral("data/common.yaml:1"));
        QVERIFY2(cell(0, KeyWarningsModel::WarningColumn).contains(QLatin1String("facts.nosuch")),
                 qPrintable(cell(0, KeyWarningsModel::WarningColumn)));
        QCOMPARE(cell(1, KeyWarningsModel::KeyColumn), QStringLiteral("b"));
        QCOMPARE(cell(1, KeyWarningsModel::WhereColumn), QStringLiteral("data/common.yaml:4"));
        QCOMPARE(warnings->index(1, KeyWarningsModel::WhereColumn).data(HieraRoles::SourceLineRole).toInt(), 4);
        Q_EMIT panel->warningsView()->clicked(warnings->index(1, KeyWarningsModel::WhereColumn));
        QTRY_COMPARE_WITH_TIMEOUT(UiTest::part<SourceViewer>(m.window)->currentFile(),
                                  QString::fromStdString(tree.path(QStringLiteral("data/common.yaml"))),
                                  WindowFixture::timeoutMs);
    }

    // Texts a user has to read show whole: the summary under the key wraps instead of clipping, the
    // Hierarchy status and the Explain outcome fit their columns, file columns elide in the middle,
    // and no label shows a literal "&" (a mnemonic without a buddy).
    void textsAreNotClipped()
    {
        m.window->resize(1280, 800);
        QVERIFY(
            m.openDemoCopy(QStringLiteral("profile::ntp.servers.1"), QStringLiteral("facts/web02.example.com.json")));
        auto* summary = m.window->findChild<QPlainTextEdit*>(QStringLiteral("summaryLabel"));
        QVERIFY(summary);
        QCOMPARE(summary->toPlainText(), UiTest::part<AnswerPanel>(m.window)->summaryText());
        QVERIFY(summary->toPlainText().contains(QLatin1String("file contributed")));
        QTRY_VERIFY(summary->document()->size().height() * summary->fontMetrics().lineSpacing()
                    <= summary->viewport()->height() + 1); // every line in sight, no scrolling

        auto* hierarchy = m.window->findChild<QTreeView*>(QStringLiteral("hierarchyView"));
        m.window->raisePanel(UiTest::part<HierarchyPanel>(m.window));
        QTRY_VERIFY(hierarchy->model()->rowCount() > 0);
        const QAbstractItemModel* levels = hierarchy->model();
        int widestStatus = 0;
        for (int layer = 0; layer < levels->rowCount(); ++layer)
            for (int row = 0; row < levels->rowCount(levels->index(layer, 0)); ++row) {
                const QModelIndex level = levels->index(row, 0, levels->index(layer, 0));
                for (int path = 0; path < levels->rowCount(level); ++path)
                    widestStatus =
                        std::max(widestStatus,
                                 hierarchy->fontMetrics().horizontalAdvance(
                                     levels->index(path, HierarchyModel::StatusColumn, level).data().toString()));
            }
        QVERIFY(widestStatus > 0);
        const int statusLeft = hierarchy->header()->sectionViewportPosition(HierarchyModel::StatusColumn);
        QVERIFY(hierarchy->columnWidth(HierarchyModel::StatusColumn) >= widestStatus);
        QVERIFY2(statusLeft + widestStatus <= hierarchy->viewport()->width(),
                 qPrintable(QStringLiteral("status at %1 + %2 > %3")
                                .arg(statusLeft)
                                .arg(widestStatus)
                                .arg(hierarchy->viewport()->width())));
        QVERIFY(qobject_cast<PathDelegate*>(hierarchy->itemDelegateForColumn(HierarchyModel::InterpolatedColumn)));
        auto* sources = m.window->findChild<QTableView*>(QStringLiteral("contributionView"));
        QVERIFY(qobject_cast<PathDelegate*>(sources->itemDelegateForColumn(ContributionModel::FileColumn)));

        EnvironmentDialog dialog(m.window.get());
        for (const QLabel* label : dialog.findChildren<QLabel*>())
            if (label->text().remove(QLatin1String("&&")).contains(QLatin1Char('&')))
                QVERIFY2(label->buddy(), qPrintable(label->text()));
    }

    // A checkout whose datadir is written where r10k deploys it answers from its own files, in the
    // window and in hiera-lookup, and both say how the path was read; a private datadir outside the
    // environment is "outside the repository", not a plain "missing".
    void deployedDatadirAnswersFromTheCheckout()
    {
        const testutils::TempTree tree({
            {QStringLiteral("hiera.yaml"),
             "version: 5\nhierarchy:\n"
             "  - name: Deployed\n    datadir: /etc/puppetlabs/code/environments/%{environment}/hieradata\n"
             "    path: common.yaml\n"
             "  - name: Private\n    datadir: /etc/puppetlabs/code/hieradata\n    path: secret.yaml\n"},
            {QStringLiteral("hieradata/common.yaml"), "answer: from the checkout\n"},
        });
        QVERIFY(tree.isValid());
        const QString hieraYaml = QString::fromStdString(tree.hieraYaml());
        QVERIFY(m.openFactsAndWait(m.demoPath(QStringLiteral("facts/web01.example.com.yaml"))));
        m.window->openHierarchy(hieraYaml);
        m.window->setKey(QStringLiteral("answer"));
        QVERIFY(m.waitForAnswer(QStringLiteral("answer")));
        const LookupOutcomePtr outcome = UiTest::part<AnswerPanel>(m.window)->outcome();
        QCOMPARE(outcome->result.value, hiera::Value("from the checkout"));
        QCOMPARE(hiera::SourceFiles::locate(outcome->result.value.mark()).file,
                 tree.path(QStringLiteral("hieradata/common.yaml")));
        const QString notice = UiTest::part<HierarchyPanel>(m.window)->banner()->text();
        QVERIFY2(notice.contains(QLatin1String("/etc/puppetlabs/code/environments/production")), qPrintable(notice));
        const QAbstractItemModel* levels = m.window->findChild<QTreeView*>(QStringLiteral("hierarchyView"))->model();
        // Each level's path row (a level sits under a layer row when the repository has several layers).
        const auto pathStatus = [&](const QString& levelName) {
            QModelIndexList pending{QModelIndex()};
            while (!pending.isEmpty()) {
                const QModelIndex parent = pending.takeFirst();
                for (int row = 0; row < levels->rowCount(parent); ++row) {
                    const QModelIndex child = levels->index(row, 0, parent);
                    if (child.data().toString() == levelName && levels->rowCount(child) > 0)
                        return levels->index(0, HierarchyModel::StatusColumn, child).data().toString();
                    pending << child;
                }
            }
            return QString();
        };
        const QStringList statuses{pathStatus(QStringLiteral("Deployed")), pathStatus(QStringLiteral("Private"))};
        QVERIFY2(statuses[0].contains(QLatin1String("present")), qPrintable(statuses[0]));
        QCOMPARE(statuses[1], QStringLiteral("outside the repository"));

        const CliResult cli = runHieraLookup({QStringLiteral("--config"), tree.root(), QStringLiteral("answer")});
        QCOMPARE(cli.exitCode, 0);
        QCOMPARE(cli.out.trimmed(), QStringLiteral("--- from the checkout"));
        QVERIFY2(cli.err.contains(QLatin1String("/etc/puppetlabs/code/environments/production")), qPrintable(cli.err));
    }
};

QTEST_MAIN(TestViewsAgreeWithEngine)
#include "tst_viewsagreewithengine.moc"
