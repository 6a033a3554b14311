#include "document/factcommands.h"
#include "models/facttreemodel.h"
#include "models/modelroles.h"
#include "models/valueconvert.h"
#include "ui/uitestutils.h"
#include "widgets/factvaluedelegate.h"

#include <hiera/facts.h>
#include <hiera/value.h>
#include <hiera/valueformat.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStyleOptionViewItem>
#include <QTest>
#include <QUndoStack>
#include <QValidator>

using namespace hiera::ui;

using hiera::Value;

namespace QTest {
template <>
char* toString(const hiera::Value& value)
{
    return qstrdup(hiera::toJson(value).c_str());
}
} // namespace QTest

namespace {
Value sampleScope()
{
    const Value facts = hiera::makeHash({
        {"os", hiera::makeHash({{"family", "Debian"}, {"release", hiera::makeHash({{"major", "12"}})}})},
        {"processors", hiera::makeHash({{"count", 4}})},
        {"datacenters", hiera::makeArray({"dc1", "dc2"})},
        {"is_virtual", true},
        {"load", 0.5},
        {"nothing", Value()},
    });
    return hiera::scopeFromFacts(facts, "web01.example.com");
}
} // namespace

class TestFactTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_model = new FactTreeModel(this);
        m_stack = new QUndoStack(this);
        m_edits = std::make_unique<UndoableFactEdits>(m_stack);
        m_model->setEdits(m_edits.get());
        m_tester = new QAbstractItemModelTester(m_model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
        m_model->setScope(sampleScope());
    }
    void cleanup()
    {
        delete m_tester;
        delete m_model;
        m_edits.reset();
        delete m_stack;
    }

    void roundTrip()
    {
        QCOMPARE(m_model->toValue(), sampleScope());
        const QModelIndex family = m_model->indexForKeyPath(QStringLiteral("facts.os.family"));
        QVERIFY(family.isValid());
        QCOMPARE(family.data().toString(), QStringLiteral("family"));
        QCOMPARE(family.siblingAtColumn(FactTreeModel::ValueColumn).data().toString(), QStringLiteral("Debian"));
        QCOMPARE(family.siblingAtColumn(FactTreeModel::TypeColumn).data().toString(), QStringLiteral("string"));
        QCOMPARE(family.data(HieraRoles::KeyPathRole).toString(), QStringLiteral("facts.os.family"));
        const QModelIndex dc = m_model->indexForKeyPath(QStringLiteral("facts.datacenters.1"));
        QCOMPARE(dc.data().toString(), QStringLiteral("[1]"));
        QCOMPARE(dc.data(HieraRoles::KeyPathRole).toString(), QStringLiteral("facts.datacenters.1"));
        QVERIFY(!(dc.flags() & Qt::ItemIsEditable)); // array indices are positions, not names
        QVERIFY(m_model->indexForKeyPath(QStringLiteral("trusted.certname")).isValid());
    }

    // clang-format off
    void editScalar_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("json");
        QTest::newRow("string") << "facts.os.family"
                                << "RedHat" << true << "\"RedHat\"";
        QTest::newRow("integer") << "facts.processors.count"
                                 << "-12" << true << "-12";
        QTest::newRow("integer 64-bit") << "facts.processors.count"
                                        << "8589934592" << true << "8589934592";
        QTest::newRow("integer refused") << "facts.processors.count"
                                         << "12abc" << false << "4";
        QTest::newRow("float") << "facts.load"
                               << "2.25" << true << "2.25";
        QTest::newRow("float refused") << "facts.load"
                                       << "x" << false << "0.5";
        QTest::newRow("boolean") << "facts.is_virtual"
                                 << "false" << true << "false";
        QTest::newRow("boolean refused") << "facts.is_virtual"
                                         << "perhaps" << false << "true";
    }
    // clang-format on
    void editScalar()
    {
        QFETCH(QString, path);
        QFETCH(QString, text);
        QFETCH(bool, accepted);
        QFETCH(QString, json);
        QSignalSpy changed(m_model, &FactTreeModel::factsChanged);
        const QModelIndex value = m_model->indexForKeyPath(path).siblingAtColumn(FactTreeModel::ValueColumn);
        QCOMPARE(m_model->setData(value, text), accepted);
        QCOMPARE(changed.count(), accepted ? 1 : 0);
        QCOMPARE(QString::fromStdString(hiera::toJson(m_model->nodeValue(value))), json);
        QCOMPARE(m_stack->count(), accepted ? 1 : 0);
        if (accepted) {
            m_stack->undo();
            QCOMPARE(m_model->toValue(), sampleScope());
            m_stack->redo();
            QCOMPARE(QString::fromStdString(hiera::toJson(m_model->nodeValue(value))), json);
        }
    }

    void nullIsNotValueEditable()
    {
        const QModelIndex value = m_model->indexForKeyPath(QStringLiteral("facts.nothing")).siblingAtColumn(1);
        QVERIFY(!(value.flags() & Qt::ItemIsEditable));
        QVERIFY(value.siblingAtColumn(FactTreeModel::TypeColumn).flags() & Qt::ItemIsEditable);
    }

    void changeType()
    {
        const QModelIndex major = m_model->indexForKeyPath(QStringLiteral("facts.os.release.major"));
        QVERIFY(m_model->setData(major.siblingAtColumn(FactTreeModel::TypeColumn), QStringLiteral("integer")));
        QCOMPARE(m_model->nodeValue(major), Value(12));
        QCOMPARE(major.data(HieraRoles::ValueTypeRole).toInt(), int(Value::Type::Integer));
        // A scalar turned into an array keeps itself as the first element and gains a child row.
        QVERIFY(m_model->setData(major.siblingAtColumn(FactTreeModel::TypeColumn), QStringLiteral("array")));
        QCOMPARE(m_model->rowCount(major), 1);
        QCOMPARE(m_model->nodeValue(major), hiera::makeArray({12}));
        QVERIFY(m_model->setData(major.siblingAtColumn(FactTreeModel::TypeColumn), QStringLiteral("hash")));
        QCOMPARE(m_model->rowCount(major), 0);
        m_stack->undo();
        m_stack->undo();
        m_stack->undo();
        QCOMPARE(m_model->toValue(), sampleScope());
    }

    void rename()
    {
        const QModelIndex family = m_model->indexForKeyPath(QStringLiteral("facts.os.family"));
        QVERIFY(m_model->setData(family, QStringLiteral("kind")));
        QVERIFY(m_model->indexForKeyPath(QStringLiteral("facts.os.kind")).isValid());
        QVERIFY(!m_model->indexForKeyPath(QStringLiteral("facts.os.family")).isValid());
        // Two members with one name are refused: the scope hash could hold only one of them.
        QVERIFY(
            !m_model->setData(m_model->indexForKeyPath(QStringLiteral("facts.os.kind")), QStringLiteral("release")));
        m_stack->undo();
        QCOMPARE(m_model->toValue(), sampleScope());
        QCOMPARE(m_stack->undoText(), QString());
    }

    void addAndRemove()
    {
        const QModelIndex os = m_model->indexForKeyPath(QStringLiteral("facts.os"));
        const QModelIndex added = m_model->addChild(os, QStringLiteral("name"), Value("Debian"));
        QVERIFY(added.isValid());
        QCOMPARE(m_model->indexForKeyPath(QStringLiteral("facts.os.name")), added);
        const QModelIndex again = m_model->addChild(os, QStringLiteral("name"));
        QCOMPARE(again.data().toString(), QStringLiteral("name_2"));

        const QModelIndex dcs = m_model->indexForKeyPath(QStringLiteral("facts.datacenters"));
        const QModelIndex dc3 = m_model->addChild(dcs, {}, Value("dc3"));
        QCOMPARE(dc3.row(), 2);
        QCOMPARE(m_model->nodeValue(dcs), hiera::makeArray({"dc1", "dc2", "dc3"}));
        QVERIFY(m_model->removeNodeAt(m_model->index(0, 0, dcs)));
        QCOMPARE(m_model->nodeValue(dcs), hiera::makeArray({"dc2", "dc3"}));
        QCOMPARE(m_model->index(0, 0, dcs).data(HieraRoles::KeyPathRole).toString(),
                 QStringLiteral("facts.datacenters.0"));
        // Elements show their position as the key, renumbered after a removal or an insert in the middle.
        QCOMPARE(UiTest::printModel(m_model, dcs, 0, 2), (QStringList{"[0] | dc2", "[1] | dc3"}));
        m_stack->undo();
        QCOMPARE(UiTest::printModel(m_model, dcs, 0, 2), (QStringList{"[0] | dc1", "[1] | dc2", "[2] | dc3"}));
        m_stack->redo();

        // On a scalar row "add" makes a sibling.
        const QModelIndex family = m_model->indexForKeyPath(QStringLiteral("facts.os.family"));
        const QModelIndex sibling = m_model->addChild(family);
        QCOMPARE(sibling.parent(), os);
        QCOMPARE(sibling.row(), family.row() + 1);

        QVERIFY(m_model->removeNodeAt(m_model->indexForKeyPath(QStringLiteral("facts"))));
        QVERIFY(!m_model->indexForKeyPath(QStringLiteral("facts")).isValid());
        while (m_stack->canUndo())
            m_stack->undo();
        QCOMPARE(m_model->toValue(), sampleScope());
        while (m_stack->canRedo())
            m_stack->redo();
        QVERIFY(!m_model->indexForKeyPath(QStringLiteral("facts")).isValid());
    }

    void setValueAtPath()
    {
        QVERIFY(m_model->setValueAtPath(QStringLiteral("facts.os.family"), Value("RedHat")));
        QCOMPARE(m_model->nodeValue(m_model->indexForKeyPath(QStringLiteral("facts.os.family"))), Value("RedHat"));
        QVERIFY(m_model->setValueAtPath(QStringLiteral("facts.role.name"), Value("web")));
        QCOMPARE(m_model->nodeValue(m_model->indexForKeyPath(QStringLiteral("facts.role"))),
                 hiera::makeHash({{"name", "web"}}));
        QVERIFY(!m_model->setValueAtPath(QStringLiteral("facts.os.family.x"), Value(1))); // a string is in the way
        QCOMPARE(m_stack->count(), 2);
        m_stack->undo();
        m_stack->undo();
        QCOMPARE(m_model->toValue(), sampleScope());
    }

    void withoutUndoStack()
    {
        FactTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setScope(sampleScope());
        QVERIFY(model.setData(model.indexForKeyPath(QStringLiteral("facts.os.family")).siblingAtColumn(1),
                              QStringLiteral("Alpine")));
        QCOMPARE(model.nodeValue(model.indexForKeyPath(QStringLiteral("facts.os.family"))), Value("Alpine"));
        model.setScope(Value(42)); // not a hash: an empty scope
        QCOMPARE(model.rowCount(), 0);
    }

    void delegateEditors()
    {
        FactValueDelegate delegate;
        QWidget parent;
        QStyleOptionViewItem option;
        auto editorFor = [&](const QString& path, int column) {
            return delegate.createEditor(&parent, option, m_model->indexForKeyPath(path).siblingAtColumn(column));
        };
        auto* boolEditor = qobject_cast<QComboBox*>(editorFor(QStringLiteral("facts.is_virtual"), 1));
        QVERIFY(boolEditor);
        auto* intEditor = qobject_cast<QLineEdit*>(editorFor(QStringLiteral("facts.processors.count"), 1));
        QVERIFY(intEditor);
        QVERIFY(intEditor->validator());
        QString text = QStringLiteral("12a");
        int pos = 0;
        QCOMPARE(intEditor->validator()->validate(text, pos), QValidator::Invalid);
        text = QStringLiteral("-9223372036854775807");
        QCOMPARE(intEditor->validator()->validate(text, pos), QValidator::Acceptable);
        auto* floatEditor = qobject_cast<QLineEdit*>(editorFor(QStringLiteral("facts.load"), 1));
        QVERIFY(floatEditor && floatEditor->validator());
        text = QStringLiteral("1.5e3");
        QCOMPARE(floatEditor->validator()->validate(text, pos), QValidator::Acceptable);
        auto* typeEditor = qobject_cast<QComboBox*>(editorFor(QStringLiteral("facts.load"), 2));
        QVERIFY(typeEditor);
        QCOMPARE(typeEditor->count(), ValueConvert::typeNames().size());

        // Editor -> model: the delegate hands the text over and the model parses it by type.
        const QModelIndex count = m_model->indexForKeyPath(QStringLiteral("facts.processors.count")).siblingAtColumn(1);
        delegate.setEditorData(intEditor, count);
        QCOMPARE(intEditor->text(), QStringLiteral("4"));
        intEditor->setText(QStringLiteral("64"));
        delegate.setModelData(intEditor, m_model, count);
        QCOMPARE(m_model->nodeValue(count), Value(64));
        const QModelIndex virt = m_model->indexForKeyPath(QStringLiteral("facts.is_virtual")).siblingAtColumn(1);
        delegate.setEditorData(boolEditor, virt);
        QCOMPARE(boolEditor->currentText(), QStringLiteral("true"));
        boolEditor->setCurrentText(QStringLiteral("false"));
        delegate.setModelData(boolEditor, m_model, virt);
        QCOMPARE(m_model->nodeValue(virt), Value(false));
    }

private:
    FactTreeModel* m_model = nullptr;
    QUndoStack* m_stack = nullptr;
    std::unique_ptr<UndoableFactEdits> m_edits;
    QAbstractItemModelTester* m_tester = nullptr;
};

QTEST_MAIN(TestFactTreeModel)
#include "tst_facttreemodel.moc"
