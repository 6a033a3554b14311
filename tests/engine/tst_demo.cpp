// The bundled demo hierarchy against real Puppet: tests/fixtures/demo-expected.json holds what
// `puppet lookup` (7.23) answered for every node and key of the demo tour (regen-demo-expected.py).
// Values are compared with their hash key order, because Puppet's merges define it.

#include "testutils.h"

#include <hiera/context.h>
#include <hiera/facts.h>
#include <hiera/valueformat.h>

#include <QtTest>

using namespace testutils;

class TestDemo : public QObject
{
    Q_OBJECT

private slots:
    void matchesPuppet_data();
    void matchesPuppet();
};

void TestDemo::matchesPuppet_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("factsFile");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("merge");
    QTest::addColumn<bool>("found");
    QTest::addColumn<hiera::Value>("expected");

    const hiera::Value cases =
        hiera::loadDataFile(std::string(HIERA_TEST_FIXTURES) + "/demo-expected.json", hiera::DataFormat::Json);
    QVERIFY(cases.isArray());
    QVERIFY(cases.asArray().size() >= 100);
    for (const hiera::Value& c : cases.asArray()) {
        const hiera::Hash& h = c.asHash();
        const hiera::Value* merge = h.find("merge");
        const hiera::Hash& expect = h.find("expect")->asHash();
        const bool found = expect.find("found")->asBoolean();
        const std::string node = h.find("node")->asString();
        const std::string key = h.find("key")->asString();
        const std::string mergeName = merge && merge->isString() ? merge->asString() : std::string();
        QTest::addRow("%s %s %s", node.c_str(), key.c_str(), mergeName.c_str())
            << qs(node) << qs(h.find("facts")->asString()) << qs(key) << qs(mergeName) << found
            << (found ? *expect.find("value") : hiera::Value());
    }
}

void TestDemo::matchesPuppet()
{
    QFETCH(QString, node);
    QFETCH(QString, factsFile);
    QFETCH(QString, key);
    QFETCH(QString, merge);
    QFETCH(bool, found);
    QFETCH(hiera::Value, expected);

    static const auto engine = hiera::Engine::load(std::string(HIERA_DEMO_DIR) + "/hiera.yaml");
    const hiera::Value facts = hiera::loadFactsFile(std::string(HIERA_DEMO_DIR) + "/" + ss(factsFile));
    hiera::Context context(engine, std::make_shared<hiera::MapScope>(hiera::scopeFromFacts(facts, ss(node))));
    hiera::LookupRequest options;
    if (!merge.isEmpty())
        options.merge = hiera::MergeSpec::fromValue(hiera::Value(ss(merge)));
    const hiera::LookupResult r = context.lookup(ss(key), options);
    QVERIFY2(r.status != hiera::LookupResult::Status::Error, r.error ? r.error->what() : "");
    QCOMPARE(r.found(), found);
    if (found)
        QVERIFY2(orderedEqual(r.value, expected),
                 qPrintable(QStringLiteral("got %1, Puppet %2").arg(qs(hiera::toJson(r.value)), qs(hiera::toJson(expected)))));
}

QTEST_APPLESS_MAIN(TestDemo)
#include "tst_demo.moc"
