// eyaml_lookup_key levels through the public API, as a host uses them: values made by the real
// hiera-eyaml (tests/fixtures/eyaml) decrypt to what hiera-eyaml says; without a key they stay
// encrypted and the lookup still answers; the host's key (EngineOptions::eyamlPrivateKey) stands in for
// an unreadable level key; decrypted values are secrets that explanations and the disk cache never show.

#include "support/eyamltestkey.h"
#include "support/lookupexpect.h"
#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/explain.h>
#include <hiera/scope.h>

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <sys/stat.h>
#include <thread>
#include <vector>

using namespace hiera;
using namespace testutils;

namespace {

const QString kFixtures = testpaths::fixtures() + QStringLiteral("/eyaml");
const std::string kFixtureKey = testpaths::fixtures().toStdString() + "/eyaml/keys/private_key.pkcs7.pem";

QByteArray readFixture(const QString& name)
{
    QFile f(kFixtures + QLatin1Char('/') + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray eyamlHiera(const std::string& keyFile)
{
    return QByteArray("version: 5\nhierarchy:\n  - name: secrets\n    path: secrets.eyaml\n"
                      "    lookup_key: eyaml_lookup_key\n    options:\n      pkcs7_private_key: '")
        + QByteArray::fromStdString(keyFile) + "'\n  - name: common\n    path: common.yaml\n";
}

bool warned(const LookupResult& r, const char* text)
{
    for (const auto& w : r.warnings)
        if (w.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestEyamlLevels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void decryptsLikeHieraEyaml();
    void withoutKeyValuesStayEncrypted();
    void hostKeyStandsInForTheLevelKey();
    void wrongKeyFailsTheLookup();
    void decryptedThenInterpolated();
    void gpgStaysEncrypted();
    void explanationsRedactSecrets();
    void diskCacheHoldsNoPlaintext();
    void keyFilesNeverShowTheirContentOrTheHostsFolder_data();
    void keyFilesNeverShowTheirContentOrTheHostsFolder();
    void concurrentLookupsDecryptOnce();
    void hostileEncShapes();
    void encBlockInAPathStaysCiphertext();

private:
    TestKey m_key; // a second key, that did not encrypt the fixtures
    QTemporaryDir m_keys;
    std::string m_otherKeyFile;
};

void TestEyamlLevels::initTestCase()
{
    m_key.generate();
    QVERIFY(m_keys.isValid());
    m_otherKeyFile = m_keys.filePath("other.pem").toStdString();
    QFile f(QString::fromStdString(m_otherKeyFile));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(m_key.keyPem.data(), qint64(m_key.keyPem.size()));
}

void TestEyamlLevels::decryptsLikeHieraEyaml()
{
    TempTree tree({{"hiera.yaml", eyamlHiera(kFixtureKey)},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", "string_form: from common\n"}});
    QVERIFY(tree.isValid());
    const Value expected = yaml(readFixture("expected.yaml").toStdString());
    QVERIFY(expected.isHash() && expected.asHash().size() > 5);
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    for (const auto& e : expected.asHash()) {
        const std::string key = e.key.asString();
        const LookupResult r = engine->lookup(scope, key);
        if (r.error)
            QFAIL(qPrintable(QString::fromStdString(key + ": " + r.error->what())));
        QVERIFY2(r.found(), key.c_str());
        QVERIFY2(r.value == e.value, qPrintable(QString::fromStdString(key + ": " + toJson(r.value))));
        // what was decrypted is a secret; plain data is not
        QCOMPARE(containsSecret(r.value), key != "plain");
        QVERIFY2(!warned(r, "stays encrypted"), key.c_str());
    }
}

void TestEyamlLevels::withoutKeyValuesStayEncrypted()
{
    TempTree tree({{"hiera.yaml", eyamlHiera("/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem")},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", "other: c\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const LookupResult r = engine->lookup(scope, "string_form");
    EXPECT_FOUND(r, r.value); // found, no error
    QVERIFY(r.value.isString());
    QVERIFY(QString::fromStdString(r.value.asString()).startsWith("ENC[PKCS7,MII")); // never empty
    QVERIFY(r.value.isStillEncrypted());
    QVERIFY(!r.value.isSecret());
    QVERIFY(warned(r, "stays encrypted"));
    QVERIFY(warned(r, "/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem"));
    QVERIFY(warned(r, "--eyaml-private-key"));
    // plain values of the same file, and other levels, answer as usual without a key
    EXPECT_FOUND(engine->lookup(scope, "plain"), Value("not a secret"));
    EXPECT_FOUND(engine->lookup(scope, "other"), Value("c"));
}

void TestEyamlLevels::hostKeyStandsInForTheLevelKey()
{
    TempTree tree({{"hiera.yaml", eyamlHiera("/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem")},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", ""}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.eyamlPrivateKey = kFixtureKey;
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    const LookupResult r = engine->lookup(scope, "string_form");
    EXPECT_FOUND(r, Value("p4ss w0rd"));
    QVERIFY(r.value.isSecret());
    // a level key that can be read wins over the host's (here: the wrong one)
    TempTree own({{"hiera.yaml", eyamlHiera(m_otherKeyFile)},
                  {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                  {"data/common.yaml", ""}});
    const LookupResult wrong = Engine::load(own.hieraYaml(), options)->lookup(scope, "string_form");
    EXPECT_ERROR(wrong, ErrorCode::EyamlDecrypt);
}

void TestEyamlLevels::wrongKeyFailsTheLookup()
{
    TempTree tree({{"hiera.yaml", eyamlHiera(m_otherKeyFile)},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", ""}});
    QVERIFY(tree.isValid());
    MapScope scope;
    const LookupResult r = Engine::load(tree.hieraYaml())->lookup(scope, "string_form");
    EXPECT_ERROR(r, ErrorCode::EyamlDecrypt);
    QVERIFY2(errorText(r).contains("hiera-eyaml backend error decrypting ENC[PKCS7,")
                 && errorText(r).contains("when looking up string_form in") && errorText(r).contains("secrets.eyaml"),
             qPrintable(errorText(r)));
    QVERIFY(!errorText(r).contains("p4ss"));
}

void TestEyamlLevels::decryptedThenInterpolated()
{
    TempTree tree({{"hiera.yaml", eyamlHiera(m_otherKeyFile)},
                   {"data/secrets.eyaml",
                    QByteArray::fromStdString("pw: " + m_key.enc("x-%{facts.who}") + "\n"
                                              + "db_url: 'postgres://app:%{lookup(\"pw\")}@db'\n")},
                   {"data/common.yaml", "user_line: 'user=%{lookup(\"pw\")}'\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(yaml("facts: {who: world}\n"));
    const LookupResult r = engine->lookup(scope, "pw");
    EXPECT_FOUND(r, Value("x-world")); // Puppet interpolates after decrypting
    QVERIFY(r.value.isSecret());
    // a secret put into another string keeps that string a secret
    const LookupResult line = engine->lookup(scope, "user_line");
    EXPECT_FOUND(line, Value("user=x-world"));
    QVERIFY(line.value.isSecret());
    EXPECT_FOUND(engine->lookup(scope, "db_url"), Value("postgres://app:x-world@db"));
    QVERIFY(engine->lookup(scope, "db_url").value.isSecret());
}

void TestEyamlLevels::gpgStaysEncrypted()
{
    const std::string gpg = "ENC[GPG,hQEMA8qE0WGDcJnHAQf/Zm9vYmFy]";
    TempTree tree({{"hiera.yaml", eyamlHiera(m_otherKeyFile)},
                   {"data/secrets.eyaml", QByteArray::fromStdString("g: " + gpg + "\n")},
                   {"data/common.yaml", ""}});
    QVERIFY(tree.isValid());
    MapScope scope;
    const LookupResult r = Engine::load(tree.hieraYaml())->lookup(scope, "g");
    EXPECT_FOUND(r, Value(gpg));
    QVERIFY(r.value.isStillEncrypted());
    QVERIFY(warned(r, "GPG not supported"));
}

void TestEyamlLevels::explanationsRedactSecrets()
{
    TempTree tree({{"hiera.yaml", eyamlHiera(m_otherKeyFile)},
                   {"data/secrets.eyaml",
                    QByteArray::fromStdString("pw: " + m_key.enc("hunter2-%{facts.who}") + "\nplain: visible\n")},
                   {"data/common.yaml", "line: 'pw=%{lookup(\"pw\")}'\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(yaml("facts: {who: world}\n"));
    LookupRequest explain;
    explain.explain = true;
    for (const char* key : {"pw", "line"}) {
        const LookupResult r = engine->lookup(scope, key, explain);
        QVERIFY(r.found() && r.trace);
        for (const std::string& text : {explainText(*r.trace), explainJson(*r.trace)}) {
            QVERIFY2(text.find("hunter2") == std::string::npos, text.c_str());
            QVERIFY2(text.find("<sensitive>") != std::string::npos, text.c_str());
        }
        ExplainOptions reveal;
        reveal.revealSecrets = true;
        QVERIFY(explainText(*r.trace, reveal).find("hunter2-world") != std::string::npos);
    }
    const LookupResult plain = engine->lookup(scope, "plain", explain);
    QVERIFY(explainText(*plain.trace).find("visible") != std::string::npos);
}

// clang-format off
void TestEyamlLevels::keyFilesNeverShowTheirContentOrTheHostsFolder_data()
{
    QTest::addColumn<QString>("hostKey"); // inside a private folder of the user's
    QTest::addColumn<QString>("reason");
    QTest::newRow("not a PEM key") << "prod-private.pem" << "is not a PEM private key";
    QTest::newRow("a directory") << "keydir" << "it is a directory";
    QTest::newRow("missing") << "gone.pem" << "No such file or directory";
    QTest::newRow("a FIFO") << "fifo.pem" << "not a regular file";
}
// clang-format on

// A key file that is not a key holds something else, maybe secret: no message quotes it. The level's
// key path is in hiera.yaml for anyone to read; the host's key (given on the command line or chosen in
// the explorer) lives in the user's folders, and warnings travel into traces and shared reports: it is
// named by its file name alone.
void TestEyamlLevels::keyFilesNeverShowTheirContentOrTheHostsFolder()
{
    QFETCH(QString, hostKey);
    QFETCH(QString, reason);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QByteArray notAKey("-----BEGIN RSA PRIVATE KEY-----\nPASSWORD=hunter2-in-the-key-file\n");
    {
        QFile f(home.filePath(QStringLiteral("prod-private.pem")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(notAKey) == notAKey.size());
    }
    QVERIFY(QDir(home.path()).mkdir(QStringLiteral("keydir")));
    QVERIFY(::mkfifo(QFile::encodeName(home.filePath(QStringLiteral("fifo.pem"))).constData(), 0600) == 0);
    TempTree tree({{"hiera.yaml", eyamlHiera("level-key.pem")},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", ""},
                   {"level-key.pem", notAKey}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.eyamlPrivateKey = ss(home.filePath(hostKey));
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    LookupRequest explain;
    explain.explain = true;
    const LookupResult r = engine->lookup(scope, "string_form", explain);
    QVERIFY(r.found() && r.trace);
    QVERIFY(!r.value.isSecret()); // it stays encrypted
    QVERIFY(warned(r, "stays encrypted"));
    QVERIFY(warned(r, qPrintable(reason)));
    QVERIFY(warned(r, qPrintable("…/" + hostKey + " (the host's key)")));
    QVERIFY(warned(r, "level-key.pem")); // as hiera.yaml writes it
    std::vector<std::string> texts{explainText(*r.trace), explainJson(*r.trace)};
    for (const std::string& w : r.warnings)
        texts.push_back(w);
    for (const std::string& text : texts) {
        QVERIFY2(text.find("hunter2") == std::string::npos, text.c_str());
        QVERIFY2(text.find(ss(home.path())) == std::string::npos, text.c_str());
    }
}

void TestEyamlLevels::diskCacheHoldsNoPlaintext()
{
    TempTree tree({{"hiera.yaml", eyamlHiera(kFixtureKey)},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", ""}});
    QTemporaryDir cache;
    QVERIFY(tree.isValid() && cache.isValid());
    EngineOptions options;
    options.diskCacheDirectory = cache.path().toStdString();
    MapScope scope;
    EXPECT_FOUND(Engine::load(tree.hieraYaml(), options)->lookup(scope, "string_form"), Value("p4ss w0rd"));
    // a second engine reads the parse back from disk and decrypts again
    EXPECT_FOUND(Engine::load(tree.hieraYaml(), options)->lookup(scope, "string_form"), Value("p4ss w0rd"));
    int files = 0;
    for (QDirIterator it(cache.path(), QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        ++files;
        QVERIFY2(!bytes.contains("p4ss w0rd"), qPrintable(f.fileName()));
    }
    QVERIFY(files > 0); // the cache was used
}

void TestEyamlLevels::concurrentLookupsDecryptOnce()
{
    // One Context shared by threads, as the explorer's fleet work shares an engine: the key store and
    // the per-file memo are written by whichever thread comes first, read by the others.
    TempTree tree({{"hiera.yaml", eyamlHiera(kFixtureKey)},
                   {"data/secrets.eyaml", readFixture("secrets.eyaml")},
                   {"data/common.yaml", ""}});
    QVERIFY(tree.isValid());
    const Value expected = yaml(readFixture("expected.yaml").toStdString());
    auto engine = Engine::load(tree.hieraYaml());
    Context node(engine, std::make_shared<MapScope>());
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 50; ++i)
                for (const auto& e : expected.asHash()) {
                    const LookupResult r = node.lookup(e.key.asString());
                    if (!r.found() || !(r.value == e.value))
                        ++wrong;
                }
        });
    for (auto& th : threads)
        th.join();
    QCOMPARE(wrong.load(), 0);
}

QTEST_APPLESS_MAIN(TestEyamlLevels)
#include "tst_eyamllevels.moc"

// ENC blocks where no one meant one: as a hash key (hiera-eyaml decrypts values only, so the key stays
// as written), one inside another (the regex finds the inner one, whose payload is not DER: one line,
// nothing decrypted shown), a block cut short (no block for the regex: a plain string), a block in the
// middle of a string (decrypted in place, the string a secret).
void TestEyamlLevels::hostileEncShapes()
{
    const std::string block = m_key.enc("s3cret");
    TempTree tree({{"hiera.yaml", eyamlHiera(m_otherKeyFile)},
                   {"data/secrets.eyaml",
                    QByteArray::fromStdString("keyed: {\"" + block
                                              + "\": v}\n"
                                                "twice: \"ENC[PKCS7,ENC[PKCS7,abc]]\"\n"
                                                "truncated: \"ENC[PKCS7,MIIBeQYJKoZI\"\n"
                                                "mixed: \"pre "
                                              + block + " post\"\n")},
                   {"data/common.yaml", ""}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;

    const LookupResult keyed = engine->lookup(scope, "keyed");
    QVERIFY(keyed.found());
    QCOMPARE(keyed.value.asHash().size(), std::size_t(1));
    QCOMPARE(keyed.value.asHash().begin()->key.asString(), block);
    QVERIFY(!containsSecret(keyed.value));

    const LookupResult twice = engine->lookup(scope, "twice");
    EXPECT_ERROR(twice, ErrorCode::EyamlDecrypt);
    QVERIFY2(!errorText(twice).contains(QLatin1Char('\n')), qPrintable(errorText(twice)));
    QVERIFY2(errorText(twice).contains("secrets.eyaml"), qPrintable(errorText(twice)));

    const LookupResult truncated = engine->lookup(scope, "truncated");
    EXPECT_FOUND(truncated, Value("ENC[PKCS7,MIIBeQYJKoZI"));
    QVERIFY(!truncated.value.isStillEncrypted() && !truncated.value.isSecret());

    const LookupResult mixed = engine->lookup(scope, "mixed");
    EXPECT_FOUND(mixed, Value("pre s3cret post"));
    QVERIFY(mixed.value.isSecret());
    LookupRequest explain;
    explain.explain = true;
    const LookupResult explained = engine->lookup(scope, "mixed", explain);
    QVERIFY(explained.trace);
    QVERIFY(explainText(*explained.trace).find("s3cret") == std::string::npos);
}

// An ENC block in a fact used in a level's path: paths are interpolated from the scope and never
// decrypted (Puppet decrypts values of eyaml files only), so the candidate file is named by the
// ciphertext; it does not exist, the lookup goes on, and nothing decrypted appears in the explanation.
void TestEyamlLevels::encBlockInAPathStaysCiphertext()
{
    const std::string block = m_key.enc("plain-name");
    TempTree tree({{"hiera.yaml",
                    QByteArray("version: 5\nhierarchy:\n  - name: by fact\n    path: \"%{facts.p}.eyaml\"\n"
                               "    lookup_key: eyaml_lookup_key\n    options:\n      pkcs7_private_key: '")
                        + QByteArray::fromStdString(m_otherKeyFile) + "'\n  - name: common\n    path: common.yaml\n"},
                   {"data/plain-name.eyaml", "k: from the decrypted name\n"},
                   {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(yaml("facts: {p: '" + block + "'}\n"));
    LookupRequest explain;
    explain.explain = true;
    const LookupResult r = engine->lookup(scope, "k", explain);
    EXPECT_FOUND(r, Value("common"));
    QVERIFY(r.trace);
    const std::string text = explainText(*r.trace);
    QVERIFY2(text.find("plain-name") == std::string::npos, text.c_str());
    QVERIFY2(text.find("ENC[PKCS7,") != std::string::npos, text.c_str());
}
