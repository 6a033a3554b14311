// The explorer on a hostile repository (tests/ui/hostilerepofixture.h; docs/bad-input.md, "Hostile shapes of the
// node library, the layers and eyaml values"). Opening it, looking up keys that meet every broken shape, reading its
// node library and running a key across it: the window answers, names each problem where the user looks (the
// hierarchy's banner, the answer, the Nodes panel's banner), the event loop keeps turning, and nothing under the
// repository or the library is written, added or removed. How long the loop may pause is a speed goal: bench-explorer
// --hostile prints it.

#include "jobs/fleetrunner.h"
#include "models/fleetmodel.h"
#include "models/nodelistmodel.h"
#include "models/overridesmodel.h"
#include "models/valueconvert.h"
#include "panels/fleetpanel.h"
#include "panels/hierarchypanel.h"
#include "panels/nodespanel.h"
#include "panels/overridespanel.h"
#include "ui/hostilerepofixture.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "widgets/messagebanner.h"
#include "widgets/sourceviewer.h"

#include <hiera/valueformat.h>

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <functional>

using namespace hiera::ui;

class TestHostileRepository : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m.setUpOnce("tst_hostilerepository"));
        QVERIFY(UiTest::writeHostileRepository(m.tmp.filePath(QStringLiteral("hostile")), m_hostile));
        m_before = UiTest::treeState(m.tmp.filePath(QStringLiteral("hostile")));
        QVERIFY(m_before.size() > 3000);
    }
    void init() { m.createWindow(); }
    void cleanup()
    {
        QTRY_VERIFY(!UiTest::part<FleetRunner>(m.window)->isBusy());
        m.destroyWindow();
        // Nothing written, added or removed, whatever the window did.
        QCOMPARE(UiTest::treeState(m.tmp.filePath(QStringLiteral("hostile"))), m_before);
    }

    void repositoryOpensAndNamesItsProblems()
    {
        UiTest::StallMeter stalls(1);
        QSignalSpy loaded(m.window.get(), &MainWindow::engineLoadFinished);
        QVERIFY(m.window->openHierarchy(m_hostile.repo));
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        QVERIFY(loaded.first().at(0).toBool());
        // Discovery's warnings, in the hierarchy's banner.
        MessageBanner* banner = UiTest::part<HierarchyPanel>(m.window)->banner();
        QTRY_VERIFY(banner->isVisible());
        for (const char* expected :
             {"'..'", "'/'", "'loop'", "outside the environment", "module 'escape'", "outside the module"})
            QVERIFY2(banner->text().contains(QLatin1String(expected)), qPrintable(expected + (": " + banner->text())));
        // Keys that meet the broken file, the FIFO and the link loop: the answer names each, one line.
        for (const QString& key : {QStringLiteral("common::name"), QStringLiteral("list.99999999999999999999999999999"),
                                   QStringLiteral("twice"), QStringLiteral("huge"), QStringLiteral("mixed"),
                                   QStringLiteral("m999::k"), QStringLiteral("escape::k")}) {
            m.window->setKey(key);
            QVERIFY2(m.waitForAnswer(key), qPrintable(key));
        }
        // The 3 MB string of `huge` is shown capped in the overrides panel's cells (sizing a column to
        // all of it froze the window for seconds); the answer keeps all of it.
        m.window->setKey(QStringLiteral("huge"));
        QVERIFY(m.waitForAnswer(QStringLiteral("huge")));
        QVERIFY(UiTest::part<AnswerPanel>(m.window)->outcome()->result.value.asString().size() > (3u << 20));
        QTRY_VERIFY(UiTest::part<OverridesPanel>(m.window)->model()->rowCount() > 0);
        qsizetype longest = 0;
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            const QAbstractItemModel* model = UiTest::part<OverridesPanel>(m.window)->model();
            for (int r = 0; r < model->rowCount(parent); ++r) {
                for (int c = 0; c < model->columnCount(parent); ++c)
                    longest = std::max(longest, model->index(r, c, parent).data().toString().size());
                walk(model->index(r, 0, parent));
            }
        };
        walk({});
        QVERIFY2(longest > 1000 && longest <= ValueConvert::maxCellCharacters + 40,
                 qPrintable(QString::number(longest)));
        // A key no level has reaches the broken level last: its error names the file.
        m.window->setKey(QStringLiteral("nosuch"));
        QVERIFY(m.waitForAnswer(QStringLiteral("nosuch")));
        const auto outcome = UiTest::part<AnswerPanel>(m.window)->outcome();
        QVERIFY(outcome);
        std::string shown = outcome->result.error ? outcome->result.error->what() : std::string();
        for (const auto& w : outcome->result.warnings)
            shown += "\n" + w;
        QVERIFY2(shown.find("broken.yaml") != std::string::npos, shown.c_str());
        qInfo("hostile repository: opened and 8 keys answered in %lld ms, %d event-loop ticks, worst gap %lld ms",
              stalls.elapsed(), stalls.ticks(), stalls.worstGap());
        QVERIFY(stalls.ticks() >= 3);
    }

    void nodeLibraryNamesWhatItSkips()
    {
        QVERIFY(m.window->openHierarchy(m_hostile.repo));
        UiTest::StallMeter stalls(1);
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        m.window->raisePanel(UiTest::part<NodesPanel>(m.window));
        UiTest::part<NodesPanel>(m.window)->openLibrary(m_hostile.nodes);
        QVERIFY(loaded.wait(WindowFixture::timeoutMs));
        QTRY_COMPARE(UiTest::part<NodesPanel>(m.window)->model()->rowCount(), m_hostile.goodNodes);
        MessageBanner* banner = UiTest::part<NodesPanel>(m.window)->banner();
        QTRY_VERIFY(!banner->text().isEmpty());
        QCOMPARE(banner->kind(), MessageBanner::Kind::Warning);
        for (const char* expected :
             {"fifo.json", "loop.yaml", "zero.yaml", "broken.yaml", "evil.json", "control.json", "'pdb1'", "certname"})
            QVERIFY2(banner->text().contains(QLatin1String(expected)), qPrintable(expected + (": " + banner->text())));
        // No row a name could forge: every node name is one printable line without a '/'.
        for (int row = 0; row < UiTest::part<NodesPanel>(m.window)->model()->rowCount(); ++row) {
            const QString name = UiTest::part<NodesPanel>(m.window)->model()->index(row, 0).data().toString();
            QVERIFY2(!name.contains(QLatin1Char('/')) && !name.contains(QLatin1Char('\n'))
                         && !name.contains(QChar(0x1b)),
                     qPrintable(name));
        }
        // One key across the library.
        m.window->raisePanel(UiTest::part<FleetPanel>(m.window));
        m.window->setKey(QStringLiteral("common::name"));
        QTRY_VERIFY_WITH_TIMEOUT(!UiTest::part<FleetRunner>(m.window)->isBusy()
                                     && UiTest::part<FleetPanel>(m.window)->model()->result()
                                     && UiTest::part<FleetPanel>(m.window)->model()->result()->key == "common::name"
                                     && UiTest::part<FleetPanel>(m.window)->model()->result()->nodes.size()
                                         == std::size_t(m_hostile.goodNodes),
                                 WindowFixture::timeoutMs * 4);
        qInfo("hostile node library: %d nodes read and a key run across them in %lld ms, %d event-loop ticks, worst "
              "gap %lld ms",
              m_hostile.goodNodes, stalls.elapsed(), stalls.ticks(), stalls.worstGap());
        QVERIFY(stalls.ticks() >= 3);
    }

    // The source pane shown a FIFO, a link to /dev/zero, a link loop, a 3 MB line: it says what it will
    // not show instead of blocking, reading without end, or laying a 3 MB line out; the line numbers of
    // a file with a cut line stay right.
    void sourcePaneOnHostileFiles()
    {
        SourceViewer viewer;
        const QString data = m_hostile.repo + QStringLiteral("/data/");
        QVERIFY(!viewer.showLocation(data + QStringLiteral("fifo.yaml"), 1));
        QVERIFY2(viewer.editor()->toPlainText().contains(QLatin1String("not a regular file")),
                 qPrintable(viewer.editor()->toPlainText()));
        QVERIFY(!viewer.showLocation(m_hostile.nodes + QStringLiteral("/zero.yaml"), 1));
        QVERIFY(viewer.editor()->toPlainText().contains(QLatin1String("not a regular file")));
        QVERIFY(!viewer.showLocation(data + QStringLiteral("loop.yaml"), 1));
        QElapsedTimer clock;
        clock.start();
        QVERIFY(viewer.showLocation(data + QStringLiteral("secrets.eyaml"), 4, 1, QStringLiteral("twice")));
        qInfo("a 3 MB line shown in %lld ms", clock.elapsed());
        const QTextDocument* document = viewer.editor()->document();
        const QString hugeLine = document->findBlockByNumber(2).text();
        QVERIFY2(hugeLine.size() < 3000 && hugeLine.contains(QLatin1String("more characters not shown")),
                 qPrintable(hugeLine.right(80)));
        QVERIFY(document->findBlockByNumber(3).text().startsWith(QLatin1String("twice:")));
        QCOMPARE(viewer.editor()->textCursor().blockNumber(), 3);
    }

private:
    WindowFixture m;
    UiTest::HostileRepository m_hostile;
    QStringList m_before;
};

QTEST_MAIN(TestHostileRepository)
#include "tst_hostilerepository.moc"
