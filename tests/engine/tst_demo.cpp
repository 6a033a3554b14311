// The bundled demo control repository against real Puppet: tests/fixtures/demo-expected.json holds
// what `puppet lookup --environment production` (7.23) answered for every node and key of the demo
// tour (regen-demo-expected.py), with the demo as the production environment: its hiera.yaml is the
// environment layer, site/profile a module layer, and its eyaml level decrypted with the demo key.
// Here the same lookups go through Environment::discover + Engine::fromLayers, with the demo key given
// as the host's eyaml key and $environment = production, as `puppet lookup` sets it.
// Values are compared with their hash key order, because Puppet's merges define it.

#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/context.h>
#include <hiera/environment.h>
#include <hiera/facts.h>
#include <hiera/valueformat.h>

#include <QtTest>

using namespace testutils;

namespace {

const std::string demoDir = testpaths::demoDir().toStdString();
const std::string demoKey = demoDir + "/keys/private_key.pkcs7.pem";

std::shared_ptr<hiera::Engine> demoEngine(const std::string& hostKey)
{
    const hiera::Environment env = hiera::Environment::discover(demoDir);
    hiera::EngineOptions options;
    options.eyamlPrivateKey = hostKey;
    return hiera::Engine::fromLayers(env.layers, options);
}

hiera::LookupResult demoLookup(const std::shared_ptr<hiera::Engine>& engine, const std::string& factsFile,
                               const std::string& node, const std::string& key,
                               const hiera::LookupRequest& request = {})
{
    const hiera::Value facts = hiera::loadFactsFile(demoDir + "/" + factsFile);
    // $environment as `puppet lookup --environment production` sets it.
    const hiera::Value extra = hiera::makeHash({{"environment", hiera::Value("production")}});
    hiera::Context context(engine, std::make_shared<hiera::MapScope>(hiera::scopeFromFacts(facts, node, extra)));
    return context.lookup(key, request);
}

} // namespace

class TestDemo : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void layersOfTheDemo();
    void matchesPuppet_data();
    void matchesPuppet();
    void decryptedValuesAreSecrets();
    void withoutTheKeyValuesStayEncrypted();
    void theLevelsKeyFromTheDemoDirectory();

private:
    QTemporaryDir m_elsewhere;
};

void TestDemo::initTestCase()
{
    // The eyaml level names keys/private_key.pkcs7.pem relative to the working directory (as Puppet
    // resolves it): run from elsewhere, so that only the host key given here can decrypt.
    QVERIFY(m_elsewhere.isValid());
    QVERIFY(QDir::setCurrent(m_elsewhere.path()));
}

// The demo is a control repository: the environment layer (its hiera.yaml) and the profile module's
// layer found through environment.conf's modulepath, with nothing left out.
void TestDemo::layersOfTheDemo()
{
    const hiera::Environment env = hiera::Environment::discover(demoDir);
    QCOMPARE(env.name, std::string("production"));
    QVERIFY2(env.warnings.empty(), env.warnings.empty() ? "" : env.warnings.front().c_str());
    QCOMPARE(env.layers.size(), std::size_t(2));
    QCOMPARE(env.layers[0].kind, hiera::Layer::Kind::Environment);
    QCOMPARE(env.layers[1].kind, hiera::Layer::Kind::Module);
    QCOMPARE(env.layers[1].module, std::string("profile"));
    QVERIFY(!env.layers[1].error);
    QVERIFY(!env.layers[1].config.defaultHierarchy.empty());
}

// clang-format off
void TestDemo::matchesPuppet_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("factsFile");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("merge");
    QTest::addColumn<bool>("found");
    QTest::addColumn<hiera::Value>("expected");

    const hiera::Value cases =
        hiera::loadDataFile(testpaths::fixtures().toStdString() + "/demo-expected.json", hiera::DataFormat::Json);
    QVERIFY(cases.isArray());
    QVERIFY(cases.asArray().size() >= 190);
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
// clang-format on

void TestDemo::matchesPuppet()
{
    QFETCH(QString, node);
    QFETCH(QString, factsFile);
    QFETCH(QString, key);
    QFETCH(QString, merge);
    QFETCH(bool, found);
    QFETCH(hiera::Value, expected);

    static const auto engine = demoEngine(demoKey);
    hiera::LookupRequest options;
    if (!merge.isEmpty())
        options.merge = hiera::MergeSpec::fromValue(hiera::Value(ss(merge)));
    const hiera::LookupResult r = demoLookup(engine, ss(factsFile), ss(node), ss(key), options);
    QVERIFY2(r.status != hiera::LookupResult::Status::Error, r.error ? r.error->what() : "");
    QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings.front().c_str());
    QCOMPARE(r.found(), found);
    if (found)
        QVERIFY2(orderedEqual(r.value, expected),
                 qPrintable(
                     QStringLiteral("got %1, Puppet %2").arg(qs(hiera::toJson(r.value)), qs(hiera::toJson(expected)))));
}

// With the demo key, decrypted values are marked as secrets (hosts mask them), also where a secret
// reaches a plain value through lookup(); plain values of the eyaml level are not.
void TestDemo::decryptedValuesAreSecrets()
{
    const auto engine = demoEngine(demoKey);
    const std::string db01 = "facts/db01.example.com.yaml";
    const hiera::LookupResult token = demoLookup(engine, db01, "db01.example.com", "profile::monitoring::api_token");
    QVERIFY(token.found());
    QCOMPARE(token.value, hiera::Value("demo-api-token-7f3a9c"));
    QVERIFY(token.value.isSecret());
    const hiera::LookupResult url = demoLookup(engine, db01, "db01.example.com", "profile::monitoring::api_url");
    QVERIFY(url.found());
    QVERIFY(hiera::containsSecret(url.value));
    const hiera::LookupResult repl = demoLookup(engine, db01, "db01.example.com", "profile::postgresql::replication");
    QVERIFY(repl.found());
    QVERIFY(repl.value.asHash().find("password")->isSecret());
    QVERIFY(!repl.value.asHash().find("user")->isSecret());
    const hiera::LookupResult user = demoLookup(engine, db01, "db01.example.com", "profile::monitoring::api_user");
    QCOMPARE(user.value, hiera::Value("hiera-explorer"));
    QVERIFY(!user.value.isSecret());
}

// Without a key (the level's relative key path does not resolve from here, no host key) the demo
// still answers: encrypted values come back as written, marked, with a warning; plain keys are
// unaffected.
void TestDemo::withoutTheKeyValuesStayEncrypted()
{
    const auto engine = demoEngine({});
    const std::string web01 = "facts/web01.example.com.yaml";
    const hiera::LookupResult token = demoLookup(engine, web01, "web01.example.com", "profile::monitoring::api_token");
    QVERIFY2(token.status == hiera::LookupResult::Status::Found, token.error ? token.error->what() : "");
    QVERIFY(token.value.isString());
    QVERIFY(token.value.asString().starts_with("ENC[PKCS7,"));
    QVERIFY(token.value.isStillEncrypted());
    QVERIFY(!token.warnings.empty());
    const hiera::LookupResult workers = demoLookup(engine, web01, "web01.example.com", "profile::web::workers");
    QCOMPARE(workers.value, hiera::Value(16));
    QVERIFY(workers.warnings.empty());
}

// Run from the demo directory, as regen-demo-expected.py runs Puppet, the level's own relative
// pkcs7_private_key (keys/private_key.pkcs7.pem) is found without a host key.
void TestDemo::theLevelsKeyFromTheDemoDirectory()
{
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(QString::fromStdString(demoDir)));
    const auto engine = demoEngine({});
    const hiera::LookupResult secret =
        demoLookup(engine, "facts/web02.example.com.json", "web02.example.com", "profile::monitoring::agent_secret");
    QVERIFY(QDir::setCurrent(before));
    QVERIFY(secret.found());
    QCOMPARE(secret.value, hiera::Value("agent-web02-Zq7"));
    QVERIFY(secret.value.isSecret());
    QVERIFY(secret.warnings.empty());
}

QTEST_APPLESS_MAIN(TestDemo)
#include "tst_demo.moc"
