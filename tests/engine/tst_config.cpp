// hiera.yaml version 5 (docs/seed-rules.md §2, docs/hiera-reference.md §1): what parses, what is rejected (with the
// ErrorCode and a location naming the file, line and column), backend and datadir resolution, location order.

#include "testutils.h"

#include <hiera/config.h>
#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/scope.h>

#include <QDir>
#include <QTest>

using namespace hiera;
using namespace testutils;

class TestConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void minimal();
    void full();
    void rejections_data();
    void rejections();
    void messages_data();
    void messages();
    void acceptedForms_data();
    void acceptedForms();
    void backendSelection();
    void locationCandidateOrder();
    void mappedPathsParsed();
    void defaultHierarchyWhenAbsent();
    void emptyHierarchy();
    void loadFromFile();
    void loadMissingFile();
    void datadirResolution();
    void datadirResolutionByLookup();
};

static const std::string kFile = "/cfg/hiera.yaml";

static Config parse(const QByteArray& text)
{
    return Config::parse(text.toStdString(), "/cfg", kFile);
}

void TestConfig::minimal()
{
    const Config c = parse("version: 5\n");
    QCOMPARE(qs(c.directory), QStringLiteral("/cfg"));
    QVERIFY(!c.hierarchyDeclared);
}

void TestConfig::full()
{
    const Config c = parse("version: 5\n" // 1
                           "defaults:\n" // 2
                           "  datadir: data\n" // 3
                           "  data_hash: yaml_data\n" // 4
                           "hierarchy:\n" // 5
                           "  - name: \"Per-node data\"\n" // 6
                           "    path: \"nodes/%{trusted.certname}.yaml\"\n" // 7
                           "  - name: \"Per-OS defaults\"\n" // 8
                           "    path: \"os/%{facts.os.family}.yaml\"\n"
                           "  - name: Common\n" // 10
                           "    path: common.yaml\n"
                           "    datadir: shared\n");
    QVERIFY(c.hierarchyDeclared);
    QCOMPARE(c.hierarchy.size(), std::size_t(3));
    const Level& node = c.hierarchy[0];
    QCOMPARE(qs(node.name), QStringLiteral("Per-node data"));
    QCOMPARE(node.kind, BackendKind::DataHash);
    QCOMPARE(qs(node.function), QStringLiteral("yaml_data"));
    QVERIFY(node.backendInherited);
    QCOMPARE(qs(node.datadir), QStringLiteral("data"));
    QCOMPARE(node.locations.size(), std::size_t(1));
    QCOMPARE(node.locations[0].kind, LocationSpec::Kind::Path);
    QCOMPARE(qs(node.locations[0].pattern), QStringLiteral("nodes/%{trusted.certname}.yaml")); // uninterpolated
    QCOMPARE(qs(node.locations[0].location.file), qs(kFile));
    QCOMPARE(node.locations[0].location.line, 7);
    QVERIFY(node.locations[0].location.column >= 1);
    QCOMPARE(node.location.line, 6);
    QCOMPARE(qs(node.location.file), qs(kFile));
    QCOMPARE(qs(c.hierarchy[1].name), QStringLiteral("Per-OS defaults"));
    QCOMPARE(c.hierarchy[1].location.line, 8);
    QCOMPARE(qs(c.hierarchy[2].datadir), QStringLiteral("shared"));
    QCOMPARE(c.hierarchy[2].location.line, 10);
    QCOMPARE(qs(backendKindName(BackendKind::DataHash)), QStringLiteral("data_hash"));
    QCOMPARE(qs(backendKindName(BackendKind::DataDig)), QStringLiteral("data_dig"));
    QCOMPARE(qs(backendKindName(BackendKind::LookupKey)), QStringLiteral("lookup_key"));
}

// clang-format off
void TestConfig::rejections_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<int>("lineMin"); // the error's line must be within [lineMin, lineMax]; 0 0 = any
    QTest::addColumn<int>("lineMax");
    const QByteArray v5 = "version: 5\n";
    const QByteArray h = "hierarchy:\n"; // line 2 after v5

    // version (§1.1, §1.7 item 1)
    QTest::newRow("version missing") << QByteArray("hierarchy: []\n") << ErrorCode::ConfigVersion << 0 << 0;
    QTest::newRow("empty file") << QByteArray("") << ErrorCode::ConfigVersion << 0 << 0;
    QTest::newRow("comment only") << QByteArray("# nothing\n") << ErrorCode::ConfigVersion << 0 << 0;
    QTest::newRow("version string") << QByteArray("version: '5'\n") << ErrorCode::ConfigVersion << 1 << 1;
    QTest::newRow("version float") << QByteArray("version: 5.0\n") << ErrorCode::ConfigVersion << 1 << 1;
    QTest::newRow("version 3") << QByteArray("version: 3\n") << ErrorCode::ConfigVersion << 1 << 1;
    QTest::newRow("version 4") << QByteArray("version: 4\n") << ErrorCode::ConfigVersion << 1 << 1;
    QTest::newRow("version 6") << QByteArray("hierarchy: []\nversion: 6\n") << ErrorCode::ConfigVersion << 2 << 2;
    QTest::newRow("version null") << QByteArray("version: ~\n") << ErrorCode::ConfigVersion << 1 << 1;
    QTest::newRow("version list") << QByteArray("version: [5]\n") << ErrorCode::ConfigVersion << 1 << 1;
    QTest::newRow("yaml syntax") << QByteArray("version: 5\nhierarchy: [\n") << ErrorCode::ConfigSyntax << 0 << 0;

    // top level (§1.1)
    QTest::newRow("unknown top-level key") << v5 + "foo: 1\n" << ErrorCode::ConfigUnknownKey << 2 << 2;
    QTest::newRow("default_hierarchy") << v5 + "default_hierarchy:\n  - name: d\n    path: d.yaml\n"
                                       << ErrorCode::ConfigDefaultHierarchy << 2 << 2;
    QTest::newRow("hierarchy not a list") << v5 + "hierarchy: {name: x, path: y}\n"
                                          << ErrorCode::ConfigInvalidValue << 2 << 2;
    QTest::newRow("defaults not a mapping") << v5 + "defaults: [datadir]\n" << ErrorCode::ConfigInvalidValue << 2 << 2;

    // defaults (§1.2, §1.7 items 2, 3)
    QTest::newRow("unknown key in defaults") << v5 + "defaults:\n  datadir: data\n  foo: bar\n"
                                             << ErrorCode::ConfigUnknownKey << 4 << 4;
    QTest::newRow("defaults data_hash + lookup_key") << v5 + "defaults:\n  data_hash: yaml_data\n  lookup_key: eyaml\n"
                                                     << ErrorCode::ConfigMultipleBackends << 2 << 4;
    QTest::newRow("defaults data_hash + data_dig") << v5 + "defaults:\n  data_dig: x\n  data_hash: yaml_data\n"
                                                   << ErrorCode::ConfigMultipleBackends << 2 << 4;
    QTest::newRow("defaults empty datadir") << v5 + "defaults:\n  datadir: ''\n"
                                            << ErrorCode::ConfigInvalidValue << 3 << 3;
    QTest::newRow("defaults options not a mapping") << v5 + "defaults:\n  options: 5\n"
                                                    << ErrorCode::ConfigInvalidValue << 3 << 3;

    // hierarchy entries (§1.3, §1.7 items 4-6)
    QTest::newRow("entry not a mapping") << v5 + h + "  - common.yaml\n" << ErrorCode::ConfigInvalidValue << 3 << 3;
    QTest::newRow("unknown key in level") << v5 + h + "  - name: x\n    path: x.yaml\n    foo: 1\n"
                                          << ErrorCode::ConfigUnknownKey << 5 << 5;
    for (const char* key : {"uri: x", "uris: [x]", "hiera3_backend: yaml", "v4_data_hash: x"})
        QTest::newRow(qPrintable(QStringLiteral("Puppet-only key %1").arg(key)))
            << v5 + h + "  - name: x\n    path: x.yaml\n    " + key + "\n"
            << ErrorCode::ConfigUnknownKey << 5 << 5;
    QTest::newRow("level without name") << v5 + h + "  - path: x.yaml\n" << ErrorCode::ConfigMissingName << 3 << 3;
    QTest::newRow("duplicate level names") << v5 + h + "  - name: a\n    path: 1.yaml\n  - name: a\n    path: 2.yaml\n"
                                           << ErrorCode::ConfigDuplicateName << 5 << 5;
    QTest::newRow("level without location") << v5 + h + "  - name: a\n    datadir: d\n"
                                            << ErrorCode::ConfigNoLocation << 3 << 4;
    QTest::newRow("level with only a backend") << v5 + h + "  - name: a\n    data_hash: yaml_data\n"
                                               << ErrorCode::ConfigNoLocation << 3 << 4;
    QTest::newRow("level data_hash + data_dig") << v5 + h
            + "  - name: a\n    path: a\n    data_hash: yaml_data\n"
              "    data_dig: x\n" << ErrorCode::ConfigMultipleBackends
                                                << 3 << 6;
    QTest::newRow("level data_hash + lookup_key") << v5 + h
            + "  - name: a\n    path: a\n    lookup_key: e\n"
              "    data_hash: yaml_data\n" << ErrorCode::ConfigMultipleBackends
                                                  << 3 << 6;
    QTest::newRow("mapped_paths two") << v5 + h + "  - name: a\n    mapped_paths: [dcs, dc]\n"
                                      << ErrorCode::ConfigMappedPaths << 4 << 4;
    QTest::newRow("mapped_paths four") << v5 + h + "  - name: a\n    mapped_paths: [dcs, dc, 'd/%{dc}.yaml', x]\n"
                                       << ErrorCode::ConfigMappedPaths << 4 << 4;
    QTest::newRow("mapped_paths string") << v5 + h + "  - name: a\n    mapped_paths: 'd/%{dc}.yaml'\n"
                                         << ErrorCode::ConfigMappedPaths << 4 << 4;
    QTest::newRow("mapped_paths non-string element") << v5 + h + "  - name: a\n    mapped_paths: [dcs, 5, 'd.yaml']\n"
                                                     << ErrorCode::ConfigMappedPaths << 4 << 4;
    QTest::newRow("mapped_paths nested list") << v5 + h + "  - name: a\n    mapped_paths: [dcs, dc, [x]]\n"
                                              << ErrorCode::ConfigMappedPaths << 4 << 4;
    QTest::newRow("mapped_paths empty") << v5 + h + "  - name: a\n    mapped_paths: []\n"
                                        << ErrorCode::ConfigMappedPaths << 4 << 4;
    QTest::newRow("path not a string") << v5 + h + "  - name: a\n    path: 5\n"
                                       << ErrorCode::ConfigInvalidValue << 4 << 4;
    QTest::newRow("path empty") << v5 + h + "  - name: a\n    path: ''\n" << ErrorCode::ConfigInvalidValue << 4 << 4;
    QTest::newRow("paths with a hash") << v5 + h + "  - name: a\n    paths: [{x: 1}]\n"
                                       << ErrorCode::ConfigInvalidValue << 4 << 4;
    QTest::newRow("glob not a string") << v5 + h + "  - name: a\n    glob: [a]\n"
                                       << ErrorCode::ConfigInvalidValue << 4 << 4;
    QTest::newRow("level empty datadir") << v5 + h + "  - name: a\n    path: a\n    datadir: ''\n"
                                         << ErrorCode::ConfigInvalidValue << 5 << 5;
    QTest::newRow("level options not a mapping") << v5 + h + "  - name: a\n    path: a\n    options: [x]\n"
                                                 << ErrorCode::ConfigInvalidValue << 5 << 5;

    // lookup()/hiera()/alias() where only scope variables are allowed (§1.7 item 8, §2.1)
    const QByteArray lvl = v5 + h + "  - name: a\n"; // the level's keys start at line 4
    QTest::newRow("lookup() in path") << lvl + "    path: \"%{lookup('b')}.yaml\"\n"
                                      << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("hiera() in path") << lvl + "    path: \"%{hiera('b')}.yaml\"\n"
                                     << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("alias() in path") << lvl + "    path: \"%{alias('b')}\"\n"
                                     << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("lookup() with blanks in path") << lvl + "    path: 'x/%{ lookup(\"b\") }.yaml'\n"
                                                  << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("lookup() in paths") << lvl + "    paths:\n      - ok.yaml\n      - \"%{lookup('b')}.yaml\"\n"
                                       << ErrorCode::ConfigMethodInPath << 4 << 6;
    QTest::newRow("lookup() in glob") << lvl + "    glob: \"%{lookup('b')}/*.yaml\"\n"
                                      << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("lookup() in globs") << lvl + "    globs: [\"%{hiera('b')}/*.yaml\"]\n"
                                       << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("lookup() in mapped_paths template")
        << lvl + "    mapped_paths: [dcs, dc, \"%{lookup('b')}/%{dc}.yaml\"]\n"
        << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("lookup() in level datadir") << lvl + "    path: a.yaml\n    datadir: \"%{lookup('x')}\"\n"
                                               << ErrorCode::ConfigMethodInPath << 5 << 5;
    QTest::newRow("lookup() in defaults datadir") << v5 + "defaults:\n  datadir: \"%{alias('x')}\"\n"
                                                  << ErrorCode::ConfigMethodInPath << 3 << 3;
    QTest::newRow("lookup() in options") << lvl + "    path: a.yaml\n    options:\n      key: \"%{lookup('k')}\"\n"
                                         << ErrorCode::ConfigMethodInPath << 5 << 6;
    // Puppet refuses every method there, scope() and literal() included (tests/conformance/cases/e05-e09)
    QTest::newRow("scope() in path") << lvl + "    path: \"%{scope('osfamily')}.yaml\"\n"
                                     << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("literal() in path") << lvl + "    path: \"%{literal('%')}.yaml\"\n"
                                       << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("scope() in globs") << lvl + "    globs: [\"%{scope('r')}/*.yaml\"]\n"
                                      << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("scope() in mapped_paths template") << lvl + "    mapped_paths: [dcs, dc, \"%{scope('dc')}.yaml\"]\n"
                                                      << ErrorCode::ConfigMethodInPath << 4 << 4;
    QTest::newRow("scope() in level datadir") << lvl + "    path: a.yaml\n    datadir: \"data_%{scope('env')}\"\n"
                                              << ErrorCode::ConfigMethodInPath << 5 << 5;
    QTest::newRow("literal() in options") << lvl + "    path: a.yaml\n    options:\n      key: \"%{literal('x')}\"\n"
                                          << ErrorCode::ConfigMethodInPath << 5 << 6;
    QTest::newRow("unknown method in path") << lvl + "    path: \"%{foo('x')}.yaml\"\n"
                                            << ErrorCode::ConfigMethodInPath << 4 << 4;
}
// clang-format on

void TestConfig::rejections()
{
    QFETCH(QByteArray, text);
    QFETCH(ErrorCode, code);
    QFETCH(int, lineMin);
    QFETCH(int, lineMax);
    const auto err = catchError([&] { parse(text); });
    QVERIFY2(err.has_value(), "expected a hiera::Error");
    QCOMPARE(err->code(), code);
    QCOMPARE(qs(err->location().file), qs(kFile));
    if (lineMin) {
        QVERIFY2(
            err->location().line >= lineMin && err->location().line <= lineMax,
            qPrintable(QStringLiteral("line %1 not in [%2, %3]").arg(err->location().line).arg(lineMin).arg(lineMax)));
        QVERIFY(err->location().column >= 1);
        QVERIFY(QByteArray(err->what()).startsWith(QByteArray::fromStdString(kFile + ":")));
    }
}

// clang-format off
void TestConfig::messages_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("version missing") << QByteArray("hierarchy: []\n") << "only version 5 is supported";
    QTest::newRow("version 6") << QByteArray("version: 6\n") << "only version 5 is supported";
    QTest::newRow("version string") << QByteArray("version: '5'\n") << "only version 5 is supported";
    QTest::newRow("multiple backends") << QByteArray("version: 5\ndefaults:\n  data_hash: a\n  lookup_key: b\n")
                                       << "declares multiple backend functions";
    QTest::newRow("level multiple backends")
        << QByteArray("version: 5\nhierarchy:\n  - name: x\n    path: a\n    data_hash: a\n    data_dig: b\n")
        << "declares multiple backend functions";
    QTest::newRow("unknown key named") << QByteArray("version: 5\nhierarchy:\n  - name: x\n    path: a\n    zork: 1\n")
                                       << "zork";
    QTest::newRow("duplicate name named")
        << QByteArray("version: 5\nhierarchy:\n  - name: dup\n    path: a\n  - name: dup\n    path: b\n") << "dup";
    // Puppet's words, the level, and what to write instead
    QTest::newRow("scope() in path: Puppet's words")
        << QByteArray("version: 5\nhierarchy:\n  - name: by os\n    path: \"%{scope('os.family')}.yaml\"\n")
        << "Interpolation using method syntax is not allowed in this context";
    QTest::newRow("scope() in path: the level") << QByteArray("version: 5\nhierarchy:\n  - name: by os\n    path: \"%{scope('os.family')}.yaml\"\n")
        << "in the path of hierarchy entry 'by os'";
    QTest::newRow("scope() in path: what to write") << QByteArray("version: 5\nhierarchy:\n  - name: by os\n    path: \"%{scope('os.family')}.yaml\"\n")
        << "write %{os.family} instead";
    QTest::newRow("literal() in glob: what to write") << QByteArray("version: 5\nhierarchy:\n  - name: p\n    glob: \"%{literal('%')}*.yaml\"\n")
        << "write '%' as it is instead";
}
// clang-format on

void TestConfig::messages()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, fragment);
    const auto err = catchError([&] { parse(text); });
    QVERIFY(err.has_value());
    QVERIFY2(qs(err->message()).contains(fragment), err->what());
}

// clang-format off
void TestConfig::acceptedForms_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("levels");
    const QByteArray v5 = "version: 5\n";
    QTest::newRow("plan_hierarchy is ignored") << v5
            + "plan_hierarchy:\n  - name: p\n    path: p.yaml\n"
              "hierarchy:\n  - name: c\n    path: c.yaml\n"
                                               << 1;
    QTest::newRow("paths as a single string") << v5 + "hierarchy:\n  - name: c\n    paths: c.yaml\n" << 1;
    QTest::newRow("path + paths + glob + globs + mapped_paths") << v5
            + "hierarchy:\n  - name: c\n    path: a.yaml\n    paths: [b.yaml]\n    glob: '*.yaml'\n"
              "    globs: ['x/*.yaml']\n    mapped_paths: [dcs, dc, 'd/%{dc}.yaml']\n"
                                                                << 1;
    QTest::newRow("variables everywhere") << v5
            + "defaults:\n  datadir: \"data/%{env}\"\n  options: {k: \"%{x}\"}\n"
              "hierarchy:\n  - name: c\n    path: \"%{facts.os.family}.yaml\"\n"
                                          << 1;
    QTest::newRow("defaults with data_dig parses") << v5
            + "defaults:\n  data_dig: foo\n"
              "hierarchy:\n  - name: c\n    path: c.yaml\n"
                                                   << 1;
    QTest::newRow("defaults datadir only, no backend")
        << v5 + "defaults:\n  datadir: data\nhierarchy:\n  - name: c\n    path: c.yaml\n"
        << 1;
    QTest::newRow("lookup_key level parses")
        << v5 + "hierarchy:\n  - name: c\n    path: c.eyaml\n    lookup_key: eyaml_lookup_key\n"
        << 1;
    QTest::newRow("lookup_key level without a location (hiera_vault)")
        << v5 + "hierarchy:\n  - name: vault\n    lookup_key: hiera_vault\n    options: {address: x}\n"
        << 1;
    QTest::newRow("data_dig level without a location") << v5 + "hierarchy:\n  - name: d\n    data_dig: my_dig\n" << 1;
    QTest::newRow("empty defaults") << v5 + "defaults: {}\nhierarchy:\n  - name: c\n    path: c.yaml\n" << 1;
    QTest::newRow("names are never interpolated") << v5 + "hierarchy:\n  - name: \"%{lookup('x')}\"\n    path: c.yaml\n"
                                                  << 1;
    QTest::newRow("same path in two levels") << v5
            + "hierarchy:\n  - name: a\n    path: c.yaml\n"
              "  - name: b\n    path: c.yaml\n"
                                             << 2;
    QTest::newRow("options with nested values") << v5
            + "hierarchy:\n  - name: a\n    path: c.yaml\n"
              "    options: {a: [1, 2], b: {c: d}}\n"
                                                << 1;
    QTest::newRow("trailing slash datadir")
        << v5 + "defaults:\n  datadir: data/\nhierarchy:\n  - name: a\n    path: c.yaml\n"
        << 1;
}
// clang-format on

void TestConfig::acceptedForms()
{
    QFETCH(QByteArray, text);
    QFETCH(int, levels);
    try {
        const Config c = parse(text);
        QCOMPARE(int(c.hierarchy.size()), levels);
    } catch (const Error& e) {
        QFAIL(e.what());
    }
}

void TestConfig::backendSelection()
{
    const Config c = parse("version: 5\n"
                           "defaults:\n"
                           "  data_hash: json_data\n"
                           "hierarchy:\n"
                           "  - name: inherits\n"
                           "    path: a.json\n"
                           "  - name: own\n"
                           "    path: b.yaml\n"
                           "    data_hash: yaml_data\n"
                           "  - name: dig\n"
                           "    path: c\n"
                           "    data_dig: my_dig\n"
                           "  - name: key\n"
                           "    path: d\n"
                           "    lookup_key: eyaml_lookup_key\n");
    QCOMPARE(c.hierarchy.size(), std::size_t(4));
    QCOMPARE(qs(c.hierarchy[0].function), QStringLiteral("json_data"));
    QCOMPARE(c.hierarchy[0].kind, BackendKind::DataHash);
    QVERIFY(c.hierarchy[0].backendInherited);
    QCOMPARE(qs(c.hierarchy[1].function), QStringLiteral("yaml_data"));
    QVERIFY(!c.hierarchy[1].backendInherited);
    QCOMPARE(c.hierarchy[2].kind, BackendKind::DataDig);
    QCOMPARE(qs(c.hierarchy[2].function), QStringLiteral("my_dig"));
    QCOMPARE(c.hierarchy[3].kind, BackendKind::LookupKey);
    QCOMPARE(qs(c.hierarchy[3].function), QStringLiteral("eyaml_lookup_key"));

    // no backend anywhere (even with defaults present): data_hash yaml_data (seed §1.4)
    const Config d = parse("version: 5\ndefaults:\n  datadir: x\nhierarchy:\n  - name: a\n    path: a.yaml\n");
    QCOMPARE(d.hierarchy[0].kind, BackendKind::DataHash);
    QCOMPARE(qs(d.hierarchy[0].function), QStringLiteral("yaml_data"));
    QVERIFY(d.hierarchy[0].backendInherited);

    // defaults' lookup_key is inherited
    const Config e = parse("version: 5\ndefaults:\n  lookup_key: k\nhierarchy:\n  - name: a\n    path: a\n");
    QCOMPARE(e.hierarchy[0].kind, BackendKind::LookupKey);
    QCOMPARE(qs(e.hierarchy[0].function), QStringLiteral("k"));
}

void TestConfig::locationCandidateOrder()
{
    // [open] candidate order of a mixed level: path, paths (in order), glob, globs (in order), mapped_paths,
    // whatever order the keys are written in
    const Config c = parse("version: 5\n"
                           "hierarchy:\n"
                           "  - name: mixed\n"
                           "    mapped_paths: [dcs, dc, 'm/%{dc}.yaml']\n"
                           "    globs: ['g1/*.yaml', 'g2/*.yaml']\n"
                           "    glob: 'g0/*.yaml'\n"
                           "    paths: [p1.yaml, p2.yaml]\n"
                           "    path: p0.yaml\n");
    const auto& locs = c.hierarchy.at(0).locations;
    QCOMPARE(locs.size(), std::size_t(7));
    const QStringList patterns{"p0.yaml", "p1.yaml", "p2.yaml", "g0/*.yaml", "g1/*.yaml", "g2/*.yaml", "m/%{dc}.yaml"};
    const QList<LocationSpec::Kind> kinds{
        LocationSpec::Kind::Path, LocationSpec::Kind::Path, LocationSpec::Kind::Path,       LocationSpec::Kind::Glob,
        LocationSpec::Kind::Glob, LocationSpec::Kind::Glob, LocationSpec::Kind::MappedPaths};
    for (int i = 0; i < 7; ++i) {
        QCOMPARE(qs(locs[i].pattern), patterns[i]);
        QCOMPARE(int(locs[i].kind), int(kinds[i]));
    }
    QCOMPARE(locs[0].location.line, 8);
    QCOMPARE(locs[3].location.line, 6);
    QCOMPARE(locs[6].location.line, 4);
}

void TestConfig::mappedPathsParsed()
{
    const Config c =
        parse("version: 5\nhierarchy:\n  - name: dcs\n    mapped_paths: [facts.dcs, dc, 'dc/%{dc}.yaml']\n");
    const LocationSpec& l = c.hierarchy.at(0).locations.at(0);
    QCOMPARE(l.kind, LocationSpec::Kind::MappedPaths);
    QCOMPARE(qs(l.scopeKey), QStringLiteral("facts.dcs"));
    QCOMPARE(qs(l.loopVariable), QStringLiteral("dc"));
    QCOMPARE(qs(l.pattern), QStringLiteral("dc/%{dc}.yaml"));
}

void TestConfig::defaultHierarchyWhenAbsent()
{
    for (const char* text : {"version: 5\n", "version: 5\nhierarchy: ~\n", "version: 5\ndefaults: {datadir: d}\n"}) {
        const Config c = parse(text);
        QVERIFY2(!c.hierarchyDeclared, text);
    }
}

void TestConfig::emptyHierarchy()
{
    const Config c = parse("version: 5\nhierarchy: []\n");
    QVERIFY(c.hierarchyDeclared);
    QVERIFY(c.hierarchy.empty());
}

void TestConfig::loadFromFile()
{
    TempTree tree({{"conf/hiera.yaml", "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n"},
                   {"bad/hiera.yaml", "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n    bogus: 1\n"}});
    QVERIFY(tree.isValid());
    const Config c = Config::load(tree.path("conf/hiera.yaml"));
    QCOMPARE(QDir::cleanPath(qs(c.path)), QDir::cleanPath(qs(tree.path("conf/hiera.yaml"))));
    QCOMPARE(QDir::cleanPath(qs(c.directory)), QDir::cleanPath(qs(tree.path("conf"))));
    QCOMPARE(c.hierarchy.size(), std::size_t(1));

    const auto err = catchError([&] { Config::load(tree.path("bad/hiera.yaml")); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::ConfigUnknownKey);
    QCOMPARE(QDir::cleanPath(qs(err->location().file)), QDir::cleanPath(qs(tree.path("bad/hiera.yaml"))));
    QCOMPARE(err->location().line, 5);
    QCOMPARE(err->location().column, 5);
}

void TestConfig::loadMissingFile()
{
    const auto err = catchError([] { Config::load("/nonexistent/dir/hiera.yaml"); });
    QVERIFY(err.has_value());
    QCOMPARE(err->code(), ErrorCode::ConfigUnreadable);
    QVERIFY(QByteArray(err->what()).contains("/nonexistent/dir/hiera.yaml"));
    const auto viaEngine = catchError([] { Engine::load("/nonexistent/dir/hiera.yaml"); });
    QVERIFY(viaEngine.has_value());
    QCOMPARE(viaEngine->code(), ErrorCode::ConfigUnreadable);
}

void TestConfig::datadirResolution()
{
    // §1.6: level datadir > defaults datadir > "data"; relative to hiera.yaml's directory; absolute as is
    TempTree tree;
    QVERIFY(tree.write("hiera.yaml", {}));
    const std::string root = tree.path();
    const QByteArray text = "version: 5\n"
                            "defaults:\n"
                            "  datadir: def\n"
                            "hierarchy:\n"
                            "  - name: own\n"
                            "    path: a.yaml\n"
                            "    datadir: lvl\n"
                            "  - name: inherited\n"
                            "    path: a.yaml\n"
                            "  - name: absolute\n"
                            "    path: a.yaml\n"
                            "    datadir: /abs/dir\n"
                            "  - name: interpolated\n"
                            "    path: a.yaml\n"
                            "    datadir: \"data_%{env}\"\n";
    auto engine = Engine::fromConfig(Config::parse(text.toStdString(), root));
    MapScope scope(makeHash({{"env", "prod"}}));
    const auto levels = engine->resolveHierarchy(scope);
    QCOMPARE(levels.size(), std::size_t(4));
    QCOMPARE(QDir::cleanPath(qs(levels[0].datadir)), QDir::cleanPath(qs(root + "/lvl")));
    QCOMPARE(QDir::cleanPath(qs(levels[1].datadir)), QDir::cleanPath(qs(root + "/def")));
    QCOMPARE(QDir::cleanPath(qs(levels[2].datadir)), QStringLiteral("/abs/dir"));
    QCOMPARE(QDir::cleanPath(qs(levels[3].datadir)), QDir::cleanPath(qs(root + "/data_prod")));
    QCOMPARE(QDir::cleanPath(qs(levels[0].locations.at(0).path)), QDir::cleanPath(qs(root + "/lvl/a.yaml")));
    QCOMPARE(QDir::cleanPath(qs(levels[2].locations.at(0).path)), QStringLiteral("/abs/dir/a.yaml"));

    const Config none = Config::parse("version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n", root);
    auto e2 = Engine::fromConfig(none);
    QCOMPARE(QDir::cleanPath(qs(e2->resolveHierarchy(scope).at(0).datadir)), QDir::cleanPath(qs(root + "/data")));
}

void TestConfig::datadirResolutionByLookup()
{
    TempTree abs(FileList{{"elsewhere/a.yaml", "k: absolute\n"}});
    QVERIFY(abs.isValid());
    TempTree tree({{"hiera.yaml",
                    QByteArray("version: 5\n"
                               "defaults:\n"
                               "  datadir: def\n"
                               "hierarchy:\n"
                               "  - name: own\n"
                               "    path: own.yaml\n"
                               "    datadir: lvl\n"
                               "  - name: inherited\n"
                               "    path: inh.yaml\n"
                               "  - name: absolute\n"
                               "    path: a.yaml\n"
                               "    datadir: ")
                        + QByteArray::fromStdString(abs.path("elsewhere")) + "\n"},
                   {"lvl/own.yaml", "own: level\n"},
                   {"def/own.yaml", "own: wrong\n"},
                   {"def/inh.yaml", "inh: defaults\n"},
                   {"data/inh.yaml", "inh: wrong\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    QCOMPARE(engine->lookup(scope, "own").value, Value("level"));
    QCOMPARE(engine->lookup(scope, "inh").value, Value("defaults"));
    QCOMPARE(engine->lookup(scope, "k").value, Value("absolute"));
}

QTEST_APPLESS_MAIN(TestConfig)
#include "tst_config.moc"
