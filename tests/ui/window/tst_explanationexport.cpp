// The explanation exported as Markdown, self-contained HTML, JSON and PDF, from the
// window's current answer; decrypted eyaml values redacted unless revealed (README.md, File ▸ Export Explanation).

#include "models/overridesmodel.h"
#include "panels/overridespanel.h"
#include "ui/windowfixture.h"
#include "ui/windowparts.h"
#include "window/explanationreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSettings>

using namespace hiera::ui;

class TestExplanationExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m.setUpOnce("tst_explanationexport"));
        m.createWindow();
        QVERIFY(m.openDemoCopy(QStringLiteral("profile::firewall::rules")));
        m.window->setMergeStrategy(QStringLiteral("deep"));
        QTRY_VERIFY_WITH_TIMEOUT(UiTest::part<OverridesPanel>(m.window)->model()->result()
                                     && UiTest::part<OverridesPanel>(m.window)->model()->result()->leaves.size() > 3,
                                 WindowFixture::timeoutMs);
        m_report = m.window->explanationReport();
    }
    void cleanupTestCase() { m.destroyWindow(); }

    void markdownHoldsTheWholeExplanation()
    {
        const QString md = m_report.toMarkdown();
        for (const char* expected :
             {"# Hiera lookup of `profile::firewall::rules`", "- Merge: deep", "trusted.certname",
              "`web01.example.com`", // a fact the hierarchy used
              "| Per-node data |", "| Common defaults |", "| no key |", "| merged |", // levels and outcomes
              "| ssh.source | `192.0.2.10/32` |", "`10.0.0.0/8` (", "common.yaml:76", // leaf and what it overrode
              "Hiera Explorer", "web01.example.com.yaml"}) {
            QVERIFY2(md.contains(QLatin1String(expected)), expected);
        }
        QVERIFY(md.contains(m_report.time.toString(Qt::ISODate)));
    }

    void exportDialogSuggestsANameAndAddsTheExtension()
    {
        QCOMPARE(ExplanationDocument::suggestedFileName("profile::ntp.servers",
                                                        QStringLiteral("/x/facts/web01.example.com.yaml")),
                 QStringLiteral("profile--ntp.servers-web01.example.com.md"));
        QCOMPARE(ExplanationDocument::suggestedFileName("a b/c", QString()), QStringLiteral("a-b-c.md"));
        QCOMPARE(ExplanationDocument::withExtension(QStringLiteral("/tmp/r"),
                                                    QStringLiteral("HTML, self-contained (*.html)")),
                 QStringLiteral("/tmp/r.html"));
        QCOMPARE(ExplanationDocument::withExtension(QStringLiteral("/tmp/r.json"), QStringLiteral("PDF (*.pdf)")),
                 QStringLiteral("/tmp/r.json"));
        QCOMPARE(ExplanationDocument::formatFor(
                     ExplanationDocument::withExtension(QStringLiteral("/tmp/r"), QStringLiteral("PDF (*.pdf)"))),
                 ExplanationDocument::Format::Pdf);
        // The dialog starts with the format exported last; a name saved in no offered format changes nothing.
        QSettings().remove(QStringLiteral("export"));
        QCOMPARE(ExplanationDocument::lastFilter(), QStringLiteral("Markdown (*.md)"));
        ExplanationDocument::rememberFormat(QStringLiteral("/tmp/r.html"));
        QCOMPARE(ExplanationDocument::lastFilter(), QStringLiteral("HTML, self-contained (*.html)"));
        QCOMPARE(ExplanationDocument::suggestedFileName("k", QString(), ExplanationDocument::lastFilter()),
                 QStringLiteral("k.html"));
        ExplanationDocument::rememberFormat(QStringLiteral("/tmp/r.txt"));
        QCOMPARE(ExplanationDocument::lastFilter(), QStringLiteral("HTML, self-contained (*.html)"));
        ExplanationDocument::rememberFormat(QStringLiteral("/tmp/R.PDF"));
        QCOMPARE(ExplanationDocument::lastFilter(), QStringLiteral("PDF (*.pdf)"));
        // Every filter the dialog offers names a format save() writes.
        for (const QString& filter : ExplanationDocument::fileFilters().split(QStringLiteral(";;")))
            QVERIFY(ExplanationDocument::withExtension(QStringLiteral("r"), filter) != QStringLiteral("r.md")
                    || filter.contains(QLatin1String("*.md")));
    }

    void htmlIsSelfContained()
    {
        const QString html = m_report.toHtml();
        QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>")));
        QVERIFY(html.contains(QLatin1String("<style>")));
        QVERIFY(!html.contains(QRegularExpression(QStringLiteral("(src|href)\\s*="))));
        QVERIFY(html.contains(QLatin1String("10.0.0.0/8")));
        QVERIFY(html.contains(QLatin1String("(data/common.yaml:76)")));
    }

    void jsonIsStructured()
    {
        const QJsonObject o = QJsonDocument::fromJson(m_report.toJson()).object();
        QCOMPARE(o[QStringLiteral("key")].toString(), QStringLiteral("profile::firewall::rules"));
        QVERIFY(o[QStringLiteral("merge")].toString().startsWith(QLatin1String("deep")));
        QCOMPARE(
            o[QStringLiteral("value")].toObject()[QStringLiteral("ssh")].toObject()[QStringLiteral("port")].toInt(),
            22);
        QVERIFY(o[QStringLiteral("consulted")].toArray().size() >= 6);
        QVERIFY(o[QStringLiteral("factsUsed")].toObject().contains(QStringLiteral("trusted.certname")));
        // mapped_paths: the fact the per-element variable runs over, not the variable (unset outside).
        QCOMPARE(
            o[QStringLiteral("factsUsed")].toObject()[QStringLiteral("facts.datacenters")].toArray().at(0).toString(),
            QStringLiteral("dc1"));
        QVERIFY(!o[QStringLiteral("factsUsed")].toObject().contains(QStringLiteral("dc")));
        bool sawSsh = false;
        for (const QJsonValue leaf : o[QStringLiteral("leaves")].toArray()) {
            if (leaf[QStringLiteral("path")].toString() != QLatin1String("ssh.source"))
                continue;
            sawSsh = true;
            // Named from the hierarchy's directory, which the report names in full.
            QCOMPARE(leaf[QStringLiteral("at")].toString(), QStringLiteral("data/nodes/web01.example.com.yaml:8"));
            QCOMPARE(leaf[QStringLiteral("overrode")][0][QStringLiteral("value")].toString(),
                     QStringLiteral("10.0.0.0/8"));
        }
        QVERIFY(sawSsh);
        QVERIFY(!o[QStringLiteral("tool")].toString().isEmpty());
        QVERIFY(!o[QStringLiteral("time")].toString().isEmpty());
    }

    void savesEachFormatIncludingPdf()
    {
        for (const char* name : {"report.md", "report.html", "report.json", "report.pdf"}) {
            const QString path = m.tmp.filePath(QString::fromLatin1(name));
            QString error;
            QVERIFY2(m_report.save(path, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 200);
        }
        QVERIFY(UiTest::readFile(m.tmp.filePath(QStringLiteral("report.pdf"))).startsWith("%PDF"));
        QVERIFY(UiTest::readFile(m.tmp.filePath(QStringLiteral("report.html"))).startsWith("<!DOCTYPE html>"));
    }

    void secretsAreRedactedUnlessRevealed()
    {
        auto outcome = std::make_shared<LookupOutcome>(*m_report.outcome);
        hiera::SourceMark mark = outcome->result.value.mark();
        mark.flags |= hiera::SourceMark::Decrypted;
        outcome->result.value = hiera::Value("s3cret-password").withMark(mark);
        ExplanationDocument report = m_report;
        report.outcome = outcome;
        for (const QString& text : {report.toMarkdown(), report.toHtml(), QString::fromUtf8(report.toJson())}) {
            QVERIFY(!text.contains(QLatin1String("s3cret-password")));
            QVERIFY(text.contains(QLatin1String("sensitive")));
        }
        report.revealSecrets = true;
        QVERIFY(report.toMarkdown().contains(QLatin1String("s3cret-password")));
    }

private:
    WindowFixture m;
    ExplanationDocument m_report;
};

QTEST_MAIN(TestExplanationExport)
#include "tst_explanationexport.moc"
