// Whole-node reports in the explorer: every key of the current node (checked key by key
// against the engine, searched, exported, following fact edits) and node against node (every
// difference checked against the engine both ways, the prefix, the current facts as a side, exports);
// and the many-node panels wait while they are hidden tabs.

#include "jobs/fleetrunner.h"
#include "models/allkeysmodel.h"
#include "models/facttreemodel.h"
#include "models/fleetmodel.h"
#include "models/nodediffmodel.h"
#include "models/valueconvert.h"
#include "panels/allkeyspanel.h"
#include "panels/fleetpanel.h"
#include "panels/nodediffpanel.h"
#include "panels/nodespanel.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "widgets/elidingheaderview.h"
#include "widgets/reportexport.h"

#include <hiera/engine.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodescope.h>
#include <hiera/valueformat.h>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <map>
#include <set>

using namespace hiera::ui;

namespace {

// What the engine answers for `key` on `scope`, as one comparable line.
std::string answer(const hiera::Engine& engine, const hiera::Scope& scope, const std::string& key)
{
    const hiera::LookupResult r = engine.lookup(scope, key);
    if (r.found())
        return "found " + hiera::toJson(r.value);
    return r.status == hiera::LookupResult::Status::NotFound ? "not found" : "error " + std::string(r.error->what());
}

std::string sideText(const hiera::KeyDifference::Side& side)
{
    if (side.found())
        return "found " + hiera::toJson(side.value);
    return side.status == hiera::LookupResult::Status::NotFound ? "not found" : "error " + side.error;
}

hiera::Value readData(const QString& path, hiera::DataFormat format)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return hiera::parseData(file.readAll().toStdString(), ValueConvert::toStd(path), format);
}

} // namespace

class TestNodeReports : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_nodereports")); }
    void init() { m.createWindow(); }
    void cleanup()
    {
        QTRY_VERIFY(!UiTest::part<FleetRunner>(m.window)->isBusy());
        QTRY_VERIFY(!UiTest::part<NodeReportRunner>(m.window)->isResolving()
                    && !UiTest::part<NodeReportRunner>(m.window)->isComparing());
        m.destroyWindow();
    }

    // Every key of web01, each row the engine's answer for that key alone; search; exports; a fact
    // edit resolves them again; a row looks its key up.
    void allKeysOfTheNode()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        AllKeysPanel* panel = UiTest::part<AllKeysPanel>(m.window);
        QSignalSpy shown(panel, &AllKeysPanel::allKeysShown);
        m.window->raisePanel(panel);
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        checkAllKeys();
        const AllKeysModel* model = panel->model();
        QVERIFY(model->rowCount() > 10);

        // The search keeps the rows whose key or value holds the text, whatever the case.
        const QString needle = QStringLiteral("NTP");
        int expected = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            expected +=
                model->index(row, AllKeysModel::KeyColumn).data().toString().contains(needle, Qt::CaseInsensitive)
                || model->index(row, AllKeysModel::ValueColumn).data().toString().contains(needle, Qt::CaseInsensitive);
        QVERIFY(expected > 0 && expected < model->rowCount());
        panel->searchEdit()->setText(needle);
        QCOMPARE(panel->proxy()->rowCount(), expected);
        QVERIFY2(
            panel->summaryText().startsWith(QStringLiteral("%1 of %2 keys match").arg(expected).arg(model->rowCount())),
            qPrintable(panel->summaryText()));
        panel->searchEdit()->clear();
        QCOMPARE(panel->proxy()->rowCount(), model->rowCount());

        // Exports: YAML and JSON are the node's data (each found key's value); CSV one row per key.
        std::map<std::string, std::string> found;
        for (const hiera::ResolvedKey& k : model->report()->data.keys)
            if (k.found())
                found[k.key] = hiera::toJson(k.value);
        QTemporaryDir out;
        QString error;
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("web01.yaml")), &error), qPrintable(error));
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("web01.json")), &error), qPrintable(error));
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("web01.csv")), &error), qPrintable(error));
        const hiera::Value yaml = readData(out.filePath(QStringLiteral("web01.yaml")), hiera::DataFormat::Yaml);
        const hiera::Value json = readData(out.filePath(QStringLiteral("web01.json")), hiera::DataFormat::Json);
        QVERIFY(yaml.isHash() && json.isHash());
        const hiera::Value& jsonData = *json.asHash().find("data");
        for (const hiera::Value* data : {&yaml, &jsonData}) {
            QCOMPARE(data->asHash().size(), found.size());
            for (const auto& [key, value] : found) {
                const hiera::Value* v = data->asHash().find(key);
                QVERIFY2(v, key.c_str());
                // Secrets are masked in exports unless revealed: the demo has one eyaml key.
                if (hiera::toJson(*v) != value)
                    QCOMPARE(hiera::toJson(*v), std::string("\"<sensitive>\""));
            }
        }
        QFile csv(out.filePath(QStringLiteral("web01.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readLine().startsWith("node,key,value,level,file,merge"));
        QVERIFY(csv.readLine().startsWith("web01.example.com,"));
        QCOMPARE(UiTest::readFile(out.filePath(QStringLiteral("web01.csv"))).trimmed().count('\n'),
                 qsizetype(model->rowCount())); // every key with no search

        // While a search narrows the table, the CSV is the rows shown; YAML and JSON stay the node's data.
        panel->searchEdit()->setText(needle);
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("narrowed.csv")), &error), qPrintable(error));
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("narrowed.yaml")), &error), qPrintable(error));
        const QList<QByteArray> narrowed =
            UiTest::readFile(out.filePath(QStringLiteral("narrowed.csv"))).trimmed().split('\n');
        QCOMPARE(narrowed.size(), qsizetype(expected + 1));
        QCOMPARE(readData(out.filePath(QStringLiteral("narrowed.yaml")), hiera::DataFormat::Yaml).asHash().size(),
                 found.size());
        panel->searchEdit()->clear();

        // A fact edit: the keys follow (db01's role gives other answers).
        const QModelIndex role =
            UiTest::part<FactsDocument>(m.window)->model()->indexForKeyPath(QStringLiteral("facts.role"));
        QVERIFY(role.isValid());
        shown.clear();
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setData(
            role.siblingAtColumn(FactTreeModel::ValueColumn), QStringLiteral("db")));
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        checkAllKeys();

        // A row looks its key up.
        const QModelIndex row = panel->proxy()->index(0, AllKeysModel::KeyColumn);
        const QString key = row.data().toString();
        emit panel->view()->activated(row);
        QVERIFY(m.waitForAnswer(key));
    }

    // A hidden tab does not run on every change; shown, it catches up with the newest.
    void hiddenPanelsWait()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        AllKeysPanel* panel = UiTest::part<AllKeysPanel>(m.window);
        QCOMPARE(panel->model()->report(), nullptr);
        QVERIFY(panel->isStale());
        QVERIFY(!panel->isEnabled()); // covered: out of the Tab focus chain
        QSignalSpy shown(panel, &AllKeysPanel::allKeysShown);
        m.window->raisePanel(panel);
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        QVERIFY(!panel->isStale());
        QVERIFY(panel->isEnabled());

        // The fleet view too: a library opened behind the Hierarchy tab waits for the tab.
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(m.demoPath(QStringLiteral("facts")));
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        QTest::qWait(100);
        QCOMPARE(UiTest::part<FleetPanel>(m.window)->model()->result(), nullptr);
        QSignalSpy fleetShown(UiTest::part<FleetPanel>(m.window), &FleetPanel::fleetShown);
        m.window->raisePanel(UiTest::part<FleetPanel>(m.window));
        QVERIFY(fleetShown.wait(WindowFixture::timeoutMs));
        QCOMPARE(UiTest::part<FleetPanel>(m.window)->model()->result()->key, std::string("profile::ntp.servers"));
    }

    // The names export dialogs suggest are plain file names that still read as what they hold.
    // The save dialog starts with the format last saved from the same panel's formats (each set of
    // formats its own), "yml" counts as YAML, and a name typed without a suffix gets the chosen filter's.
    void exportRemembersTheLastFormat()
    {
        QSettings().remove(QStringLiteral("export"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ReportExport::rememberFolder(dir.filePath(QStringLiteral("x")));
        const QList<ReportExport::Format> report = {
            {QStringLiteral("CSV"), QStringLiteral("csv"), [] { return std::string("a,b\n"); }},
            {QStringLiteral("JSON"), QStringLiteral("json"), [] { return std::string("{}\n"); }},
            {QStringLiteral("YAML"), QStringLiteral("yaml"), [] { return std::string("a: 1\n"); }},
        };
        const QList<ReportExport::Format> other = {report[1], report[0]};
        QCOMPARE(ReportExport::preferredFormat(report), 0);

        QWidget parent;
        QLabel status;
        // Answers the dialog: checks what it starts with, then saves `typed` with `filter` chosen.
        const auto exportThrough = [&](const QString& expectName, const QString& expectFilter, const QString& filter,
                                       const QString& typed) {
            bool seen = false;
            QTimer::singleShot(0, [&] {
                auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
                QVERIFY(dialog);
                seen = true;
                auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
                QVERIFY(name);
                QCOMPARE(name->text(), expectName);
                QCOMPARE(dialog->selectedNameFilter(), expectFilter);
                dialog->selectNameFilter(filter);
                name->setText(typed);
                static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept is protected
            });
            ReportExport::chooseAndSave(&parent, QStringLiteral("Export"), report, &status,
                                        QStringLiteral("web01 report"));
            QVERIFY(seen);
        };

        exportThrough(QStringLiteral("web01-report.csv"), QStringLiteral("CSV (*.csv)"),
                      QStringLiteral("JSON (*.json)"), QStringLiteral("first"));
        QCOMPARE(UiTest::readFile(dir.filePath(QStringLiteral("first.json"))), QByteArray("{}\n"));
        QCOMPARE(ReportExport::preferredFormat(report), 1);
        QCOMPARE(ReportExport::preferredFormat(other), 0); // another panel's formats keep their own

        exportThrough(QStringLiteral("web01-report.json"), QStringLiteral("JSON (*.json)"),
                      QStringLiteral("JSON (*.json)"), QStringLiteral("second.yml"));
        QCOMPARE(UiTest::readFile(dir.filePath(QStringLiteral("second.yml"))), QByteArray("a: 1\n"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("second.yml.json"))));
        QCOMPARE(ReportExport::preferredFormat(report), 2);

        ReportExport::rememberFormat(report, QStringLiteral("notes.txt")); // not one of them: kept as it was
        QCOMPARE(ReportExport::preferredFormat(report), 2);
    }

    void compareHeadersDropTheSharedDomain()
    {
        using P = std::pair<QString, QString>;
        const auto shortNames = [](const char* a, const char* b) {
            return NodeDiffModel::shortNames(QString::fromUtf8(a), QString::fromUtf8(b));
        };
        QCOMPARE(shortNames("web01.example.com", "db01.example.com"), P("web01", "db01"));
        QCOMPARE(shortNames("Current facts (web01.example.com)", "db01.Example.com"),
                 P("Current facts (web01)", "db01"));
        QCOMPARE(shortNames("web01.dc1.example.com", "web01.dc2.example.com"), P("web01.dc1", "web01.dc2"));
        QCOMPARE(shortNames("webfro002.iad1.example.com", "db01.iad1.example.com"), P("webfro002", "db01"));
        QCOMPARE(shortNames("a.example.com", "b.example.org"), P("a.example.com", "b.example.org"));
        QCOMPARE(shortNames("example.com", "db01.example.com"),
                 P("example", "db01.example")); // each keeps a label of its own
        QCOMPARE(shortNames(".example.com", "db01.example.com"), P(".example.com", "db01.example.com"));
        QCOMPARE(shortNames("web01.example.com", "web01.example.com"), P("web01.example.com", "web01.example.com"));
        QCOMPARE(shortNames("web01", "db01"), P("web01", "db01"));
        QCOMPARE(shortNames("web01.", "db01."), P("web01.", "db01."));
        QCOMPARE(shortNames("a.x (b)", "c.x"), P("a.x (b)", "c.x"));
        QCOMPARE(shortNames("(web01.example.com)", "db01.example.com"), P("(web01)", "db01"));
        QCOMPARE(shortNames("Current facts ()", "db01.example.com"), P("Current facts ()", "db01.example.com"));
        QCOMPARE(shortNames("", ""), P("", ""));
    }

    // Table headers elide a long title in the middle to their section's width (Qt 6.4 clipped it on both
    // sides): two long node names that differ in the middle stay apart.
    void longHeaderTitlesAreElided()
    {
        struct Probe : ElidingHeaderView
        {
            using ElidingHeaderView::ElidingHeaderView;
            QString title(int section) const
            {
                QStyleOptionHeader option;
                initStyleOption(&option);
                initStyleOptionForIndex(&option, section);
                return option.text;
            }
        };
        const QString a = QStringLiteral("very-long-hostname-for-the-payments-api-gateway-cluster-node-0001.prod");
        const QString b = QStringLiteral("very-long-hostname-for-the-payments-api-gateway-cluster-node-0002.prod");
        QStandardItemModel model(1, 3);
        model.setHorizontalHeaderLabels({a, b, QStringLiteral("short")});
        QTableView view;
        auto* header = new Probe(&view);
        view.setHorizontalHeader(header);
        view.setModel(&model);
        view.setColumnWidth(0, 220);
        view.setColumnWidth(1, 220);
        view.setColumnWidth(2, 220);
        const QString shownA = header->title(0);
        const QString shownB = header->title(1);
        QVERIFY2(shownA.contains(QChar(0x2026)) && shownA.startsWith(QLatin1String("very"))
                     && shownA.endsWith(QLatin1String("prod")),
                 qPrintable(shownA));
        QVERIFY(header->fontMetrics().horizontalAdvance(shownA) <= 220);
        QVERIFY(shownA != shownB);
        QCOMPARE(header->title(2), QStringLiteral("short"));
    }

    void exportFileNames()
    {
        QCOMPARE(ReportExport::safeFileName(QStringLiteral("profile::ntp::servers-nodes")),
                 QStringLiteral("profile--ntp--servers-nodes"));
        QCOMPARE(ReportExport::safeFileName(QStringLiteral("Current facts (db01.example.com)-vs-build01.example.com")),
                 QStringLiteral("Current-facts-db01.example.com-vs-build01.example.com"));
        QCOMPARE(ReportExport::safeFileName(QStringLiteral("../../etc/passwd")), QStringLiteral("etc-passwd"));
        QCOMPARE(ReportExport::safeFileName(QStringLiteral("a/b\\c")), QStringLiteral("a-b-c"));
        QCOMPARE(ReportExport::safeFileName(QStringLiteral("  ")), QStringLiteral("export"));
        QCOMPARE(ReportExport::safeFileName(QStringLiteral("web01-all-keys")), QStringLiteral("web01-all-keys"));
    }

    // A library whose first node is the one the current facts are for: the pickers start on the
    // current facts against another node, not against itself.
    void defaultPairIsTwoNodes()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QTemporaryDir library;
        QVERIFY(QFile::copy(m.demoPath(QStringLiteral("facts/web01.example.com.yaml")),
                            library.filePath(QStringLiteral("1.yaml"))));
        QVERIFY(QFile::copy(m.demoPath(QStringLiteral("facts/db01.example.com.yaml")),
                            library.filePath(QStringLiteral("2.yaml"))));
        NodeDiffPanel* panel = UiTest::part<NodeDiffPanel>(m.window);
        QTRY_VERIFY_WITH_TIMEOUT(panel->currentCertname() == QLatin1String("web01.example.com"),
                                 WindowFixture::timeoutMs);
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(library.path());
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        QCOMPARE(panel->nodeABox()->currentText(), NodeDiffPanel::currentFactsName());
        QCOMPARE(panel->nodeBBox()->currentText(), QStringLiteral("db01.example.com"));
    }

    // Node against node: the keys listed are exactly the keys whose engine answers differ; a prefix
    // narrows them; the current facts are a side; exports.
    void nodeAgainstNode()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(m.demoPath(QStringLiteral("facts")));
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        NodeDiffPanel* panel = UiTest::part<NodeDiffPanel>(m.window);
        QSignalSpy shown(panel, &NodeDiffPanel::diffShown);
        m.window->raisePanel(panel);
        panel->compare(QStringLiteral("web01.example.com"), QStringLiteral("db01.example.com"));
        QTRY_VERIFY_WITH_TIMEOUT(diffShownFor("web01.example.com", "db01.example.com", ""), WindowFixture::timeoutMs);
        checkDiff();
        const NodeDiffModel* model = panel->model();
        QVERIFY(model->rowCount() > 0);
        // The headers drop the domain both nodes share; their tooltips name the nodes in full.
        QCOMPARE(model->headerData(NodeDiffModel::ValueAColumn, Qt::Horizontal).toString(), QStringLiteral("web01"));
        QCOMPARE(model->headerData(NodeDiffModel::FilesBColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Files (db01)"));
        QVERIFY(model->headerData(NodeDiffModel::ValueAColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("web01.example.com")));

        // Prefix: only keys starting with it, and all of those that differ.
        std::set<std::string> all;
        for (const hiera::KeyDifference& d : model->report()->diff.keys)
            all.insert(d.key);
        panel->prefixEdit()->setText(QStringLiteral("profile::"));
        QTRY_VERIFY_WITH_TIMEOUT(diffShownFor("web01.example.com", "db01.example.com", "profile::"),
                                 WindowFixture::timeoutMs);
        std::set<std::string> narrowed;
        for (const hiera::KeyDifference& d : model->report()->diff.keys)
            narrowed.insert(d.key);
        std::set<std::string> expected;
        for (const std::string& key : all)
            if (key.rfind("profile::", 0) == 0)
                expected.insert(key);
        QVERIFY(narrowed == expected);

        // A name typed in a picker and confirmed: the node it names, in full or in part; none, said.
        panel->prefixEdit()->clear();
        panel->nodeBBox()->lineEdit()->setText(QStringLiteral("WEB02"));
        emit panel->nodeBBox()->lineEdit()->editingFinished();
        QCOMPARE(panel->nodeBBox()->currentText(), QStringLiteral("web02.example.com"));
        QTRY_VERIFY_WITH_TIMEOUT(diffShownFor("web01.example.com", "web02.example.com", ""), WindowFixture::timeoutMs);
        panel->nodeBBox()->lineEdit()->setText(QStringLiteral("nosuch"));
        emit panel->nodeBBox()->lineEdit()->editingFinished();
        QCOMPARE(panel->summaryText().isEmpty(), false);
        QCOMPARE(model->report(), nullptr); // no table that answers the previous question
        QVERIFY(!panel->findChild<QLabel*>(QStringLiteral("diffSummary"))->text().isEmpty());
        QCOMPARE(panel->findChild<QLabel*>(QStringLiteral("diffSummary"))->text(),
                 QStringLiteral("No node of the library is named nosuch."));
        panel->nodeBBox()->lineEdit()->setText(QStringLiteral("example.com")); // every node: ambiguous
        emit panel->nodeBBox()->lineEdit()->editingFinished();
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("diffSummary"))
                    ->text()
                    .startsWith(QStringLiteral("Several nodes match")));
        panel->compare(QStringLiteral("web01.example.com"), QStringLiteral("db01.example.com"));
        panel->prefixEdit()->setText(QStringLiteral("profile::"));
        QTRY_VERIFY_WITH_TIMEOUT(diffShownFor("web01.example.com", "db01.example.com", "profile::"),
                                 WindowFixture::timeoutMs);

        // Exports.
        QTemporaryDir out;
        QString error;
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("diff.json")), &error), qPrintable(error));
        const hiera::Value json = readData(out.filePath(QStringLiteral("diff.json")), hiera::DataFormat::Json);
        QCOMPARE(json.asHash().find("differences")->asArray().size(), narrowed.size());
        QCOMPARE(json.asHash().find("a")->asString(), std::string("web01.example.com"));
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("diff.csv")), &error), qPrintable(error));
        QFile csv(out.filePath(QStringLiteral("diff.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().trimmed().count('\n'), static_cast<qsizetype>(narrowed.size())); // header + one per key
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("diff.md")), &error), qPrintable(error));
        QVERIFY(QFileInfo(out.filePath(QStringLiteral("diff.md"))).size() > 0);

        // The current facts (web01's file) against web01 of the library: no difference; an edit of the
        // current facts makes one, without saving.
        panel->prefixEdit()->clear();
        emit UiTest::part<NodesPanel>(m.window)->compareRequested(NodeDiffPanel::currentFactsName(),
                                                                  QStringLiteral("web01.example.com"));
        // The current facts' side is named with the node they are for, in the report and its exports.
        const QString current = NodeDiffPanel::currentFactsName() + QStringLiteral(" (web01.example.com)");
        QTRY_VERIFY_WITH_TIMEOUT(diffShownFor(current, "web01.example.com", ""), WindowFixture::timeoutMs);
        QVERIFY2(panel->exportTo(out.filePath(QStringLiteral("current.json")), &error), qPrintable(error));
        QCOMPARE(readData(out.filePath(QStringLiteral("current.json")), hiera::DataFormat::Json)
                     .asHash()
                     .find("a")
                     ->asString(),
                 ValueConvert::toStd(current));
        QCOMPARE(model->rowCount(), 0);
        QVERIFY(model->report()->diff.keysCompared > 10);
        const QModelIndex role =
            UiTest::part<FactsDocument>(m.window)->model()->indexForKeyPath(QStringLiteral("facts.role"));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setData(
            role.siblingAtColumn(FactTreeModel::ValueColumn), QStringLiteral("db")));
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 0 && !UiTest::part<NodeReportRunner>(m.window)->isComparing(),
                                 WindowFixture::timeoutMs);
        checkDiff();
    }

private:
    bool diffShownFor(const QString& a, const char* b, const char* prefix) const
    {
        const NodeDiffReportPtr r = UiTest::part<NodeDiffPanel>(m.window)->model()->report();
        return r && r->nameA == a && r->nameB == QLatin1String(b) && r->prefix == prefix
            && !UiTest::part<NodeReportRunner>(m.window)->isComparing();
    }

    std::shared_ptr<const hiera::Scope> scopeOf(const QString& name) const
    {
        if (name.startsWith(NodeDiffPanel::currentFactsName()))
            return std::make_shared<hiera::NodeScope>(
                hiera::NodeScope::ofTree(UiTest::part<FactsDocument>(m.window)->scope(),
                                         UiTest::part<LookupRunner>(m.window)->environmentName().toStdString()));
        return UiTest::part<FleetRunner>(m.window)->library()->find(ValueConvert::toStd(name))->scope;
    }

    // Every key of either node's inventory: listed as a difference exactly when the engine's answers
    // differ, with each side's answer as the engine gives it.
    void checkDiff()
    {
        const NodeDiffReportPtr r = UiTest::part<NodeDiffPanel>(m.window)->model()->report();
        const hiera::Engine& engine = *UiTest::part<LookupRunner>(m.window)->engine();
        const auto a = scopeOf(r->nameA);
        const auto b = scopeOf(r->nameB);
        std::set<std::string> keys;
        for (const auto* scope : {a.get(), b.get()})
            for (const std::string& k : engine.keyInventory(*scope, 0))
                if (k.rfind(r->prefix, 0) == 0)
                    keys.insert(k);
        std::map<std::string, const hiera::KeyDifference*> listed;
        for (const hiera::KeyDifference& d : r->diff.keys)
            listed[d.key] = &d;
        for (const std::string& key : keys) {
            const std::string x = answer(engine, *a, key);
            const std::string y = answer(engine, *b, key);
            const auto it = listed.find(key);
            if (x == y) {
                QVERIFY2(it == listed.end(), key.c_str());
                continue;
            }
            QVERIFY2(it != listed.end(), key.c_str());
            QCOMPARE(sideText(it->second->a), x);
            QCOMPARE(sideText(it->second->b), y);
            QVERIFY(!it->second->a.found() || !it->second->a.files.empty());
        }
        QCOMPARE(listed.size() <= keys.size(), true);
    }

    // Each row of the All keys panel is the engine's answer for that key on the current facts.
    void checkAllKeys()
    {
        const AllKeysModel* model = UiTest::part<AllKeysPanel>(m.window)->model();
        const AllKeysReportPtr r = model->report();
        QVERIFY(r);
        const hiera::Engine& engine = *UiTest::part<LookupRunner>(m.window)->engine();
        const hiera::NodeScope scope =
            hiera::NodeScope::ofTree(UiTest::part<FactsDocument>(m.window)->scope(),
                                     UiTest::part<LookupRunner>(m.window)->environmentName().toStdString());
        // The root keys (depth 0: no sub-paths into hashes and arrays).
        QCOMPARE(static_cast<std::size_t>(model->rowCount()), engine.keyInventory(scope, 0).size());
        for (const hiera::ResolvedKey& k : r->data.keys) {
            const hiera::LookupResult one = engine.lookup(scope, k.key);
            QCOMPARE(k.status, one.status);
            if (one.found()) {
                QCOMPARE(hiera::toJson(k.value), hiera::toJson(one.value));
                QVERIFY2(!k.location.file.empty(), k.key.c_str());
                QVERIFY2(!k.level.empty(), k.key.c_str());
            }
        }
    }

    WindowFixture m;
};

QTEST_MAIN(TestNodeReports)
#include "tst_nodereports.moc"
