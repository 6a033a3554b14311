// The secret canary (docs/bad-input.md, "eyaml: keys and `ENC[…]` blocks"): a control repository whose eyaml secrets
// all carry one marker string, driven through every mode, format and export of hiera-lookup and through every error
// path that can be provoked from a decrypted value (bad interpolation, a method that does not exist, alias() inside a
// longer string, an undefined variable, a cycle, a missing key, a merge of mismatched types, a sort that cannot
// compare, a convert_to that cannot convert, a value that grows past the limit). Without --show-secrets the marker must
// never reach standard output or standard error — with one exception Puppet makes too: a plain `hiera-lookup KEY`
// prints the answer it found, decrypted. With --show-secrets the explanation shows it (so the test can tell a redaction
// from a value that is simply absent).

#include "support/eyamltestkey.h"
#include "support/gitcommand.h"
#include "support/hieralookupcli.h"
#include "testutils.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

using namespace testutils;

namespace {

// Every secret's plaintext holds this; nothing else in the repository does.
const QString kMarker = QStringLiteral("CANARY7f3a");

} // namespace

class TestSecretCanary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void errorsNeverQuoteASecret_data();
    void errorsNeverQuoteASecret();
    void everyModeAndFormatRedacts_data();
    void everyModeAndFormatRedacts();
    void growthPastTheLimit();
    void showSecretsShowsThem();

private:
    QStringList base() const;
    QString file(const QString& rel) const { return m_tree->root() + QLatin1Char('/') + rel; }

    TestKey m_key;
    std::unique_ptr<TempTree> m_tree;
    std::unique_ptr<TempTree> m_growTree;
    bool m_gitRepository = false; // m_tree is one, its working tree changed since HEAD (git is installed)
};

void TestSecretCanary::initTestCase()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    m_key.generate();
    const std::string marker = kMarker.toStdString();
    auto enc = [&](const std::string& plain) { return QByteArray::fromStdString(m_key.enc(plain)); };

    // One secret per error path; each decrypts to a string holding the marker.
    const QByteArray secrets = QByteArray("---\n") + "canary::plain: " + enc(marker + "-plain")
        + "\n"
        // A method call Puppet cannot read: "Syntax error in string"
        + "canary::syntax: " + enc(marker + " %{lookup( 'x' )}")
        + "\n"
        // A quoted variable reference that does not parse
        + "canary::badvar: " + enc(marker + " %{facts.'open}")
        + "\n"
        // A method that does not exist, named by the secret itself
        + "canary::method: " + enc("%{" + marker + "('x')}")
        + "\n"
        // alias() inside a longer string
        + "canary::aliaspart: " + enc(marker + " %{alias('canary::plain')}")
        + "\n"
        // An undefined variable, named by the secret (a warning)
        + "canary::undefined: " + enc("x%{" + marker + "}")
        + "\n"
        // A cycle through the secret
        + "canary::cycle: " + enc(marker + " %{lookup('canary::cycle')}")
        + "\n"
        // A lookup of a key that does not exist, named by the secret
        + "canary::missing: " + enc("%{lookup('" + marker + "')}")
        + "\n"
        // Deep-merged with an integer and sorted: Ruby cannot compare them
        + "canary::sorted:\n  - " + enc(marker + "-sorted")
        + "\n"
        // Hash-merged over a hash: wrong type
        + "canary::hash: " + enc(marker + "-hash")
        + "\n"
        // convert_to Integer of a string that is not a number
        + "canary::int: " + enc(marker + "-int")
        + "\n"
        // A decrypted value that looks up another secret and interpolates it again
        + "canary::nested: " + enc("%{lookup('canary::template')}") + "\n"
        + "canary::template: " + enc(marker + " %{::nosuch}") + "\n";
    const QByteArray common = "canary::sorted: [1]\n"
                              "canary::hash: {a: 1}\n"
                              "canary::usesplain: \"pre %{lookup('canary::plain')}\"\n"
                              "canary::aliased: \"%{alias('canary::plain')}\"\n"
                              "canary::list: [\"%{lookup('canary::plain')}\", b]\n"
                              "lookup_options:\n"
                              "  canary::sorted: {merge: {strategy: deep, sort_merged_arrays: true}}\n"
                              "  canary::hash: {merge: hash}\n"
                              "  canary::int: {convert_to: Integer}\n"
                              "  canary::list: {merge: unique}\n";
    m_tree = std::make_unique<TempTree>(
        FileList{{QStringLiteral("keys/private.pem"), QByteArray::fromStdString(m_key.keyPem)},
                 {QStringLiteral("data/secrets.eyaml"), secrets},
                 {QStringLiteral("data/common.yaml"), common},
                 {QStringLiteral("nodes/a.example.com.yaml"), "clientcert: a.example.com\nrole: web\n"},
                 {QStringLiteral("nodes/b.example.com.yaml"), "clientcert: b.example.com\nrole: db\n"}});
    QVERIFY(m_tree->isValid());
    const QByteArray hiera = "version: 5\nhierarchy:\n"
                             "  - name: secrets\n    path: secrets.eyaml\n    lookup_key: eyaml_lookup_key\n"
                             "    options:\n      pkcs7_private_key: '"
        + file(QStringLiteral("keys/private.pem")).toUtf8() + "'\n  - name: common\n    path: common.yaml\n";
    QVERIFY(m_tree->write(QStringLiteral("hiera.yaml"), hiera));

    // A git repository whose commit differs from the working tree: a secret edited, one removed, one
    // broken there, so that --revision-diff has decrypted values on both sides. The working tree, which
    // every other case reads, is the repository above.
    if (!GitCommand::program().isEmpty()) {
        const GitCommand git(m_tree->root());
        QVERIFY(m_tree->write(QStringLiteral("data/secrets.eyaml"),
                              QByteArray(secrets)
                                  .replace("canary::plain: ", "canary::plain: " + enc(marker + "-edited") + "\n#")
                                  .replace("canary::hash: ", "canary::gone: ")
                                  .replace("canary::int: ", "canary::int: " + enc(marker + " %{lookup('x'") + "\n#")));
        QVERIFY(git({QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(git({QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("one")}));
        QVERIFY(m_tree->write(QStringLiteral("data/secrets.eyaml"), secrets));
        m_gitRepository = true;
    }

    // A secret that grows past the interpolation limit (16 MiB), in a repository of its own (every
    // mode above would build it again): it holds a 2 MiB value nine times.
    const QByteArray big = "canary::big: \"" + QByteArray(2 << 20, 'x') + "\"\n";
    std::string nineTimes;
    for (int i = 0; i < 9; ++i)
        nineTimes += "%{lookup('canary::big')}";
    m_growTree = std::make_unique<TempTree>(
        FileList{{QStringLiteral("keys/private.pem"), QByteArray::fromStdString(m_key.keyPem)},
                 {QStringLiteral("data/secrets.eyaml"), "canary::grow: " + enc(marker + nineTimes) + "\n"},
                 {QStringLiteral("data/common.yaml"), big}});
    QVERIFY(m_growTree->isValid());
    QVERIFY(m_growTree->write(QStringLiteral("hiera.yaml"),
                              QByteArray(hiera).replace(m_tree->root().toUtf8(), m_growTree->root().toUtf8())));
    // The key file itself is not a secret the marker could leak from.
    QVERIFY(!m_key.keyPem.empty() && m_key.keyPem.find(marker) == std::string::npos);
}

QStringList TestSecretCanary::base() const
{
    return {QStringLiteral("--config"), QString::fromStdString(m_tree->hieraYaml())};
}

// Each key with the exit status that shows its path was taken (0 found, 1 not found, 2 an error).
const QList<QPair<QString, int>>& canaryCases()
{
    static const QList<QPair<QString, int>> cases{
        {QStringLiteral("canary::plain"), 0},     {QStringLiteral("canary::syntax"), 2},
        {QStringLiteral("canary::badvar"), 2},    {QStringLiteral("canary::method"), 2},
        {QStringLiteral("canary::aliaspart"), 2}, {QStringLiteral("canary::undefined"), 0},
        {QStringLiteral("canary::cycle"), 2},     {QStringLiteral("canary::missing"), 0},
        {QStringLiteral("canary::sorted"), 2},    {QStringLiteral("canary::hash"), 2},
        {QStringLiteral("canary::int"), 2},       {QStringLiteral("canary::nested"), 0},
        {QStringLiteral("canary::usesplain"), 0}, {QStringLiteral("canary::aliased"), 0},
        {QStringLiteral("canary::list"), 0},      {QStringLiteral("canary::list.0"), 0},
        {QStringLiteral("canary::absent"), 1},
    };
    return cases;
}

void TestSecretCanary::errorsNeverQuoteASecret_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("exitCode");
    for (const auto& [key, exitCode] : canaryCases())
        QTest::newRow(qPrintable(key)) << key << exitCode;
}

// A plain lookup: an error (standard error) never quotes the secret; a found answer is printed as
// Puppet prints it.
void TestSecretCanary::errorsNeverQuoteASecret()
{
    QFETCH(QString, key);
    QFETCH(int, exitCode);
    const CliResult r = runHieraLookup(base() + QStringList{key});
    QVERIFY2(r.exitCode == exitCode, qPrintable(QString::number(r.exitCode) + QLatin1Char(' ') + r.err));
    if (exitCode == 2) // the error names the file and line the value came from, or at least what failed
        QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: error: ")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(kMarker), qPrintable(r.err));
    if (r.exitCode != 0)
        QVERIFY2(!r.out.contains(kMarker), qPrintable(r.out));
}

void TestSecretCanary::everyModeAndFormatRedacts_data()
{
    QTest::addColumn<QStringList>("args");
    const QString nodes = file(QStringLiteral("nodes"));
    const QString a = file(QStringLiteral("nodes/a.example.com.yaml"));
    const QString b = file(QStringLiteral("nodes/b.example.com.yaml"));
    for (const auto& [key, exitCode] : canaryCases()) {
        QTest::newRow(qPrintable(key + " --explain")) << QStringList{QStringLiteral("--explain"), key};
        for (const char* format : {"json", "yaml", "markdown", "html"})
            QTest::newRow(qPrintable(key + " --explain --format " + format)) << QStringList{
                QStringLiteral("--explain"), QStringLiteral("--format"), QString::fromLatin1(format), key};
        for (const char* format : {"table", "csv", "json", "markdown", "yaml"})
            QTest::newRow(qPrintable(key + " --nodes --format " + format)) << QStringList{
                QStringLiteral("--nodes"), nodes, QStringLiteral("--format"), QString::fromLatin1(format), key};
        QTest::newRow(qPrintable(key + " --nodes --node --explain")) << QStringList{
            QStringLiteral("--nodes"),   nodes, QStringLiteral("--node"), QStringLiteral("a.example.com"),
            QStringLiteral("--explain"), key};
    }
    for (const char* format : {"yaml", "json", "csv"}) {
        QTest::newRow(qPrintable(QStringLiteral("--all-keys --format ") + format))
            << QStringList{QStringLiteral("--facts"), a, QStringLiteral("--all-keys"), QStringLiteral("--format"),
                           QString::fromLatin1(format)};
        QTest::newRow(qPrintable(QStringLiteral("--nodes --node --all-keys --format ") + format))
            << QStringList{QStringLiteral("--nodes"),    nodes,
                           QStringLiteral("--node"),     QStringLiteral("a.example.com"),
                           QStringLiteral("--all-keys"), QStringLiteral("--format"),
                           QString::fromLatin1(format)};
    }
    if (m_gitRepository) {
        for (const char* format : {"yaml", "json", "markdown", "html"})
            QTest::newRow(qPrintable(QStringLiteral("--revision-diff --format ") + format))
                << QStringList{QStringLiteral("--nodes"),         nodes,
                               QStringLiteral("--revision-diff"), QStringLiteral("HEAD"),
                               QStringLiteral("--format"),        QString::fromLatin1(format)};
    }
    for (const char* format : {"table", "markdown", "json", "csv"}) {
        QTest::newRow(qPrintable(QStringLiteral("--diff-facts --format ") + format)) << QStringList{
            QStringLiteral("--diff-facts"), a, b, QStringLiteral("--format"), QString::fromLatin1(format)};
        QTest::newRow(qPrintable(QStringLiteral("--nodes --diff --format ") + format))
            << QStringList{QStringLiteral("--nodes"),       nodes,
                           QStringLiteral("--diff"),        QStringLiteral("a.example.com"),
                           QStringLiteral("b.example.com"), QStringLiteral("--format"),
                           QString::fromLatin1(format)};
    }
}

void TestSecretCanary::everyModeAndFormatRedacts()
{
    QFETCH(QStringList, args);
    const CliResult r = runHieraLookup(base() + args);
    QVERIFY2(r.exitCode >= 0 && r.exitCode <= 2, qPrintable(QString::number(r.exitCode) + r.err));
    QVERIFY2(!r.err.contains(kMarker), qPrintable(r.err));
    QVERIFY2(!r.out.contains(kMarker), qPrintable(r.out));
}

void TestSecretCanary::growthPastTheLimit()
{
    const QStringList config{QStringLiteral("--config"), QString::fromStdString(m_growTree->hieraYaml())};
    for (const QStringList& mode :
         {QStringList{}, QStringList{QStringLiteral("--explain")},
          QStringList{QStringLiteral("--explain"), QStringLiteral("--format"), QStringLiteral("json")}}) {
        const CliResult r = runHieraLookup(config + mode + QStringList{QStringLiteral("canary::grow")});
        QVERIFY2(r.exitCode == 2, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("expands to more than")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(kMarker) && !r.out.contains(kMarker), qPrintable(r.err));
    }
}

// The control: with --show-secrets the same explanations do show the marker, so the redactions above
// are redactions, not values that never made it into the output.
void TestSecretCanary::showSecretsShowsThem()
{
    for (const char* format : {"yaml", "markdown", "html"}) {
        const CliResult r = runHieraLookup(base()
                                           + QStringList{QStringLiteral("--explain"), QStringLiteral("--show-secrets"),
                                                         QStringLiteral("--format"), QString::fromLatin1(format),
                                                         QStringLiteral("canary::plain")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(kMarker + QStringLiteral("-plain")), qPrintable(r.out));
    }
    const CliResult all =
        runHieraLookup(base()
                       + QStringList{QStringLiteral("--facts"), file(QStringLiteral("nodes/a.example.com.yaml")),
                                     QStringLiteral("--all-keys"), QStringLiteral("--show-secrets")});
    QVERIFY2(all.out.contains(kMarker + QStringLiteral("-plain")), qPrintable(all.out));
    if (m_gitRepository) {
        // The edited secret is a change either way; its values show only when asked for.
        const QStringList diff{QStringLiteral("--nodes"),         file(QStringLiteral("nodes")),
                               QStringLiteral("--revision-diff"), QStringLiteral("HEAD"),
                               QStringLiteral("--format"),        QStringLiteral("json")};
        const CliResult masked = runHieraLookup(base() + diff);
        QVERIFY2(masked.exitCode == 0, qPrintable(masked.err));
        QVERIFY2(masked.out.contains(QStringLiteral("\"key\": \"canary::plain\"")), qPrintable(masked.out));
        QVERIFY2(masked.out.contains(QStringLiteral("<sensitive>")), qPrintable(masked.out));
        // The Markdown and HTML tables, where both sides read `<sensitive>`, say that a secret differs.
        for (const char* format : {"markdown", "html"}) {
            QStringList table = diff;
            table.last() = QString::fromLatin1(format);
            const CliResult r = runHieraLookup(base() + table);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains(QStringLiteral("(a hidden secret differs)")), qPrintable(r.out));
            QVERIFY2(!runHieraLookup(base() + table + QStringList{QStringLiteral("--show-secrets")})
                          .out.contains(QStringLiteral("(a hidden secret differs)")),
                     format);
        }
        const CliResult shown = runHieraLookup(base() + diff + QStringList{QStringLiteral("--show-secrets")});
        QVERIFY2(shown.out.contains(kMarker + QStringLiteral("-edited")), qPrintable(shown.out));
        QVERIFY2(shown.out.contains(kMarker + QStringLiteral("-plain")), qPrintable(shown.out));
    }
    // And a plain lookup prints the answer it found, as puppet lookup does.
    const CliResult plain = runHieraLookup(base() + QStringList{QStringLiteral("canary::plain")});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
    QVERIFY2(plain.out.contains(kMarker + QStringLiteral("-plain")), qPrintable(plain.out));
}

QTEST_GUILESS_MAIN(TestSecretCanary)
#include "tst_secretcanary.moc"
