// Editing a data file in the Source pane (document/datafileeditor.h, docs/editing-data.md), driven
// through the window on a small repository of its own: an edit typed that changes three nodes' values
// (the Impact panel lists them before -> after, the answer follows the edit), then undone (both back to
// the disk's); YAML that stops parsing mid-edit (said at file:line:col, the last good text kept) and
// parses again; the file changed on disk while edited (kept, asked before it is overwritten); saving
// writes only the bytes edited (CRLF, no final newline, a byte-order mark, an ENC[…] block); a
// read-only file and one outside the repository are not editable, with the reason; closing with
// unsaved data edits asks.

#include "document/datafileeditor.h"
#include "jobs/editrunner.h"
#include "models/datafiletext.h"
#include "models/revisiondiffmodel.h"
#include "panels/impactpanel.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTextBlock>
#include <QTextCursor>

using namespace hiera::ui;

namespace {

const QByteArray commonYaml = "motd: hello\nport: 22\n";

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestDataEditing : public QObject
{
    Q_OBJECT

    WindowFixture m;
    QList<DataFileEditor::Question> m_asked;
    DataFileEditor::Answer m_answer = DataFileEditor::Answer::Cancel;

    QString repo(const QString& relative = {}) const { return m.tmp.filePath(QStringLiteral("repo/") + relative); }
    SourceViewer* source() const { return UiTest::part<SourceViewer>(m.window); }
    ImpactPanel* impact() const { return UiTest::part<ImpactPanel>(m.window); }

    // The repository: node, role and common levels; db1 decides motd in its role file, so an edit of
    // common.yaml's motd changes the three web nodes' answers.
    bool writeRepository()
    {
        QDir().mkpath(repo(QStringLiteral("data/roles")));
        QDir().mkpath(repo(QStringLiteral("facts")));
        return writeAll(repo(QStringLiteral("hiera.yaml")),
                        "version: 5\ndefaults: {datadir: data, data_hash: yaml_data}\nhierarchy:\n"
                        "  - name: role\n    path: 'roles/%{facts.role}.yaml'\n"
                        "  - name: common\n    path: common.yaml\n")
            && writeAll(repo(QStringLiteral("data/common.yaml")), commonYaml)
            && writeAll(repo(QStringLiteral("data/roles/web.yaml")), "port: 80\n")
            && writeAll(repo(QStringLiteral("data/roles/db.yaml")), "motd: database\n")
            && writeAll(repo(QStringLiteral("facts/web1.yaml")), "certname: web1\nrole: web\n")
            && writeAll(repo(QStringLiteral("facts/web2.yaml")), "certname: web2\nrole: web\n")
            && writeAll(repo(QStringLiteral("facts/web3.yaml")), "certname: web3\nrole: web\n")
            && writeAll(repo(QStringLiteral("facts/db1.yaml")), "certname: db1\nrole: db\n");
    }

    // web1's facts on the repository, `motd` looked up, the library read, common.yaml in the Source pane.
    bool openCommon()
    {
        if (!writeRepository() || !m.openFactsAndWait(repo(QStringLiteral("facts/web1.yaml"))))
            return false;
        m.window->openHierarchy(repo(QStringLiteral("hiera.yaml")));
        m.window->setKey(QStringLiteral("motd"));
        if (!m.waitForAnswer(QStringLiteral("motd")))
            return false;
        QSignalSpy loaded(UiTest::part<FleetRunner>(m.window), &FleetRunner::libraryLoaded);
        UiTest::part<NodesPanel>(m.window)->openLibrary(repo(QStringLiteral("facts")));
        if (!loaded.wait(WindowFixture::timeoutMs))
            return false;
        return source()->showLocation(repo(QStringLiteral("data/common.yaml")), 1);
    }

    // Selects `what` in the editor and types `with` over it, key by key.
    bool typeOver(const QString& what, const QString& with)
    {
        QPlainTextEdit* editor = source()->editor();
        const int at = static_cast<int>(editor->toPlainText().indexOf(what));
        if (at < 0)
            return false;
        QTextCursor cursor(editor->document());
        cursor.setPosition(at);
        cursor.setPosition(at + static_cast<int>(what.size()), QTextCursor::KeepAnchor);
        editor->setTextCursor(cursor);
        editor->setFocus();
        QTest::keyClicks(editor, with);
        return true;
    }

    QString answerText() const
    {
        const LookupOutcomePtr outcome = UiTest::part<AnswerPanel>(m.window)->outcome();
        return outcome && outcome->result.found() && outcome->result.value.isString()
            ? QString::fromStdString(outcome->result.value.asString())
            : QString();
    }

    bool answerBecomes(const QString& text)
    {
        return QTest::qWaitFor([&] { return answerText() == text && !UiTest::part<LookupRunner>(m.window)->isBusy(); },
                               WindowFixture::timeoutMs);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m.setUpOnce("tst_dataediting")); }
    void init()
    {
        m.createWindow();
        m_asked.clear();
        m_answer = DataFileEditor::Answer::Cancel;
        m.window->setDataQuestionHandler([this](DataFileEditor::Question question, const QString&) {
            m_asked << question;
            return m_answer;
        });
    }
    void cleanup()
    {
        if (source() && source()->isModified())
            source()->revert();
        QTRY_VERIFY(!UiTest::part<EditRunner>(m.window)->isEvaluating());
        m.destroyWindow();
        QDir(repo()).removeRecursively();
    }

    void anEditChangesThreeNodesThenUndo()
    {
        QVERIFY(openCommon());
        QVERIFY(source()->isEditable());
        QCOMPARE(answerText(), QStringLiteral("hello"));
        QSignalSpy shown(impact(), &ImpactPanel::editImpactShown);
        QVERIFY(typeOver(QStringLiteral("hello"), QStringLiteral("bye")));
        QVERIFY(source()->isModified());
        QVERIFY(shown.wait(WindowFixture::timeoutMs));
        const RevisionDiffModel* model = impact()->editModel();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->index(0, RevisionDiffModel::KeyColumn).data(RevisionDiffModel::KeyRole).toString(),
                 QStringLiteral("motd"));
        QCOMPARE(model->index(0, RevisionDiffModel::NodesColumn).data(RevisionDiffModel::NodesRole).toStringList(),
                 (QStringList{QStringLiteral("web1"), QStringLiteral("web2"), QStringLiteral("web3")}));
        QVERIFY(model->index(0, RevisionDiffModel::BeforeColumn).data().toString().contains(QLatin1String("hello")));
        QVERIFY(model->index(0, RevisionDiffModel::AfterColumn).data().toString().contains(QLatin1String("bye")));
        QVERIFY2(impact()->editSummaryText().contains(QLatin1String("3 nodes")),
                 qPrintable(impact()->editSummaryText()));
        // The answer follows the unsaved edit; the disk does not.
        QVERIFY(answerBecomes(QStringLiteral("bye")));
        QCOMPARE(readAll(repo(QStringLiteral("data/common.yaml"))), commonYaml);

        // Undone to the file's own text: no edit, no impact, the disk's answer.
        while (source()->isModified() && source()->editor()->document()->isUndoAvailable())
            source()->editor()->undo();
        QVERIFY(!source()->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(impact()->editModel()->rowCount() == 0, WindowFixture::timeoutMs);
        QVERIFY(answerBecomes(QStringLiteral("hello")));
        QVERIFY(!UiTest::part<DataFileEditor>(m.window)->followsEdit());
        // Redo brings the edit back.
        source()->editor()->redo();
        QVERIFY(source()->isModified());
        QVERIFY(answerBecomes(QStringLiteral("bye")));
    }

    void invalidYamlMidEditAndBack()
    {
        QVERIFY(openCommon());
        QVERIFY(typeOver(QStringLiteral("hello"), QStringLiteral("bye")));
        QVERIFY(answerBecomes(QStringLiteral("bye")));
        // "motd: [bye": the flow sequence never closes.
        QVERIFY(typeOver(QStringLiteral("bye"), QStringLiteral("[bye")));
        QTRY_VERIFY_WITH_TIMEOUT(!source()->problemText().isEmpty(), WindowFixture::timeoutMs);
        const QString problem = source()->problemText();
        QVERIFY2(problem.startsWith(repo(QStringLiteral("data/common.yaml")) + QLatin1Char(':')), qPrintable(problem));
        QVERIFY2(QRegularExpression(QStringLiteral("common\\.yaml:\\d+:\\d+: ")).match(problem).hasMatch(),
                 qPrintable(problem));
        QVERIFY(source()->findChild<QLabel*>(QStringLiteral("sourceStatus"))->text().contains(problem));
        // The last text that parsed is what the answer and the Impact panel still show.
        QTest::qWait(300);
        QCOMPARE(answerText(), QStringLiteral("bye"));
        QCOMPARE(impact()->editModel()->rowCount(), 1);
        // Back to YAML that parses: the problem goes, the answer follows again.
        QVERIFY(typeOver(QStringLiteral("[bye"), QStringLiteral("later")));
        QTRY_VERIFY_WITH_TIMEOUT(source()->problemText().isEmpty(), WindowFixture::timeoutMs);
        QVERIFY(answerBecomes(QStringLiteral("later")));
    }

    void aFileChangedOnDiskWhileEdited()
    {
        QVERIFY(openCommon());
        const QString path = repo(QStringLiteral("data/common.yaml"));
        QVERIFY(typeOver(QStringLiteral("hello"), QStringLiteral("bye")));
        const QByteArray theirs = "motd: theirs\nport: 23\n";
        QVERIFY(writeAll(path, theirs));
        source()->reload(); // what the window does when its watcher sees the change
        QVERIFY(source()->isModified());
        QVERIFY(source()->editor()->toPlainText().contains(QLatin1String("motd: bye")));
        QVERIFY(source()
                    ->findChild<QLabel*>(QStringLiteral("sourceStatus"))
                    ->text()
                    .contains(QLatin1String("changed on disk")));

        // Saving asks; Cancel leaves their file as it is.
        auto* editor = UiTest::part<DataFileEditor>(m.window);
        m_answer = DataFileEditor::Answer::Cancel;
        QVERIFY(!editor->save());
        QCOMPARE(m_asked, QList<DataFileEditor::Question>{DataFileEditor::Question::OverwriteChanged});
        QCOMPARE(readAll(path), theirs);
        QVERIFY(source()->isModified());
        // Overwrite writes the edit.
        m_answer = DataFileEditor::Answer::Accept;
        QVERIFY(editor->save());
        QCOMPARE(readAll(path), QByteArray("motd: bye\nport: 22\n"));
        QVERIFY(!source()->isModified());
    }

    void bytesOutsideTheEditUnchangedAfterSave()
    {
        QVERIFY(openCommon());
        const QString path = repo(QStringLiteral("data/common.yaml"));
        // CRLF line ends, a byte-order mark, a tab and a non-breaking space in a comment, an ENC block,
        // and no newline at the end.
        const QByteArray original =
            "\xEF\xBB\xBF# shared\t defaults\xC2\xA0(nbsp)\r\nmotd: hello\r\n"
            "secret: >\r\n    ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEw]\r\n"
            "port: 22";
        QVERIFY(writeAll(path, original));
        source()->reload();
        QCOMPARE(source()->fileText().bytes(), original);
        QVERIFY(source()->isEditable());
        QVERIFY(!source()->editor()->toPlainText().contains(QLatin1Char('\r')));
        QVERIFY(typeOver(QStringLiteral("hello"), QStringLiteral("bye")));
        QVERIFY(UiTest::part<DataFileEditor>(m.window)->save());
        QByteArray expected = original;
        expected.replace("motd: hello", "motd: bye");
        QCOMPARE(readAll(path), expected);
        // A line typed at the end takes the file's CRLF; the rest stays as it was.
        QPlainTextEdit* editor = source()->editor();
        QTextCursor end(editor->document());
        end.movePosition(QTextCursor::End);
        editor->setTextCursor(end);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("extra: 1"));
        QVERIFY(UiTest::part<DataFileEditor>(m.window)->save());
        QCOMPARE(readAll(path), expected + "\r\nextra: 1");
        QVERIFY(m_asked.isEmpty()); // the disk was as read both times: nothing asked
    }

    void theTextMapsBackByteForByte()
    {
        // DataFileText alone: undoing an edit gives back the file's bytes whatever they hold.
        const QByteArray mixed = "a: 1\r\nb: 2\nc: 3\r\n";
        const DataFileText text = DataFileText::fromBytes(mixed, 2000);
        QVERIFY(text.editable());
        QCOMPARE(text.shown(), QStringLiteral("a: 1\nb: 2\nc: 3\n"));
        QCOMPARE(text.saved(text.shown()), mixed);
        QCOMPARE(text.saved(QStringLiteral("a: 1\nb: 20\nc: 3\n")), QByteArray("a: 1\r\nb: 20\nc: 3\r\n"));
        QVERIFY(!DataFileText::fromBytes("a: \xFF\n", 2000).editable());
        QVERIFY(!DataFileText::fromBytes("a: 1\rb: 2\n", 2000).editable());
        QVERIFY(!DataFileText::fromBytes("a: " + QByteArray(30, 'x') + "\n", 20).editable());
        QCOMPARE(DataFileText::fromRawText(QStringLiteral("a\u2029b\u00a0c")), QStringLiteral("a\nb\u00a0c"));
    }

    void readOnlyFilesSayWhy()
    {
        QVERIFY(openCommon());
        const QString role = repo(QStringLiteral("data/roles/web.yaml"));
        QVERIFY(QFile::setPermissions(role, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
        QVERIFY(source()->showLocation(role, 1));
        QVERIFY(!source()->isEditable());
        QVERIFY(source()
                    ->findChild<QLabel*>(QStringLiteral("sourceStatus"))
                    ->text()
                    .contains(QLatin1String("not writable")));
    }

    void aFileOutsideTheRepositoryIsReadOnly()
    {
        QVERIFY(openCommon());
        const QString deployed = m.tmp.filePath(QStringLiteral("deployed.yaml"));
        QVERIFY(writeAll(deployed, "motd: deployed\n"));
        QVERIFY(source()->showLocation(deployed, 1));
        QVERIFY(!source()->isEditable());
        QVERIFY(source()
                    ->findChild<QLabel*>(QStringLiteral("sourceStatus"))
                    ->text()
                    .contains(QLatin1String("outside the repository")));
        QVERIFY(source()->showLocation(repo(QStringLiteral("hiera.yaml")), 1));
        QVERIFY(!source()->isEditable());
    }

    void closingWithUnsavedDataEditsAsks()
    {
        QVERIFY(openCommon());
        QVERIFY(typeOver(QStringLiteral("hello"), QStringLiteral("bye")));
        m_answer = DataFileEditor::Answer::Cancel;
        QVERIFY(!m.window->close());
        QCOMPARE(m_asked, QList<DataFileEditor::Question>{DataFileEditor::Question::SaveChanges});
        QVERIFY(source()->isModified());
        // Showing another file asks too; Discard reads the file again, then shows the other.
        m_answer = DataFileEditor::Answer::Discard;
        QVERIFY(source()->showLocation(repo(QStringLiteral("data/roles/web.yaml")), 1));
        QCOMPARE(m_asked.size(), 2);
        QVERIFY(!source()->isModified());
        QCOMPARE(readAll(repo(QStringLiteral("data/common.yaml"))), commonYaml);
    }
};

QTEST_MAIN(TestDataEditing)
#include "tst_dataediting.moc"
