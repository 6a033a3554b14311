// The public conformance cases (/work/shared/conformance/cases) and the project's own cases in the
// same format (tests/conformance/cases, each answered by `puppet lookup` 7.23 when it was written) run
// in-process: each case is copied into a QTemporaryDir with __CASE_DIR__ replaced, facts are loaded the
// way `puppet lookup --facts` does, the scope is hiera-lookup's (environment `production`), and every
// lookup's outcome (found value / not found / error) is compared structurally.

#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/nodescope.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>

using namespace hiera;
using namespace testutils;

class TestConformance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cases_data();
    void cases();
};

// The public set (HIERA_CONFORMANCE_CASES overrides where it is), then the project's own.
static QStringList casesDirs()
{
    return {testpaths::conformanceCases(), testpaths::projectCases()};
}

static bool copyCase(const QString& from, const QString& to)
{
    QDirIterator it(from, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString rel = QDir(from).relativeFilePath(src);
        const QString dst = to + QLatin1Char('/') + rel;
        const QFileInfo info(src);
        if (info.isDir()) {
            if (!QDir().mkpath(dst))
                return false;
            continue;
        }
        QFile in(src);
        if (!in.open(QIODevice::ReadOnly))
            return false;
        QByteArray bytes = in.readAll();
        bytes.replace("__CASE_DIR__", to.toUtf8()); // byte-exact otherwise (BOM and CRLF cases)
        if (!QDir().mkpath(QFileInfo(dst).absolutePath()))
            return false;
        QFile out(dst);
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
            return false;
    }
    return true;
}

// clang-format off
void TestConformance::cases_data()
{
    QTest::addColumn<QString>("caseDir");
    QTest::addColumn<int>("index");
    QVERIFY2(QDir(testpaths::projectCases()).exists(), qPrintable(testpaths::projectCases() + QStringLiteral(" is missing")));
    for (const QString& path : casesDirs()) {
    const QDir dir(path);
    if (!dir.exists()) {
        QTest::newRow("no public cases on this machine") << QString() << 0;
        continue;
    }
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QFile f(dir.filePath(name + "/case.json"));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const Value spec = json(f.readAll().toStdString());
        const Value* lookups = spec.asHash().find("lookups");
        if (!lookups || !lookups->isArray())
            continue;
        for (std::size_t i = 0; i < lookups->asArray().size(); ++i) {
            const Value& l = lookups->asArray()[i];
            const QString key = qs(l.asHash().find("key")->asString());
            QTest::addRow("%s #%d %s", qPrintable(name), int(i), qPrintable(key)) << dir.filePath(name) << int(i);
        }
    }
    }
}
// clang-format on

void TestConformance::cases()
{
    QFETCH(QString, caseDir);
    QFETCH(int, index);
    if (caseDir.isEmpty())
        QSKIP("no public conformance cases on this machine");
    QFile f(caseDir + "/case.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const Value spec = json(f.readAll().toStdString());
    const Value& lookup = spec.asHash().find("lookups")->asArray()[std::size_t(index)];
    const Hash& l = lookup.asHash();
    const Hash& expect = l.find("expect")->asHash();

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString root = tmp.path() + "/case";
    QVERIFY(copyCase(caseDir, root));

    LookupRequest options;
    const Value* merge = l.find("merge");
    if (merge && merge->isString()) {
        Hash m;
        m.set("strategy", *merge);
        const Value* opts = l.find("options");
        if (opts && opts->isHash())
            for (const auto& e : opts->asHash())
                if (!e.value.isNull() && !(e.value.isBoolean() && !e.value.asBoolean()))
                    m.set(e.key, e.value);
        options.merge = MergeSpec::fromValue(Value(m));
    }

    LookupResult r;
    try {
        Value facts = makeHash({});
        if (QFile::exists(root + "/facts.yaml"))
            facts = loadFactsFile(ss(root + "/facts.yaml"));
        const NodeScope scope({facts, certnameFor(facts), "production", {}});
        // As hiera-lookup --config CASE/hiera.yaml: the environment around it, modules included.
        Environment env = Environment::discover(ss(root + "/hiera.yaml"), EnvironmentOptions{});
        auto engine = Engine::fromLayers(std::move(env.layers), EngineOptions{});
        r = engine->lookup(scope, l.find("key")->asString(), options);
    } catch (const Error& e) {
        r.status = LookupResult::Status::Error;
        r.error = e;
    }
    const QString description = qs(spec.asHash().find("description")->asString());
    const Value* wantError = expect.find("error");
    if (wantError && wantError->isBoolean() && wantError->asBoolean()) {
        QVERIFY2(r.status == LookupResult::Status::Error,
                 qPrintable(description + " — expected an error, got "
                            + (r.found() ? "found " + qs(toJson(r.value)) : QStringLiteral("not found"))));
        return;
    }
    if (r.error)
        QFAIL(qPrintable(description + " — unexpected error: " + QString::fromUtf8(r.error->what())));
    const Value* found = expect.find("found");
    QVERIFY(found && found->isBoolean());
    if (!found->asBoolean()) {
        QVERIFY2(!r.found(), qPrintable(description + " — expected not found, got " + qs(toJson(r.value))));
        return;
    }
    QVERIFY2(r.found(), qPrintable(description + " — expected found, got not found"));
    const Value& want = *expect.find("value");
    // Compared as hiera-lookup --format json writes it, as Puppet's --render-as json did for the case:
    // a hash key that is no string (a float, or what alias() made of a null or an array) in its string
    // form (tests/conformance/cases/e15, e18).
    Value rendered;
    const auto renderError = catchError([&] { rendered = json(toJson(r.value)); });
    if (renderError)
        QFAIL(qPrintable(description + " — the answer has no JSON form: " + QString::fromUtf8(renderError->what())));
    QVERIFY2(unorderedEqual(rendered, want),
             qPrintable(description + "\n   Actual: " + qs(toJson(r.value)) + "\n   Expected: " + qs(toJson(want))));
}

QTEST_APPLESS_MAIN(TestConformance)
#include "tst_conformance.moc"
