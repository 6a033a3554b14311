// Save writes a facts file back in the form it was opened in (facter YAML keeps its
// comments, `puppet facts` JSON keeps its wrapper), "Save Scope As…" is its own action, and the bundled
// demo is never written (Save becomes Save As). A fact is edited in one place; its top-scope copy
// is marked derived, read-only, and follows the fact.

#include "document/demo.h"
#include "models/facttreemodel.h"
#include "models/modelroles.h"
#include "panels/factspanel.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "widgets/messagebanner.h"

#include <hiera/facts.h>
#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTreeView>

using namespace hiera::ui;

namespace {
hiera::Value factsIn(const QString& path)
{
    return hiera::loadFactsFile(path.toStdString());
}
QString text(const hiera::Value& v, const char* key)
{
    const hiera::Value* found = v.asHash().find(std::string_view(key));
    return found ? QString::fromStdString(hiera::toJson(*found)) : QStringLiteral("<none>");
}
// A later time of change, as an editor saving a second later gives: the test does not depend on the
// file system's time resolution.
void touchLater(const QString& path)
{
    QFile file(path);
    if (file.open(QIODevice::ReadWrite))
        file.setFileTime(QDateTime::currentDateTime().addSecs(5), QFileDevice::FileModificationTime);
}
} // namespace

class TestFactsSaving : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_factssaving")); }
    void init() { m.createWindow(); }
    void cleanup() { m.destroyWindow(); }

    void saveKeepsAFacterYamlFileWithItsComments()
    {
        const QString path = m.demoPath(QStringLiteral("facts/web01.example.com.yaml"));
        const QByteArray original = UiTest::readFile(path);
        QVERIFY(original.contains("# Facts of web01"));
        QVERIFY(m.openFactsAndWait(path));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("db")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.os.release.major"),
                                                                               hiera::Value("13")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QVERIFY(!m.window->isWindowModified());

        const QByteArray saved = UiTest::readFile(path);
        // Still a facter file: no `facts:` section, no explorer header; every comment line kept.
        QVERIFY2(!saved.contains("\nfacts:") && !saved.contains("Scope saved"), saved.constData());
        QCOMPARE(saved.count('#'), original.count('#'));
        QVERIFY(saved.contains("role: db\n"));
        // Only the two values changed: the same lines, two of them different.
        const QList<QByteArray> before = original.split('\n');
        const QList<QByteArray> after = saved.split('\n');
        QCOMPARE(after.size(), before.size());
        int changed = 0;
        for (int i = 0; i < before.size(); ++i)
            changed += before[i] != after[i];
        QCOMPARE(changed, 2);
        // What `hiera-lookup --facts` reads from it: the edited facts, at the top scope too.
        const hiera::Value scope = hiera::scopeFromFacts(factsIn(path));
        QCOMPARE(text(scope, "role"), QStringLiteral("\"db\""));
        QVERIFY(UiTest::part<FactsPanel>(m.window)->banner()->text().isEmpty());

        // A second save edits the file as now written.
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("web")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QVERIFY(UiTest::readFile(path).contains("role: web\n"));
        QCOMPARE(UiTest::readFile(path).count('#'), original.count('#'));
    }

    // Another program changed (or deleted) the facts file since it was read: Save asks before writing over
    // it; declined, the file and the edits stay as they are. A file saved here is what the next save compares with.
    void aFileChangedOnDiskIsNotOverwrittenUnasked()
    {
        const QString path = m.tmp.filePath(QStringLiteral("changed.yaml"));
        QVERIFY(UiTest::writeFile(path, "role: web\nteam: a\n"));
        QVERIFY(m.openFactsAndWait(path));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("db")));
        const QByteArray theirs = "role: web\nteam: theirs\n";
        QVERIFY(UiTest::writeFile(path, theirs));
        touchLater(path);

        QVERIFY(!UiTest::part<FactsDocument>(m.window)->save()); // the fixture answers Discard: not Overwrite
        QCOMPARE(m.questions.size(), 1);
        QVERIFY2(m.questions.first().contains(QDir::toNativeSeparators(path))
                     && m.questions.first().contains(QLatin1String("changed on disk")),
                 qPrintable(m.questions.first()));
        QCOMPARE(UiTest::readFile(path), theirs);
        QVERIFY(m.window->isWindowModified());

        m.window->setQuestionHandler([this](MainWindow::Question question, const QString& text) {
            m.questions << text;
            return question == MainWindow::Question::OverwriteChanged ? MainWindow::Answer::Accept
                                                                      : MainWindow::Answer::Discard;
        });
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QCOMPARE(m.questions.size(), 2);
        QCOMPARE(text(factsIn(path), "role"), QStringLiteral("\"db\""));
        QCOMPARE(text(factsIn(path), "team"), QStringLiteral("\"a\""));

        // Nothing changed elsewhere since: no question.
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("app")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QCOMPARE(m.questions.size(), 2);

        // Deleted meanwhile: asked too, and saved again when accepted.
        QVERIFY(QFile::remove(path));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("cache")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QCOMPARE(m.questions.size(), 3);
        QVERIFY2(m.questions.last().contains(QLatin1String("deleted")), qPrintable(m.questions.last()));
        QCOMPARE(text(factsIn(path), "role"), QStringLiteral("\"cache\""));
    }

    void structuralEditKeepsTheFormAndSaysWhatWasLost()
    {
        const QString path = m.tmp.filePath(QStringLiteral("commented.yaml"));
        QVERIFY(UiTest::writeFile(path, "# node facts\n# second line\nrole: web # inline\nos:\n  family: Debian\n"));
        QVERIFY(m.openFactsAndWait(path));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.load"),
                                                                               hiera::Value(1.5)));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        const QByteArray saved = UiTest::readFile(path);
        QVERIFY2(saved.startsWith("# node facts\n# second line\n"), saved.constData());
        QVERIFY(!saved.contains("facts:"));
        QCOMPARE(text(factsIn(path), "load"), QStringLiteral("1.5"));
        QVERIFY2(UiTest::part<FactsPanel>(m.window)->banner()->text().contains(QLatin1String("leading comments")),
                 qPrintable(UiTest::part<FactsPanel>(m.window)->banner()->text()));
    }

    void puppetFactsJsonKeepsItsWrapper()
    {
        const QString path = m.demoPath(QStringLiteral("facts/web02.example.com.json"));
        QVERIFY(m.openFactsAndWait(path));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.env"),
                                                                               hiera::Value("qa")));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        const hiera::Value document =
            hiera::parseData(UiTest::readFile(path).toStdString(), "saved", hiera::DataFormat::Json);
        QCOMPARE(text(document, "name"), QStringLiteral("\"web02.example.com\""));
        QCOMPARE(text(*document.asHash().find(std::string_view("values")), "env"), QStringLiteral("\"qa\""));
        QVERIFY(!document.asHash().find(std::string_view("facts")));
    }

    void saveScopeAsIsASeparateAction()
    {
        const QString path = m.demoPath(QStringLiteral("facts/db01.example.com.yaml"));
        const QByteArray original = UiTest::readFile(path);
        QVERIFY(m.openFactsAndWait(path));
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("environment"),
                                                                               hiera::Value("qa")));
        // Saving facts says the variable is not in a facts file, and where it can go.
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QVERIFY2(UiTest::part<FactsPanel>(m.window)->banner()->text().contains(QLatin1String("environment"))
                     && UiTest::part<FactsPanel>(m.window)->banner()->text().contains(QLatin1String("Save Scope As")),
                 qPrintable(UiTest::part<FactsPanel>(m.window)->banner()->text()));
        QVERIFY(!UiTest::readFile(path).contains("environment"));

        auto* action = m.window->findChild<QAction*>(QStringLiteral("saveScopeAction"));
        QVERIFY(action);
        QVERIFY(action->text().remove(QLatin1Char('&')).contains(QLatin1String("Save Scope As")));
        const QString scopePath = m.tmp.filePath(QStringLiteral("db01-scope.yaml"));
        m.savePaths << scopePath;
        action->trigger();
        QCOMPARE(m.promptedKinds, QList<FactsDocument::SaveKind>{FactsDocument::SaveKind::Scope});
        const hiera::Value scope = hiera::loadDataFile(scopePath.toStdString());
        QCOMPARE(text(scope, "environment"), QStringLiteral("\"qa\""));
        QVERIFY(scope.asHash().find(std::string_view("facts")));
        QVERIFY(scope.asHash().find(std::string_view("trusted")));
        QCOMPARE(m.window->factsPath(), scopePath);
        QVERIFY(UiTest::part<FactsPanel>(m.window)->banner()->text().isEmpty()); // a scope holds everything: the note
                                                                                 // is gone
    }

    void theBundledDemoIsNeverWritten()
    {
        QVERIFY(m.window->openDemo());
        QTRY_VERIFY_WITH_TIMEOUT(!m.window->factsPath().isEmpty() && !m.window->isReadingFacts(), 15000);
        const QString demoFacts = m.window->factsPath();
        QVERIFY(Demo::isDemoFile(demoFacts));
        const QByteArray before = UiTest::readFile(demoFacts);
        QVERIFY(UiTest::part<FactsDocument>(m.window)->model()->setValueAtPath(QStringLiteral("facts.role"),
                                                                               hiera::Value("db")));
        // Save becomes Save As: cancelled, nothing written and the edits stay unsaved.
        QVERIFY(!UiTest::part<FactsDocument>(m.window)->save());
        QCOMPARE(m.promptedKinds, QList<FactsDocument::SaveKind>{FactsDocument::SaveKind::Facts});
        QVERIFY(m.window->isWindowModified());
        // Even a path inside the demo is refused.
        m.savePaths << demoFacts;
        QVERIFY(!UiTest::part<FactsDocument>(m.window)->save());
        QCOMPARE(UiTest::readFile(demoFacts), before);
        // Elsewhere it is saved in the demo file's form, comments and all.
        const QString copy = m.tmp.filePath(QStringLiteral("my-web01.yaml"));
        m.savePaths << copy;
        QVERIFY(UiTest::part<FactsDocument>(m.window)->save());
        QCOMPARE(UiTest::readFile(copy).count('#'), before.count('#'));
        QCOMPARE(m.window->factsPath(), copy);
        QCOMPARE(UiTest::readFile(demoFacts), before);
    }

    // A fact is edited in one place; its top-scope copy follows it.
    void topScopeCopiesAreDerivedAndFollowTheFact()
    {
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::web::workers")));
        FactTreeModel* model = UiTest::part<FactsDocument>(m.window)->model();
        const QModelIndex copy = model->indexForKeyPath(QStringLiteral("os.family"));
        const QModelIndex fact = model->indexForKeyPath(QStringLiteral("facts.os.family"));
        QVERIFY(copy.isValid() && fact.isValid());
        // Marked and read-only: the copy, its children, every column.
        QVERIFY(model->indexForKeyPath(QStringLiteral("os")).data(HieraRoles::DerivedRole).toBool());
        QVERIFY(copy.data(HieraRoles::DerivedRole).toBool());
        for (int column = 0; column < FactTreeModel::ColumnCount; ++column)
            QVERIFY(!(model->flags(copy.siblingAtColumn(column)) & Qt::ItemIsEditable));
        QVERIFY(copy.data(Qt::ToolTipRole).toString().contains(QLatin1String("facts.os.family")));
        QVERIFY(!model->setData(copy.siblingAtColumn(FactTreeModel::ValueColumn), QStringLiteral("RedHat")));
        QVERIFY(!fact.data(HieraRoles::DerivedRole).toBool());
        // Genuine variables and trusted are edited on their own.
        QVERIFY(!model->indexForKeyPath(QStringLiteral("trusted.certname")).data(HieraRoles::DerivedRole).toBool());

        // Editing the fact changes the copy, and the answer (the hierarchy reads facts.os.family).
        QVERIFY(model->setData(fact.siblingAtColumn(FactTreeModel::ValueColumn), QStringLiteral("RedHat")));
        QCOMPARE(model->indexForKeyPath(QStringLiteral("os.family")).siblingAtColumn(1).data().toString(),
                 QStringLiteral("RedHat"));
        QCOMPARE(text(model->toValue(), "os"), text(*model->toValue().asHash().find(std::string_view("facts")), "os"));
        // A new fact gets its copy; undo takes both away; a renamed fact moves its copy.
        QVERIFY(model->setValueAtPath(QStringLiteral("facts.rack"), hiera::Value("r12")));
        QVERIFY(model->indexForKeyPath(QStringLiteral("rack")).data(HieraRoles::DerivedRole).toBool());
        UiTest::part<FactsDocument>(m.window)->undoStack()->undo();
        QVERIFY(!model->indexForKeyPath(QStringLiteral("rack")).isValid());
        QVERIFY(model->setData(model->indexForKeyPath(QStringLiteral("facts.env")), QStringLiteral("stage")));
        QVERIFY(!model->indexForKeyPath(QStringLiteral("env")).isValid());
        QCOMPARE(model->indexForKeyPath(QStringLiteral("stage")).siblingAtColumn(1).data().toString(),
                 QStringLiteral("production"));
        UiTest::part<FactsDocument>(m.window)->undoStack()->undo();
        UiTest::part<FactsDocument>(m.window)->undoStack()->undo();
        QCOMPARE(model->indexForKeyPath(QStringLiteral("os.family")).siblingAtColumn(1).data().toString(),
                 QStringLiteral("Debian"));
        QVERIFY(model->indexForKeyPath(QStringLiteral("env")).data(HieraRoles::DerivedRole).toBool());
        // Removing the copy is refused; the fact's removal takes it along.
        QVERIFY(!model->removeNodeAt(model->indexForKeyPath(QStringLiteral("role"))));
        QVERIFY(model->removeNodeAt(model->indexForKeyPath(QStringLiteral("facts.role"))));
        QVERIFY(!model->indexForKeyPath(QStringLiteral("role")).isValid());
    }

private:
    WindowFixture m;
};

QTEST_MAIN(TestFactsSaving)
#include "tst_factssaving.moc"
