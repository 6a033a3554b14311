// The Impact panel (panels/impactpanel.h): a data file of the demo against its node library, asked
// from the Hierarchy panel's context menu, the Source pane's Impact button or typed; the rows are the
// engine's hiera::fileImpact (held to every key of every node in tests/engine/tst_fileimpact.cpp); a
// row opens its node and key in the window; a file no node reads and a missing one say so; the
// export is hiera-lookup --impact's document.

#include "document/datafilewatcher.h"
#include "jobs/impactrunner.h"
#include "models/fileimpactmodel.h"
#include "panels/impactpanel.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"

#include <hiera/nodes/fileimpact.h>
#include <hiera/yaml.h>

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>

using namespace hiera::ui;

class TestImpactPanel : public QObject
{
    Q_OBJECT

    WindowFixture m;

    ImpactPanel* openPanel()
    {
        if (!m.openDemoCopy(QStringLiteral("classes")))
            return nullptr;
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(m.demoPath(QStringLiteral("facts")));
        if (!loaded.wait(WindowFixture::timeoutMs))
            return nullptr;
        auto* panel = UiTest::part<ImpactPanel>(m.window);
        m.window->raisePanel(panel);
        return panel;
    }
    static int rowOf(const FileImpactModel* model, const QString& key, const QString& role)
    {
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->index(row, FileImpactModel::KeyColumn).data().toString() == key
                && model->index(row, FileImpactModel::RoleColumn).data().toString() == role)
                return row;
        return -1;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_impactpanel")); }
    void init() { m.createWindow(); }
    void cleanup()
    {
        QTRY_VERIFY(!UiTest::part<ImpactRunner>(m.window)->isRunning());
        m.destroyWindow();
    }

    void aRoleFileTypedFromTheRoot()
    {
        ImpactPanel* panel = openPanel();
        QVERIFY(panel);
        QSignalSpy shown(panel, &ImpactPanel::impactShown);
        panel->fileEdit()->setText(QStringLiteral("data/roles/web.yaml"));
        QTest::keyClick(panel->fileEdit(), Qt::Key_Return);
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        const FileImpactModel* model = panel->model();
        const hiera::FileImpact& impact = model->report()->impact;
        QCOMPARE(impact.nodesReading, (std::vector<std::string>{"web01.example.com", "web02.example.com"}));
        QCOMPARE(model->rowCount(), static_cast<int>(impact.keys.size()));
        const int docroot = rowOf(model, QStringLiteral("profile::web::docroot"), QStringLiteral("winner"));
        QVERIFY(docroot >= 0);
        QCOMPARE(model->index(docroot, FileImpactModel::NodesColumn).data(FileImpactModel::NodesRole).toStringList(),
                 (QStringList{QStringLiteral("web01.example.com"), QStringLiteral("web02.example.com")}));
        // web01's own file feeds the firewall rules' merge above the role file.
        QVERIFY(rowOf(model, QStringLiteral("profile::firewall::rules"), QStringLiteral("merged")) >= 0);
        QVERIFY2(panel->summaryText().startsWith(QLatin1String("data/roles/web.yaml: 2 of 4 nodes read it")),
                 qPrintable(panel->summaryText()));

        // The export is the command line's document.
        QTemporaryDir out;
        QString error;
        const QString json = out.filePath(QStringLiteral("impact.json"));
        QVERIFY2(panel->exportTo(json, &error), qPrintable(error));
        hiera::FileImpactExportOptions options;
        options.relativeTo = model->report()->root;
        QCOMPARE(UiTest::readFile(json).toStdString(), hiera::fileImpactJson(impact, options));

        // A row opens its first node and the key in the window.
        panel->view()->setCurrentIndex(model->index(docroot, 0));
        QTest::keyClick(panel->view(), Qt::Key_Return);
        QTRY_COMPARE(UiTest::part<LookupBar>(m.window)->key(), QStringLiteral("profile::web::docroot"));
    }

    // An edit saved to the file (by another editor) is followed: the impact runs again.
    void followsTheFileOnDisk()
    {
        ImpactPanel* panel = openPanel();
        QVERIFY(panel);
        // The watcher watches the current node's files (web01 reads the role file) before it changes.
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<DataFileSync>(m.window)->watcher()->candidateCount() > 0
                                     && !UiTest::part<DataFileSync>(m.window)->watcher()->isBusy()
                                     && UiTest::part<DataFileSync>(m.window)->watcher()->fileWatchCount() > 1,
                                 WindowFixture::timeoutMs);
        QSignalSpy shown(panel, &ImpactPanel::impactShown);
        const QString file = m.demoPath(QStringLiteral("data/roles/web.yaml"));
        panel->showImpactOf(file);
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        QCOMPARE(rowOf(panel->model(), QStringLiteral("profile::web::added"), QStringLiteral("winner")), -1);
        const QByteArray original = UiTest::readFile(file);
        QVERIFY(UiTest::writeFile(file, original + "profile::web::added: yes\n"));
        const bool followed = QTest::qWaitFor(
            [&] { return rowOf(panel->model(), QStringLiteral("profile::web::added"), QStringLiteral("winner")) >= 0; },
            WindowFixture::timeoutMs);
        QVERIFY(UiTest::writeFile(file, original)); // the demo copy is shared by later tests, even on failure
        QVERIFY(followed);
    }

    void askedFromTheSourcePane()
    {
        ImpactPanel* panel = openPanel();
        QVERIFY(panel);
        auto* source = UiTest::part<SourceViewer>(m.window);
        QVERIFY(source->showLocation(m.demoPath(QStringLiteral("data/common.yaml")), 1));
        QSignalSpy shown(panel, &ImpactPanel::impactShown);
        QVERIFY(source->impactButton()->isEnabled());
        source->impactButton()->click();
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        QCOMPARE(panel->model()->report()->impact.nodesReading.size(), std::size_t(4));
    }

    void aFileNoNodeReadsAndAMissingOne()
    {
        ImpactPanel* panel = openPanel();
        QVERIFY(panel);
        QSignalSpy shown(panel, &ImpactPanel::impactShown);
        QVERIFY(UiTest::writeFile(m.demoPath(QStringLiteral("data/roles/nobody.yaml")), "x: 1\n"));
        panel->showImpactOf(m.demoPath(QStringLiteral("data/roles/nobody.yaml")));
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        QVERIFY2(panel->summaryText().startsWith(
                     QLatin1String("data/roles/nobody.yaml: no node of the 4 in the library reads it (")),
                 qPrintable(panel->summaryText()));
        QCOMPARE(panel->model()->rowCount(), 0);
        panel->showImpactOf(QStringLiteral("data/roles/gone.yaml"));
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        QVERIFY2(panel->summaryText().startsWith(
                     QLatin1String("data/roles/gone.yaml: the file does not exist: no node reads it (")),
                 qPrintable(panel->summaryText()));
    }
};

QTEST_MAIN(TestImpactPanel)
#include "tst_impactpanel.moc"
