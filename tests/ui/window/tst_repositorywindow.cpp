// Drives the explorer window through a control repository: opened by its
// directory (File menu, drop, command line), its layers in the hierarchy, discovery warnings once, the
// environment chosen in the Repository menu, the skip mode of levels the engine cannot run (persisted),
// and eyaml: a key chosen per repository, decrypted values masked in every view until revealed, values
// without a key shown as encrypted, and no plaintext in the settings.

#include "jobs/lookuprunner.h"
#include "models/contributionmodel.h"
#include "models/explanationmodel.h"
#include "models/hierarchymodel.h"
#include "models/modelroles.h"
#include "models/secretmask.h"
#include "models/valuetreemodel.h"
#include "panels/hierarchypanel.h"
#include "support/testpaths.h"
#include "ui/controlrepofixture.h"
#include "ui/windowparts.h"
#include "widgets/messagebanner.h"
#include "window/mainwindow.h"
#include "window/repositorymenu.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QUrl>

using namespace hiera::ui;

namespace {
constexpr int timeoutMs = 15000;

// Every text of every row of a model, for "the plaintext is nowhere" checks.
QStringList allTexts(const QAbstractItemModel* model, const QModelIndex& parent = {})
{
    QStringList texts;
    for (int row = 0; row < model->rowCount(parent); ++row) {
        for (int column = 0; column < model->columnCount(parent); ++column) {
            const QModelIndex index = model->index(row, column, parent);
            texts << index.data().toString() << index.data(Qt::ToolTipRole).toString();
        }
        texts << allTexts(model, model->index(row, 0, parent));
    }
    return texts;
}

bool anyContains(const QStringList& texts, const QString& needle)
{
    return std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return t.contains(needle); });
}
} // namespace

class TestRepositoryWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("HieraExplorerTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_repositorywindow"));
        QSettings().clear();
        QVERIFY(m_repo.isValid() && m_tmp.isValid());
        QVERIFY(UiTest::writeControlRepository(m_repo));
        qputenv("HIERA_EXPLORER_AUTOSAVE_DIR", m_tmp.filePath(QStringLiteral("autosave")).toUtf8());
    }

    void init()
    {
        m_window = std::make_unique<MainWindow>();
        m_testers.clear();
        for (QAbstractItemModel* model : std::initializer_list<QAbstractItemModel*>{
                 UiTest::part<HierarchyPanel>(m_window)->model(), UiTest::part<AnswerPanel>(m_window)->valueModel(),
                 UiTest::part<AnswerPanel>(m_window)->rootValueModel(),
                 UiTest::part<TracePanel>(m_window)->contributionModel(),
                 UiTest::part<TracePanel>(m_window)->explanationModel(),
                 UiTest::part<TracePanel>(m_window)->explanationProxy()}) {
            m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::QtTest));
        }
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        QTRY_VERIFY(!UiTest::part<LookupRunner>(m_window)->isBusy());
        m_testers.clear();
        m_window.reset();
    }

    void cleanupTestCase()
    {
        // Paths and choices only: no decrypted value ever reaches the settings.
        QFile settings(QSettings().fileName());
        QVERIFY(settings.open(QIODevice::ReadOnly));
        const QByteArray text = settings.readAll();
        QVERIFY(!text.contains(UiTest::eyamlPlaintext()));
        QVERIFY(!text.contains(UiTest::eyamlEmbeddedPlaintext()));
    }

    void opensTheRepositoryByItsDirectory()
    {
        QSignalSpy loaded(m_window.get(), &MainWindow::engineLoadFinished);
        QVERIFY(m_window->openHierarchy(m_repo.path()));
        QVERIFY(loaded.wait(timeoutMs));
        QVERIFY(loaded.first().at(0).toBool());
        QCOMPARE(m_window->hieraYamlPath(), m_repo.filePath(QStringLiteral("hiera.yaml")));

        // The layers, in search order, the broken module in error.
        HierarchyModel* hierarchy = UiTest::part<HierarchyPanel>(m_window)->model();
        QTRY_VERIFY_WITH_TIMEOUT(hierarchy->rowCount() == 3, timeoutMs);
        QCOMPARE(hierarchy->index(0, 0).data().toString(), QStringLiteral("environment layer"));
        QCOMPARE(hierarchy->index(2, 0).data().toString(), QStringLiteral("module ntp layer"));
        QVERIFY(
            hierarchy->index(1, HierarchyModel::StatusColumn).data().toString().startsWith(QStringLiteral("failed")));
        // What discovery warned about (the Hiera 3 module left out), in the hierarchy's banner.
        MessageBanner* banner = UiTest::part<HierarchyPanel>(m_window)->banner();
        QCOMPARE(banner->kind(), MessageBanner::Kind::Warning);
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("old")));
        // ... once: closed, a reload of the same repository does not bring it back.
        banner->clearMessage();
        QSignalSpy reloaded(UiTest::part<LookupRunner>(m_window), &LookupRunner::engineLoaded);
        UiTest::part<LookupRunner>(m_window)->load(m_window->hieraYamlPath());
        QVERIFY(reloaded.wait(timeoutMs));
        QVERIFY(banner->text().isEmpty());

        // A module's key, and $environment's default.
        lookUp(QStringLiteral("ntp::servers"));
        QCOMPARE(
            UiTest::part<AnswerPanel>(m_window)->valueModel()->index(0, ValueTreeModel::ValueColumn).data().toString(),
            QStringLiteral("[2 items]"));
        lookUp(QStringLiteral("env_name"));
        QCOMPARE(valueText(), QStringLiteral("production data"));
    }

    void dropAndCommandLineOpenADirectory()
    {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_repo.path())});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy loaded(m_window.get(), &MainWindow::engineLoadFinished);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &drop);
        QVERIFY(loaded.wait(timeoutMs));
        QCOMPARE(m_window->hieraYamlPath(), m_repo.filePath(QStringLiteral("hiera.yaml")));
        QVERIFY(m_window->findChild<QAction*>(QStringLiteral("openFolderAction")));

        // `hiera-explorer DIR --key KEY`: the first answer comes from the repository's module layer (the
        // program with test hooks, which starts as hiera-explorer does, prints the scope once it is on screen).
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_tmp.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        process.start(testpaths::explorerWithTestHooksBin(),
                      {m_repo.path(), QStringLiteral("--key"), QStringLiteral("ntp::fallback"),
                       QStringLiteral("--test-print-scope")});
        QVERIFY(process.waitForStarted(timeoutMs));
        QByteArray output;
        const bool answered = QTest::qWaitFor(
            [&] {
                output += process.readAllStandardOutput();
                return output.contains("scope: ");
            },
            timeoutMs);
        QVERIFY2(answered, process.readAllStandardError().constData());
        process.kill();
        QVERIFY(process.waitForFinished(timeoutMs));
    }

    void environmentChosenInTheRepositoryMenu()
    {
        openRepository();
        lookUp(QStringLiteral("env_name"));
        QCOMPARE(valueText(), QStringLiteral("production data"));
        QSignalSpy loaded(UiTest::part<LookupRunner>(m_window), &LookupRunner::engineLoaded);
        UiTest::part<RepositoryMenu>(m_window)->setEnvironment(QStringLiteral("staging"), {});
        QVERIFY(loaded.wait(timeoutMs));
        QCOMPARE(UiTest::part<LookupRunner>(m_window)->environmentName(), QStringLiteral("staging"));
        QTRY_COMPARE_WITH_TIMEOUT(valueText(), QStringLiteral("staging data"), timeoutMs);
        // Remembered for this repository.
        QCOMPARE(RepositoryOptions::read(m_repo.path()).environment, QStringLiteral("staging"));
        UiTest::part<RepositoryMenu>(m_window)->setEnvironment({}, {});
        QCOMPARE(RepositoryOptions::read(m_repo.path()).environment, QStringLiteral("production"));
        QTRY_COMPARE_WITH_TIMEOUT(valueText(), QStringLiteral("production data"), timeoutMs);
    }

    void skipModeIsAToggleAndPersisted()
    {
        QAction* skip = UiTest::part<RepositoryMenu>(m_window)->skipUnsupportedAction();
        QVERIFY(skip->isCheckable());
        QVERIFY(skip->isChecked()); // on by default in the explorer
        QVERIFY(m_window->menuBar()->actions().contains(UiTest::part<RepositoryMenu>(m_window)->menu()->menuAction()));
        openRepository();
        lookUp(QStringLiteral("greeting"));
        QCOMPARE(valueText(), QStringLiteral("hello"));
        // The skip shows on the level, and the answer says it in its banner.
        QVERIFY(UiTest::part<AnswerPanel>(m_window)->banner()->text().contains(QStringLiteral("hiera_vault")));
        QCOMPARE(UiTest::part<AnswerPanel>(m_window)->banner()->kind(), MessageBanner::Kind::Warning);
        QVERIFY(vaultStatus().endsWith(QStringLiteral("(skipped)")));

        QSignalSpy loaded(UiTest::part<LookupRunner>(m_window), &LookupRunner::engineLoaded);
        skip->trigger();
        QVERIFY(loaded.wait(timeoutMs));
        QVERIFY(!UiTest::part<LookupRunner>(m_window)->engine()->options().skipUnsupportedLevels);
        QVERIFY(!QSettings().value(QStringLiteral("lookup/skipUnsupportedLevels")).toBool());
        QTRY_COMPARE_WITH_TIMEOUT(UiTest::part<AnswerPanel>(m_window)->banner()->kind(), MessageBanner::Kind::Error,
                                  timeoutMs);
        QVERIFY(UiTest::part<AnswerPanel>(m_window)->banner()->text().contains(QStringLiteral("hiera_vault")));
        QTRY_VERIFY_WITH_TIMEOUT(vaultStatus().startsWith(QStringLiteral("not run: "))
                                     && !vaultStatus().endsWith(QStringLiteral("(skipped)")),
                                 timeoutMs);

        // A new window starts the way the user left it; back to the default for the other tests.
        MainWindow other;
        QVERIFY(!UiTest::part<RepositoryMenu>(other)->skipUnsupportedAction()->isChecked());
        skip->trigger();
        QVERIFY(loaded.wait(timeoutMs));
        QVERIFY(QSettings().value(QStringLiteral("lookup/skipUnsupportedLevels")).toBool());
    }

    void secretsAreMaskedUntilRevealed()
    {
        openRepository();
        // Without a key: shown as encrypted, the ENC[...] as written in the tooltip.
        lookUp(QStringLiteral("string_form"));
        const QModelIndex encrypted =
            UiTest::part<AnswerPanel>(m_window)->valueModel()->index(0, ValueTreeModel::ValueColumn);
        QCOMPARE(encrypted.data().toString(), QStringLiteral("encrypted (no key)"));
        QVERIFY(encrypted.data(Qt::ToolTipRole).toString().contains(QStringLiteral("ENC[PKCS7,")));
        QVERIFY(!encrypted.data(Qt::DecorationRole).value<QIcon>().isNull());

        // A key chosen for this repository: remembered (its path), values decrypted but masked.
        QSignalSpy loaded(UiTest::part<LookupRunner>(m_window), &LookupRunner::engineLoaded);
        UiTest::part<RepositoryMenu>(m_window)->setPrivateKey(UiTest::eyamlTestKey());
        QVERIFY(loaded.wait(timeoutMs));
        QCOMPARE(RepositoryOptions::read(m_repo.path()).eyamlPrivateKey, UiTest::eyamlTestKey());
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<AnswerPanel>(m_window)->outcome()
                                     && UiTest::part<AnswerPanel>(m_window)->outcome()->secretsMasked,
                                 timeoutMs);
        QTRY_VERIFY(!UiTest::part<LookupRunner>(m_window)->isBusy());
        const QString plaintext = QString::fromUtf8(UiTest::eyamlPlaintext());
        const QModelIndex value =
            UiTest::part<AnswerPanel>(m_window)->valueModel()->index(0, ValueTreeModel::ValueColumn);
        QCOMPARE(value.data().toString(), SecretMask::maskText());
        QVERIFY(value.data(HieraRoles::SecretRole).toBool());
        QVERIFY(!value.data(Qt::DecorationRole).value<QIcon>().isNull()); // the lock
        QVERIFY(!shownAnywhere(plaintext));
        QVERIFY(UiTest::part<AnswerPanel>(m_window)->yaml().contains(SecretMask::maskText()));
        // The contribution row of the eyaml file says which file won, its value masked too.
        bool maskedRow = false;
        for (int row = 0; row < UiTest::part<TracePanel>(m_window)->contributionModel()->rowCount(); ++row) {
            const QModelIndex index =
                UiTest::part<TracePanel>(m_window)->contributionModel()->index(row, ContributionModel::ValueColumn);
            maskedRow = maskedRow
                || (index.data(HieraRoles::SecretRole).toBool()
                    && index.data().toString().contains(SecretMask::maskText()));
        }
        QVERIFY(maskedRow);

        // Reveal Secrets (off by default, not persisted): the plaintext everywhere; off again: masked.
        QAction* reveal = UiTest::part<RepositoryMenu>(m_window)->revealSecretsAction();
        QVERIFY(reveal->isCheckable() && !reveal->isChecked());
        reveal->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(
            UiTest::part<AnswerPanel>(m_window)->valueModel()->index(0, ValueTreeModel::ValueColumn).data().toString(),
            plaintext, timeoutMs);
        QVERIFY(UiTest::part<AnswerPanel>(m_window)->yaml().contains(plaintext));
        QVERIFY(explainText().contains(plaintext));
        reveal->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(
            UiTest::part<AnswerPanel>(m_window)->valueModel()->index(0, ValueTreeModel::ValueColumn).data().toString(),
            SecretMask::maskText(), timeoutMs);
        QVERIFY(!shownAnywhere(plaintext));
        QVERIFY(!QSettings().allKeys().join(QLatin1Char(' ')).contains(QStringLiteral("reveal"), Qt::CaseInsensitive));

        // A new window masks again, and finds the key remembered for the repository.
        UiTest::part<RepositoryMenu>(m_window)->setPrivateKey({});
        QVERIFY(loaded.wait(timeoutMs));
        QVERIFY(RepositoryOptions::read(m_repo.path()).eyamlPrivateKey.isEmpty());
        QVERIFY(UiTest::part<LookupRunner>(m_window)->engine()->options().eyamlPrivateKey.empty());
    }

    void demoKeyIsOptional()
    {
        // The bundled demo's shipped key is used when it is there (branch demo-repo adds it); a demo
        // without one, or any other repository, gets none.
        QCOMPARE(RepositoryMenu::demoPrivateKey(m_repo.filePath(QStringLiteral("hiera.yaml"))), QString());
        const QString demo = testpaths::demoDir() + QStringLiteral("/hiera.yaml");
        const QString demoKey = testpaths::demoDir() + QStringLiteral("/keys/private_key.pkcs7.pem");
        QCOMPARE(RepositoryMenu::demoPrivateKey(demo), QFileInfo::exists(demoKey) ? demoKey : QString());
        QCOMPARE(UiTest::part<RepositoryMenu>(m_window)->optionsFor(demo).eyamlPrivateKey,
                 QFileInfo::exists(demoKey) ? demoKey : QString());
    }

private:
    void openRepository()
    {
        QSignalSpy loaded(m_window.get(), &MainWindow::engineLoadFinished);
        QVERIFY(m_window->openHierarchy(m_repo.path()));
        QVERIFY(loaded.wait(timeoutMs));
    }

    void lookUp(const QString& key)
    {
        m_window->setKey(key);
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<AnswerPanel>(m_window)->outcome()
                                     && UiTest::part<AnswerPanel>(m_window)->outcome()->request.key == key.toStdString()
                                     && !UiTest::part<LookupRunner>(m_window)->isBusy(),
                                 timeoutMs);
    }

    QString valueText() const
    {
        return UiTest::part<AnswerPanel>(m_window)
            ->valueModel()
            ->index(0, ValueTreeModel::ValueColumn)
            .data()
            .toString();
    }

    QString vaultStatus() const
    {
        HierarchyModel* model = UiTest::part<HierarchyPanel>(m_window)->model();
        return model->index(2, HierarchyModel::StatusColumn, model->index(0, 0)).data().toString();
    }

    // The explain text tab, shown so that it is made.
    QString explainText() const
    {
        auto* text = m_window->findChild<QPlainTextEdit*>(QStringLiteral("explainText"));
        auto* tabs = qobject_cast<QTabWidget*>(text->parentWidget()->parentWidget());
        tabs->setCurrentWidget(text);
        return text->toPlainText();
    }

    bool shownAnywhere(const QString& plaintext) const
    {
        for (const QAbstractItemModel* model :
             std::initializer_list<const QAbstractItemModel*>{UiTest::part<AnswerPanel>(m_window)->valueModel(),
                                                              UiTest::part<AnswerPanel>(m_window)->rootValueModel(),
                                                              UiTest::part<TracePanel>(m_window)->contributionModel(),
                                                              UiTest::part<TracePanel>(m_window)->explanationModel()}) {
            if (anyContains(allTexts(model), plaintext))
                return true;
        }
        return UiTest::part<AnswerPanel>(m_window)->yaml().contains(plaintext) || explainText().contains(plaintext)
            || UiTest::part<AnswerPanel>(m_window)->summaryText().contains(plaintext)
            || UiTest::part<AnswerPanel>(m_window)->banner()->text().contains(plaintext);
    }

    QTemporaryDir m_repo;
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
};

QTEST_MAIN(TestRepositoryWindow)
#include "tst_repositorywindow.moc"
