// Opening a control repository through LookupRunner, as the explorer does: discovery off the GUI
// thread (layers, $environment, warnings), the top-scope `environment` (facts win), strict and skip
// modes for levels the engine cannot run, and decrypted eyaml values masked in everything a view gets
// (value, root value, trace, explain text, YAML) until secrets are revealed.

#include "jobs/lookuprunner.h"
#include "models/secretmask.h"
#include "panels/answersummary.h"
#include "ui/controlrepofixture.h"

#include <hiera/explain.h>
#include <hiera/facts.h>
#include <hiera/nodescope.h>
#include <hiera/valueformat.h>

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace hiera::ui;

namespace {
constexpr int timeoutMs = 15000;

hiera::Value webScope(const hiera::Value& extraFacts = hiera::makeHash({}))
{
    hiera::Value facts = hiera::makeHash({{"role", "web"}});
    for (const auto& entry : extraFacts.asHash())
        facts.mutableHash().set(entry.key, entry.value);
    return hiera::scopeFromFacts(facts, "web01.example.com");
}
} // namespace

class TestControlRepoLoading : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(UiTest::writeControlRepository(m_dir));
    }

    // Loads the repository by its directory and waits; false if it did not load.
    bool load(LookupRunner& runner, const RepositoryOptions& options)
    {
        QSignalSpy loaded(&runner, &LookupRunner::engineLoaded);
        QSignalSpy failed(&runner, &LookupRunner::loadFailed);
        runner.load(m_dir.path(), options);
        if (!QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, timeoutMs))
            return false;
        if (!failed.isEmpty())
            qWarning("load failed: %s", qPrintable(failed.first().at(1).toString()));
        return !loaded.isEmpty();
    }

    LookupOutcomePtr lookUp(LookupRunner& runner, const std::string& key, const hiera::Value& scope)
    {
        QSignalSpy finished(&runner, &LookupRunner::lookupFinished);
        runner.lookup(scope, AnswerRequest{key, std::nullopt});
        if (!finished.wait(timeoutMs))
            return nullptr;
        return finished.last().at(0).value<LookupOutcomePtr>();
    }

    void discoversTheLayersOffTheGuiThread()
    {
        LookupRunner runner;
        QSignalSpy loaded(&runner, &LookupRunner::engineLoaded);
        QSignalSpy failed(&runner, &LookupRunner::loadFailed);
        runner.load(m_dir.path(), RepositoryOptions());
        QVERIFY(loaded.isEmpty()); // announced from the event loop, never from inside load()
        QVERIFY(runner.isBusy());
        QVERIFY(loaded.wait(timeoutMs));
        QVERIFY(failed.isEmpty());
        // A directory is named by its hiera.yaml: the base for relative paths, the autosave key.
        QCOMPARE(loaded.first().at(0).toString(), m_dir.filePath(QStringLiteral("hiera.yaml")));
        QCOMPARE(runner.hieraYaml(), m_dir.filePath(QStringLiteral("hiera.yaml")));
        QCOMPARE(runner.environmentName(), QStringLiteral("production"));

        QStringList layers;
        for (const hiera::Layer& layer : runner.engine()->layers())
            layers << QString::fromStdString(layer.displayName());
        QCOMPARE(layers,
                 (QStringList{QStringLiteral("environment"), QStringLiteral("module broken"),
                              QStringLiteral("module ntp")}));
        // The Hiera 3 module is left out, with a warning the window shows once.
        QVERIFY2(runner.discoveryWarnings().join(QLatin1Char('\n')).contains(QStringLiteral("old")),
                 qPrintable(runner.discoveryWarnings().join(QLatin1Char('\n'))));

        // The module layer answers its namespace; its default_hierarchy when nothing else has the key.
        const auto servers = lookUp(runner, "ntp::servers", webScope());
        QVERIFY(servers && servers->result.found());
        QCOMPARE(servers->result.value, hiera::makeArray({"a.example.com", "b.example.com"}));
        const auto fallback = lookUp(runner, "ntp::fallback", webScope());
        QVERIFY(fallback && fallback->result.found());
        QCOMPARE(fallback->result.value, hiera::Value("pool.ntp.org"));
        // The broken module fails its own keys only.
        const auto broken = lookUp(runner, "broken::x", webScope());
        QVERIFY(broken);
        QCOMPARE(broken->result.status, hiera::LookupResult::Status::Error);
    }

    void loadingTheFileOrTheDirectoryIsTheSame()
    {
        LookupRunner runner;
        QSignalSpy loaded(&runner, &LookupRunner::engineLoaded);
        runner.load(m_dir.filePath(QStringLiteral("hiera.yaml")), RepositoryOptions());
        QVERIFY(loaded.wait(timeoutMs));
        QCOMPARE(loaded.first().at(0).toString(), m_dir.filePath(QStringLiteral("hiera.yaml")));
        QCOMPARE(runner.engine()->layers().size(), std::size_t(3));
    }

    void environmentIsATopScopeVariable()
    {
        LookupRunner runner;
        QVERIFY(load(runner, RepositoryOptions()));
        auto outcome = lookUp(runner, "env_name", webScope());
        QVERIFY(outcome && outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::Value("production data"));

        // A fact of that name does not: Puppet keeps $environment the environment's name (the fact is
        // facts.environment). A row of the fact tree the user sets to another name does.
        outcome = lookUp(runner, "env_name", webScope(hiera::makeHash({{"environment", "dev"}})));
        QVERIFY(outcome && outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::Value("production data"));
        hiera::Value chosen = webScope();
        chosen.mutableHash().set("environment", hiera::Value("dev"));
        outcome = lookUp(runner, "env_name", chosen);
        QVERIFY(outcome && outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::Value("dev data"));

        // Another environment name, chosen for the repository.
        RepositoryOptions staging;
        staging.environment = QStringLiteral("staging");
        QVERIFY(load(runner, staging));
        QCOMPARE(runner.environmentName(), QStringLiteral("staging"));
        outcome = lookUp(runner, "env_name", webScope());
        QVERIFY(outcome && outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::Value("staging data"));

        // ::environment reads the same variable; the hierarchy view resolves with it too.
        const hiera::NodeScope scope = hiera::NodeScope::ofTree(webScope(), "staging");
        QCOMPARE(scope.lookup("::environment"), std::optional<hiera::Value>(hiera::Value("staging")));
        QCOMPARE(scope.lookup("environment.x"), std::optional<hiera::Value>());
        QSignalSpy resolved(&runner, &LookupRunner::scopeResolved);
        runner.resolveScope(webScope());
        QVERIFY(resolved.wait(timeoutMs));
        const auto snapshot = resolved.first().at(0).value<ScopeSnapshotPtr>();
        QCOMPARE(QString::fromStdString(snapshot->levels.front().locations.front().interpolated),
                 QStringLiteral("env/staging.yaml"));
    }

    void unsupportedLevelsFailOrAreSkipped()
    {
        LookupRunner runner;
        RepositoryOptions strict;
        strict.skipUnsupportedLevels = false;
        QVERIFY(load(runner, strict));
        QVERIFY(!runner.engine()->options().skipUnsupportedLevels);
        // The lookup reaches the level (lookup_options alone reads every level with a file) and fails,
        // as Puppet without hiera_vault does.
        auto outcome = lookUp(runner, "greeting", webScope());
        QVERIFY(outcome);
        QCOMPARE(outcome->result.status, hiera::LookupResult::Status::Error);
        QVERIFY(QString::fromUtf8(outcome->result.error->what()).contains(QStringLiteral("hiera_vault")));

        RepositoryOptions skip;
        QVERIFY(skip.skipUnsupportedLevels); // the explorer's default
        QVERIFY(load(runner, skip));
        outcome = lookUp(runner, "greeting", webScope());
        QVERIFY(outcome && outcome->result.found());
        QCOMPARE(outcome->result.value, hiera::Value("hello"));
        QStringList warnings;
        for (const auto& warning : outcome->result.warnings)
            warnings << QString::fromStdString(warning);
        QVERIFY2(warnings.join(QLatin1Char('\n')).contains(QStringLiteral("hiera_vault")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }

    void secretsAreMaskedUntilRevealed()
    {
        LookupRunner runner;
        RepositoryOptions withKey;
        withKey.eyamlPrivateKey = UiTest::eyamlTestKey();
        QVERIFY(load(runner, withKey));
        QCOMPARE(QString::fromStdString(runner.engine()->options().eyamlPrivateKey), UiTest::eyamlTestKey());
        const QString plaintext = QString::fromUtf8(UiTest::eyamlPlaintext());

        auto outcome = lookUp(runner, "string_form", webScope());
        QVERIFY(outcome && outcome->result.found());
        QVERIFY(outcome->secretsMasked);
        QVERIFY(outcome->result.value.isSecret());
        QCOMPARE(QString::fromStdString(outcome->result.value.asString()), SecretMask::maskText());
        // Nothing a view gets holds the plaintext: not the trace, not the explain text, not the YAML.
        hiera::ExplainOptions reveal;
        reveal.revealSecrets = true; // what is there to reveal is the mask
        const QString explain = QString::fromStdString(hiera::explainText(*outcome->result.trace, reveal));
        QVERIFY(explain.contains(SecretMask::maskText()));
        QVERIFY(!explain.contains(plaintext));
        QVERIFY(!QString::fromStdString(hiera::explainJson(*outcome->result.trace, true, reveal)).contains(plaintext));
        QVERIFY(!AnswerSummary::yaml(*outcome).contains(plaintext));
        QVERIFY(AnswerSummary::yaml(*outcome).contains(SecretMask::maskText()));

        // Embedded in a longer string, the whole string is the secret.
        auto embedded = lookUp(runner, "embedded", webScope());
        QVERIFY(embedded && embedded->result.found());
        QVERIFY(!QString::fromStdString(hiera::toYaml(embedded->result.value)).contains(QStringLiteral("s3cret")));

        // Revealing announces the same answer again, in plaintext; hiding masks it again.
        QSignalSpy announced(&runner, &LookupRunner::lookupFinished);
        runner.setRevealSecrets(true);
        QCOMPARE(announced.size(), 1);
        auto revealed = announced.last().at(0).value<LookupOutcomePtr>();
        QVERIFY(!revealed->secretsMasked);
        QCOMPARE(revealed->request.key, std::string("embedded")); // the answer on screen
        QVERIFY(QString::fromStdString(revealed->result.value.asString())
                    .contains(QString::fromUtf8(UiTest::eyamlEmbeddedPlaintext())));
        // Later lookups come revealed while it is on.
        outcome = lookUp(runner, "string_form", webScope());
        QCOMPARE(QString::fromStdString(outcome->result.value.asString()), plaintext);
        QVERIFY(QString::fromStdString(hiera::explainText(*outcome->result.trace, reveal)).contains(plaintext));
        runner.setRevealSecrets(false);
        QCOMPARE(announced.size(), 3);
        QCOMPARE(QString::fromStdString(announced.last().at(0).value<LookupOutcomePtr>()->result.value.asString()),
                 SecretMask::maskText());
        // A plain value is not doubled into a masked copy.
        outcome = lookUp(runner, "plain", webScope());
        QVERIFY(outcome && outcome->result.found() && !outcome->masked && !outcome->secretsMasked);
    }

    void withoutAKeyValuesStayEncrypted()
    {
        LookupRunner runner;
        QVERIFY(load(runner, RepositoryOptions()));
        auto outcome = lookUp(runner, "string_form", webScope());
        QVERIFY(outcome && outcome->result.found());
        QVERIFY(outcome->result.value.isStillEncrypted());
        QVERIFY(!outcome->result.value.isSecret());
        QVERIFY(!outcome->secretsMasked);
        QVERIFY(QString::fromStdString(outcome->result.value.asString()).startsWith(QStringLiteral("ENC[PKCS7,")));
        QCOMPARE(SecretMask::stillEncryptedText(outcome->result.value), QStringLiteral("encrypted (no key)"));
        QCOMPARE(SecretMask::stillEncryptedText(hiera::Value("ENC[GPG,hQEMA...]")),
                 QStringLiteral("encrypted: GPG not supported"));
        QVERIFY(!outcome->result.warnings.empty()); // the engine says the value stays encrypted
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestControlRepoLoading)
#include "tst_controlrepoloading.moc"
