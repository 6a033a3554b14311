// The answer's details driven through the window: overridden values (every level's
// value for the key, greyed where overridden, and each leaf's chain of overridden values with
// file:line), the source pane following the answer and "Open in editor", messages, the
// summary and leaf origins of dotted keys.

#include "models/contributionmodel.h"
#include "models/modelroles.h"
#include "models/overridesmodel.h"
#include "models/valuetreemodel.h"
#include "panels/overridespanel.h"
#include "ui/windowfixture.h"
#include "widgets/externaleditor.h"

#include "ui/windowparts.h"
#include "widgets/messagebanner.h"
#include "widgets/sourceviewer.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QToolButton>

using namespace hiera::ui;

namespace {
// "where | value | file" for each row under `parent`, "(overridden)" appended when greyed.
QStringList rows(const QAbstractItemModel* model, const QModelIndex& parent)
{
    QStringList lines;
    for (int row = 0; row < model->rowCount(parent); ++row) {
        QStringList cells;
        for (int column = 0; column < OverridesModel::ColumnCount; ++column)
            cells << model->index(row, column, parent).data().toString();
        QString line = cells.join(QStringLiteral(" | "));
        if (model->index(row, 0, parent).data(OverridesModel::OverriddenRole).toBool())
            line += QStringLiteral(" (overridden)");
        lines << line;
    }
    return lines;
}
} // namespace

class TestAnswerDetails : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_answerdetails")); }
    void init() { m.createWindow(); }
    void cleanup() { m.destroyWindow(); }

    // Overridden values.
    void firstFoundShowsWhatEveryLevelHolds()
    {
        // The model over the chain keeps Qt's rules for item models (indexes, parents, resets).
        QAbstractItemModelTester tester(UiTest::part<OverridesPanel>(m.window)->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy shown(UiTest::part<OverridesPanel>(m.window), &OverridesPanel::overridesShown);
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty()
                                     && UiTest::part<OverridesPanel>(m.window)->model()->result()->key
                                         == "profile::web::workers",
                                 WindowFixture::timeoutMs);
        const OverridesModel* model = UiTest::part<OverridesPanel>(m.window)->model();
        const QStringList levels = rows(model, model->levelsRoot());
        QCOMPARE(levels,
                 QStringList({QStringLiteral("Per-role and environment | 16 | data/roles/web/production.yaml:4"),
                              QStringLiteral("Per-role and environment | 4 | data/roles/web.yaml:7 (overridden)")}));
        // The lower level's file:line leads to the source.
        const QModelIndex overridden = model->index(1, 0, model->levelsRoot());
        QVERIFY(overridden.data(HieraRoles::SourceFileRole).toString().endsWith(QLatin1String("data/roles/web.yaml")));
        QCOMPARE(overridden.data(HieraRoles::SourceLineRole).toInt(), 7);
        const QStringList leaves = rows(model, model->leavesRoot());
        QCOMPARE(leaves, QStringList{QStringLiteral("profile::web::workers | 16 | data/roles/web/production.yaml:4")});
        QCOMPARE(
            rows(model, model->index(0, 0, model->leavesRoot())),
            QStringList{QStringLiteral("overrode Per-role and environment | 4 | data/roles/web.yaml:7 (overridden)")});
    }

    void deepMergeLeavesShowWhatTheyOverrode()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::firewall::rules")));
        m.window->setMergeStrategy(QStringLiteral("deep"));
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<OverridesPanel>(m.window)->model()->result()
                                     && UiTest::part<OverridesPanel>(m.window)->model()->result()->leaves.size() > 3,
                                 WindowFixture::timeoutMs);
        const OverridesModel* model = UiTest::part<OverridesPanel>(m.window)->model();
        const QStringList leaves = rows(model, model->leavesRoot());
        const int ssh =
            leaves.indexOf(QStringLiteral("ssh.source | 192.0.2.10/32 | data/nodes/web01.example.com.yaml:8"));
        QVERIFY2(ssh >= 0, qPrintable(leaves.join(QLatin1Char('\n'))));
        QCOMPARE(
            rows(model, model->index(ssh, 0, model->leavesRoot())),
            QStringList{QStringLiteral("overrode Common defaults | 10.0.0.0/8 | data/common.yaml:76 (overridden)")});
        QVERIFY(leaves.contains(QStringLiteral("ssh.port | 22 | data/common.yaml:75")));
        // In a merge every level that gave a leaf contributed: none greyed but those that gave nothing.
        for (const QString& level : rows(model, model->levelsRoot()))
            QVERIFY2(!level.endsWith(QLatin1String("(overridden)")), qPrintable(level));
    }

    // A dotted key's summary counts the files that feed the dug value; a file that only holds the
    // root key is shown as such.
    void dottedKeyCountsOnlyFilesFeedingTheValue()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers"), QStringLiteral("facts/web02.example.com.json")));
        QVERIFY2(UiTest::part<AnswerPanel>(m.window)->summaryText().contains(
                     QStringLiteral("2 files contributed, 1 with profile::ntp but no servers")),
                 qPrintable(UiTest::part<AnswerPanel>(m.window)->summaryText()));
        QStringList outcomes;
        for (const ContributionModel::Row& row : UiTest::part<TracePanel>(m.window)->contributionModel()->rows())
            if (row.value)
                outcomes << QStringLiteral("%1 %2").arg(QFileInfo(row.path).fileName(),
                                                        ContributionModel::outcomeText(row.outcome));
        QCOMPARE(outcomes,
                 QStringList({QStringLiteral("Debian.yaml root key only"), QStringLiteral("dc2.yaml merged"),
                              QStringLiteral("common.yaml merged")}));

        // The root key itself: all three feed it.
        m.window->setKey(QStringLiteral("profile::ntp"));
        QVERIFY(m.waitForAnswer(QStringLiteral("profile::ntp")));
        QVERIFY2(UiTest::part<AnswerPanel>(m.window)->summaryText().contains(QStringLiteral("· 3 files contributed")),
                 qPrintable(UiTest::part<AnswerPanel>(m.window)->summaryText()));
        QVERIFY(!UiTest::part<AnswerPanel>(m.window)->summaryText().contains(QStringLiteral("but no")));
    }

    // A merged array's origin is where what it holds is written: web01's servers keep only dc1's
    // item (common's are knocked out), so the array points at dc1.yaml, not at common.yaml.
    void mergedContainerOriginFollowsItsItems()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::ntp.servers")));
        const QModelIndex servers =
            UiTest::part<AnswerPanel>(m.window)->valueModel()->index(0, ValueTreeModel::OriginColumn);
        QCOMPARE(UiTest::part<AnswerPanel>(m.window)->valueModel()->rowCount(servers.siblingAtColumn(0)), 1);
        QCOMPARE(servers.data().toString(), QStringLiteral("data/datacenters/dc1.yaml:16"));
        QVERIFY(
            servers.data(HieraRoles::SourceFileRole).toString().endsWith(QLatin1String("data/datacenters/dc1.yaml")));
        QCOMPARE(servers.data(HieraRoles::SourceLineRole).toInt(), 16);

        // web02 keeps common's two and adds dc2's: written in common (the array's own file), one more file.
        QVERIFY(m.openFactsAndWait(m.demoPath(QStringLiteral("facts/web02.example.com.json"))));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QModelIndex top = UiTest::part<AnswerPanel>(m.window)->valueModel()->index(0, 0);
                return top.isValid() && UiTest::part<AnswerPanel>(m.window)->valueModel()->rowCount(top) == 3
                    && !UiTest::part<LookupRunner>(m.window)->isBusy();
            },
            WindowFixture::timeoutMs));
        const QModelIndex merged =
            UiTest::part<AnswerPanel>(m.window)->valueModel()->index(0, ValueTreeModel::OriginColumn);
        QCOMPARE(merged.data().toString(), QStringLiteral("data/common.yaml:53 + 1 more file"));
        QCOMPARE(merged.data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Merged from:\n%1\n%2")
                     .arg(m.demoPath(QStringLiteral("data/common.yaml")),
                          m.demoPath(QStringLiteral("data/datacenters/dc2.yaml"))));
        // Each item still points at its own line.
        const QModelIndex third = UiTest::part<AnswerPanel>(m.window)->valueModel()->index(
            2, ValueTreeModel::OriginColumn, merged.siblingAtColumn(0));
        QCOMPARE(third.data().toString(), QStringLiteral("data/datacenters/dc2.yaml:11"));
    }

    // The source pane.
    void sourcePaneFollowsTheAnswer()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        SourceViewer* source = UiTest::part<SourceViewer>(m.window);
        QTRY_VERIFY(source->currentFile().endsWith(QLatin1String("roles/web/production.yaml")));
        QCOMPARE(source->currentLine(), 4);
        QVERIFY(source->openInEditorButton()->isEnabled());
        // A new key: its own file, not the previous key's.
        m.window->setKey(QStringLiteral("profile::firewall::default_policy"));
        QVERIFY(m.waitForAnswer(QStringLiteral("profile::firewall::default_policy")));
        QTRY_VERIFY2(source->currentFile().endsWith(QLatin1String("common.yaml")), qPrintable(source->currentFile()));
        // No answer: nothing shown as if it were this key's.
        m.window->setKey(QStringLiteral("no::such::key"));
        QVERIFY(m.waitForAnswer(QStringLiteral("no::such::key")));
        QTRY_VERIFY(source->currentFile().isEmpty());
        QVERIFY(!source->openInEditorButton()->isEnabled());
    }

    // docs/engine-semantics.md, "Round four": a data file that must be read for lookup_options and does not parse fails
    // the lookup even when the value comes from a level above it; the Value tab shows what the data holds without
    // options, greyed, with the error and why beside it.
    void brokenFileForLookupOptionsGreysTheValue()
    {
        QFile common(m.demoPath(QStringLiteral("data/common.yaml")));
        QVERIFY(common.open(QIODevice::ReadOnly));
        const QByteArray original = common.readAll();
        common.close();
        auto restore = qScopeGuard([&] {
            QFile back(m.demoPath(QStringLiteral("data/common.yaml")));
            if (back.open(QIODevice::WriteOnly | QIODevice::Truncate))
                back.write(original);
        });
        QVERIFY(common.open(QIODevice::WriteOnly | QIODevice::Append));
        common.write("\nbroken_on_purpose: [unclosed\n");
        common.close();

        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        AnswerPanel* panel = UiTest::part<AnswerPanel>(m.window);
        QCOMPARE(int(panel->outcome()->result.status), int(hiera::LookupResult::Status::Error));
        QCOMPARE(panel->banner()->kind(), MessageBanner::Kind::Error);
        QVERIFY2(panel->banner()->text().contains(QStringLiteral("data/common.yaml:")),
                 qPrintable(panel->banner()->text()));
        QVERIFY2(panel->banner()->text().contains(QStringLiteral("greyed value")), qPrintable(panel->banner()->text()));
        const ValueTreeModel* value = panel->valueModel();
        QVERIFY(value->isUnverified());
        QCOMPARE(value->index(0, ValueTreeModel::ValueColumn).data().toString(), QStringLiteral("16"));
        const QColor grey = QPalette().color(QPalette::Disabled, QPalette::Text);
        QCOMPARE(value->index(0, ValueTreeModel::ValueColumn).data(Qt::ForegroundRole).value<QBrush>().color(), grey);
        QCOMPARE(value->index(0, ValueTreeModel::KeyColumn).data(Qt::ForegroundRole).value<QBrush>().color(), grey);
    }

    // clang-format off
    void editorCommand_data()
    {
        QTest::addColumn<QString>("editor");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments");
        const QString f = QStringLiteral("/data/common.yaml");
        QTest::newRow("vim") << "vim" << 12 << "vim" << QStringList { QStringLiteral("+12"), f };
        QTest::newRow("path and options") << "/usr/bin/emacsclient -c" << 3 << "/usr/bin/emacsclient"
                                          << QStringList { QStringLiteral("-c"), QStringLiteral("+3"), f };
        QTest::newRow("quoted path") << "\"/opt/my editor/nano\"" << 7 << "/opt/my editor/nano"
                                     << QStringList { QStringLiteral("+7"), f };
        QTest::newRow("vs code") << "code --wait" << 5 << "code"
                                 << QStringList { QStringLiteral("--wait"), QStringLiteral("-g"), f + QStringLiteral(":5") };
        QTest::newRow("kate") << "kate" << 9 << "kate" << QStringList { QStringLiteral("--line"), QStringLiteral("9"), f };
        QTest::newRow("unknown editor") << "ed" << 9 << "ed" << QStringList { f };
        QTest::newRow("no line") << "vim" << 0 << "vim" << QStringList { f };
    }
    // clang-format on
    void editorCommand()
    {
        QFETCH(QString, editor);
        QFETCH(int, line);
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        const ExternalEditor::Command command =
            ExternalEditor::build(editor, QStringLiteral("/data/common.yaml"), line);
        QCOMPARE(command.program, program);
        QCOMPARE(command.arguments, arguments);
        QVERIFY(!ExternalEditor::build(QString(), QStringLiteral("/x"), 1).isValid());
    }

    void editorFromTheEnvironment()
    {
        qputenv("VISUAL", "gvim -f");
        qputenv("EDITOR", "nano");
        QCOMPARE(ExternalEditor::fromEnvironment(), QStringLiteral("gvim -f"));
        qunsetenv("VISUAL");
        QCOMPARE(ExternalEditor::fromEnvironment(), QStringLiteral("nano"));
        qunsetenv("EDITOR");
    }

private:
    WindowFixture m;
};

QTEST_MAIN(TestAnswerDetails)
#include "tst_answerdetails.moc"
