// Puppet's three layers (docs/layers.md): finding them in a control repository, their order,
// module namespaces, module lookup_options and default_hierarchy. The expected values are the ones
// docs/layers.md records from `puppet lookup` on the same data.

#include "support/lookupexpect.h"
#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/explain.h>
#include <hiera/nodescope.h>
#include <hiera/scope.h>

#include <QTest>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace hiera;
using namespace testutils;

namespace {

// docs/layers.md §2-4: a global layer, an environment and a module `mymod` (hierarchy common.yaml,
// default_hierarchy defaults.yaml + defaults2.yaml), node level n1 in global and environment.
FileList observedRepository()
{
    const QByteArray twoLevels = "version: 5\nhierarchy:\n  - name: node\n    path: 'nodes/%{trusted.certname}.yaml'\n"
                                 "  - name: common\n    path: common.yaml\n";
    return {
        {"global/hiera.yaml", twoLevels},
        {"global/data/nodes/n1.yaml", "mymod::layered: {gn: 1}\nmymod::arr: [gn1]\n"},
        {"global/data/common.yaml",
         "shared: global\nmymod::layered: {g: 1, shared: global}\nmymod::arr: [g1]\n"
         "mymod::from_global: {a: {g: 1}}\n"
         "lookup_options:\n  mymod::from_global: {merge: deep}\n  mymod::lo_conflict: {merge: first}\n"
         "mymod::lo_conflict: [g]\n"},
        {"env/hiera.yaml", twoLevels},
        {"env/environment.conf", "# comment\nmodulepath = site:modules:$basemodulepath\nmanifest = manifests\n"},
        {"env/data/nodes/n1.yaml", "mymod::layered: {en: 1}\n"},
        {"env/data/common.yaml",
         "shared: env\nenvonly: env\nmymod::layered: {e: 1, shared: env}\nmymod::arr: [e1]\n"
         "mymod::from_global: {a: {e: 1}}\nmymod::pat_x: [e]\nnomod::k: envval\nmymod::lo_conflict: [e]\n"
         "mymod::dflt2: [e2]\n"
         "lookup_options:\n  mymod::layered: {merge: hash}\n  '^mymod::pat_': {merge: unique}\n"
         "  mymod::lo_conflict: {merge: unique}\n  mymod::dflt2: {merge: unique}\n"},
        {"env/site/mymod/hiera.yaml",
         "version: 5\nhierarchy:\n  - name: module common\n    path: common.yaml\n"
         "default_hierarchy:\n  - name: defaults\n    path: defaults.yaml\n  - name: defaults2\n    path: "
         "defaults2.yaml\n"},
        {"env/site/mymod/data/common.yaml",
         "shared: module-unqualified\nother::y: dropped\nmymod::layered: {m: 1, shared: module}\nmymod::arr: [m1]\n"
         "mymod::from_global: {a: {m: 1}}\nmymod::pat_x: [m]\nmymod::modonly: module\n"
         "lookup_options:\n  mymod::arr: {merge: unique}\n"},
        {"env/site/mymod/data/defaults.yaml",
         "mymod::only_default: from-default\nmymod::modonly: from-default\nmymod::arr: [d1]\n"
         "mymod::dflt_merge: [d1]\nmymod::dflt2: [x1]\n"
         "lookup_options:\n  mymod::dflt_merge: {merge: unique}\n"},
        {"env/site/mymod/data/defaults2.yaml", "mymod::dflt_merge: [d2]\nmymod::dflt2: [x2]\n"},
        // A directory with data but no hiera.yaml has no module layer.
        {"env/modules/nocfg/data/common.yaml", "nocfg::k: never\n"},
    };
}

struct Repo
{
    TempTree tree;
    Environment env;
    std::shared_ptr<Engine> engine;
    MapScope scope{yaml("trusted: {certname: n1}\n")};

    explicit Repo(const FileList& files, EnvironmentOptions options = {}, bool withGlobal = true) : tree(files)
    {
        if (withGlobal)
            options.globalHieraYaml = tree.path("global/hiera.yaml");
        env = Environment::discover(tree.path("env"), options);
        engine = Engine::fromLayers(env.layers);
    }
    LookupResult lookup(const std::string& key, std::optional<MergeStrategy> merge = {}, bool explain = false) const
    {
        LookupRequest request;
        if (merge)
            request.merge = mergeOf(*merge);
        request.explain = explain;
        return engine->lookup(scope, key, request);
    }
};

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deployedDatadirIsReadFromTheCheckout();
    void deployedPathsNeverLeaveTheCheckout();
    void discovery();
    void discoveryFromHieraYamlAndModulepath();
    void observedResults_data();
    void observedResults();
    void callerMergeOverridesModuleOptions();
    void unqualifiedModuleKeysDroppedWithWarning();
    void moduleLookupOptionsOutsideNamespaceFail();
    void brokenModuleFailsOnlyItsKeys();
    void otherVersionModuleLeftOut();
    void moduleOfVersion4FailsItsKeys();
    void brokenFileReadForLookupOptionsFails();
    void defaultHierarchyIgnoresTheCallersMerge();
    void defaultHierarchyOnlyInModules();
    void explainShowsEachLayer();
    void resolvedLevelsNameTheirLayer();
    void hostileModulepaths();
    void modulepathEntryWithNulIsSkipped();
    void moduleDataOutsideTheModuleIsNamed();
};

void TestLayers::discovery()
{
    Repo repo(observedRepository());
    QVERIFY(repo.tree.isValid());
    const auto& layers = repo.env.layers;
    QCOMPARE(layers.size(), std::size_t(3)); // global, environment, mymod (nocfg has no hiera.yaml)
    QCOMPARE(int(layers[0].kind), int(Layer::Kind::Global));
    QCOMPARE(int(layers[1].kind), int(Layer::Kind::Environment));
    QCOMPARE(int(layers[2].kind), int(Layer::Kind::Module));
    QCOMPARE(layers[2].module, std::string("mymod"));
    QCOMPARE(layers[2].displayName(), std::string("module mymod"));
    QCOMPARE(layers[2].providerTitle(), std::string("Module \"mymod\" Data Provider (hiera configuration version 5)"));
    QCOMPARE(layers[2].config.defaultHierarchy.size(), std::size_t(2));
    QCOMPARE(repo.env.name, std::string("production"));
    // environment.conf's modulepath, $basemodulepath left out (outside the repository)
    QCOMPARE(repo.env.modulepath.size(), std::size_t(2));
    QVERIFY(QString::fromStdString(repo.env.modulepath[0]).endsWith("/env/site"));
    QVERIFY(QString::fromStdString(repo.env.modulepath[1]).endsWith("/env/modules"));
}

void TestLayers::discoveryFromHieraYamlAndModulepath()
{
    // No environment.conf: site, site-modules and modules are searched; the first module of a name wins.
    TempTree tree({{"repo/hiera.yaml", "version: 5\n"},
                   {"repo/data/common.yaml", "k: env\n"},
                   {"repo/site-modules/a/hiera.yaml", "version: 5\n"},
                   {"repo/site-modules/a/data/common.yaml", "a::k: from-site-modules\n"},
                   {"repo/modules/a/hiera.yaml", "version: 5\n"},
                   {"repo/modules/a/data/common.yaml", "a::k: from-modules\n"},
                   {"repo/modules/b/hiera.yaml", "version: 5\n"},
                   {"repo/modules/b/data/common.yaml", "b::k: b\n"},
                   {"repo/modules/Bad-Name/hiera.yaml", "version: 5\n"},
                   {"other/c/hiera.yaml", "version: 5\n"},
                   {"other/c/data/common.yaml", "c::k: c\n"}});
    QVERIFY(tree.isValid());
    Environment env = Environment::discover(tree.path("repo/hiera.yaml")); // the hiera.yaml names the root too
    QCOMPARE(env.layers.size(), std::size_t(3)); // environment, a, b
    auto engine = Engine::fromLayers(env.layers);
    MapScope scope;
    EXPECT_FOUND(engine->lookup(scope, "a::k"), Value("from-site-modules"));
    EXPECT_FOUND(engine->lookup(scope, "b::k"), Value("b"));
    // an explicit modulepath replaces the default one; absolute entries are used as they are
    EnvironmentOptions options;
    options.modulepath = std::vector<std::string>{tree.path("other"), "modules"};
    options.name = "staging";
    env = Environment::discover(tree.path("repo"), options);
    QCOMPARE(env.name, std::string("staging"));
    engine = Engine::fromLayers(env.layers);
    EXPECT_FOUND(engine->lookup(scope, "c::k"), Value("c"));
    EXPECT_FOUND(engine->lookup(scope, "a::k"), Value("from-modules"));
    // no hiera.yaml anywhere: one clear error
    TempTree empty(FileList{{"nothing/README", "x"}});
    try {
        Environment::discover(empty.path("nothing"));
        QFAIL("discovery of an empty directory succeeded");
    } catch (const Error& e) {
        QVERIFY2(QString(e.what()).contains("no hiera.yaml"), e.what());
    }
}

// clang-format off
void TestLayers::observedResults_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("merge"); // "" = lookup_options / first
    QTest::addColumn<QByteArray>("expected"); // YAML; "~not found" for not found
    // docs/layers.md §2
    QTest::newRow("shared: global wins") << "shared" << "" << QByteArray("global");
    QTest::newRow("envonly") << "envonly" << "" << QByteArray("env");
    QTest::newRow("env hash option over all layers")
        << "mymod::layered" << "" << QByteArray("{m: 1, shared: global, e: 1, en: 1, g: 1, gn: 1}");
    QTest::newRow("module unique option applies to all layers") << "mymod::arr" << "" << QByteArray("[gn1, g1, e1, m1]");
    QTest::newRow("--merge first overrides") << "mymod::arr" << "first" << QByteArray("[gn1]");
    QTest::newRow("global deep option") << "mymod::from_global" << "" << QByteArray("{a: {m: 1, e: 1, g: 1}}");
    QTest::newRow("env pattern option") << "mymod::pat_x" << "" << QByteArray("[e, m]");
    QTest::newRow("foreign key in module data") << "other::y" << "" << QByteArray("~not found");
    QTest::newRow("no such module") << "nomod::k" << "" << QByteArray("envval");
    QTest::newRow("directory without hiera.yaml") << "nocfg::k" << "" << QByteArray("~not found");
    // §3: the global entry wins whole over the environment's
    QTest::newRow("global lookup_options entry wins whole") << "mymod::lo_conflict" << "" << QByteArray("[g]");
    // §4 default_hierarchy
    QTest::newRow("only in default_hierarchy") << "mymod::only_default" << "" << QByteArray("from-default");
    QTest::newRow("hierarchy beats default_hierarchy") << "mymod::modonly" << "" << QByteArray("module");
    QTest::newRow("never merged with default_hierarchy") << "mymod::arr" << "unique" << QByteArray("[gn1, g1, e1, m1]");
    QTest::newRow("default_hierarchy's own options") << "mymod::dflt_merge" << "" << QByteArray("[d1, d2]");
    QTest::newRow("env options do not apply to default_hierarchy") << "mymod::dflt2" << "" << QByteArray("[e2]");
}
// clang-format on

void TestLayers::observedResults()
{
    QFETCH(QString, key);
    QFETCH(QString, merge);
    QFETCH(QByteArray, expected);
    Repo repo(observedRepository());
    QVERIFY(repo.tree.isValid());
    std::optional<MergeStrategy> strategy;
    if (!merge.isEmpty())
        strategy = mergeStrategyFromName(merge.toStdString());
    const LookupResult r = repo.lookup(key.toStdString(), strategy);
    if (expected == "~not found") {
        QVERIFY2(!r.error, r.error ? r.error->what() : "");
        QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
        return;
    }
    if (r.error)
        QFAIL(r.error->what());
    QVERIFY(r.found());
    QVERIFY2(unorderedEqual(r.value, yaml(expected.toStdString())),
             qPrintable(QString::fromStdString(toJson(r.value))));
}

void TestLayers::callerMergeOverridesModuleOptions()
{
    // mymod::dflt2 exists in the environment ([e2]): the default_hierarchy is never consulted
    Repo repo(observedRepository());
    EXPECT_FOUND(repo.lookup("mymod::dflt2", MergeStrategy::First), yaml("[e2]"));
    // a key only the default_hierarchy has, merged by the caller: both default files
    EXPECT_FOUND(repo.lookup("mymod::dflt_merge", MergeStrategy::Unique), yaml("[d1, d2]"));
}

void TestLayers::unqualifiedModuleKeysDroppedWithWarning()
{
    Repo repo(observedRepository());
    const LookupResult r = repo.lookup("mymod::modonly");
    EXPECT_FOUND(r, Value("module"));
    bool warned = false;
    for (const auto& w : r.warnings)
        warned = warned
            || (w.find("Module 'mymod'") != std::string::npos
                && w.find("must use keys qualified with the name of the module") != std::string::npos);
    QVERIFY(warned);
    // a key outside any module does not consult (nor warn about) the module
    const LookupResult plain = repo.lookup("envonly");
    for (const auto& w : plain.warnings)
        QVERIFY2(w.find("Module 'mymod'") == std::string::npos, w.c_str());
}

void TestLayers::moduleLookupOptionsOutsideNamespaceFail()
{
    FileList files = {
        {"env/hiera.yaml", "version: 5\n"},
        {"env/data/common.yaml", "plain: p\n"},
        {"env/modules/bad/hiera.yaml", "version: 5\n"},
        {"env/modules/bad/data/common.yaml", "bad::k: v\nlookup_options:\n  other::k: {merge: unique}\n"}};
    Repo repo(files, {}, /*withGlobal=*/false);
    const LookupResult r = repo.lookup("bad::k");
    EXPECT_ERROR(r, ErrorCode::LookupOptions);
    QVERIFY2(errorText(r).contains("all lookup_options keys must start with module name 'bad'"),
             qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains("common.yaml:3:"), qPrintable(errorText(r)));
    EXPECT_FOUND(repo.lookup("plain"), Value("p")); // other keys are not affected
}

void TestLayers::brokenModuleFailsOnlyItsKeys()
{
    FileList files = {{"env/hiera.yaml", "version: 5\n"},
                      {"env/data/common.yaml", "plain: p\nbroken::k: env\n"},
                      {"env/modules/broken/hiera.yaml", "version: 5\nhierarchy: [oops\n"},
                      {"env/modules/fine/hiera.yaml", "version: 5\n"},
                      {"env/modules/fine/data/common.yaml", "fine::k: f\n"}};
    Repo repo(files, {}, false);
    EXPECT_FOUND(repo.lookup("plain"), Value("p"));
    EXPECT_FOUND(repo.lookup("fine::k"), Value("f"));
    const LookupResult r = repo.lookup("broken::k");
    EXPECT_ERROR(r, ErrorCode::ConfigSyntax);
    QVERIFY2(errorText(r).contains("modules/broken/hiera.yaml:"), qPrintable(errorText(r)));
}

void TestLayers::otherVersionModuleLeftOut()
{
    FileList files = {{"env/hiera.yaml", "version: 5\n"},
                      {"env/data/common.yaml", "old::k: env\n"},
                      {"env/modules/old/hiera.yaml", ":backends: [yaml]\n"},
                      {"env/modules/old/data/common.yaml", "old::k: module\n"}};
    Repo repo(files, {}, false);
    QCOMPARE(repo.env.layers.size(), std::size_t(1));
    bool warned = false;
    for (const auto& w : repo.env.warnings)
        warned = warned || w.find("module 'old'") != std::string::npos;
    QVERIFY(warned);
    EXPECT_FOUND(repo.lookup("old::k"), Value("env"));
}

// Puppet still reads a module's version 4 hiera.yaml; this engine reads version 5 only, so the module's
// keys fail with the file named, never "not found" (tests/conformance/cases/e12).
void TestLayers::moduleOfVersion4FailsItsKeys()
{
    FileList files = {
        {"env/hiera.yaml", "version: 5\n"},
        {"env/data/common.yaml", "plain: p\nold::in_env: env\n"},
        {"env/modules/old/hiera.yaml", "version: 4\ndatadir: data\nhierarchy:\n  - name: common\n    backend: yaml\n"},
        {"env/modules/old/data/common.yaml", "old::k: module\n"}};
    Repo repo(files, {}, false);
    for (const char* key : {"old::k", "old::in_env"}) {
        const LookupResult r = repo.lookup(key);
        EXPECT_ERROR(r, ErrorCode::ConfigVersion);
        QVERIFY2(errorText(r).contains("modules/old/hiera.yaml:"), qPrintable(errorText(r)));
        QVERIFY2(errorText(r).contains("only version 5 is supported"), qPrintable(errorText(r)));
    }
    EXPECT_FOUND(repo.lookup("plain"), Value("p"));
}

// Puppet reads every level for lookup_options: a file there that does not parse fails the lookup even
// when the value comes from a level (or layer) above it (tests/conformance/cases/e13). The result still
// carries what the data holds without options, for a host to show greyed beside the error.
void TestLayers::brokenFileReadForLookupOptionsFails()
{
    FileList files = {{"env/hiera.yaml",
                       "version: 5\nhierarchy:\n  - name: node\n    path: 'nodes/%{trusted.certname}.yaml'\n"
                       "  - name: common\n    path: common.yaml\n"},
                      {"env/data/nodes/n1.yaml", "mymod::from_env: env-value\nfrom_env: env-value\n"},
                      {"env/data/common.yaml", "other: fine\n"},
                      {"env/modules/mymod/hiera.yaml", "version: 5\n"},
                      {"env/modules/mymod/data/common.yaml", "mymod::k: [unclosed\n"}};
    Repo repo(files, {}, false);
    const LookupResult r = repo.lookup("mymod::from_env");
    EXPECT_ERROR(r, ErrorCode::DataSyntax);
    QVERIFY2(errorText(r).contains("modules/mymod/data/common.yaml:"), qPrintable(errorText(r)));
    QVERIFY(r.unverifiedValue.has_value());
    QCOMPARE(*r.unverifiedValue, Value("env-value"));
    QVERIFY(!repo.lookup("mymod::k").unverifiedValue.has_value()); // the broken file holds it: no value
    EXPECT_FOUND(repo.lookup("from_env"), Value("env-value")); // outside the module: not affected

    // The same in the environment's own levels, for a second node after a first that cached options.
    FileList env = {{"env/hiera.yaml",
                     "version: 5\nhierarchy:\n  - name: node\n    path: 'nodes/%{trusted.certname}.yaml'\n"
                     "  - name: common\n    path: common.yaml\n"},
                    {"env/data/nodes/n1.yaml", "k: n1\n"},
                    {"env/data/nodes/n2.yaml", "k: [n2\n"},
                    {"env/data/common.yaml", "k: common\n"}};
    Repo two(env, {}, false);
    EXPECT_FOUND(two.lookup("k"), Value("n1"));
    const MapScope n2(yaml("trusted: {certname: n2}\n"));
    const LookupResult broken = two.engine->lookup(n2, "k");
    EXPECT_ERROR(broken, ErrorCode::DataSyntax);
    QVERIFY2(errorText(broken).contains("nodes/n2.yaml:"), qPrintable(errorText(broken)));
}

// A default_hierarchy merges by its own lookup_options only; Puppet ignores the caller's merge there.
void TestLayers::defaultHierarchyIgnoresTheCallersMerge()
{
    Repo repo(observedRepository());
    EXPECT_FOUND(repo.lookup("mymod::dflt_merge", MergeStrategy::First), yaml("[d1, d2]"));
    EXPECT_FOUND(repo.lookup("mymod::only_default", MergeStrategy::Unique), Value("from-default"));
    const LookupResult r = repo.lookup("mymod::dflt_merge", MergeStrategy::First);
    QVERIFY(r.merge.has_value());
    QCOMPARE(int(r.merge->spec.strategy), int(MergeStrategy::Unique));
    QCOMPARE(int(r.merge->source), int(MergeUsed::Source::LookupOptions));
}

void TestLayers::defaultHierarchyOnlyInModules()
{
    const std::string text = "version: 5\ndefault_hierarchy:\n  - name: d\n    path: d.yaml\n";
    for (auto use : {Config::Use::Global, Config::Use::Environment}) {
        try {
            Config::parse(text, "/tmp", {}, use);
            QFAIL("default_hierarchy accepted outside a module");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::ConfigDefaultHierarchy);
            QCOMPARE(e.location().line, 2);
        }
    }
    const Config module = Config::parse(text, "/tmp", {}, Config::Use::Module);
    QCOMPARE(module.defaultHierarchy.size(), std::size_t(1));
    QCOMPARE(module.defaultHierarchy[0].name, std::string("d"));
}

void TestLayers::explainShowsEachLayer()
{
    Repo repo(observedRepository());
    const LookupResult r = repo.lookup("mymod::only_default", {}, /*explain=*/true);
    EXPECT_FOUND(r, Value("from-default"));
    QVERIFY(r.trace);
    const QString text = QString::fromStdString(explainText(*r.trace));
    QVERIFY2(text.contains("Global Data Provider (hiera configuration version 5)"), qPrintable(text));
    QVERIFY2(text.contains("Environment Data Provider (hiera configuration version 5)"), qPrintable(text));
    QVERIFY2(text.contains("Module \"mymod\" Data Provider (hiera configuration version 5)"), qPrintable(text));
    QVERIFY2(text.contains("Searching default_hierarchy of module \"mymod\""), qPrintable(text));
    QVERIFY2(text.contains("Searching for \"lookup_options\" of module \"mymod\""), qPrintable(text));
    // a key without a module prefix never shows the module layer
    const LookupResult plain = repo.lookup("envonly", {}, true);
    QVERIFY(!QString::fromStdString(explainText(*plain.trace)).contains("Module \"mymod\""));
}

void TestLayers::resolvedLevelsNameTheirLayer()
{
    Repo repo(observedRepository());
    const auto levels = repo.engine->resolveHierarchy(repo.scope);
    QCOMPARE(levels.size(), std::size_t(2 + 2 + 1 + 2));
    QCOMPARE(int(levels[0].layer->kind), int(Layer::Kind::Global));
    QCOMPARE(int(levels[2].layer->kind), int(Layer::Kind::Environment));
    QCOMPARE(levels[4].layer->module, std::string("mymod"));
    QVERIFY(!levels[4].defaultHierarchy);
    QVERIFY(levels[5].defaultHierarchy);
    QVERIFY(levels[6].defaultHierarchy);
    // key inventory: a module's keys outside its namespace are not offered
    const auto keys = repo.engine->keyInventory(repo.scope);
    QVERIFY(std::find(keys.begin(), keys.end(), "mymod::only_default") != keys.end());
    QVERIFY(std::find(keys.begin(), keys.end(), "other::y") == keys.end());
}

// A control repository whose hiera.yaml names its data where r10k deploys it: opened from a checkout,
// the deployed path is read from the checkout (Puppet's default environmentpath, or one given), with a
// notice; a path in the codedir outside the environment is "outside the repository", with a warning.
void TestLayers::deployedDatadirIsReadFromTheCheckout()
{
    for (const std::string prefix :
         {"/etc/puppetlabs/code/environments", "/etc/puppet/code/environments", "/srv/puppet/envs"}) {
        TempTree tree({{"repo/hiera.yaml",
                        QByteArray::fromStdString("version: 5\nhierarchy:\n"
                                                  "  - name: Deployed\n    datadir: "
                                                  + prefix
                                                  + "/%{environment}/hieradata\n    path: common.yaml\n"
                                                    "  - name: Private\n    datadir: /etc/puppetlabs/code/hieradata\n"
                                                    "    path: secret.yaml\n")},
                       {"repo/hieradata/common.yaml", "answer: from the checkout\n"}});
        EnvironmentOptions options;
        options.name = "staging";
        if (prefix == "/srv/puppet/envs")
            options.environmentPath = {prefix};
        const Environment env = Environment::discover(tree.path("repo"), options);
        QCOMPARE(env.notices.size(), std::size_t(1));
        QVERIFY2(env.notices[0].find(prefix + "/staging") != std::string::npos, env.notices[0].c_str());
        auto engine = Engine::fromLayers(env.layers);
        const NodeScope node({Value(Hash()), {}, "staging", Value()});
        QCOMPARE(engine->lookup(node, "answer").value, Value("from the checkout"));
        const std::vector<ResolvedLevel> levels = engine->resolveHierarchy(node);
        const ResolvedLocation& deployed = levels.at(0).locations.at(0);
        QCOMPARE(deployed.path, tree.path("repo/hieradata/common.yaml"));
        QCOMPARE(deployed.deployedPath, prefix + "/staging/hieradata/common.yaml");
        QCOMPARE(deployed.status, ResolvedLocation::Status::Present);
        const ResolvedLocation& outside = levels.at(1).locations.at(0);
        QCOMPARE(outside.outsideRepository, prefix != "/srv/puppet/envs");
        QCOMPARE(outside.status, ResolvedLocation::Status::Missing);
    }
    // Another environment's deployed path is not this checkout's.
    TempTree other({{"repo/hiera.yaml",
                     "version: 5\nhierarchy:\n  - name: Fixed\n"
                     "    datadir: /etc/puppetlabs/code/environments/production/data\n"
                     "    path: common.yaml\n"},
                    {"repo/data/common.yaml", "answer: 1\n"}});
    EnvironmentOptions staging;
    staging.name = "staging";
    const Environment env = Environment::discover(other.path("repo"), staging);
    QVERIFY(env.notices.empty());
    QCOMPARE(env.warnings.size(), std::size_t(1)); // outside the repository
    auto engine = Engine::fromLayers(env.layers);
    const NodeScope node({Value(Hash()), {}, "staging", Value()});
    QVERIFY(!engine->lookup(node, "answer").found());
    QVERIFY(engine->resolveHierarchy(node).at(0).locations.at(0).outsideRepository);
}

// docs/bad-input.md, "Facts files": the deployment mapping used to be textual. A `..` after the environment carried a
// mapped path out of the checkout, and a checkout whose folder name holds glob characters made an absolute deployed
// glob match a sibling folder. Neither reads anything outside the checkout now.
void TestLayers::deployedPathsNeverLeaveTheCheckout()
{
    TempTree tree({{"a/repo/hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: Climbing\n"
                    "    datadir: /etc/puppetlabs/code/environments/production/../../outside\n"
                    "    path: common.yaml\n"
                    "  - name: Own\n    path: common.yaml\n"},
                   {"a/repo/data/common.yaml", "other: own\n"},
                   {"outside/common.yaml", "answer: leaked from outside the checkout\n"},
                   {"a/outside/common.yaml", "answer: leaked from beside the checkout\n"},
                   {"ck[1]/hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: Deployed glob\n"
                    "    glob: /etc/puppetlabs/code/environments/production/data/*.yaml\n"},
                   {"ck[1]/data/own.yaml", "answer: own\n"},
                   {"ck1/data/a-sibling.yaml", "answer: from a sibling folder\nsibling: yes\n"}});
    QVERIFY(tree.isValid());
    EnvironmentOptions production;
    production.name = "production";
    const NodeScope node({Value(Hash()), {}, "production", Value()});

    const Environment climbing = Environment::discover(tree.path("a/repo"), production);
    auto engine = Engine::fromLayers(climbing.layers);
    const LookupResult r = engine->lookup(node, "answer");
    QVERIFY2(!r.found(), r.found() ? toJson(r.value).c_str() : "");
    const std::vector<ResolvedLevel> levels = engine->resolveHierarchy(node);
    const ResolvedLocation& location = levels.at(0).locations.at(0);
    QVERIFY(location.outsideRepository);
    QCOMPARE(location.status, ResolvedLocation::Status::Missing);
    QCOMPARE(engine->lookup(node, "other").value, Value("own"));

    const Environment bracketed = Environment::discover(tree.path("ck[1]"), production);
    auto globEngine = Engine::fromLayers(bracketed.layers);
    QCOMPARE(globEngine->lookup(node, "answer").value, Value("own"));
    QVERIFY(!globEngine->lookup(node, "sibling").found());
    const std::vector<ResolvedLocation> matched = globEngine->resolveHierarchy(node).at(0).locations;
    QCOMPARE(matched.size(), std::size_t(1));
    QCOMPARE(matched[0].path, tree.path("ck[1]/data/own.yaml"));
}

QTEST_APPLESS_MAIN(TestLayers)
#include "tst_layers.moc"

// environment.conf's modulepath pointing up, at the root, twice at one folder, through a link that
// loops back, at $settings, at nothing; 2,000 modules. Discovery answers, bounded, and names every
// entry outside the environment (Puppet uses them too, so they are used, not dropped).
void TestLayers::hostileModulepaths()
{
    namespace fs = std::filesystem;
    FileList files{
        {"outside/x/hiera.yaml", "version: 5\n"},
        {"outside/x/data/common.yaml", "x::k: outside\n"},
        {"repo/hiera.yaml", "version: 5\n"},
        {"repo/data/common.yaml", "k: env\n"},
        {"repo/environment.conf", "modulepath = site:./site:site/:..:/:$basemodulepath:missing:loop::site\n"}};
    for (int i = 0; i < 2000; ++i) {
        files.append({QStringLiteral("repo/site/m%1/hiera.yaml").arg(i), "version: 5\n"});
        files.append(
            {QStringLiteral("repo/site/m%1/data/common.yaml").arg(i), QStringLiteral("m%1::k: %1\n").arg(i).toUtf8()});
    }
    TempTree tree(files);
    QVERIFY(tree.isValid());
    fs::create_directory_symlink("..", tree.path("repo/loop"));
    fs::create_directory_symlink("..", tree.path("repo/site/selfloop"));
    const Environment env = Environment::discover(tree.path("repo"));
    // Every module once; `..` and the link loops bring in folders that have a hiera.yaml (the repository
    // itself, as module `repo` and `selfloop`), as they would on Puppet's modulepath.
    std::set<std::string> modules;
    for (const Layer& layer : env.layers)
        if (layer.kind == Layer::Kind::Module)
            QVERIFY2(modules.insert(layer.module).second, layer.module.c_str());
    QVERIFY(modules.count("m0") && modules.count("m1999") && modules.count("repo") && modules.count("selfloop"));
    QCOMPARE(std::count_if(modules.begin(), modules.end(), [](const std::string& m) { return m[0] == 'm'; }), 2000L);
    // site once (however it is spelled), then .., / and loop (which is the repository's parent)
    QCOMPARE(env.modulepath.size(), std::size_t(4));
    QStringList outside;
    for (const std::string& w : env.warnings)
        if (qs(w).contains(QStringLiteral("outside the environment")))
            outside << qs(w);
    QCOMPARE(outside.size(), 3);
    QVERIFY2(outside[0].contains(QStringLiteral("'..'")) && outside[1].contains(QStringLiteral("'/'"))
                 && outside[2].contains(QStringLiteral("'loop'")),
             qPrintable(outside.join(QLatin1Char('\n'))));
    auto engine = Engine::fromLayers(env.layers);
    MapScope scope;
    EXPECT_FOUND(engine->lookup(scope, "m1999::k"), Value(1999));
}

// A module whose hiera.yaml reads its data from outside the module (`datadir: ../../../etc`, a path
// climbing out): one warning per level naming the module, the level and where it reads. Levels that
// stay inside, and interpolated ones (which only a lookup resolves), are not named.
void TestLayers::moduleDataOutsideTheModuleIsNamed()
{
    TempTree tree({{"repo/hiera.yaml", "version: 5\n"},
                   {"repo/data/common.yaml", "k: env\n"},
                   {"repo/shared/mod.yaml", "m::k: from-outside\n"},
                   {"repo/modules/m/hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - {name: up, datadir: ../../shared, path: mod.yaml}\n"
                    "  - {name: climbs, path: ../../../shared/mod.yaml}\n"
                    "  - {name: globbed, glob: '../../../*/mod.yaml'}\n"
                    "  - {name: inside, path: common.yaml}\n"
                    "  - {name: dotted, path: ./x/../common.yaml}\n"
                    "  - {name: interpolated, path: '%{facts.where}.yaml'}\n"},
                   {"repo/modules/m/data/common.yaml", "m::j: inside\n"}});
    QVERIFY(tree.isValid());
    const Environment env = Environment::discover(tree.path("repo"));
    QStringList named;
    for (const std::string& w : env.warnings)
        if (qs(w).contains(QStringLiteral("outside the module")))
            named << qs(w);
    QCOMPARE(named.size(), 3);
    QVERIFY2(named[0].contains(QStringLiteral("module 'm', level 'up'"))
                 && named[0].contains(QStringLiteral("/repo/shared"))
                 && named[1].contains(QStringLiteral("level 'climbs'"))
                 && named[2].contains(QStringLiteral("level 'globbed'")),
             qPrintable(named.join(QLatin1Char('\n'))));
    // Read all the same, as Puppet reads it.
    auto engine = Engine::fromLayers(env.layers);
    MapScope scope;
    EXPECT_FOUND(engine->lookup(scope, "m::k"), Value("from-outside"));
    EXPECT_FOUND(engine->lookup(scope, "m::j"), Value("inside"));
}

// fuzz_environment: an entry `.\0x` would be read by the file system up to the NUL, as the environment
// itself. It is skipped with one printable line; the other entries are used.
void TestLayers::modulepathEntryWithNulIsSkipped()
{
    TempTree tree({{"repo/hiera.yaml", "version: 5\n"},
                   {"repo/site/a/hiera.yaml", "version: 5\n"},
                   {"repo/site/a/data/common.yaml", "a::k: from-site\n"},
                   {"repo/environment.conf", QByteArray("modulepath = site:.\0x:..\0\n", 26)}});
    QVERIFY(tree.isValid());
    const Environment env = Environment::discover(tree.path("repo"));
    QCOMPARE(env.modulepath.size(), std::size_t(1));
    QVERIFY(qs(env.modulepath[0]).endsWith(QStringLiteral("/repo/site")));
    int skipped = 0;
    for (const std::string& w : env.warnings) {
        if (qs(w).contains(QStringLiteral("holds a NUL byte"))) {
            ++skipped;
            QVERIFY2(w.find('\0') == std::string::npos, w.c_str());
        }
    }
    QCOMPARE(skipped, 2);
    auto engine = Engine::fromLayers(env.layers);
    MapScope scope;
    EXPECT_FOUND(engine->lookup(scope, "a::k"), Value("from-site"));
}
