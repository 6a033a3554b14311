// The eyaml decryption core (engine/src/backends/eyaml/): ENC block detection and splitting as Puppet
// and hiera-eyaml do it, PKCS#7 decryption with the private key alone, key loading from files and the
// environment, and the value walk a lookup_key provider calls. Keys and ciphertexts are made here with
// OpenSSL's C API at run time; tests/fixtures/eyaml/ holds values made by the real hiera-eyaml. Nothing
// here runs eyaml or openssl.

#include "support/eyamltestkey.h"
#include "support/testpaths.h"
#include "testutils.h"

#include "backends/eyaml/encblock.h"
#include "backends/eyaml/eyamlkeys.h"
#include "backends/eyaml/eyamlvalue.h"
#include "backends/eyaml/pkcs7decryptor.h"
#include "backends/eyaml/rubybase64.h"

#include <openssl/bio.h>
#include <openssl/buffer.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <QElapsedTimer>
#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace testutils;
using hiera::Error;
using hiera::ErrorCode;
using hiera::Value;
using namespace hiera::detail;

namespace {

// `eyaml encrypt -o block`: the ENC value cut into 60-column lines, here indented under `key: >`.
std::string foldedYaml(const std::string& key, const std::string& enc)
{
    std::string out = key + ": >\n";
    for (std::size_t i = 0; i < enc.size(); i += 60)
        out += "    " + enc.substr(i, 60) + "\n";
    return out;
}

std::string readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

bool writeFile(const std::string& path, std::string_view content)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && f.write(content.data(), static_cast<qint64>(content.size())) == static_cast<qint64>(content.size());
}

// Pieces written compactly for the table tests: T(text) and B(scheme|payload), scheme "PKCS7*" when it
// was not written.
QString describe(const std::vector<EncPiece>& pieces)
{
    QString out;
    for (const EncPiece& p : pieces) {
        if (p.kind == EncPiece::Kind::Text)
            out += QStringLiteral("T(%1)").arg(qs(std::string(p.text)));
        else
            out += QStringLiteral("B(%1%2|%3)")
                       .arg(qs(std::string(p.scheme)), p.schemeWritten ? QString() : QStringLiteral("*"),
                            qs(std::string(p.payload)));
    }
    return out;
}

// Runs `f`, expecting an hiera::Error; returns it (code None when nothing was thrown).
template <typename F>
Error thrown(F&& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    return Error(ErrorCode::None, "nothing thrown");
}

bool printable(const std::string& s)
{
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7F)
            return false;
    return true;
}

const std::string kFixtures = testpaths::fixtures().toStdString() + "/eyaml";

} // namespace

class TestEyaml : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    // Text only
    void containsEncBlock_data();
    void containsEncBlock();
    void splitEncBlocks_data();
    void splitEncBlocks();
    void splitIsLinear();
    void base64Lenient_data();
    void base64Lenient();

    // Decryption of values
    void oneLine();
    void blockFolded();
    void literalBlockStaysRaw();
    void literalOneLineIsChomped();
    void severalBlocksWithTextAround();
    void chompsOnce_data();
    void chompsOnce();
    void collections();
    void hashKeysNeverDecrypted();
    void otherScalarsUnchanged();
    void noSchemeMeansPkcs7();
    void schemeNameIgnoresCase();
    void tabOrCrInPayloadStaysRaw();
    void gpgStaysEncrypted();
    void unknownScheme();
    void noKeyKeepsValueEncrypted();

    // Failures with a key
    void wrongKey();
    void wrongKeyNeverYieldsGarbage();
    void damagedPayloads_data();
    void damagedPayloads();
    void hugePayloadRefusedQuickly();
    void errorKeepsPlaintextOut();
    void errorMessageIsOnePrintableLine();

    // Keys
    void keyFromFileIsCached();
    void keyFileProblems_data();
    void keyFileProblems();
    void fifoKeyFileDoesNotHang();
    void passphraseKeyRefusedWithoutPrompt();
    void nonRsaKeyRefused();
    void keyFromEnvironment();
    void keyOptionsFromLevel();
    void notDefined();

    // Real hiera-eyaml output, and threads
    void eyamlMadeFixtures();
    void concurrentDecryption();

private:
    TestKey m_key; // encrypts most values
    TestKey m_other; // a key the values were not encrypted to
    std::shared_ptr<const PrivateKey> m_private;
    std::unique_ptr<Pkcs7Decryptor> m_decryptor;
    QTemporaryDir m_dir;

    EyamlDecryptContext withKey() const
    {
        EyamlDecryptContext c;
        c.pkcs7 = m_decryptor.get();
        c.key = "db::password";
        c.path = "/data/secrets.eyaml";
        return c;
    }
    EyamlValue decrypt(const Value& v) const { return decryptEyamlValue(v, withKey()); }
};

void TestEyaml::initTestCase()
{
    m_key.generate();
    m_other.generate();
    QVERIFY(m_dir.isValid());
    m_private = PrivateKey::fromPem(m_key.keyPem, "test key");
    QCOMPARE(m_private->bits(), 2048);
    m_decryptor = std::make_unique<Pkcs7Decryptor>(m_private);
}

// clang-format off
void TestEyaml::containsEncBlock_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("expected");
    QTest::newRow("one line") << QByteArray("ENC[PKCS7,abc]") << true;
    QTest::newRow("text around") << QByteArray("pre ENC[x] post") << true;
    QTest::newRow("no tag") << QByteArray("ENC[abc]") << true;
    QTest::newRow("empty brackets") << QByteArray("ENC[]") << true;
    QTest::newRow("bracket on the next line") << QByteArray("ENC[PKCS7,ab\ncd]") << false;
    QTest::newRow("second line holds a block") << QByteArray("ENC[PKCS7,ab\nENC[x]") << true;
    QTest::newRow("bracket before ENC only") << QByteArray("] ENC[abc") << false;
    QTest::newRow("carriage return is on the line") << QByteArray("ENC[ab\rcd]") << true;
    QTest::newRow("lower case") << QByteArray("enc[abc]") << false;
    QTest::newRow("plain") << QByteArray("hello world") << false;
    QTest::newRow("empty") << QByteArray("") << false;
    QTest::newRow("ENC without bracket") << QByteArray("ENC(abc)") << false;
}
// clang-format on

void TestEyaml::containsEncBlock()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, expected);
    QCOMPARE(hiera::detail::containsEncBlock(std::string_view(text.constData(), text.size())), expected);
}

// clang-format off
void TestEyaml::splitEncBlocks_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one block") << QByteArray("ENC[PKCS7,ab+/=]") << QStringLiteral("B(PKCS7|ab+/=)");
    QTest::newRow("no tag") << QByteArray("ENC[abc]") << QStringLiteral("B(PKCS7*|abc)");
    QTest::newRow("other tag") << QByteArray("ENC[GPG,abc]") << QStringLiteral("B(GPG|abc)");
    QTest::newRow("tag with underscore") << QByteArray("ENC[MY_TAG,abc]") << QStringLiteral("B(MY_TAG|abc)");
    QTest::newRow("text around") << QByteArray("pre-ENC[PKCS7,abc]-mid-ENC[def]-post")
                                 << QStringLiteral("T(pre-)B(PKCS7|abc)T(-mid-)B(PKCS7*|def)T(-post)");
    QTest::newRow("spaces and newlines in payload")
        << QByteArray("ENC[PKCS7,ab cd\nef]") << QStringLiteral("B(PKCS7|ab cd\nef)");
    QTest::newRow("tab is not payload") << QByteArray("ENC[PKCS7,ab\tcd]") << QStringLiteral("T(ENC[PKCS7,ab\tcd])");
    QTest::newRow("CR is not payload") << QByteArray("ENC[PKCS7,ab\r\ncd]") << QStringLiteral("T(ENC[PKCS7,ab\r\ncd])");
    QTest::newRow("empty payload") << QByteArray("ENC[PKCS7,]") << QStringLiteral("T(ENC[PKCS7,])");
    QTest::newRow("empty brackets") << QByteArray("ENC[]") << QStringLiteral("T(ENC[])");
    QTest::newRow("only spaces") << QByteArray("ENC[ ]") << QStringLiteral("B(PKCS7*| )");
    QTest::newRow("comma without tag") << QByteArray("ENC[,abc]") << QStringLiteral("T(ENC[,abc])");
    QTest::newRow("unclosed") << QByteArray("ENC[PKCS7,abc") << QStringLiteral("T(ENC[PKCS7,abc)");
    QTest::newRow("nested start") << QByteArray("ENC[ENC[PKCS7,abc]") << QStringLiteral("T(ENC[)B(PKCS7|abc)");
    QTest::newRow("underscore in payload") << QByteArray("ENC[PKCS7,a_b]") << QStringLiteral("T(ENC[PKCS7,a_b])");
    QTest::newRow("second comma") << QByteArray("ENC[A,B,cd]") << QStringLiteral("T(ENC[A,B,cd])");
    QTest::newRow("adjacent blocks") << QByteArray("ENC[a]ENC[b]") << QStringLiteral("B(PKCS7*|a)B(PKCS7*|b)");
    QTest::newRow("no block") << QByteArray("plain") << QStringLiteral("T(plain)");
    QTest::newRow("empty") << QByteArray("") << QString();
}
// clang-format on

void TestEyaml::splitEncBlocks()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const std::string_view view(text.constData(), text.size());
    const auto pieces = hiera::detail::splitEncBlocks(view);
    QCOMPARE(describe(pieces), expected);
    std::string joined;
    for (const EncPiece& p : pieces)
        joined += p.text;
    QCOMPARE(joined, std::string(view));
}

void TestEyaml::splitIsLinear()
{
    // Many unclosed candidates, and one long payload that never closes: each byte looked at a few times.
    std::string text;
    for (int i = 0; i < 200'000; ++i)
        text += "ENC[A,";
    text += std::string(1'000'000, 'A');
    QElapsedTimer timer;
    timer.start();
    const auto pieces = hiera::detail::splitEncBlocks(text);
    QVERIFY(hiera::detail::containsEncBlock(text) == false);
    QCOMPARE(pieces.size(), std::size_t(1));
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
}

// clang-format off
void TestEyaml::base64Lenient_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray("QUJD") << QByteArray("ABC");
    QTest::newRow("padding") << QByteArray("QUI=") << QByteArray("AB");
    QTest::newRow("two padding") << QByteArray("QQ==") << QByteArray("A");
    QTest::newRow("missing padding") << QByteArray("QUI") << QByteArray("AB");
    QTest::newRow("lone last char dropped") << QByteArray("QUJDR") << QByteArray("ABC");
    QTest::newRow("whitespace skipped") << QByteArray(" QU\nJD ") << QByteArray("ABC");
    QTest::newRow("junk skipped") << QByteArray("Q*U!J.D") << QByteArray("ABC");
    QTest::newRow("padding ends the data") << QByteArray("QUI=QUJD") << QByteArray("AB");
    QTest::newRow("early padding skipped") << QByteArray("QUJD=QUJD") << QByteArray("ABCABC");
    QTest::newRow("empty") << QByteArray("") << QByteArray("");
    QTest::newRow("only junk") << QByteArray("== \n") << QByteArray("");
}
// clang-format on

void TestEyaml::base64Lenient()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(decodeBase64Lenient(std::string_view(text.constData(), text.size())), expected.toStdString());
}

void TestEyaml::oneLine()
{
    const auto r = decrypt(Value(m_key.enc("p4ss w0rd")));
    QCOMPARE(r.value, Value("p4ss w0rd"));
    QVERIFY(r.decrypted);
    QVERIFY(!r.keptEncrypted);
    QVERIFY(r.notes.empty());
}

void TestEyaml::blockFolded()
{
    const std::string text = foldedYaml("secret", m_key.enc("folded secret"));
    const Value data = yaml(text);
    QVERIFY(data.asHash().find("secret")->asString().find(' ') != std::string::npos); // folded: spaces
    const auto r = decrypt(data);
    QCOMPARE(r.value, yaml("secret: folded secret"));
    QVERIFY(r.decrypted);
}

void TestEyaml::literalBlockStaysRaw()
{
    // `|` keeps the newlines: ENC[ and ] are on different lines, so Puppet does not decrypt.
    std::string text = foldedYaml("secret", m_key.enc("literal secret"));
    text.replace(text.find('>'), 1, "|");
    const Value data = yaml(text);
    const auto r = decrypt(data);
    QCOMPARE(r.value, data);
    QVERIFY(!r.decrypted);
    QVERIFY(!r.keptEncrypted);
}

void TestEyaml::literalOneLineIsChomped()
{
    const Value data = yaml("secret: |\n  " + m_key.enc("one line") + "\n");
    QVERIFY(data.asHash().find("secret")->asString().ends_with("]\n"));
    QCOMPARE(decrypt(data).value, yaml("secret: one line"));
}

void TestEyaml::severalBlocksWithTextAround()
{
    const std::string s = "user=" + m_key.enc("admin") + ";pass=" + m_key.enc("s3cret") + ";port=5432\n";
    const auto r = decrypt(Value(s));
    QCOMPARE(r.value, Value("user=admin;pass=s3cret;port=5432"));
    QVERIFY(r.decrypted);
}

// clang-format off
void TestEyaml::chompsOnce_data()
{
    QTest::addColumn<QByteArray>("plaintext");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plaintext newline") << QByteArray("a\n") << QByteArray() << QByteArray("a");
    QTest::newRow("two newlines") << QByteArray("a\n\n") << QByteArray() << QByteArray("a\n");
    QTest::newRow("newline after the block") << QByteArray("a\n") << QByteArray("\n") << QByteArray("a\n");
    QTest::newRow("CRLF") << QByteArray("a") << QByteArray("\r\n") << QByteArray("a");
    QTest::newRow("CR") << QByteArray("a\r") << QByteArray() << QByteArray("a");
    QTest::newRow("none") << QByteArray("a") << QByteArray(" ") << QByteArray("a ");
    QTest::newRow("empty plaintext") << QByteArray("") << QByteArray() << QByteArray("");
}
// clang-format on

void TestEyaml::chompsOnce()
{
    QFETCH(QByteArray, plaintext);
    QFETCH(QByteArray, after);
    QFETCH(QByteArray, expected);
    const auto r = decrypt(Value(m_key.enc(plaintext.toStdString()) + after.toStdString()));
    QCOMPARE(r.value, Value(expected.toStdString()));
}

void TestEyaml::collections()
{
    const std::string text = "list:\n  - " + m_key.enc("first") + "\n  - plain\n  - - " + m_key.enc("nested")
        + "\nhash:\n  k1: " + m_key.enc("s3cret") + "\n  k2: 42\n  deep:\n    x: " + m_key.enc("deeper")
        + "\nuntouched: [1, 2]\n";
    const Value data = yaml(text, "data.eyaml");
    const auto r = decrypt(data);
    QCOMPARE(r.value,
             yaml("list: [first, plain, [nested]]\nhash: {k1: s3cret, k2: 42, deep: {x: deeper}}\n"
                  "untouched: [1, 2]\n"));
    QVERIFY(r.decrypted);
    // Marks survive: the decrypted string still says where it was written, and that it is a secret;
    // values without a block are not marked.
    const Value& k1 = *r.value.asHash().find("hash")->asHash().find("k1");
    const hiera::SourceMark& written = data.asHash().find("hash")->asHash().find("k1")->mark();
    QCOMPARE(k1.mark().file, written.file);
    QCOMPARE(k1.mark().line, written.line);
    QCOMPARE(k1.mark().column, written.column);
    QVERIFY(k1.mark().line == 6);
    QVERIFY(k1.isSecret());
    QVERIFY(!k1.isStillEncrypted());
    QVERIFY(!r.value.asHash().find("hash")->asHash().find("k2")->isSecret());
    QVERIFY(!r.value.asHash().find("list")->asArray()[1].isSecret());
    QVERIFY(hiera::containsSecret(r.value));
    QVERIFY(!hiera::containsSecret(data));
    QCOMPARE(hiera::redactSecrets(r.value).asHash().find("hash")->asHash().find("k1")->asString(),
             std::string("<sensitive>"));
    // Key order kept.
    QCOMPARE(r.value.asHash().entries().front().key, Value("list"));
    // The original is not modified (copy-on-write).
    QCOMPARE(data.asHash().find("list")->asArray()[1], Value("plain"));
    QVERIFY(data.asHash().find("list")->asArray()[0].asString().starts_with("ENC[PKCS7,"));
}

void TestEyaml::hashKeysNeverDecrypted()
{
    const std::string encKey = m_key.enc("key");
    hiera::Hash h;
    h.set(encKey, Value(m_key.enc("value")));
    const auto r = decrypt(Value(h));
    QCOMPARE(r.value.asHash().size(), std::size_t(1));
    QCOMPARE(r.value.asHash().entries().front().key, Value(encKey));
    QCOMPARE(r.value.asHash().entries().front().value, Value("value"));
}

void TestEyaml::otherScalarsUnchanged()
{
    const Value data = yaml("a: 1\nb: true\nc: ~\nd: 2.5\ne: plain\n");
    const auto r = decrypt(data);
    QCOMPARE(r.value, data);
    QVERIFY(r.value.asHash().find("a")->isInteger());
    QVERIFY(r.value.asHash().find("b")->isBoolean());
    QVERIFY(r.value.asHash().find("c")->isNull());
    QVERIFY(!r.decrypted);
    QVERIFY(!r.keptEncrypted);
    // Unchanged collections keep sharing their storage.
    QCOMPARE(&r.value.asHash(), &data.asHash());
}

void TestEyaml::noSchemeMeansPkcs7()
{
    QCOMPARE(decrypt(Value("ENC[" + m_key.encryptB64("no tag") + "]")).value, Value("no tag"));
}

void TestEyaml::schemeNameIgnoresCase()
{
    // hiera-eyaml finds the encryptor class by a case-insensitive name.
    QCOMPARE(decrypt(Value("ENC[pkcs7," + m_key.encryptB64("lower") + "]")).value, Value("lower"));
}

void TestEyaml::tabOrCrInPayloadStaysRaw()
{
    std::string b64 = m_key.encryptB64("tabbed");
    const std::string withTab = "ENC[PKCS7," + b64.substr(0, 20) + "\t" + b64.substr(20) + "]";
    auto r = decrypt(Value(withTab));
    QCOMPARE(r.value, Value(withTab));
    QVERIFY(!r.decrypted);
    // Puppet still chomps: the string passed its same-line test, and the parse found only text.
    r = decrypt(Value(withTab + "\n"));
    QCOMPARE(r.value, Value(withTab));
    const std::string withCr = "ENC[PKCS7," + b64.substr(0, 20) + "\r" + b64.substr(20) + "]";
    QCOMPARE(decrypt(Value(withCr)).value, Value(withCr));
}

void TestEyaml::gpgStaysEncrypted()
{
    const std::string gpg = "ENC[GPG,hQEMA8qE0WGDcJnHAQf/Zm9vYmFy]";
    auto r = decrypt(Value(gpg));
    QCOMPARE(r.value, Value(gpg));
    QVERIFY(r.keptEncrypted);
    QVERIFY(!r.decrypted);
    QVERIFY(r.value.isStillEncrypted()); // hosts show it as encrypted, not as data
    QVERIFY(!r.value.isSecret());
    QCOMPARE(r.notes, std::vector<std::string>{"GPG not supported"});

    // Beside a PKCS7 block: that one is decrypted, the GPG block kept as written.
    r = decrypt(Value(gpg + " and " + m_key.enc("pk") + "\n"));
    QCOMPARE(r.value, Value(gpg + " and pk"));
    QVERIFY(r.keptEncrypted);
    QVERIFY(r.decrypted);

    // Without any key, still only the GPG note for GPG blocks.
    EyamlDecryptContext none;
    none.noKeyReason = "no key here";
    r = decryptEyamlValue(yaml("a: " + gpg + "\nb: " + gpg + "\n"), none);
    QCOMPARE(r.notes, std::vector<std::string>{"GPG not supported"});
}

void TestEyaml::unknownScheme()
{
    const Error e = thrown([&] { decrypt(Value("ENC[FOO,abcd]")); });
    QCOMPARE(e.code(), ErrorCode::EyamlDecrypt);
    QVERIFY2(e.message().find("Could not find hiera-eyaml encryptor: FOO") != std::string::npos, e.what());
    QCOMPARE(e.message(),
             std::string("hiera-eyaml backend error decrypting ENC[FOO,abcd] when looking up db::password in "
                         "/data/secrets.eyaml. Error was Could not find hiera-eyaml encryptor: FOO. Try "
                         "gem install hiera-eyaml-foo ?"));
    // Also without a key: the scheme is looked up before any key is needed.
    EyamlDecryptContext none;
    QCOMPARE(thrown([&] { decryptEyamlValue(Value("ENC[FOO,abcd]"), none); }).code(), ErrorCode::EyamlDecrypt);
}

void TestEyaml::noKeyKeepsValueEncrypted()
{
    const std::string enc = m_key.enc("hidden");
    const Value data = yaml("pw: " + enc + "\nlist:\n  - " + enc + "\n  - plain\nn: 3\nfolded: >\n  "
                            + enc.substr(0, 40) + "\n  " + enc.substr(40) + "\n");
    EyamlDecryptContext none;
    none.noKeyReason = "cannot read the eyaml private key /nope.pem: No such file or directory";
    const auto r = decryptEyamlValue(data, none);
    QCOMPARE(r.value, data); // every ENC string exactly as written, never empty
    QCOMPARE(r.value.asHash().find("pw")->asString(), enc);
    QVERIFY(r.keptEncrypted);
    QVERIFY(!r.decrypted);
    QCOMPARE(r.notes, std::vector<std::string>{std::string(none.noKeyReason)});
}

void TestEyaml::wrongKey()
{
    const std::string enc = m_other.enc("not for this key");
    const Error e = thrown([&] { decrypt(Value(enc)); });
    QCOMPARE(e.code(), ErrorCode::EyamlDecrypt);
    const std::string prefix = "hiera-eyaml backend error decrypting " + enc.substr(0, kMaxQuotedValue)
        + "... when looking up db::password in /data/secrets.eyaml. Error was ";
    QVERIFY2(e.message().starts_with(prefix), e.what());
    QVERIFY2(e.message().size() > prefix.size() + 10, e.what()); // OpenSSL said something
    QVERIFY2(e.message().size() < 1200, e.what());
}

void TestEyaml::wrongKeyNeverYieldsGarbage()
{
    // Decrypting with a key that is not a recipient must fail every time. OpenSSL's default answer to a
    // wrong key is a random content key, whose garbage passes the padding check about once in 256
    // tries (measured: 15 of 3,000 without CMS_DEBUG_DECRYPT); the decryptor asks for the real error
    // instead. 1,000 tries catch a regression 98 times in 100.
    const Value v(m_other.enc("x"));
    int failures = 0;
    for (int i = 0; i < 1000; ++i)
        failures += thrown([&] { decrypt(v); }).code() == ErrorCode::EyamlDecrypt;
    QCOMPARE(failures, 1000);
}

// clang-format off
void TestEyaml::damagedPayloads_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("Puppet's AAAA") << QStringLiteral("aaaa");
    QTest::newRow("truncated DER") << QStringLiteral("truncated");
    QTest::newRow("flipped ciphertext byte") << QStringLiteral("flipped");
    QTest::newRow("not base64 of DER") << QStringLiteral("text");
    QTest::newRow("only spaces") << QStringLiteral("spaces");
    QTest::newRow("PKCS#7 data, not enveloped") << QStringLiteral("data");
}
// clang-format on

void TestEyaml::damagedPayloads()
{
    QFETCH(QString, kind);
    std::string payload;
    std::string expectedWhy;
    const std::string der = m_key.encryptDer("secret");
    if (kind == QLatin1String("aaaa")) {
        payload = "AAAA";
    } else if (kind == QLatin1String("truncated")) {
        payload = TestKey::base64(der.substr(0, der.size() / 2));
    } else if (kind == QLatin1String("flipped")) {
        // 40 bytes: three AES blocks, the last holding 8 bytes of padding (0x08). The encrypted content
        // ends the DER; flipping the last byte of the next-to-last block flips the last padding byte in
        // CBC, so the padding is invalid every time (a byte flipped in the last block itself would give
        // a random block, whose padding is valid about once in 256 runs).
        std::string d = m_key.encryptDer(std::string(40, 'x'));
        d[d.size() - 17] = static_cast<char>(d[d.size() - 17] ^ 0x55);
        payload = TestKey::base64(d);
    } else if (kind == QLatin1String("text")) {
        payload = "SGVsbG8gd29ybGQgdGhpcyBpcyBub3QgREVS";
    } else if (kind == QLatin1String("spaces")) {
        payload = "   ";
        expectedWhy = "holds no base64 data";
    } else if (kind == QLatin1String("data")) {
        PKCS7* p7 = PKCS7_new();
        QVERIFY(PKCS7_set_type(p7, NID_pkcs7_data) == 1);
        ASN1_OCTET_STRING_set(p7->d.data, reinterpret_cast<const unsigned char*>("hi"), 2);
        unsigned char* out = nullptr;
        const int n = i2d_PKCS7(p7, &out);
        PKCS7_free(p7);
        QVERIFY(n > 0);
        payload = TestKey::base64(std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n)));
        OPENSSL_free(out);
        expectedWhy = "not envelopedData";
    }
    const Error e = thrown([&] { decrypt(Value("ENC[PKCS7," + payload + "]")); });
    QCOMPARE(e.code(), ErrorCode::EyamlDecrypt);
    QVERIFY2(e.message().starts_with("hiera-eyaml backend error decrypting ENC[PKCS7,"), e.what());
    QVERIFY2(e.message().find(". Error was ") != std::string::npos, e.what());
    if (!expectedWhy.empty())
        QVERIFY2(e.message().find(expectedWhy) != std::string::npos, e.what());
    QVERIFY2(printable(e.what()), e.what());
}

void TestEyaml::hugePayloadRefusedQuickly()
{
    const std::string huge = "ENC[PKCS7," + std::string(8u << 20, 'A') + "]";
    QElapsedTimer timer;
    timer.start();
    const Error e = thrown([&] { decrypt(Value(huge)); });
    QCOMPARE(e.code(), ErrorCode::EyamlDecrypt);
    QVERIFY2(e.message().find("more than the 1 MiB") != std::string::npos, e.what());
    QVERIFY2(e.message().size() < 300, e.what()); // the value is quoted shortened
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
    // Just under the bound: decoded and refused by OpenSSL, not by the size check.
    const std::string big = "ENC[PKCS7," + std::string(Pkcs7Decryptor::kMaxPayloadBytes, 'A') + "]";
    const Error e2 = thrown([&] { decrypt(Value(big)); });
    QCOMPARE(e2.code(), ErrorCode::EyamlDecrypt);
    QVERIFY2(e2.message().find("more than the") == std::string::npos, e2.what());
}

void TestEyaml::errorKeepsPlaintextOut()
{
    // The first block decrypts, the second does not: the message quotes the value as written.
    const std::string s = m_key.enc("TOPSECRET-1") + " " + m_other.enc("TOPSECRET-2");
    const Error e = thrown([&] { decrypt(Value(s)); });
    QCOMPARE(e.code(), ErrorCode::EyamlDecrypt);
    QVERIFY(std::string(e.what()).find("TOPSECRET") == std::string::npos);
}

void TestEyaml::errorMessageIsOnePrintableLine()
{
    EyamlDecryptContext c = withKey();
    c.key = "evil\nkey";
    c.path = "/data/\x1b[31mred.eyaml";
    const Error e = thrown([&] { decryptEyamlValue(Value("\x1b]0;title\x07 ENC[PKCS7,AAAA]\nmore"), c); });
    QCOMPARE(e.code(), ErrorCode::EyamlDecrypt);
    QVERIFY2(printable(e.what()), e.what());
    // A long value with multi-byte characters is cut between characters.
    const Error e2 = thrown([&] { decrypt(Value(std::string(59, 'x') + "é ENC[PKCS7,AAAA]")); });
    QVERIFY2(e2.message().find("\\x") == std::string::npos, e2.what());
}

void TestEyaml::keyFromFileIsCached()
{
    const std::string path = ss(m_dir.path()) + "/cached.pem";
    QVERIFY(writeFile(path, m_key.keyPem));
    EyamlKeyStore store;
    const auto first = store.loadFile(path);
    QCOMPARE(store.loadFile(path), first); // same object, not parsed again
    QCOMPARE(Pkcs7Decryptor(first).decrypt(m_key.encryptB64("via file")), std::string("via file"));

    // Replaced by the other key (new mtime): loaded again.
    QVERIFY(writeFile(path, m_other.keyPem));
    const timespec times[2] = {{0, UTIME_OMIT}, {1'000'000'000, 0}};
    QVERIFY(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
    const auto second = store.loadFile(path);
    QVERIFY(second != first);
    QCOMPARE(Pkcs7Decryptor(second).decrypt(m_other.encryptB64("other")), std::string("other"));
    QCOMPARE(store.loadFile(path), second);
}

// clang-format off
void TestEyaml::keyFileProblems_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content"); // "<dir>" makes a directory, "<none>" nothing
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing") << QStringLiteral("missing.pem") << QByteArray("<none>")
                             << QStringLiteral("missing.pem: No such file or directory");
    QTest::newRow("directory") << QStringLiteral("adir.pem") << QByteArray("<dir>")
                               << QStringLiteral("adir.pem: it is a directory");
    QTest::newRow("empty") << QStringLiteral("empty.pem") << QByteArray("")
                           << QStringLiteral("empty.pem is not a PEM private key");
    QTest::newRow("garbage") << QStringLiteral("garbage.pem") << QByteArray("hello\n")
                             << QStringLiteral("garbage.pem is not a PEM private key");
    QTest::newRow("certificate only") << QStringLiteral("cert.pem") << QByteArray("<cert>")
                                      << QStringLiteral("cert.pem is not a PEM private key");
    QTest::newRow("too large") << QStringLiteral("large.pem") << QByteArray("<large>")
                               << QStringLiteral("more than the 256 KiB a key file may have");
}
// clang-format on

void TestEyaml::keyFileProblems()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const std::string path = ss(m_dir.path() + QLatin1Char('/') + name);
    if (content == "<dir>") {
        QVERIFY(QDir().mkpath(qs(path)));
    } else if (content == "<cert>") {
        BIO* bio = BIO_new(BIO_s_mem());
        PEM_write_bio_X509(bio, m_key.cert);
        QVERIFY(writeFile(path, TestKey::bioText(bio)));
        BIO_free(bio);
    } else if (content == "<large>") {
        QVERIFY(writeFile(path, m_key.keyPem + std::string(300u << 10, '\n')));
    } else if (content != "<none>") {
        QVERIFY(writeFile(path, content.toStdString()));
    }
    EyamlKeyStore store;
    EyamlKeyOptions options;
    options.privateKeyFile = path;
    const Error e = thrown([&] { store.load(options); });
    QCOMPARE(e.code(), ErrorCode::EyamlKey);
    QVERIFY2(e.message().find(ss(expected)) != std::string::npos, e.what());
    QVERIFY2(e.message().find(path) != std::string::npos, e.what()); // names the file
    QVERIFY2(printable(e.what()), e.what());
}

void TestEyaml::fifoKeyFileDoesNotHang()
{
    const std::string path = ss(m_dir.path()) + "/fifo.pem";
    QVERIFY(::mkfifo(path.c_str(), 0600) == 0);
    EyamlKeyStore store;
    QElapsedTimer timer;
    timer.start();
    const Error e = thrown([&] { store.loadFile(path); });
    QCOMPARE(e.code(), ErrorCode::EyamlKey);
    QVERIFY2(e.message().find("not a regular file") != std::string::npos, e.what());
    QVERIFY(timer.elapsed() < 2000);
}

void TestEyaml::passphraseKeyRefusedWithoutPrompt()
{
    BIO* bio = BIO_new(BIO_s_mem());
    static char pass[] = "passphrase";
    QVERIFY(PEM_write_bio_PrivateKey(bio, m_key.pkey, EVP_aes_256_cbc(), nullptr, 0, nullptr, pass) == 1);
    const std::string pem = TestKey::bioText(bio);
    BIO_free(bio);
    QVERIFY(pem.find("ENCRYPTED") != std::string::npos);
    const Error e = thrown([&] { PrivateKey::fromPem(pem, "file locked.pem"); });
    QCOMPARE(e.code(), ErrorCode::EyamlKey);
    QVERIFY2(e.message().find("locked.pem is protected by a passphrase") != std::string::npos, e.what());
}

void TestEyaml::nonRsaKeyRefused()
{
    EVP_PKEY* ec = EVP_EC_gen("P-256");
    QVERIFY(ec);
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, ec, nullptr, nullptr, 0, nullptr, nullptr);
    const std::string pem = TestKey::bioText(bio);
    BIO_free(bio);
    EVP_PKEY_free(ec);
    const Error e = thrown([&] { PrivateKey::fromPem(pem, "file ec.pem"); });
    QCOMPARE(e.code(), ErrorCode::EyamlKey);
    QVERIFY2(e.message().find("not an RSA key") != std::string::npos, e.what());
}

void TestEyaml::keyFromEnvironment()
{
    const std::string filePath = ss(m_dir.path()) + "/envfallback.pem";
    QVERIFY(writeFile(filePath, m_other.keyPem));
    EyamlKeyStore store;
    EyamlKeyOptions options;
    options.privateKeyFile = filePath;
    options.privateKeyEnvVar = "HIERA_TST_EYAML_PEM";
    options.b64PrivateKeyEnvVar = "HIERA_TST_EYAML_B64";
    ::unsetenv("HIERA_TST_EYAML_PEM");
    ::unsetenv("HIERA_TST_EYAML_B64");
    const std::string b64 = m_key.encryptB64("from the environment");

    // Variables not set: the file.
    QCOMPARE(store.load(options)->origin(), "file " + filePath);

    // The base64 variable, folded over lines as `base64` writes it.
    std::string encodedPem = TestKey::base64(m_key.keyPem);
    for (std::size_t i = 76; i < encodedPem.size(); i += 77)
        encodedPem.insert(i, "\n");
    QVERIFY(::setenv("HIERA_TST_EYAML_B64", encodedPem.c_str(), 1) == 0);
    auto key = store.load(options);
    QCOMPARE(key->origin(), std::string("environment variable HIERA_TST_EYAML_B64 (base64)"));
    QCOMPARE(Pkcs7Decryptor(key).decrypt(b64), std::string("from the environment"));
    QCOMPARE(store.load(options), key); // cached

    // The PEM variable wins over both.
    QVERIFY(::setenv("HIERA_TST_EYAML_PEM", m_key.keyPem.c_str(), 1) == 0);
    key = store.load(options);
    QCOMPARE(key->origin(), std::string("environment variable HIERA_TST_EYAML_PEM"));
    QCOMPARE(Pkcs7Decryptor(key).decrypt(b64), std::string("from the environment"));
    QCOMPARE(store.load(options), key);

    // A changed value is a new key.
    QVERIFY(::setenv("HIERA_TST_EYAML_PEM", m_other.keyPem.c_str(), 1) == 0);
    QVERIFY(store.load(options) != key);
    QCOMPARE(Pkcs7Decryptor(store.load(options)).decrypt(m_other.encryptB64("o")), std::string("o"));

    // A variable that does not hold a key: the error names the variable, not its value.
    QVERIFY(::setenv("HIERA_TST_EYAML_PEM", "not-a-key-VALUE", 1) == 0);
    const Error e = thrown([&] { store.load(options); });
    QCOMPARE(e.code(), ErrorCode::EyamlKey);
    QVERIFY2(e.message().find("environment variable HIERA_TST_EYAML_PEM is not a PEM private key") != std::string::npos,
             e.what());
    QVERIFY(e.message().find("not-a-key-VALUE") == std::string::npos);

    ::unsetenv("HIERA_TST_EYAML_PEM");
    ::unsetenv("HIERA_TST_EYAML_B64");
    const Error unset = thrown([&] { store.loadEnv("HIERA_TST_EYAML_PEM", false); });
    QVERIFY2(unset.message().find("HIERA_TST_EYAML_PEM that should hold the eyaml private key is not set")
                 != std::string::npos,
             unset.what());
}

void TestEyaml::keyOptionsFromLevel()
{
    const Value options = yaml("pkcs7_private_key: /k/private.pem\npkcs7_public_key: /k/public.pem\n"
                               "pkcs7_private_key_env_var: PEM_VAR\npkcs7_b64_private_key_env_var: 42\n");
    const EyamlKeyOptions o = EyamlKeyOptions::fromLevelOptions(options);
    QCOMPARE(o.privateKeyFile, std::string("/k/private.pem"));
    QCOMPARE(o.privateKeyEnvVar, std::string("PEM_VAR"));
    QCOMPARE(o.b64PrivateKeyEnvVar, std::string()); // not a string
    QVERIFY(EyamlKeyOptions::fromLevelOptions(Value()).empty());
}

void TestEyaml::notDefined()
{
    EyamlKeyStore store;
    Error e = thrown([&] { store.load({}); });
    QCOMPARE(e.code(), ErrorCode::EyamlKey);
    QCOMPARE(e.message(), std::string("pkcs7_private_key is not defined"));
    EyamlKeyOptions onlyVar;
    onlyVar.privateKeyEnvVar = "HIERA_TST_EYAML_UNSET";
    ::unsetenv("HIERA_TST_EYAML_UNSET");
    e = thrown([&] { store.load(onlyVar); });
    QCOMPARE(
        e.message(),
        std::string("pkcs7_private_key is not defined and the environment variable HIERA_TST_EYAML_UNSET is not set"));
}

void TestEyaml::eyamlMadeFixtures()
{
    // Made by `eyaml createkeys` and `eyaml encrypt` (tests/fixtures/eyaml/regen.sh); only the private key
    // is used.
    EyamlKeyStore store;
    EyamlKeyOptions options;
    options.privateKeyFile = kFixtures + "/keys/private_key.pkcs7.pem";
    const Pkcs7Decryptor decryptor(store.load(options));
    const std::string secrets = readAll(QString::fromStdString(kFixtures) + QStringLiteral("/secrets.eyaml"));
    const std::string expected = readAll(QString::fromStdString(kFixtures) + QStringLiteral("/expected.yaml"));
    QVERIFY(!secrets.empty() && !expected.empty());
    QVERIFY(secrets.find("block_form: >") != std::string::npos); // both forms of eyaml encrypt are there
    const Value data = yaml(secrets, "secrets.eyaml");
    const Value want = yaml(expected, "expected.yaml");
    QCOMPARE(data.asHash().size(), want.asHash().size());

    EyamlDecryptContext c;
    c.pkcs7 = &decryptor;
    c.path = "secrets.eyaml";
    for (const hiera::Hash::Entry& entry : data.asHash()) {
        c.key = entry.key.asString();
        const auto r = decryptEyamlValue(entry.value, c);
        QCOMPARE(r.value, *want.asHash().find(entry.key));
        QCOMPARE(r.decrypted, entry.key.asString() != "plain");
        QVERIFY(!r.keptEncrypted);
    }
}

void TestEyaml::concurrentDecryption()
{
    // One decryptor (one EVP_PKEY) shared by threads, as concurrent lookups share it.
    std::vector<std::string> values;
    for (int i = 0; i < 8; ++i)
        values.push_back(m_key.enc("secret number " + std::to_string(i)));
    std::atomic<int> wrong{0}, done{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 40; ++i) {
                const int k = (i + t) % 8;
                try {
                    if (decrypt(Value(values[k])).value != Value("secret number " + std::to_string(k)))
                        ++wrong;
                } catch (...) {
                    ++wrong;
                }
                ++done;
            }
        });
    }
    for (auto& th : threads)
        th.join();
    QCOMPARE(done.load(), 160);
    QCOMPARE(wrong.load(), 0);
}

QTEST_APPLESS_MAIN(TestEyaml)
#include "tst_eyaml.moc"
