// The node library in the explorer (the demo's fact files as a library: listed with the
// facts the hierarchy uses, filtered, remembered, a node opened as the scope) and one key across it
// (grouped by value, checked against looking each node up alone; cancel; exports).

#include "jobs/fleetrunner.h"
#include "models/facttreemodel.h"
#include "models/fleetmodel.h"
#include "models/nodelistmodel.h"
#include "models/valueconvert.h"
#include "panels/fleetpanel.h"
#include "panels/nodespanel.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "widgets/messagebanner.h"

#include <hiera/engine.h>
#include <hiera/valueformat.h>

#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>

#include <algorithm>
#include <map>
#include <set>

using namespace hiera::ui;

class TestNodeLibraryPanels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_nodelibrarypanels")); }
    void init()
    {
        m.createWindow();
        m.window->raisePanel(UiTest::part<FleetPanel>(m.window)); // it runs while on screen (tst_nodereports: hidden)
    }
    void cleanup()
    {
        QTRY_VERIFY(!UiTest::part<FleetRunner>(m.window)->isBusy());
        m.destroyWindow();
    }

    // The demo's facts folder is a library: four nodes, a column for each fact the paths use; the
    // filter takes text or fact=value; a node opens as the scope; the library comes back after a restart.
    void demoFactsFolderIsALibrary()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers.0")));
        openLibrary(m.demoPath(QStringLiteral("facts")));
        NodesPanel* panel = UiTest::part<NodesPanel>(m.window);
        const NodeListModel* model = panel->model();
        QCOMPARE(model->rowCount(), 4);
        QStringList names;
        for (int row = 0; row < model->rowCount(); ++row)
            names << model->index(row, 0).data().toString();
        QCOMPARE(names,
                 QStringList({QStringLiteral("build01.example.com"), QStringLiteral("db01.example.com"),
                              QStringLiteral("web01.example.com"), QStringLiteral("web02.example.com")}));
        // The columns are the references of the demo's paths, the mapped_paths variable as its fact.
        const QStringList columns = model->factColumns();
        for (const char* fact : {"trusted.certname", "facts.role", "facts.env", "facts.os.family", "facts.datacenters"})
            QVERIFY2(columns.contains(QLatin1String(fact)), qPrintable(columns.join(QLatin1Char(' '))));
        // The node whose facts are open is marked in the list.
        QCOMPARE(panel->view()->currentIndex().siblingAtColumn(0).data().toString(),
                 QStringLiteral("web01.example.com"));
        // Every fact the paths use is on some node (build01 has no role, the others do): no warning.
        QVERIFY(model->columnsNoNodeHas().isEmpty());
        QVERIFY(!panel->banner()->text().contains(QLatin1String("No node")));
        QVERIFY(!columns.contains(QStringLiteral("dc")));
        const int role = 1 + static_cast<int>(columns.indexOf(QStringLiteral("facts.role")));
        QCOMPARE(model->index(1, role).data().toString(), QStringLiteral("db"));
        QCOMPARE(model->headerData(role, Qt::Horizontal).toString(), QStringLiteral("facts.role"));

        panel->filterEdit()->setText(QStringLiteral("facts.role=web"));
        QCOMPARE(panel->proxy()->rowCount(), 2);
        panel->filterEdit()->setText(QStringLiteral("role=web")); // a column's last part names it too
        QCOMPARE(panel->proxy()->rowCount(), 2);
        // Every word must match.
        panel->filterEdit()->setText(QStringLiteral("role=web 02"));
        QCOMPARE(panel->proxy()->rowCount(), 1);
        QCOMPARE(panel->proxy()->index(0, 0).data().toString(), QStringLiteral("web02.example.com"));
        panel->filterEdit()->setText(QStringLiteral("nosuchfact=web"));
        QCOMPARE(panel->proxy()->rowCount(), 0);
        panel->filterEdit()->setText(QStringLiteral("build"));
        QCOMPARE(panel->proxy()->rowCount(), 1);
        QCOMPARE(panel->statusText().left(15), QStringLiteral("1 of 4 nodes · "));
        panel->filterEdit()->clear();
        QCOMPARE(panel->proxy()->rowCount(), 4);

        // A node picked becomes the scope: the facts panel reads its file, the answer follows.
        QSignalSpy factsRead(m.window.get(), &MainWindow::factsLoadFinished);
        const QModelIndex db = panel->proxy()->index(1, 0);
        emit panel->view()->activated(db);
        QVERIFY(factsRead.wait(WindowFixture::timeoutMs));
        QCOMPARE(m.window->factsPath(), m.demoPath(QStringLiteral("facts/db01.example.com.yaml")));

        // Remembered: a new window reads the same library by itself.
        m.destroyWindow();
        m.createWindow();
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<NodesPanel>(m.window)->model()->rowCount() == 4,
                                 WindowFixture::timeoutMs);
    }

    // A node's own facts file saved from the explorer: the library reads it again and the fleet answers
    // with the saved facts.
    void savedFactsFileIsReadIntoTheLibrary()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers.0")));
        openLibrary(m.demoPath(QStringLiteral("facts")));
        m.window->setKey(QStringLiteral("profile::web::workers"));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::web::workers", WindowFixture::timeoutMs);
        QCOMPARE(fleetValue("web01.example.com"), std::string("16"));
        QCOMPARE(m.window->factsPath(), m.demoPath(QStringLiteral("facts/web01.example.com.yaml")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.env"),
                                                                               hiera::Value("staging")));
        QSignalSpy reloaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QVERIFY(reloaded.wait(WindowFixture::timeoutMs));
        const hiera::Node* web01 = UiTest::part<FleetRunner>(m.window)->library()->find("web01.example.com");
        QVERIFY(web01);
        QCOMPARE(hiera::toJson(*web01->facts().asHash().find("env")), std::string("\"staging\""));
        // roles/web/staging.yaml: 2 workers instead of production's 16.
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::web::workers" && fleetValue("web01.example.com") == "2",
                                 WindowFixture::timeoutMs);
        checkAgainstTheEngine();
        // A file elsewhere is not the library's: nothing is read again.
        QVERIFY(!UiTest::part<FleetRunner>(m.window)->reloadIfHolds(m.demoPath(QStringLiteral("hiera.yaml"))));
    }

    // A bad file in the library is named and skipped; the other nodes are listed.
    void badFactsFileIsNamedAndSkipped()
    {
        QTemporaryDir dir;
        for (const char* name : {"web01.example.com.yaml", "db01.example.com.yaml"})
            QVERIFY(QFile::copy(m.demoPath(QStringLiteral("facts/") + QLatin1String(name)),
                                dir.filePath(QLatin1String(name))));
        QVERIFY(UiTest::writeFile(dir.filePath(QStringLiteral("broken.yaml")), "os: [unclosed\n"));
        openLibrary(dir.path());
        QCOMPARE(UiTest::part<NodesPanel>(m.window)->model()->rowCount(), 2);
        MessageBanner* banner = UiTest::part<NodesPanel>(m.window)->banner();
        QCOMPARE(banner->kind(), MessageBanner::Kind::Warning);
        QVERIFY2(banner->text().contains(QLatin1String("broken.yaml:")), qPrintable(banner->text()));
        QVERIFY(UiTest::part<NodesPanel>(m.window)->statusText().contains(QLatin1String("1 file skipped")));
    }

    // Many skipped files: every one is named, and the banner shows a few lines and scrolls for the rest
    // instead of taking over the panel.
    void manyProblemsKeepTheBannerShort()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(m.demoPath(QStringLiteral("facts/db01.example.com.yaml")),
                            dir.filePath(QStringLiteral("db01.example.com.yaml"))));
        for (int i = 0; i < 12; ++i)
            QVERIFY(UiTest::writeFile(dir.filePath(QStringLiteral("broken%1.yaml").arg(i)), "os: [unclosed\n"));
        m.window->resize(1200, 900);
        m.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m.window.get()));
        m.window->raisePanel(UiTest::part<NodesPanel>(m.window));
        openLibrary(dir.path());
        MessageBanner* banner = UiTest::part<NodesPanel>(m.window)->banner();
        for (int i = 0; i < 12; ++i)
            QVERIFY(banner->text().contains(QStringLiteral("broken%1.yaml:").arg(i)));
        const int lines = MessageBanner::maxVisibleLines;
        QTRY_VERIFY(banner->isVisible());
        QVERIFY2(banner->height() <= (lines + 2) * banner->fontMetrics().lineSpacing() + 16,
                 qPrintable(QString::number(banner->height())));
        auto* scroll = banner->findChild<QScrollArea*>();
        QVERIFY(scroll && scroll->verticalScrollBar()->maximum() > 0); // the rest is a scroll away
    }

    // Another library starts at its top, not where the previous list was scrolled to.
    void anotherLibraryStartsAtItsTop()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QTemporaryDir first;
        QTemporaryDir second;
        for (int i = 0; i < 150; ++i) {
            QVERIFY(UiTest::writeFile(first.filePath(QStringLiteral("a%1.yaml").arg(i)),
                                      QStringLiteral("clientcert: a%1\n").arg(i).toUtf8()));
            QVERIFY(UiTest::writeFile(second.filePath(QStringLiteral("b%1.yaml").arg(i)),
                                      QStringLiteral("clientcert: b%1\n").arg(i).toUtf8()));
        }
        m.window->resize(1200, 900);
        m.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m.window.get()));
        m.window->raisePanel(UiTest::part<NodesPanel>(m.window));
        openLibrary(first.path());
        QTableView* view = UiTest::part<NodesPanel>(m.window)->view();
        QTRY_VERIFY(view->verticalScrollBar()->maximum() > 0);
        view->scrollToBottom();
        QTRY_VERIFY(view->verticalScrollBar()->value() > 0);
        openLibrary(second.path());
        QCOMPARE(view->model()->index(0, 0).data().toString(), QStringLiteral("b0"));
        QCOMPARE(view->verticalScrollBar()->value(), 0);
        // Rows are one line high.
        QVERIFY(view->rowHeight(0) <= view->fontMetrics().height() + 8);
    }

    // A very long node name keeps its column to a bounded width (the fact columns stay in view), elided
    // on one line with the whole name in its tooltip.
    void longNodeNameKeepsTheColumnsInView()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QTemporaryDir dir;
        const QString longName = QStringLiteral("a").repeated(150) + QStringLiteral(".example.com");
        QVERIFY(UiTest::writeFile(dir.filePath(QStringLiteral("long.yaml")),
                                  QStringLiteral("clientcert: %1\nrole: web\n").arg(longName).toUtf8()));
        QVERIFY(QFile::copy(m.demoPath(QStringLiteral("facts/db01.example.com.yaml")),
                            dir.filePath(QStringLiteral("db01.example.com.yaml"))));
        openLibrary(dir.path());
        QTableView* view = UiTest::part<NodesPanel>(m.window)->view();
        QCOMPARE(view->model()->rowCount(), 2);
        QVERIFY(view->model()->columnCount() > 1);
        QVERIFY2(view->columnWidth(0) <= 320, qPrintable(QString::number(view->columnWidth(0))));
        QVERIFY(view->columnWidth(0) >= view->fontMetrics().horizontalAdvance(QStringLiteral("db01.example.com")));
        QVERIFY(!view->wordWrap());
        QModelIndex longRow;
        for (int row = 0; row < view->model()->rowCount(); ++row)
            if (view->model()->index(row, 0).data().toString() == longName)
                longRow = view->model()->index(row, 0);
        QVERIFY(longRow.isValid());
        QVERIFY(longRow.data(Qt::ToolTipRole).toString().contains(longName));
    }

    // The filter: Escape clears it; another library clears it (its nodes would look missing), the
    // same library read again keeps it.
    void filterClearsWithEscapeAndAnotherLibrary()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers.0")));
        NodesPanel* panel = UiTest::part<NodesPanel>(m.window);
        openLibrary(m.demoPath(QStringLiteral("facts")));
        // fact=value also matches one item of a list fact: the nodes whose datacenters hold it.
        for (const char* dc : {"dc1", "dc2"}) {
            int expected = 0;
            for (const hiera::Node& node : UiTest::part<FleetRunner>(m.window)->library()->nodes())
                if (const auto v = node.scope->lookup("facts.datacenters"); v && v->isArray())
                    expected += std::count(v->asArray().begin(), v->asArray().end(), hiera::Value(dc)) > 0 ? 1 : 0;
            panel->filterEdit()->setText(QStringLiteral("datacenters=%1").arg(QLatin1String(dc)));
            QVERIFY(expected > 0);
            QCOMPARE(panel->proxy()->rowCount(), expected);
        }
        // A fact no column shows is looked up in each node's facts: networking.ip, os.name, ::hostname.
        for (const char* filter : {"networking.ip=10.1.10.11", "facts.networking.ip=10.1.10.11", "::hostname=WEB01",
                                   "hostname=web01 os.family=debian", "no.such.fact=web01"}) {
            const QString text = QString::fromLatin1(filter);
            int expected = 0;
            for (const hiera::Node& node : UiTest::part<FleetRunner>(m.window)->library()->nodes()) {
                bool all = true;
                for (const QString& word : text.split(QLatin1Char(' '))) {
                    QString ref = word.section(QLatin1Char('='), 0, 0);
                    if (ref.startsWith(QLatin1String("::")))
                        ref.remove(0, 2);
                    const auto v = node.scope->lookup(ref.toStdString());
                    all = all && v && v->isString()
                        && QString::fromStdString(v->asString())
                                .compare(word.section(QLatin1Char('='), 1), Qt::CaseInsensitive)
                            == 0;
                }
                expected += all ? 1 : 0;
            }
            panel->filterEdit()->setText(text);
            QCOMPARE(panel->proxy()->rowCount(), expected);
            QCOMPARE(expected > 0, !text.startsWith(QLatin1String("no.such")));
        }
        panel->filterEdit()->setText(QStringLiteral("role=web"));
        QCOMPARE(panel->proxy()->rowCount(), 2);
        openLibrary(m.demoPath(QStringLiteral("facts")));
        QCOMPARE(panel->filterEdit()->text(), QStringLiteral("role=web"));
        QTemporaryDir other;
        QVERIFY(QFile::copy(m.demoPath(QStringLiteral("facts/db01.example.com.yaml")),
                            other.filePath(QStringLiteral("db01.yaml"))));
        // The fleet view drops the previous library's answers as soon as another library is read.
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<FleetPanel>(m.window)->model()->result()
                                     && !UiTest::part<FleetRunner>(m.window)->isBusy(),
                                 WindowFixture::timeoutMs);
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        panel->openLibrary(other.path());
        QVERIFY(!UiTest::part<FleetPanel>(m.window)->model()->result());
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        QVERIFY(panel->filterEdit()->text().isEmpty());
        QCOMPARE(panel->proxy()->rowCount(), 1);
        panel->filterEdit()->setText(QStringLiteral("nothing matches"));
        QCOMPARE(panel->proxy()->rowCount(), 0);
        m.window->raisePanel(panel);
        panel->filterEdit()->setFocus();
        QTest::keyClick(panel->filterEdit(), Qt::Key_Escape);
        QVERIFY(panel->filterEdit()->text().isEmpty());
        QCOMPARE(panel->proxy()->rowCount(), 1);
    }

    // A library whose facts lack what the hierarchy's paths use is pointed out, once the hierarchy is
    // known, whichever of the two arrives first.
    void libraryWithoutTheHierarchysFactsIsPointedOut()
    {
        QTemporaryDir dir;
        QVERIFY(UiTest::writeFile(dir.filePath(QStringLiteral("a.yaml")),
                                  "clientcert: a\nos: {family: Debian}\nrole: web\n"));
        QVERIFY(UiTest::writeFile(dir.filePath(QStringLiteral("b.yaml")), "clientcert: b\nos: {family: RedHat}\n"));
        auto* run = UiTest::part<FleetPanel>(m.window)->findChild<QPushButton*>(QStringLiteral("fleetRun"));
        QVERIFY(run && !run->isEnabled()); // nothing to run on yet
        openLibrary(dir.path()); // no hierarchy yet: nothing to compare with
        QVERIFY(!UiTest::part<NodesPanel>(m.window)->banner()->text().contains(QLatin1String("No node")));
        QVERIFY(!run->isEnabled()); // a library, but no hierarchy
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers.0")));
        QTRY_VERIFY(run->isEnabled() || UiTest::part<FleetRunner>(m.window)->isBusy());
        MessageBanner* banner = UiTest::part<NodesPanel>(m.window)->banner();
        QTRY_VERIFY(banner->text().contains(QLatin1String("No node")));
        QCOMPARE(banner->kind(), MessageBanner::Kind::Warning);
        const QStringList missing = UiTest::part<NodesPanel>(m.window)->model()->columnsNoNodeHas();
        QCOMPARE(missing,
                 QStringList({QStringLiteral("facts.env"), QStringLiteral("facts.os.release.major"),
                              QStringLiteral("facts.datacenters")}));
        for (const QString& fact : missing)
            QVERIFY2(banner->text().contains(fact), qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QLatin1String("facts.role")), qPrintable(banner->text())); // a has it
        // The fleet view, whose answers all come from the common levels then, says it too.
        QTRY_VERIFY_WITH_TIMEOUT(!fleetKey().empty(), WindowFixture::timeoutMs);
        QVERIFY2(UiTest::part<FleetPanel>(m.window)->summaryText().contains(
                     QLatin1String("No node has facts.env, facts.os.release.major, facts.datacenters")),
                 qPrintable(UiTest::part<FleetPanel>(m.window)->summaryText()));
    }

    // The current key across the library: one group per distinct answer, largest first, each node's
    // value as the engine gives it for that node alone; the groups follow the key bar.
    void keyAcrossTheLibrary()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QSignalSpy shown(UiTest::part<FleetPanel>(m.window), &FleetPanel::fleetShown);
        openLibrary(m.demoPath(QStringLiteral("facts")));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::ntp.servers", WindowFixture::timeoutMs);
        checkAgainstTheEngine();

        m.window->setKey(QStringLiteral("profile::base::timezone"));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::base::timezone", WindowFixture::timeoutMs);
        checkAgainstTheEngine();
        QVERIFY(UiTest::part<FleetPanel>(m.window)->summaryText().startsWith(
            QLatin1String("profile::base::timezone on 4 nodes: ")));

        // Exports: every node once, parseable.
        QTemporaryDir out;
        QString error;
        QVERIFY2(UiTest::part<FleetPanel>(m.window)->exportTo(out.filePath(QStringLiteral("fleet.csv")), &error),
                 qPrintable(error));
        QFile csv(out.filePath(QStringLiteral("fleet.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 5); // header + 4 nodes
        QVERIFY(lines.first().startsWith("node,key,status,value"));
        QVERIFY2(UiTest::part<FleetPanel>(m.window)->exportTo(out.filePath(QStringLiteral("fleet.json")), &error),
                 qPrintable(error));
        QFile json(out.filePath(QStringLiteral("fleet.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const hiera::Value doc = hiera::parseData(json.readAll().toStdString(), "fleet.json", hiera::DataFormat::Json);
        QCOMPARE(doc.asHash().find("nodes")->asArray().size(), std::size_t(4));
        QVERIFY2(UiTest::part<FleetPanel>(m.window)->exportTo(out.filePath(QStringLiteral("fleet.md")), &error),
                 qPrintable(error));
        QVERIFY(QFileInfo(out.filePath(QStringLiteral("fleet.md"))).size() > 0);

        // A node of a group opens its own answer.
        QSignalSpy factsRead(m.window.get(), &MainWindow::factsLoadFinished);
        const FleetModel* model = UiTest::part<FleetPanel>(m.window)->model();
        const QModelIndex node = model->index(0, 0, model->index(0, 0));
        const QString name = node.data(FleetModel::NodeNameRole).toString();
        emit UiTest::part<FleetPanel>(m.window)->view()->activated(node);
        QVERIFY(factsRead.wait(WindowFixture::timeoutMs));
        QVERIFY2(m.window->factsPath().endsWith(name + QStringLiteral(".yaml"))
                     || m.window->factsPath().endsWith(name + QStringLiteral(".json")),
                 qPrintable(m.window->factsPath()));
        // The Nodes list marks the node opened, not the one clicked there last.
        const QTableView* list = UiTest::part<NodesPanel>(m.window)->view();
        QCOMPARE(list->currentIndex().siblingAtColumn(0).data().toString(), name);
        QCOMPARE(list->selectionModel()->selectedRows().size(), 1);
    }

    // The fleet view runs on the nodes the Nodes filter shows, and says so; without a filter, on all.
    void fleetFollowsTheNodesFilter()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        openLibrary(m.demoPath(QStringLiteral("facts")));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::ntp.servers", WindowFixture::timeoutMs);
        const FleetPanel* fleet = UiTest::part<FleetPanel>(m.window);
        QCOMPARE(fleet->model()->result()->nodes.size(), std::size_t(4));
        UiTest::part<NodesPanel>(m.window)->filterEdit()->setText(QStringLiteral("role=web"));
        QTRY_VERIFY_WITH_TIMEOUT(!UiTest::part<FleetRunner>(m.window)->isBusy()
                                     && fleet->model()->result()->nodes.size() == 2,
                                 WindowFixture::timeoutMs);
        QStringList names;
        for (const hiera::FleetNodeResult& n : fleet->model()->result()->nodes)
            names << QString::fromStdString(n.name);
        QCOMPARE(names, QStringList({QStringLiteral("web01.example.com"), QStringLiteral("web02.example.com")}));
        checkAgainstTheEngine();
        QVERIFY2(fleet->summaryText().contains(QLatin1String("on 2 of 4 nodes (the Nodes filter role=web)")),
                 qPrintable(fleet->summaryText()));
        // Another key keeps the filter.
        m.window->setKey(QStringLiteral("profile::base::timezone"));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::base::timezone", WindowFixture::timeoutMs);
        QCOMPARE(fleet->model()->result()->nodes.size(), std::size_t(2));
        // Its exports say how the nodes were chosen.
        QTemporaryDir out;
        QString error;
        QVERIFY2(fleet->exportTo(out.filePath(QStringLiteral("fleet.json")), &error), qPrintable(error));
        const hiera::Value doc =
            hiera::parseData(UiTest::readFile(out.filePath(QStringLiteral("fleet.json"))).toStdString(), "fleet.json",
                             hiera::DataFormat::Json);
        QCOMPARE(*doc.asHash().find("node_filter"), hiera::Value("role=web"));
        QVERIFY2(fleet->exportTo(out.filePath(QStringLiteral("fleet.md")), &error), qPrintable(error));
        QVERIFY(UiTest::readFile(out.filePath(QStringLiteral("fleet.md")))
                    .contains("(chosen by the filter `role=web` from the library's 4)"));
        // A filter that hides the open node, then none: the open node is marked again.
        UiTest::part<NodesPanel>(m.window)->filterEdit()->setText(QStringLiteral("role=db"));
        QVERIFY(UiTest::part<NodesPanel>(m.window)->view()->selectionModel()->selectedRows().isEmpty());
        UiTest::part<NodesPanel>(m.window)->filterEdit()->clear();
        QCOMPARE(UiTest::part<NodesPanel>(m.window)->view()->currentIndex().siblingAtColumn(0).data().toString(),
                 QStringLiteral("web01.example.com"));
        QTRY_VERIFY_WITH_TIMEOUT(!UiTest::part<FleetRunner>(m.window)->isBusy()
                                     && fleet->model()->result()->nodes.size() == 4,
                                 WindowFixture::timeoutMs);
        QVERIFY(fleet->summaryText().startsWith(QLatin1String("profile::base::timezone on 4 nodes: ")));
    }

    // A run can be cancelled: it stops, says so, and the explorer stays usable.
    void cancelledRunSaysSo()
    {
        // 300 copies of the demo's nodes, so that the run lasts long enough to be cancelled.
        QTemporaryDir dir;
        QFile web(m.demoPath(QStringLiteral("facts/web01.example.com.yaml")));
        QVERIFY(web.open(QIODevice::ReadOnly));
        const QByteArray facts = web.readAll();
        for (int i = 0; i < 300; ++i)
            QVERIFY(UiTest::writeFile(
                dir.filePath(QStringLiteral("n%1.yaml").arg(i)),
                QByteArray(facts).replace("web01.example.com", QStringLiteral("n%1.example.com").arg(i).toUtf8())));
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp")));
        openLibrary(dir.path());
        FleetRunner* fleet = UiTest::part<FleetRunner>(m.window);
        QTRY_VERIFY_WITH_TIMEOUT(!fleet->isBusy() && UiTest::part<FleetPanel>(m.window)->model()->result(),
                                 WindowFixture::timeoutMs);
        QSignalSpy finished(fleet, &FleetRunner::fleetFinished);
        // Cancelled as soon as it is asked for: the workers see the flag before their first node or
        // within one node each, so the run stops with most of the 300 nodes undone.
        // A freshly loaded engine: its per-node contexts start cold, so the run takes far longer than
        // the cancel that follows it (the window's own engine has them warm: 300 nodes in a millisecond).
        const EnginePtr cold = hiera::Engine::load(ValueConvert::toStd(m.demoPath(QStringLiteral("hiera.yaml"))));
        fleet->run(cold, "profile::firewall::rules");
        QVERIFY(fleet->isBusy());
        fleet->cancel();
        QVERIFY(finished.wait(WindowFixture::timeoutMs));
        const FleetResultPtr result = finished.last().at(0).value<FleetResultPtr>();
        QVERIFY(result);
        QVERIFY(result->cancelled);
        QVERIFY2(result->nodes.size() < result->total, qPrintable(QString::number(result->nodes.size())));
        QTRY_VERIFY(UiTest::part<FleetPanel>(m.window)->summaryText().contains(QLatin1String("(cancelled after")));
        QTRY_VERIFY(!UiTest::part<FleetPanel>(m.window)->cancelButton()->isEnabled());
        // Run looks the cancelled key up again, to the end.
        QPushButton* run = UiTest::part<FleetPanel>(m.window)->findChild<QPushButton*>(QStringLiteral("fleetRun"));
        QVERIFY(run && run->isEnabled());
        m.window->setKey(QStringLiteral("profile::firewall::rules"));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::firewall::rules"
                                     && !UiTest::part<FleetPanel>(m.window)->model()->result()->cancelled,
                                 WindowFixture::timeoutMs);
        fleet->cancel(); // nothing runs: no effect
        fleet->run(cold, "profile::firewall::rules");
        fleet->cancel();
        QVERIFY(finished.wait(WindowFixture::timeoutMs));
        QTRY_VERIFY(UiTest::part<FleetPanel>(m.window)->model()->result()->cancelled);
        run->click();
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::firewall::rules"
                                     && !UiTest::part<FleetPanel>(m.window)->model()->result()->cancelled,
                                 WindowFixture::timeoutMs);
        // Escape in the panel stops a run as Cancel does.
        m.window->show();
        m.window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m.window.get()));
        m.window->raisePanel(UiTest::part<FleetPanel>(m.window));
        QTRY_VERIFY(UiTest::part<FleetPanel>(m.window)->isEnabled());
        UiTest::part<FleetPanel>(m.window)->view()->setFocus();
        QTRY_VERIFY(UiTest::part<FleetPanel>(m.window)->view()->hasFocus());
        finished.clear();
        fleet->run(cold, "profile::firewall::rules");
        QVERIFY(UiTest::part<FleetPanel>(m.window)->cancelButton()->isEnabled()); // at once: the run cannot end first
        QTest::keyClick(UiTest::part<FleetPanel>(m.window)->view(), Qt::Key_Escape);
        QVERIFY(finished.wait(WindowFixture::timeoutMs));
        QVERIFY(finished.last().at(0).value<FleetResultPtr>()->cancelled);
        QTRY_VERIFY(UiTest::part<FleetPanel>(m.window)->model()->result()->cancelled);

        // And usable: the next key runs to the end.
        m.window->setKey(QStringLiteral("profile::base::timezone"));
        QTRY_VERIFY_WITH_TIMEOUT(fleetKey() == "profile::base::timezone"
                                     && !UiTest::part<FleetPanel>(m.window)->model()->result()->cancelled,
                                 WindowFixture::timeoutMs);
        QCOMPARE(UiTest::part<FleetPanel>(m.window)->model()->result()->nodes.size(), std::size_t(300));
        QVERIFY(!fleet->isBusy());

        // Reading a library cancelled is no error: the library before stays, and the banner says so.
        // (The cancel follows the start at once; on a loaded machine the 300 small files can all be read
        // before it lands, which is a finished read: then it is tried again.)
        QSignalSpy cancelled(fleet, &FleetRunner::libraryCancelled);
        QSignalSpy loaded(fleet, &FleetRunner::libraryLoaded);
        QSignalSpy failed(fleet, &FleetRunner::libraryFailed);
        for (int attempt = 0; attempt < 5 && cancelled.isEmpty(); ++attempt) {
            loaded.clear();
            fleet->loadLibrary(dir.path());
            QVERIFY(fleet->isBusy());
            fleet->cancel();
            QTRY_VERIFY_WITH_TIMEOUT(cancelled.size() + loaded.size() + failed.size() > 0, WindowFixture::timeoutMs);
            QTRY_VERIFY(!fleet->isBusy());
        }
        QCOMPARE(failed.size(), 0);
        QCOMPARE(cancelled.size(), 1);
        MessageBanner* banner = UiTest::part<NodesPanel>(m.window)->banner();
        QCOMPARE(banner->kind(), MessageBanner::Kind::Information);
        QVERIFY2(banner->text().startsWith(QLatin1String("Stopped reading"))
                     && banner->text().contains(QLatin1String("stays open")),
                 qPrintable(banner->text()));
        QCOMPARE(fleet->library()->size(), std::size_t(300));
    }

private:
    void openLibrary(const QString& path)
    {
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(path);
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
    }

    std::string fleetKey() const
    {
        const FleetResultPtr r = UiTest::part<FleetPanel>(m.window)->model()->result();
        return r && !UiTest::part<FleetRunner>(m.window)->isBusy() ? r->key : std::string();
    }

    std::string fleetValue(const std::string& node) const
    {
        for (const hiera::FleetNodeResult& n : UiTest::part<FleetPanel>(m.window)->model()->result()->nodes) {
            if (n.name == node)
                return n.status == hiera::LookupResult::Status::Found ? hiera::toJson(n.value) : std::string("<none>");
        }
        return "<no node>";
    }

    // Every node's answer in the fleet view is the engine's answer for that node alone, and the groups
    // are the distinct answers, largest first. Every node of the run is there (the library's, or those
    // the Nodes filter shows).
    void checkAgainstTheEngine()
    {
        const FleetResultPtr r = UiTest::part<FleetPanel>(m.window)->model()->result();
        const NodeLibraryPtr library = UiTest::part<FleetRunner>(m.window)->library();
        QVERIFY(r && library);
        QVERIFY(!r->cancelled);
        const NodeSelection asked = UiTest::part<NodesPanel>(m.window)->selection();
        QCOMPARE(r->nodes.size(), asked.nodes ? asked.nodes->size() : library->size());
        std::map<std::string, std::string> expected;
        for (const hiera::Node& node : library->nodes()) {
            const hiera::LookupResult one = UiTest::part<LookupRunner>(m.window)->engine()->lookup(*node.scope, r->key);
            expected[node.name] =
                one.found() ? hiera::toJson(one.value) : std::string("<") + hiera::fleetStatusName(one.status) + ">";
        }
        const FleetModel* model = UiTest::part<FleetPanel>(m.window)->model();
        int previousSize = INT_MAX;
        std::size_t seen = 0;
        for (int g = 0; g < model->rowCount(); ++g) {
            const QModelIndex group = model->index(g, 0);
            const int size = model->rowCount(group);
            QVERIFY(size <= previousSize);
            previousSize = size;
            QCOMPARE(model->index(g, FleetModel::NodesColumn).data().toInt(), size);
            // A group's level: its nodes' level when they share one, else how many levels.
            std::set<std::string> levels;
            for (std::size_t member : r->groups[static_cast<std::size_t>(g)].members)
                if (!r->nodes[member].level.empty())
                    levels.insert(r->nodes[member].level);
            const QString level = model->index(g, FleetModel::LevelColumn).data().toString();
            if (levels.size() == 1)
                QCOMPARE(level, QString::fromStdString(*levels.begin()));
            else if (levels.size() > 1)
                QCOMPARE(level, QStringLiteral("%1 levels").arg(levels.size()));
            else
                QVERIFY(level.isEmpty());
            for (int n = 0; n < size; ++n) {
                const std::string name =
                    ValueConvert::toStd(model->index(n, 0, group).data(FleetModel::NodeNameRole).toString());
                const hiera::FleetNodeResult& node = *std::find_if(
                    r->nodes.begin(), r->nodes.end(), [&](const hiera::FleetNodeResult& x) { return x.name == name; });
                const std::string got = node.status == hiera::LookupResult::Status::Found
                    ? hiera::toJson(node.value)
                    : std::string("<") + hiera::fleetStatusName(node.status) + ">";
                QCOMPARE(got, expected[name]);
                ++seen;
            }
        }
        QCOMPARE(seen, r->nodes.size());
    }

    WindowFixture m;
};

QTEST_MAIN(TestNodeLibraryPanels)
#include "tst_nodelibrarypanels.moc"
