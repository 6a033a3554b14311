// A real control repository against real Puppet: ../shared/realworld/joeypiccola-control-repo, opened as
// written through hiera::Environment::discover + Engine::fromLayers, the
// way hiera-lookup --config and the explorer open it. tests/fixtures/realworld/joeypiccola/ holds fact
// files for four nodes of that repository and expected.json, what `puppet lookup` 7.23 answered for
// every root key of every data file of the repository, for each node
// (tests/fixtures/realworld/regen-joeypiccola.py; this test never runs Puppet).
//
// - Puppet found a value: we find the same value (hash key order ignored).
// - Puppet found nothing: we find nothing.
// - Puppet failed because an ENC[PKCS7,...] value cannot be decrypted (the repository names the
//   server's /etc/puppetlabs/puppet/eyaml key, which is not here): we find the value as written,
//   marked StillEncrypted, with a warning; never an empty string, never an error.
// - Any other Puppet error: we fail the lookup too.
// Known disagreements that are engine bugs are listed in kKnownDisagreements and checked with
// QEXPECT_FAIL (an unexpected pass fails the test: remove the entry then).
//
// The repository is not part of this checkout: without it the tests are skipped (QSKIP).

#include "support/hieralookupcli.h"
#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/scope.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSet>
#include <QTest>

#include <map>
#include <memory>
#include <vector>

using namespace hiera;
using namespace testutils;

namespace {

const char* const kRepoName = "joeypiccola-control-repo";
const QString kFixtures = testpaths::fixtures() + QStringLiteral("/realworld/joeypiccola");

QString repoDir()
{
    return QDir::cleanPath(testpaths::realworldDir() + QLatin1Char('/') + QLatin1String(kRepoName));
}

bool haveRepo()
{
    return QFileInfo::exists(repoDir() + QStringLiteral("/hiera.yaml"));
}

#define REQUIRE_REPO()                                                                                                 \
    do {                                                                                                               \
        if (!haveRepo())                                                                                               \
            QSKIP(qPrintable(QStringLiteral("the shared real-world repository is not on this machine (") + repoDir()   \
                             + QStringLiteral("); set HIERA_REALWORLD_DIR to the folder that holds ")                  \
                             + QLatin1String(kRepoName)));                                                             \
    } while (false)

// Lookups where this engine knowingly disagrees with Puppet (engine bugs, reported, not fixed here).
struct Disagreement
{
    const char* node;
    const char* key;
    const char* reason;
};
const std::vector<Disagreement> kKnownDisagreements = {};

const Disagreement* knownDisagreement(const QString& node, const QString& key)
{
    for (const auto& d : kKnownDisagreements)
        if (node == QLatin1String(d.node) && key == QLatin1String(d.key))
            return &d;
    return nullptr;
}

// Puppet's lookup failed because a value could not be decrypted (hiera-eyaml without its key).
bool isEyamlError(const QString& message)
{
    return message.contains(QLatin1String("hiera-eyaml backend error decrypting ENC["));
}

// Every string leaf holding an ENC[ block is marked StillEncrypted and kept as written; returns how
// many such leaves there are (0 if any is unmarked or empty).
int encryptedLeaves(const Value& v, bool& allMarked)
{
    switch (v.type()) {
    case Value::Type::String: {
        const std::string& s = v.asString();
        if (s.find("ENC[") == std::string::npos)
            return 0;
        if (!v.isStillEncrypted() || s.find("ENC[PKCS7,MII") == std::string::npos)
            allMarked = false;
        return 1;
    }
    case Value::Type::Array: {
        int n = 0;
        for (const auto& e : v.asArray())
            n += encryptedLeaves(e, allMarked);
        return n;
    }
    case Value::Type::Hash: {
        int n = 0;
        for (const auto& e : v.asHash())
            n += encryptedLeaves(e.value, allMarked);
        return n;
    }
    default:
        return 0;
    }
}

bool anyStillEncrypted(const Value& v)
{
    if (v.isStillEncrypted())
        return true;
    if (v.isArray())
        for (const auto& e : v.asArray())
            if (anyStillEncrypted(e))
                return true;
    if (v.isHash())
        for (const auto& e : v.asHash())
            if (anyStillEncrypted(e.value))
                return true;
    return false;
}

QString describe(const LookupResult& r)
{
    switch (r.status) {
    case LookupResult::Status::Found:
        return QStringLiteral("found ") + qs(toJson(r.value));
    case LookupResult::Status::NotFound:
        return QStringLiteral("not found");
    case LookupResult::Status::Error:
        return QStringLiteral("error: ") + (r.error ? QString::fromUtf8(r.error->what()) : QStringLiteral("?"));
    }
    return {};
}

QString describe(const Hash& expect)
{
    if (const Value* e = expect.find("error"); e && e->isBoolean() && e->asBoolean())
        return QStringLiteral("error: ") + qs(expect.find("message")->asString());
    if (expect.find("found")->asBoolean())
        return QStringLiteral("found ") + qs(toJson(*expect.find("value")));
    return QStringLiteral("not found");
}

// What is wrong with our answer `r` given Puppet's `expect`; empty when they agree.
QString disagreement(const LookupResult& r, const Hash& expect)
{
    const QString both =
        QStringLiteral("\n   ours:   ") + describe(r) + QStringLiteral("\n   Puppet: ") + describe(expect);
    const Value* error = expect.find("error");
    if (error && error->isBoolean() && error->asBoolean()) {
        const QString message = qs(expect.find("message")->asString());
        if (!isEyamlError(message))
            return r.status == LookupResult::Status::Error ? QString()
                                                           : QStringLiteral("Puppet failed, we did not") + both;
        // ENC values without the key: shown as encrypted, with a warning, never empty, never an error.
        if (!r.found())
            return QStringLiteral("an ENC value should be found, marked still encrypted") + both;
        if (r.value.isString() && r.value.asString().empty())
            return QStringLiteral("an ENC value came back as an empty string") + both;
        bool allMarked = true;
        if (encryptedLeaves(r.value, allMarked) == 0 || !allMarked)
            return QStringLiteral("the ENC[PKCS7,...] text is not kept and marked StillEncrypted") + both;
        bool warned = false;
        for (const auto& w : r.warnings)
            warned = warned || w.find("stays encrypted") != std::string::npos;
        if (!warned)
            return QStringLiteral("no 'stays encrypted' warning") + both;
        return {};
    }
    if (!expect.find("found")->asBoolean())
        return r.status == LookupResult::Status::NotFound ? QString() : QStringLiteral("Puppet found nothing") + both;
    if (!r.found())
        return QStringLiteral("Puppet found a value") + both;
    if (!unorderedEqual(r.value, *expect.find("value")))
        return QStringLiteral("different values") + both;
    if (anyStillEncrypted(r.value))
        return QStringLiteral("a plain value is marked StillEncrypted") + both;
    return {};
}

} // namespace

class TestRealworld : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void layers();
    void spacesInFileNames();
    void lookups_data();
    void lookups();
    void coverage();
    void cli_data();
    void cli();

private:
    const Hash* expected(const QString& node, const QString& key) const;

    Value m_expected; // expected.json
    std::map<QString, Value> m_scopes; // node → scope tree
    std::map<QString, QString> m_factFiles; // node → facts file (absolute)
    Environment m_env;
    std::shared_ptr<Engine> m_engine;
};

void TestRealworld::initTestCase()
{
    QFile f(kFixtures + QStringLiteral("/expected.json"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    m_expected = json(f.readAll().toStdString());
    QVERIFY(m_expected.isHash());
    QCOMPARE(m_expected.asHash().find("environment")->asString(), std::string("production"));

    // One scope per node, as `puppet lookup --node N --facts F --environment production` builds it:
    // every fact top-scope, trusted.certname from clientcert, $environment.
    for (const auto& l : m_expected.asHash().find("lookups")->asArray()) {
        const QString node = qs(l.asHash().find("node")->asString());
        if (m_scopes.count(node))
            continue;
        const QString file = kFixtures + QLatin1Char('/') + qs(l.asHash().find("facts")->asString());
        const Value facts = loadFactsFile(ss(file));
        m_scopes[node] = scopeFromFacts(facts, ss(node), makeHash({{"environment", Value("production")}}));
        m_factFiles[node] = file;
    }
    QCOMPARE(m_scopes.size(), std::size_t(4));

    if (!haveRepo())
        return; // every test skips
    m_env = Environment::discover(ss(repoDir())); // no environment.conf: site:site-modules:modules
    m_engine = Engine::fromLayers(m_env.layers);
    for (const auto& w : m_env.warnings)
        qInfo("environment: %s", w.c_str());
}

const Hash* TestRealworld::expected(const QString& node, const QString& key) const
{
    for (const auto& l : m_expected.asHash().find("lookups")->asArray())
        if (qs(l.asHash().find("node")->asString()) == node && qs(l.asHash().find("key")->asString()) == key)
            return &l.asHash().find("expect")->asHash();
    return nullptr;
}

void TestRealworld::layers()
{
    REQUIRE_REPO();
    QCOMPARE(qs(m_env.name), QStringLiteral("production"));
    QCOMPARE(qs(m_env.root), repoDir());
    QVERIFY(!m_env.modulepath.empty());
    QCOMPARE(qs(m_env.modulepath.front()), repoDir() + QStringLiteral("/site"));

    QStringList kinds;
    QStringList modules;
    for (const Layer& layer : m_env.layers) {
        kinds << QLatin1String(layerKindName(layer.kind));
        if (layer.kind == Layer::Kind::Module) {
            modules << qs(layer.module);
            QVERIFY2(!layer.error, layer.error ? layer.error->what() : "");
            QVERIFY(qs(layer.config.path).startsWith(repoDir() + QStringLiteral("/site/") + qs(layer.module)));
        }
    }
    // No global layer (no hiera_config given); the environment's; one per site/* module with a hiera.yaml.
    QCOMPARE(kinds, (QStringList{"environment", "module", "module", "module"}));
    QCOMPARE(modules, (QStringList{"failovercluster_win", "jpi", "wsus_server_win"}));

    const Layer& env = m_env.layers.front();
    QStringList levels;
    for (const Level& level : env.config.hierarchy)
        levels << qs(level.name);
    QCOMPARE(levels,
             (QStringList{"Per-node data", "Project Data", "Role specific team data", "Domain specific team data",
                          "Team data", "Role data", "Domain data", "Datacenter", "Operating System", "Common data"}));
    QCOMPARE(m_engine->layers().size(), m_env.layers.size());
}

void TestRealworld::spacesInFileNames()
{
    REQUIRE_REPO();
    // os.release.major "2012 R2": data/os/windows-2012 R2.yaml in the environment layer and in the
    // failovercluster_win module are both present for cluster-a-01.
    const MapScope scope(m_scopes.at(QStringLiteral("cluster-a-01.ad.piccola.us")));
    QStringList present;
    for (const ResolvedLevel& level : m_engine->resolveHierarchy(scope))
        for (const ResolvedLocation& loc : level.locations)
            if (loc.status == ResolvedLocation::Status::Present && qs(loc.interpolated).contains(QLatin1Char(' ')))
                present << QDir(repoDir()).relativeFilePath(qs(loc.path));
    present.sort();
    QCOMPARE(present,
             (QStringList{"data/os/windows-2012 R2.yaml", "site/failovercluster_win/data/os/windows-2012 R2.yaml"}));
}

// clang-format off
void TestRealworld::lookups_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("key");
    if (!haveRepo()) {
        QTest::newRow("no repository") << QString() << QString(); // one row that skips
        return;
    }
    for (const auto& l : m_expected.asHash().find("lookups")->asArray()) {
        const QString node = qs(l.asHash().find("node")->asString());
        const QString key = qs(l.asHash().find("key")->asString());
        QTest::addRow("%s %s", qPrintable(node), qPrintable(key)) << node << key;
    }
}
// clang-format on

void TestRealworld::lookups()
{
    QFETCH(QString, node);
    QFETCH(QString, key);
    REQUIRE_REPO();
    const Hash* expect = expected(node, key);
    QVERIFY(expect);
    const MapScope scope(m_scopes.at(node));
    const LookupResult r = m_engine->lookup(scope, ss(key));
    const QString problem = disagreement(r, *expect);
    if (const Disagreement* d = knownDisagreement(node, key))
        QEXPECT_FAIL(QTest::currentDataTag(), d->reason, Abort);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

// The oracle covers what the task asks: all three kinds of answer, and every module layer answering.
void TestRealworld::coverage()
{
    int found = 0, notFound = 0, encrypted = 0;
    QSet<QString> moduleKeys;
    for (const auto& l : m_expected.asHash().find("lookups")->asArray()) {
        const Hash& e = l.asHash().find("expect")->asHash();
        if (const Value* err = e.find("error"); err && err->isBoolean() && err->asBoolean()) {
            QVERIFY2(isEyamlError(qs(e.find("message")->asString())), "only eyaml errors are expected here");
            ++encrypted;
        } else if (e.find("found")->asBoolean()) {
            ++found;
            moduleKeys << qs(l.asHash().find("key")->asString()).section(QStringLiteral("::"), 0, 0);
        } else {
            ++notFound;
        }
    }
    QVERIFY(found > 200);
    QVERIFY(notFound > 20);
    QVERIFY(encrypted >= 2);
    QVERIFY(moduleKeys.contains(QStringLiteral("failovercluster_win")));
    QVERIFY(moduleKeys.contains(QStringLiteral("wsus_server_win")));
}

// clang-format off
void TestRealworld::cli_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("exitCode");
    // deep merge (merge_hash_arrays, knockout) over role/<team>/, role/, os/, common
    QTest::newRow("deep merge") << "jenkins.ad.piccola.us" << "profile::base::chocolatey::packages" << 0;
    // the failovercluster_win module layer, from "windows-2012 R2.yaml"
    QTest::newRow("module layer, space in file name") << "cluster-a-01.ad.piccola.us"
                                                      << "failovercluster_win::manage_quorum" << 0;
    // the project level beats the wsus_server_win module's common.yaml
    QTest::newRow("project beats module") << "wsus01.ad.piccola.us" << "wsus_server_win::wsus_directory" << 0;
    // only in "den3w108r2psv2.ad.piccola.us copy.yaml", which no certname matches
    QTest::newRow("not found") << "den3w108r2psv2.ad.piccola.us" << "profile::test::dir_names" << 1;
    // ENC[PKCS7,...] without the key: shown as written (Puppet fails), with a warning
    QTest::newRow("still encrypted") << "jenkins.ad.piccola.us" << "jpi::svc_vmware_password" << 0;
}
// clang-format on

void TestRealworld::cli()
{
    QFETCH(QString, node);
    QFETCH(QString, key);
    QFETCH(int, exitCode);
    REQUIRE_REPO();
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    const Hash* expect = expected(node, key);
    QVERIFY(expect);
    const CliResult r = runHieraLookup({QStringLiteral("--config"), repoDir(), QStringLiteral("--facts"),
                                        m_factFiles.at(node), QStringLiteral("--format"), QStringLiteral("json"), key});
    QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    if (exitCode == 1) {
        QVERIFY(!expect->find("found")->asBoolean());
        QVERIFY(r.out.isEmpty());
        return;
    }
    const Value ours = json(ss(r.out));
    if (const Value* err = expect->find("error"); err && err->isBoolean() && err->asBoolean()) {
        QVERIFY(ours.isString());
        QVERIFY(qs(ours.asString()).startsWith(QStringLiteral("ENC[PKCS7,MII")));
        QVERIFY2(r.err.contains(QStringLiteral("stays encrypted")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem")));
        return;
    }
    QVERIFY(expect->find("found")->asBoolean());
    QVERIFY2(
        unorderedEqual(ours, *expect->find("value")),
        qPrintable(QStringLiteral("ours: ") + r.out + QStringLiteral("Puppet: ") + qs(toJson(*expect->find("value")))));
}

QTEST_APPLESS_MAIN(TestRealworld)
#include "tst_realworld.moc"
