// Edits to a node's facts are kept per node and never lost (docs/performance.md, "Saving a node of a PuppetDB
// export"): a node of a PuppetDB export
// opens as an editable document, a save writes it back into its entry of the export (shape, other
// members and other nodes kept, types exact), the fleet answers with the saved facts, the edits are
// autosaved and recovered as that node's, and a node that left the export meanwhile is one clear line
// with the edits kept.

#include "facts/factsautosave.h"
#include "jobs/fleetrunner.h"
#include "models/facttreemodel.h"
#include "models/fleetmodel.h"
#include "models/nodelistmodel.h"
#include "models/valueconvert.h"
#include "panels/fleetpanel.h"
#include "panels/nodespanel.h"
#include "support/orderedequal.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "widgets/messagebanner.h"

#include <hiera/engine.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodes/puppetdbexport.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>

using namespace hiera::ui;

namespace {

// Three nodes, both shapes of `facts`, members around them, and values whose JSON types must survive.
// app01 is a web node in production: roles/web/staging.yaml would give it other workers.
const char* const exportText = R"([
  {"certname": "app01.example.com", "environment": "production", "hash": "5f1c",
   "facts": {"href": "/pdb/query/v4/factsets/app01.example.com/facts",
             "data": [{"name": "clientcert", "value": "app01.example.com"}, {"name": "role", "value": "web"},
                      {"name": "env", "value": "production"}, {"name": "cores", "value": 8},
                      {"name": "load", "value": 1.0}, {"name": "virtual", "value": "true"},
                      {"name": "os", "value": {"family": "Debian", "release": {"major": "12", "full": "12.5"}}}]},
   "producer": "puppet.example.com"},
  {"certname": "db02.example.com", "environment": "production",
   "facts": [{"name": "role", "value": "db"}, {"name": "env", "value": "production"},
             {"name": "uptime_seconds", "value": 12345678901}, {"name": "ratio", "value": 0.1},
             {"name": "os", "value": {"family": "RedHat", "release": {"major": "9"}}}]},
  {"certname": "app02.example.com", "environment": "staging",
   "facts": [{"name": "role", "value": "web"}, {"name": "env", "value": "production"}]}
])";

const hiera::Value& member(const hiera::Value& v, std::string_view key)
{
    static const hiera::Value none;
    const hiera::Value* found = v.isHash() ? v.asHash().find(key) : nullptr;
    return found ? *found : none;
}

hiera::Value parsedExport(const QString& path)
{
    return hiera::parseData(UiTest::readFile(path).toStdString(), path.toStdString(), hiera::DataFormat::Json);
}

} // namespace

class TestPuppetDBNodeEdits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_puppetdbnodeedits")); }
    void init()
    {
        m.createWindow();
        m.window->raisePanel(UiTest::part<FleetPanel>(m.window)); // it runs while on screen
        m_export = m.tmp.filePath(QStringLiteral("factsets.json"));
        QVERIFY(UiTest::writeFile(m_export, exportText));
    }
    void cleanup()
    {
        if (m.window)
            QTRY_VERIFY(!UiTest::part<FleetRunner>(m.window)->isBusy());
        m.destroyWindow();
        QDir(m.tmp.filePath(QStringLiteral("autosave"))).removeRecursively(); // no test recovers another's edits
    }

    // Opened from the node list, edited through the model, saved: the export holds the new facts in its
    // own shape, everything else as it was; the fleet answers with the new facts.
    void saveWritesTheNodesEntryBack()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        openLibrary(m_export);
        const hiera::NodeLibrary before = hiera::NodeLibrary::load(m_export.toStdString());
        QCOMPARE(before.size(), std::size_t(3));
        const hiera::Value entriesBefore = parsedExport(m_export);
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::web::workers", WindowFixture::timeoutMs);
        const std::string workersBefore = fleetValue("app01.example.com");

        QVERIFY(openNodeFromList(QStringLiteral("app01.example.com")));
        FactsDocument* doc = UiTest::part<FactsDocument>(m.window);
        QCOMPARE(doc->path(), m_export);
        QCOMPARE(doc->node(), QStringLiteral("app01.example.com"));
        QVERIFY2(m.window->windowTitle().startsWith(QLatin1String("app01.example.com (in factsets.json)")),
                 qPrintable(m.window->windowTitle()));
        QVERIFY(m.window->factsStatusText().contains(QLatin1String("app01.example.com (in factsets.json)")));
        QCOMPARE(UiTest::part<FactsDocument>(m.window)
                     ->model()
                     ->indexForKeyPath(QStringLiteral("trusted.certname"))
                     .siblingAtColumn(FactTreeModel::ValueColumn)
                     .data()
                     .toString(),
                 QStringLiteral("app01.example.com"));

        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.env"),
                                                                               hiera::Value("staging")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.cores"),
                                                                               hiera::Value(std::int64_t(16))));
        QVERIFY(m.window->isWindowModified());
        QSignalSpy reloaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        QVERIFY(doc->save());
        QVERIFY(!m.window->isWindowModified());
        QVERIFY2(UiTest::part<FactsPanel>(m.window)->banner()->kind() != MessageBanner::Kind::Error,
                 qPrintable(UiTest::part<FactsPanel>(m.window)->banner()->text()));

        // What the library reads from the export now: app01's facts changed, types kept, the others equal.
        const hiera::NodeLibrary after = hiera::NodeLibrary::load(m_export.toStdString());
        QVERIFY(after.errors().empty());
        QCOMPARE(after.size(), std::size_t(3));
        const hiera::Value app01 = after.find("app01.example.com")->facts();
        QCOMPARE(hiera::toJson(app01),
                 std::string(R"({"clientcert":"app01.example.com","role":"web","env":"staging","cores":16,"load":1.0,)"
                             R"("virtual":"true","os":{"family":"Debian","release":{"major":"12","full":"12.5"}}})"));
        QCOMPARE(member(app01, "load").type(), hiera::Value::Type::Float);
        QCOMPARE(member(app01, "virtual").type(), hiera::Value::Type::String);
        for (const char* other : {"db02.example.com", "app02.example.com"}) {
            QVERIFY(hiera::test::orderedEqual(after.find(other)->facts(), before.find(other)->facts()));
            QCOMPARE(after.find(other)->environment, before.find(other)->environment);
        }
        QCOMPARE(member(after.find("db02.example.com")->facts(), "uptime_seconds").type(), hiera::Value::Type::Integer);
        QCOMPARE(member(after.find("db02.example.com")->facts(), "ratio").type(), hiera::Value::Type::Float);

        // The entries keep their shape and their other members, in their order.
        const hiera::Value entries = parsedExport(m_export);
        const hiera::Value& entry = entries.asArray()[0];
        QStringList keys;
        for (const auto& e : entry.asHash())
            keys << ValueConvert::toQString(e.key.asString());
        QCOMPARE(keys, QStringList({"certname", "environment", "hash", "facts", "producer"}));
        QCOMPARE(member(member(entry, "facts"), "href"),
                 hiera::Value("/pdb/query/v4/factsets/app01.example.com/facts"));
        QVERIFY(member(member(entry, "facts"), "data").isArray());
        QVERIFY(hiera::test::orderedEqual(entries.asArray()[1], entriesBefore.asArray()[1]));
        QVERIFY(hiera::test::orderedEqual(entries.asArray()[2], entriesBefore.asArray()[2]));
        // Byte for byte, outside app01's fact list.
        const QByteArray original(exportText);
        const QByteArray saved = UiTest::readFile(m_export);
        const qsizetype listStart = original.indexOf("\"data\": [") + 8;
        QCOMPARE(saved.left(listStart), original.left(listStart));
        QVERIFY(saved.endsWith(original.mid(original.indexOf("]},\n   \"producer\""))));

        // The library reads the export again; the fleet answers with the saved facts.
        QVERIFY(reloaded.count() > 0 || reloaded.wait(WindowFixture::timeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::web::workers"
                                     && UiTest::part<FleetPanel>(m.window)->model()->result()
                                     && fleetValue("app01.example.com") != workersBefore,
                                 WindowFixture::timeoutMs);
        const NodeLibraryPtr library = UiTest::part<FleetRunner>(m.window)->library();
        const hiera::LookupResult alone = UiTest::part<LookupRunner>(m.window)->engine()->lookup(
            *library->find("app01.example.com")->scope, "profile::web::workers");
        QVERIFY(alone.found());
        QCOMPARE(fleetValue("app01.example.com"), hiera::toJson(alone.value));
        QCOMPARE(fleetValue("app01.example.com"), std::string("2")); // roles/web/staging.yaml
    }

    // Another node, from the Across nodes panel, with unsaved edits: asked first (Discard), then opened.
    void switchingNodesAsksAboutUnsavedEdits()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        openLibrary(m_export);
        QVERIFY(openNodeFromList(QStringLiteral("db02.example.com")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("web")));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::web::workers", WindowFixture::timeoutMs);
        const QByteArray exportBefore = UiTest::readFile(m_export);
        m.questions.clear();
        QSignalSpy read(m.window.get(), &MainWindow::factsLoadFinished);
        const QModelIndex app02 = fleetIndex("app02.example.com");
        QVERIFY(app02.isValid());
        emit UiTest::part<FleetPanel>(m.window)->view()->activated(app02);
        QCOMPARE(m.questions.size(), 1);
        QVERIFY(read.wait(WindowFixture::timeoutMs));
        QCOMPARE(UiTest::part<FactsDocument>(m.window)->node(), QStringLiteral("app02.example.com"));
        QVERIFY(m.window->windowTitle().startsWith(QLatin1String("app02.example.com (in factsets.json)")));
        QVERIFY(!m.window->isWindowModified());
        QCOMPARE(UiTest::readFile(m_export), exportBefore); // discarded: nothing written

        // Cancel stays on the node with its edits; Save writes them into its entry, then opens the other.
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.env"),
                                                                               hiera::Value("staging")));
        MainWindow::Answer answer = MainWindow::Answer::Cancel;
        m.window->setQuestionHandler([&](MainWindow::Question, const QString&) { return answer; });
        QVERIFY(!openNodeFromList(QStringLiteral("db02.example.com")));
        QCOMPARE(UiTest::part<FactsDocument>(m.window)->node(), QStringLiteral("app02.example.com"));
        QVERIFY(m.window->isWindowModified());
        QCOMPARE(UiTest::part<NodesPanel>(m.window)->selectedNodes(),
                 QStringList{QStringLiteral("app02.example.com")}); // still marked open
        answer = MainWindow::Answer::Accept;
        QVERIFY(openNodeFromList(QStringLiteral("db02.example.com")));
        QCOMPARE(UiTest::part<FactsDocument>(m.window)->node(), QStringLiteral("db02.example.com"));
        const hiera::NodeLibrary after = hiera::NodeLibrary::load(m_export.toStdString());
        QCOMPARE(hiera::toJson(after.find("app02.example.com")->facts()),
                 std::string(R"({"role":"web","env":"staging"})"));
        QCOMPARE(hiera::toJson(member(after.find("db02.example.com")->facts(), "role")), std::string("\"db\""));
    }

    // Unsaved edits of a PuppetDB node reach the autosave as that node's; after a crash the next window
    // offers them back on that node, and a save writes them into its entry.
    void autosaveRecoversThePuppetDBNode()
    {
        m.window->setAutosaveDelays(20, 200);
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        openLibrary(m_export);
        QVERIFY(openNodeFromList(QStringLiteral("app02.example.com")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.env"),
                                                                               hiera::Value("staging")));
        const QString autosave = m.window->autosaveFile();
        QTRY_VERIFY(QFileInfo::exists(autosave));
        QTRY_VERIFY(UiTest::readFile(autosave).contains("env: staging"));
        const std::optional<FactsAutosave::Entry> entry = FactsAutosave::read(m.demoPath(QStringLiteral("hiera.yaml")));
        QVERIFY(entry);
        QCOMPARE(entry->factsNode, QStringLiteral("app02.example.com"));
        QCOMPARE(QFileInfo(entry->factsPath).canonicalFilePath(), QFileInfo(m_export).canonicalFilePath());

        // A crash: the window goes away without asking.
        QTRY_VERIFY(!UiTest::part<FleetRunner>(m.window)->isBusy());
        m.testers.clear();
        m.window.reset();
        QVERIFY(QFileInfo::exists(autosave));
        m.createWindow();
        QStringList asked;
        m.window->setQuestionHandler([&](MainWindow::Question question, const QString& text) {
            asked << text;
            return question == MainWindow::Question::RecoverAutosave ? MainWindow::Answer::Accept
                                                                     : MainWindow::Answer::Cancel;
        });
        QVERIFY(m.window->openHierarchy(m.demoPath(QStringLiteral("hiera.yaml"))));
        QTRY_VERIFY_WITH_TIMEOUT(!asked.isEmpty(), WindowFixture::timeoutMs);
        QVERIFY2(asked.first().contains(QLatin1String("app02.example.com (in factsets.json)")),
                 qPrintable(asked.first()));
        FactsDocument* doc = UiTest::part<FactsDocument>(m.window);
        QTRY_COMPARE(doc->node(), QStringLiteral("app02.example.com"));
        QCOMPARE(QFileInfo(doc->path()).canonicalFilePath(), QFileInfo(m_export).canonicalFilePath());
        QVERIFY(m.window->isWindowModified());
        QVERIFY(m.window->windowTitle().startsWith(QLatin1String("app02.example.com (in factsets.json)")));
        QCOMPARE(UiTest::part<FactsDocument>(m.window)
                     ->model()
                     ->indexForKeyPath(QStringLiteral("facts.env"))
                     .siblingAtColumn(FactTreeModel::ValueColumn)
                     .data()
                     .toString(),
                 QStringLiteral("staging"));

        QVERIFY(doc->save());
        QVERIFY(!QFileInfo::exists(autosave));
        const hiera::NodeLibrary after = hiera::NodeLibrary::load(m_export.toStdString());
        QCOMPARE(hiera::toJson(after.find("app02.example.com")->facts()),
                 std::string(R"({"role":"web","env":"staging"})"));
        QCOMPARE(after.find("app02.example.com")->environment, std::string("staging"));
        QCOMPARE(after.size(), std::size_t(3));
    }

    // The export changed meanwhile: another node's change is kept; a node that left it, or an export
    // that no longer parses, is one line naming the file, and the edits stay unsaved.
    void exportChangedMeanwhile()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        openLibrary(m_export);
        QVERIFY(openNodeFromList(QStringLiteral("db02.example.com")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("cache")));
        FactsDocument* doc = UiTest::part<FactsDocument>(m.window);

        // Another tool rewrote the export: app02's new facts stay, db02's entry takes the edit.
        QByteArray changed =
            QByteArray(exportText)
                .replace(R"({"name": "env", "value": "production"}]})", R"({"name": "env", "value": "qa"}]})");
        QVERIFY(changed != QByteArray(exportText));
        QVERIFY(UiTest::writeFile(m_export, changed));
        QVERIFY(doc->save());
        hiera::NodeLibrary library = hiera::NodeLibrary::load(m_export.toStdString());
        QCOMPARE(hiera::toJson(member(library.find("app02.example.com")->facts(), "env")), std::string("\"qa\""));
        QCOMPARE(hiera::toJson(member(library.find("db02.example.com")->facts(), "role")), std::string("\"cache\""));
        QVERIFY(m.questions.isEmpty()); // another node's change is no conflict

        // A second save with nothing changed elsewhere asks nothing either (the facts written are what
        // the next save compares with, floats and big integers included).
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("cache2")));
        QVERIFY(doc->save());
        QVERIFY(m.questions.isEmpty());

        // db02's own entry changed elsewhere: asked; declined, nothing is written; accepted, the edit wins.
        hiera::Value theirs = hiera::NodeLibrary::load(m_export.toStdString()).find("db02.example.com")->facts();
        theirs.mutableHash().set("team", hiera::Value("theirs"));
        const std::string exportPath = m_export.toStdString();
        const auto external =
            hiera::replacePuppetDBFacts(hiera::readFile(exportPath), exportPath, "db02.example.com", theirs);
        QVERIFY(external);
        QVERIFY(UiTest::writeFile(m_export, QByteArray::fromStdString(*external)));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("mine")));
        QVERIFY(!doc->save()); // the fixture answers Discard: not Overwrite
        QCOMPARE(m.questions.size(), 1);
        QVERIFY2(m.questions.first().contains(QLatin1String("db02.example.com"))
                     && m.questions.first().contains(QLatin1String("changed on disk")),
                 qPrintable(m.questions.first()));
        QCOMPARE(UiTest::readFile(m_export), QByteArray::fromStdString(*external));
        QVERIFY(m.window->isWindowModified());
        m.window->setQuestionHandler([](MainWindow::Question question, const QString&) {
            return question == MainWindow::Question::OverwriteChanged ? MainWindow::Answer::Accept
                                                                      : MainWindow::Answer::Discard;
        });
        QVERIFY(doc->save());
        library = hiera::NodeLibrary::load(m_export.toStdString());
        QCOMPARE(hiera::toJson(member(library.find("db02.example.com")->facts(), "role")), std::string("\"mine\""));
        QVERIFY(!library.find("db02.example.com")->facts().asHash().find(std::string_view("team")));

        // db02 left the export.
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("queue")));
        const QByteArray withoutDb02 =
            R"([{"certname": "app02.example.com", "facts": [{"name": "role", "value": "web"}]}])";
        QVERIFY(UiTest::writeFile(m_export, withoutDb02));
        QVERIFY(!doc->save());
        MessageBanner* banner = UiTest::part<FactsPanel>(m.window)->banner();
        QCOMPARE(banner->kind(), MessageBanner::Kind::Error);
        QVERIFY2(banner->text().contains(QDir::toNativeSeparators(m_export))
                     && banner->text().contains(QLatin1String("db02.example.com"))
                     && !banner->text().contains(QLatin1Char('\n')),
                 qPrintable(banner->text()));
        QCOMPARE(UiTest::readFile(m_export), withoutDb02);
        QVERIFY(m.window->isWindowModified());
        QCOMPARE(UiTest::part<FactsDocument>(m.window)
                     ->model()
                     ->indexForKeyPath(QStringLiteral("facts.role"))
                     .siblingAtColumn(FactTreeModel::ValueColumn)
                     .data()
                     .toString(),
                 QStringLiteral("queue"));

        // The export no longer parses: file:line:column, nothing written.
        const QByteArray broken = "[\n  {\"certname\": \"db02.example.com\",\n   \"facts\": [}\n]";
        QVERIFY(UiTest::writeFile(m_export, broken));
        QVERIFY(!doc->save());
        QCOMPARE(banner->kind(), MessageBanner::Kind::Error);
        QVERIFY2(banner->text().contains(m_export + QStringLiteral(":3:"))
                     && !banner->text().contains(QLatin1Char('\n')),
                 qPrintable(banner->text()));
        QCOMPARE(UiTest::readFile(m_export), broken);
        QVERIFY(m.window->isWindowModified());

        // Opening another node of it says the same (the question about the edits answered Discard).
        QVERIFY(!openNodeFromList(QStringLiteral("app02.example.com")));
        QCOMPARE(banner->kind(), MessageBanner::Kind::Error);
        QVERIFY2(banner->text().contains(m_export + QStringLiteral(":3:"))
                     && !banner->text().contains(QLatin1Char('\n')),
                 qPrintable(banner->text()));
    }

private:
    void openLibrary(const QString& path)
    {
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(path);
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
    }

    // Double-clicks the node in the Nodes panel; true once its facts are in.
    bool openNodeFromList(const QString& name)
    {
        NodesPanel* panel = UiTest::part<NodesPanel>(m.window);
        for (int row = 0; row < panel->proxy()->rowCount(); ++row) {
            const QModelIndex index = panel->proxy()->index(row, 0);
            if (index.data().toString() != name)
                continue;
            QSignalSpy read(m.window.get(), &MainWindow::factsLoadFinished);
            // As a double click does: the row is selected, then activated.
            panel->view()->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            emit panel->view()->activated(index);
            if (!m.window->isReadingFacts())
                return false; // the user cancelled at the question about unsaved edits
            return read.wait(WindowFixture::timeoutMs) && read.last().at(0).toBool();
        }
        return false;
    }

    std::string fleetKey() const
    {
        const FleetResultPtr r = UiTest::part<FleetPanel>(m.window)->model()->result();
        return r && !UiTest::part<FleetRunner>(m.window)->isBusy() ? r->key : std::string();
    }

    std::string fleetValue(const std::string& node) const
    {
        const FleetResultPtr r = UiTest::part<FleetPanel>(m.window)->model()->result();
        for (const hiera::FleetNodeResult& n : r->nodes) {
            if (n.name == node)
                return n.status == hiera::LookupResult::Status::Found ? hiera::toJson(n.value)
                                                                      : std::string("<not found>");
        }
        return "<no node>";
    }

    QModelIndex fleetIndex(const std::string& node) const
    {
        const FleetModel* model = UiTest::part<FleetPanel>(m.window)->model();
        for (int g = 0; g < model->rowCount(); ++g) {
            const QModelIndex group = model->index(g, 0);
            for (int n = 0; n < model->rowCount(group); ++n) {
                const QModelIndex index = model->index(n, 0, group);
                if (index.data(FleetModel::NodeNameRole).toString() == ValueConvert::toQString(node))
                    return index;
            }
        }
        return {};
    }

    WindowFixture m;
    QString m_export;
};

QTEST_MAIN(TestPuppetDBNodeEdits)
#include "tst_puppetdbnodeedits.moc"
