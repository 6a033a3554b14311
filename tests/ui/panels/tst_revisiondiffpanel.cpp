// The Revision diff panel (panels/revisiondiffpanel.h): the demo copy committed twice in git, the
// pickers list its HEAD, branch and commits; Compare shows the node library's changed answers between
// two commits, each row as the engine's diff has it (hiera::diffRevisions is held to every key of every
// node in tests/engine/tst_revisiondiff.cpp); the key prefix narrows them; the working tree is the
// default newer side, uncommitted edits included; an unknown revision is one line in the summary; the
// exports are hiera-lookup --revision-diff's documents.
// The repository is made with the git command (the test's tool; the explorer reads it with libgit2).

#include "jobs/revisiondiffrunner.h"
#include "models/revisiondiffmodel.h"
#include "panels/revisionanswerdialog.h"
#include "panels/revisiondiffpanel.h"
#include "support/gitcommand.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <tuple>
#include <vector>

using namespace hiera::ui;

class TestRevisionDiffPanel : public QObject
{
    Q_OBJECT

    WindowFixture m;
    bool git(const QStringList& args) { return GitCommand(m.demoPath(QString()))(args); }
    bool replaceIn(const QString& relative, const QByteArray& from, const QByteArray& to)
    {
        QFile f(m.demoPath(relative));
        if (!f.open(QIODevice::ReadOnly))
            return false;
        QByteArray text = f.readAll();
        f.close();
        if (!text.contains(from))
            return false;
        text.replace(from, to);
        return UiTest::writeFile(m.demoPath(relative), text);
    }
    RevisionDiffPanel* openPanel()
    {
        if (!m.openDemoCopy(QStringLiteral("classes")))
            return nullptr;
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(m.demoPath(QStringLiteral("facts")));
        if (!loaded.wait(WindowFixture::timeoutMs))
            return nullptr;
        auto* panel = UiTest::part<RevisionDiffPanel>(m.window);
        m.window->raisePanel(panel);
        return QTest::qWaitFor([&] { return panel->fromBox()->count() > 2; }, WindowFixture::timeoutMs) ? panel
                                                                                                        : nullptr;
    }
    bool compareAndWait(RevisionDiffPanel* panel, const QString& from, const QString& to)
    {
        QSignalSpy shown(panel, &RevisionDiffPanel::diffShown);
        panel->compare(from, to);
        return shown.wait(30000);
    }
    static int rowOf(const RevisionDiffModel* model, const QString& key)
    {
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->index(row, RevisionDiffModel::KeyColumn).data().toString() == key)
                return row;
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (GitCommand::program().isEmpty())
            QSKIP("git is not installed (scripts/dev.sh deps installs it)");
        QVERIFY(m.setUpOnce("tst_revisiondiffpanel"));
        QVERIFY(git({QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main")}));
        QVERIFY(git({QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("demo")}));
        // The second commit: a class added for every node.
        QVERIFY(replaceIn(QStringLiteral("data/common.yaml"), "  - profile::users\n",
                          "  - profile::users\n  - profile::motd\n"));
        QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-am"), QStringLiteral("motd")}));
    }
    void init() { m.createWindow(); }
    void cleanup()
    {
        QTRY_VERIFY(!UiTest::part<RevisionDiffRunner>(m.window)->isRunning());
        QTRY_VERIFY(!UiTest::part<FleetRunner>(m.window)->isBusy());
        m.destroyWindow();
    }

    void listsTheRevisions()
    {
        RevisionDiffPanel* panel = openPanel();
        QVERIFY(panel);
        QStringList from;
        for (int i = 0; i < panel->fromBox()->count(); ++i)
            from << panel->fromBox()->itemText(i);
        QVERIFY2(from.first().startsWith(QStringLiteral("HEAD (current commit) motd")), qPrintable(from.join('\n')));
        QVERIFY2(from.filter(QStringLiteral("main (branch) motd")).size() == 1, qPrintable(from.join('\n')));
        QVERIFY2(from.filter(QStringLiteral(" demo")).size() == 1, qPrintable(from.join('\n'))); // the first commit
        QVERIFY(panel->toBox()->itemText(0).startsWith(QStringLiteral("Working tree")));
        QCOMPARE(panel->toBox()->currentIndex(), 0);
    }

    void twoCommits()
    {
        RevisionDiffPanel* panel = openPanel();
        QVERIFY(panel);
        QVERIFY(compareAndWait(panel, QStringLiteral("HEAD~1"), QStringLiteral("HEAD")));
        const RevisionDiffModel* model = panel->model();
        QVERIFY(model->report());
        const hiera::RevisionDiff& diff = model->report()->diff;
        QCOMPARE(diff.nodes, std::size_t(4));
        // One row per change of the report, and `classes` gained the class on every node.
        QCOMPARE(model->rowCount(), static_cast<int>(diff.changes.size()));
        const int row = rowOf(model, QStringLiteral("classes"));
        QVERIFY2(row >= 0, qPrintable(panel->summaryText()));
        QVERIFY(model->index(row, RevisionDiffModel::AfterColumn)
                    .data()
                    .toString()
                    .contains(QLatin1String("profile::motd")));
        QVERIFY(!model->index(row, RevisionDiffModel::BeforeColumn)
                     .data()
                     .toString()
                     .contains(QLatin1String("profile::motd")));
        // What changed, in a few words: the element gained.
        QCOMPARE(model->index(row, RevisionDiffModel::ChangeColumn).data().toString(),
                 QStringLiteral("+ \"profile::motd\""));
        int nodes = 0;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, RevisionDiffModel::KeyColumn).data().toString() == QLatin1String("classes"))
                nodes += model->index(r, RevisionDiffModel::NodesColumn)
                             .data(RevisionDiffModel::NodesRole)
                             .toStringList()
                             .size();
        QCOMPARE(nodes, 4);
        QVERIFY2(panel->summaryText().contains(QLatin1String("data/common.yaml")) == false
                     && panel->summaryText().contains(QLatin1String("1 file of the hierarchy differs")),
                 qPrintable(panel->summaryText()));

        // The prefix narrows the rows; cleared, they come back.
        panel->prefixEdit()->setText(QStringLiteral("profile::"));
        QCOMPARE(rowOf(model, QStringLiteral("classes")), -1);
        panel->prefixEdit()->clear();
        QCOMPARE(model->rowCount(), static_cast<int>(diff.changes.size()));

        // The exports are the command line's documents.
        QTemporaryDir out;
        QString error;
        const QString md = out.filePath(QStringLiteral("diff.md"));
        QVERIFY2(panel->exportTo(md, &error), qPrintable(error));
        const QByteArray markdown = UiTest::readFile(md);
        QVERIFY2(markdown.startsWith("**Hiera revision diff**: ") && markdown.contains("| classes |"),
                 markdown.constData());
        const QString json = out.filePath(QStringLiteral("diff.json"));
        QVERIFY2(panel->exportTo(json, &error), qPrintable(error));
        const hiera::Value doc =
            hiera::parseData(UiTest::readFile(json).toStdString(), "diff.json", hiera::DataFormat::Json);
        QCOMPARE(doc.asHash().find("nodes")->asInteger(), std::int64_t(4));
        QCOMPARE(doc.asHash().find("changed_files")->asArray().at(0).asString(), std::string("data/common.yaml"));
    }

    // A row opens its node's answer explained on each revision, the node switchable among the row's.
    void aRowOpensTheAnswerOnBothSides()
    {
        RevisionDiffPanel* panel = openPanel();
        QVERIFY(panel);
        QVERIFY(compareAndWait(panel, QStringLiteral("HEAD~1"), QStringLiteral("HEAD")));
        const int row = rowOf(panel->model(), QStringLiteral("classes"));
        QVERIFY(row >= 0);
        const QModelIndex index = panel->model()->index(row, RevisionDiffModel::KeyColumn);
        const QStringList nodes = index.data(RevisionDiffModel::NodesRole).toStringList();
        QVERIFY(nodes.size() > 1);
        RevisionAnswerDialog* dialog = panel->explainRow(index);
        QVERIFY(dialog);
        QSignalSpy shown(dialog, &RevisionAnswerDialog::answerShown);
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        QCOMPARE(dialog->nodeBox()->count(), nodes.size());
        const auto explained = [&](const QString& node) {
            const QString before = dialog->beforeView()->toPlainText();
            const QString after = dialog->afterView()->toPlainText();
            // The explanation reports of the lookup: the key, the node's facts file, the revision.
            QVERIFY2(before.contains(QLatin1String("Hiera lookup of classes")) && before.contains(node),
                     qPrintable(before));
            QVERIFY2(before.contains(QLatin1String("revision HEAD~1")), qPrintable(before));
            QVERIFY2(after.contains(QLatin1String("revision HEAD")), qPrintable(after));
            QVERIFY2(!before.contains(QLatin1String("profile::motd")), qPrintable(before));
            QVERIFY2(after.contains(QLatin1String("profile::motd")), qPrintable(after));
        };
        explained(nodes.first());
        dialog->nodeBox()->setCurrentIndex(1);
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        explained(nodes.at(1));
        dialog->close();
    }

    void nodesFilterNarrowsTheRowsAndTheExports()
    {
        RevisionDiffPanel* panel = openPanel();
        QVERIFY(panel);
        QVERIFY(compareAndWait(panel, QStringLiteral("HEAD~1"), QStringLiteral("HEAD")));
        RevisionDiffModel* model = panel->model();
        const int rows = model->rowCount();
        const int row = rowOf(model, QStringLiteral("classes"));
        QVERIFY(row >= 0);
        QVERIFY(
            model->index(row, RevisionDiffModel::NodesColumn).data(RevisionDiffModel::NodesRole).toStringList().size()
            > 1);

        // The Nodes panel's filter: only db01's changes, and db01 alone on each row.
        UiTest::part<NodesPanel>(m.window)->filterEdit()->setText(QStringLiteral("db01"));
        QVERIFY(model->narrowedToNodes());
        QVERIFY(model->rowCount() > 0);
        for (int r = 0; r < model->rowCount(); ++r)
            QCOMPARE(model->index(r, RevisionDiffModel::NodesColumn).data(RevisionDiffModel::NodesRole).toStringList(),
                     QStringList{QStringLiteral("db01.example.com")});
        QVERIFY2(panel->summaryText().contains(QLatin1String("narrowed by the Nodes filter db01")),
                 qPrintable(panel->summaryText()));

        // The exports write what is shown, and say how it was narrowed.
        QTemporaryDir out;
        QString error;
        const QString json = out.filePath(QStringLiteral("diff.json"));
        QVERIFY2(panel->exportTo(json, &error), qPrintable(error));
        const hiera::Value doc =
            hiera::parseData(UiTest::readFile(json).toStdString(), "diff.json", hiera::DataFormat::Json);
        QCOMPARE(doc.asHash().find("node_filter")->asString(), std::string("db01"));
        for (const hiera::Value& change : doc.asHash().find("changes")->asArray())
            QCOMPARE(change.asHash().find("nodes")->asArray(), hiera::Array{hiera::Value("db01.example.com")});
        const QString html = out.filePath(QStringLiteral("diff.html"));
        QVERIFY2(panel->exportTo(html, &error), qPrintable(error));
        const QByteArray page = UiTest::readFile(html);
        QVERIFY2(page.startsWith("<!DOCTYPE html>") && page.contains("<td>db01.example.com</td>")
                     && !page.contains("web01.example.com"),
                 page.constData());

        // Cleared, every node's changes come back.
        UiTest::part<NodesPanel>(m.window)->filterEdit()->clear();
        QVERIFY(!model->narrowedToNodes());
        QCOMPARE(model->rowCount(), rows);
    }

    void workingTreeByDefault()
    {
        RevisionDiffPanel* panel = openPanel();
        QVERIFY(panel);
        QVERIFY(replaceIn(QStringLiteral("data/common.yaml"), "  - profile::motd\n",
                          "  - profile::motd\n  - profile::cron\n"));
        panel->fromBox()->setCurrentIndex(0); // HEAD
        QCOMPARE(panel->toBox()->currentIndex(), 0); // the working tree
        QSignalSpy shown(panel, &RevisionDiffPanel::diffShown);
        QTest::mouseClick(panel->compareButton(), Qt::LeftButton);
        QVERIFY(shown.wait(30000));
        const RevisionDiffModel* model = panel->model();
        const int row = rowOf(model, QStringLiteral("classes"));
        QVERIFY2(row >= 0, qPrintable(panel->summaryText()));
        QVERIFY(model->index(row, RevisionDiffModel::AfterColumn)
                    .data()
                    .toString()
                    .contains(QLatin1String("profile::cron")));
        QCOMPARE(model->report()->toName, std::string("working tree"));
        QVERIFY(git({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("--"), QStringLiteral(".")}));
    }

    // The Change column on each kind of change (a model of its own, no window).
    void changeColumnSays()
    {
        using Status = hiera::LookupResult::Status;
        const auto found = [](const char* json) {
            hiera::KeyDifference::Side s;
            s.status = Status::Found;
            s.value = hiera::parseData(json, "v.json", hiera::DataFormat::Json);
            return s;
        };
        const auto status = [](Status st) {
            hiera::KeyDifference::Side s;
            s.status = st;
            s.error = st == Status::Error ? "x.yaml:1:1: broken" : "";
            return s;
        };
        const std::vector<std::tuple<hiera::KeyDifference::Side, hiera::KeyDifference::Side, QString>> cases = {
            {found(R"(["a", "b", "c"])"), found(R"(["a", "c", "d"])"), QStringLiteral("+ \"d\", − \"b\"")},
            {found(R"(["a", "b"])"), found(R"(["b", "a"])"), QStringLiteral("reordered")},
            {found(R"(["a", "a"])"), found(R"(["a"])"), QStringLiteral("2 → 1 elements")},
            {found(R"([1, 2, 3, 4, 5])"), found("[]"), QStringLiteral("− 1, − 2, − 3, − 2 more")},
            {found(R"({"k": 1, "gone": 2, "same": 3})"), found(R"({"k": 2, "new": 1, "same": 3})"),
             QStringLiteral("~ k, + new, − gone")},
            {found("1"), found("2"), QStringLiteral("1 → 2")},
            {status(Status::NotFound), found("1"), QStringLiteral("added")},
            {found("1"), status(Status::NotFound), QStringLiteral("removed")},
            {found("1"), status(Status::Error), QStringLiteral("now fails")},
            {status(Status::Error), found("1"), QStringLiteral("no longer fails")},
        };
        auto report = std::make_shared<RevisionDiffReport>();
        for (const auto& [before, after, expected] : cases) {
            hiera::RevisionChange c;
            c.key = "k" + std::to_string(report->diff.changes.size());
            c.before = before;
            c.after = after;
            c.nodes = {"n1"};
            report->diff.changes.push_back(std::move(c));
        }
        RevisionDiffModel model;
        model.setReport(report, false);
        QCOMPARE(model.rowCount(), static_cast<int>(cases.size()));
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.index(row, RevisionDiffModel::ChangeColumn).data().toString(),
                     std::get<2>(cases[static_cast<std::size_t>(row)]));
    }

    void anUnknownRevisionIsOneLine()
    {
        RevisionDiffPanel* panel = openPanel();
        QVERIFY(panel);
        QVERIFY(compareAndWait(panel, QStringLiteral("no-such-branch"), QString()));
        QVERIFY2(panel->summaryText().contains(QLatin1String("unknown revision"))
                     && !panel->summaryText().contains(QLatin1Char('\n')),
                 qPrintable(panel->summaryText()));
        QVERIFY(panel->compareButton()->isEnabled());
    }
};

QTEST_MAIN(TestRevisionDiffPanel)
#include "tst_revisiondiffpanel.moc"
