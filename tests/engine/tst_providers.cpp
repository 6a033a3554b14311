// Level providers from outside the engine: a host registers its own lookup_key and data_hash
// functions through BackendRegistry (public API only, as any program linking hiera::engine would), and
// levels whose function the engine cannot run behave as in Puppet without that function: they fail a
// lookup only when it consults one of their existing files (strict), or are skipped with a warning
// (EngineOptions::skipUnsupportedLevels).

#include "support/lookupexpect.h"
#include "testutils.h"

#include <hiera/backend.h>
#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/explain.h>
#include <hiera/scope.h>

#include <QTest>

#include <atomic>

using namespace hiera;
using namespace testutils;

namespace {

// A lookup_key function like eyaml_lookup_key in shape: reads YAML, transforms each string it returns
// ("ROT:" prefix = "encoded"), interpolates afterwards, memoises the transform per file version.
class RotLookupKey : public LookupKeyBackend
{
public:
    mutable std::atomic<int> transforms{0};
    mutable std::atomic<int> calls{0};

    std::string name() const override { return "rot_lookup_key"; }
    std::optional<DataFormat> fileFormat() const override { return DataFormat::Yaml; }
    std::optional<Value> lookupKey(const std::string& key, LookupKeyContext& context) const override
    {
        ++calls;
        const Value* raw = context.data().isHash() ? context.data().asHash().find(key) : nullptr;
        if (!raw)
            return std::nullopt;
        if (auto memo = context.memo().find(key))
            return context.interpolate(*memo);
        Value decoded = *raw;
        if (raw->isString() && raw->asString().rfind("ROT:", 0) == 0) {
            ++transforms;
            std::string s = raw->asString().substr(4);
            for (char& c : s)
                if (c >= 'a' && c <= 'z')
                    c = char('a' + (c - 'a' + 13) % 26);
            const Value* suffix = context.options().isHash() ? context.options().asHash().find("suffix") : nullptr;
            if (suffix && suffix->isString())
                s += suffix->asString();
            decoded = Value(s).withMark(raw->mark());
        }
        context.memo().store(key, decoded);
        return context.interpolate(decoded);
    }
};

// A lookup_key function that reads no file: answers every key at an existing location with its path.
class PathEcho : public LookupKeyBackend
{
public:
    std::string name() const override { return "path_echo"; }
    std::optional<Value> lookupKey(const std::string& key, LookupKeyContext& context) const override
    {
        if (key == "lookup_options")
            return std::nullopt;
        if (!context.data().isHash() || !context.data().asHash().empty())
            throw Error(ErrorCode::Io, "a function without a file format must see an empty hash");
        return Value(key + "@" + QFileInfo(qs(context.path())).fileName().toStdString());
    }
};

class Throwing : public LookupKeyBackend
{
public:
    std::string name() const override { return "throwing"; }
    std::optional<Value> lookupKey(const std::string&, LookupKeyContext&) const override
    {
        throw std::runtime_error("backend exploded");
    }
};

std::shared_ptr<const BackendRegistry> registryWith(std::initializer_list<std::shared_ptr<const LookupKeyBackend>> fns)
{
    auto r = BackendRegistry::withDefaults();
    for (const auto& f : fns)
        r->add(f);
    return r;
}

bool hasWarningContaining(const LookupResult& r, const char* text)
{
    for (const auto& w : r.warnings)
        if (w.find(text) != std::string::npos)
            return true;
    return false;
}

const TraceNode* findLevel(const TraceNode& node, const std::string& name)
{
    if (node.kind == TraceNode::Kind::Level && node.name == name)
        return &node;
    if (node.kind == TraceNode::Kind::LookupOptions)
        return nullptr; // the key's own search, not the lookup_options one
    for (const auto& c : node.children)
        if (const TraceNode* f = findLevel(*c, name))
            return f;
    return nullptr;
}

} // namespace

class TestProviders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hostLookupKeyFunction();
    void hostLookupKeyMemoAndOptions();
    void hostLookupKeyLookupOptions();
    void hostLookupKeyWithoutFileFormat();
    void hostFunctionExceptionIsOneError();
    void laterRegistrationWins();
    void unrunnableStrict_data();
    void unrunnableStrict();
    void unrunnableSkipped();
    void unknownDataHashListsRegistry();
    void functionWithoutLocations();
};

void TestProviders::hostLookupKeyFunction()
{
    auto rot = std::make_shared<RotLookupKey>();
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: secrets\n    path: secrets.yaml\n    lookup_key: rot_lookup_key\n"
                    "  - name: common\n    path: common.yaml\n"},
                   {"data/secrets.yaml", "pw: 'ROT:frperg'\nplain: 'hi %{facts.who}'\n"},
                   {"data/common.yaml", "pw: common\nonly_common: c\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registryWith({rot});
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope(yaml("facts: {who: world}\n"));
    EXPECT_FOUND(engine->lookup(scope, "pw"), Value("secret"));
    EXPECT_FOUND(engine->lookup(scope, "plain"), Value("hi world")); // interpolated through the context
    EXPECT_FOUND(engine->lookup(scope, "only_common"), Value("c")); // not found there: next level
    // the trace names the location and where the key is written
    LookupRequest explain;
    explain.explain = true;
    const LookupResult r = engine->lookup(scope, "pw", explain);
    QVERIFY(r.trace);
    const TraceNode* level = findLevel(*r.trace, "secrets");
    QVERIFY(level);
    QCOMPARE(int(level->event), int(TraceNode::Event::Result));
    QVERIFY(!level->children.empty());
    QCOMPARE(int(level->children[0]->kind), int(TraceNode::Kind::Location));
    QCOMPARE(level->children[0]->location.line, 1);
    QVERIFY(QString::fromStdString(level->children[0]->location.file).endsWith("secrets.yaml"));
}

void TestProviders::hostLookupKeyMemoAndOptions()
{
    auto rot = std::make_shared<RotLookupKey>();
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: secrets\n    path: secrets.yaml\n    lookup_key: rot_lookup_key\n"
                    "    options: {suffix: '-%{facts.dc}'}\n"},
                   {"data/secrets.yaml", "pw: 'ROT:frperg'\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registryWith({rot});
    auto engine = Engine::load(tree.hieraYaml(), options);
    // options reach the function interpolated for the scope
    Context node(engine, std::make_shared<MapScope>(yaml("facts: {dc: ams}\n")));
    EXPECT_FOUND(node.lookup("pw"), Value("secret-ams"));
    const int afterFirst = rot->transforms.load();
    QCOMPARE(afterFirst, 1);
    for (int i = 0; i < 5; ++i)
        EXPECT_FOUND(node.lookup("pw"), Value("secret-ams"));
    QCOMPARE(rot->transforms.load(), afterFirst); // memoised per file version
    QVERIFY(rot->calls.load() >= 6);
    // a changed file is a new version: the memo starts again
    QVERIFY(tree.write("data/secrets.yaml", "pw: 'ROT:arj'\n# longer, so the size differs\n"));
    engine->invalidate();
    node.invalidate();
    EXPECT_FOUND(node.lookup("pw"), Value("new-ams"));
    QCOMPARE(rot->transforms.load(), afterFirst + 1);
}

void TestProviders::hostLookupKeyLookupOptions()
{
    // lookup_options are looked up through the function too, and apply to other levels' values
    auto rot = std::make_shared<RotLookupKey>();
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: secrets\n    path: secrets.yaml\n    lookup_key: rot_lookup_key\n"
                    "  - name: common\n    path: common.yaml\n"},
                   {"data/secrets.yaml", "lookup_options: {users: {merge: unique}}\nusers: [a]\n"},
                   {"data/common.yaml", "users: [b, a]\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registryWith({rot});
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    EXPECT_FOUND(engine->lookup(scope, "users"), yaml("[a, b]"));
    // lookup_options itself stays unreachable as a key
    QCOMPARE(int(engine->lookup(scope, "lookup_options").status), int(LookupResult::Status::NotFound));
}

void TestProviders::hostLookupKeyWithoutFileFormat()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: echo\n    paths: [missing.x, here.x]\n    lookup_key: path_echo\n"},
                   {"data/here.x", "not yaml: [at all"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registryWith({std::make_shared<PathEcho>()});
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    // the missing location is never asked; the existing one is, without being parsed
    EXPECT_FOUND(engine->lookup(scope, "anything"), Value("anything@here.x"));
}

void TestProviders::hostFunctionExceptionIsOneError()
{
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: t\n    path: t.yaml\n    lookup_key: throwing\n"},
                   {"data/t.yaml", "k: v\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registryWith({std::make_shared<Throwing>()});
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    const LookupResult r = engine->lookup(scope, "k");
    EXPECT_ERROR(r, ErrorCode::Internal);
    QVERIFY2(errorText(r).contains("'throwing'") && errorText(r).contains("backend exploded")
                 && errorText(r).contains("t.yaml"),
             qPrintable(errorText(r)));
}

void TestProviders::laterRegistrationWins()
{
    struct Shout : DataHashBackend
    {
        std::string name() const override { return "yaml_data"; }
        Value load(BackendContext&) const override { return makeHash({{"k", Value("replaced")}}); }
    };
    auto registry = BackendRegistry::withDefaults();
    registry->add(std::make_shared<Shout>());
    QCOMPARE(registry->dataHashNames().front(), std::string("yaml_data"));
    TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "k: original\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registry;
    MapScope scope;
    EXPECT_FOUND(Engine::load(tree.hieraYaml(), options)->lookup(scope, "k"), Value("replaced"));
    EXPECT_FOUND(Engine::load(tree.hieraYaml())->lookup(scope, "k"), Value("original"));
}

// clang-format off
void TestProviders::unrunnableStrict_data()
{
    QTest::addColumn<QByteArray>("level");
    QTest::addColumn<int>("code");
    QTest::newRow("custom data_hash") << QByteArray("    data_hash: terraform_self\n") << int(ErrorCode::UnknownBackend);
    QTest::newRow("hiera_vault") << QByteArray("    lookup_key: hiera_vault\n") << int(ErrorCode::UnsupportedBackend);
    QTest::newRow("data_dig") << QByteArray("    data_dig: my_dig\n") << int(ErrorCode::UnsupportedBackend);
}
// clang-format on

void TestProviders::unrunnableStrict()
{
    QFETCH(QByteArray, level);
    QFETCH(int, code);
    const QByteArray hieraYaml = "version: 5\nhierarchy:\n  - name: node\n    path: node.yaml\n"
                                 "  - name: custom\n    path: 'custom/%{facts.role}.yaml'\n"
        + level + "  - name: common\n    path: common.yaml\n";
    TempTree tree({{"hiera.yaml", hieraYaml},
                   {"data/node.yaml", "k: node\n"},
                   {"data/common.yaml", "k: common\nc: common\n"},
                   {"data/custom/db.yaml", "k: custom\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml()); // loading never fails for it
    // its file is missing for this node: never consulted, every key answers
    MapScope web(yaml("facts: {role: web}\n"));
    EXPECT_FOUND(engine->lookup(web, "k"), Value("node"));
    EXPECT_FOUND(engine->lookup(web, "c"), Value("common"));
    LookupRequest unique;
    unique.merge = MergeSpec{MergeStrategy::Unique, {}, false, false};
    EXPECT_FOUND(engine->lookup(web, "k", unique), yaml("[node, common]"));
    for (const ResolvedLevel& l : engine->resolveHierarchy(web))
        QCOMPARE(l.unsupported.empty(), l.level->name != "custom");
    // its file exists for this node: a lookup consults it (lookup_options read every level) and fails
    MapScope db(yaml("facts: {role: db}\n"));
    const LookupResult r = engine->lookup(db, "k");
    EXPECT_ERROR(r, ErrorCode(code));
    QVERIFY2(errorText(r).contains("'custom'"), qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains("hiera.yaml:"), qPrintable(errorText(r))); // names where the level is written
    if (ErrorCode(code) == ErrorCode::UnsupportedBackend)
        QVERIFY2(errorText(r).contains("is not supported: hierarchy entry"), qPrintable(errorText(r)));
}

void TestProviders::unrunnableSkipped()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: vault\n    path: vault.yaml\n    lookup_key: hiera_vault\n"
                    "  - name: common\n    path: common.yaml\n"},
                   {"data/vault.yaml", "k: from-vault\n"},
                   {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.skipUnsupportedLevels = true;
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    LookupRequest explain;
    explain.explain = true;
    const LookupResult r = engine->lookup(scope, "k", explain);
    EXPECT_FOUND(r, Value("common"));
    // the answer says what was skipped, and so does the trace, on the level
    QVERIFY(hasWarningContaining(r, "hiera_vault"));
    QVERIFY(hasWarningContaining(r, "level skipped"));
    QVERIFY(r.trace);
    bool levelWarned = false;
    std::function<void(const TraceNode&)> walk = [&](const TraceNode& n) {
        if (n.kind == TraceNode::Kind::Level && n.name == "vault" && n.event == TraceNode::Event::Warning)
            levelWarned = QString::fromStdString(n.message).contains("level skipped");
        for (const auto& c : n.children)
            walk(*c);
    };
    walk(*r.trace);
    QVERIFY(levelWarned);
    QVERIFY(QString::fromStdString(explainText(*r.trace)).contains("level skipped"));
}

void TestProviders::unknownDataHashListsRegistry()
{
    auto registry = registryWith({std::make_shared<RotLookupKey>()});
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: x\n    path: x.yaml\n    data_hash: nosuch\n"},
                   {"data/x.yaml", "k: 1\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registry;
    MapScope scope;
    const LookupResult r = Engine::load(tree.hieraYaml(), options)->lookup(scope, "k");
    EXPECT_ERROR(r, ErrorCode::UnknownBackend);
    QVERIFY2(errorText(r).contains("available: yaml_data, json_data"), qPrintable(errorText(r)));
}

void TestProviders::functionWithoutLocations()
{
    // hiera_vault is written without a path: Puppet calls such a function once, without a path.
    const QByteArray hieraYaml =
        "version: 5\nhierarchy:\n"
        "  - name: vault\n    lookup_key: hiera_vault\n    options: {address: 'https://vault'}\n"
        "  - name: echo\n    lookup_key: path_echo\n"
        "  - name: common\n    path: common.yaml\n";
    TempTree tree({{"hiera.yaml", hieraYaml}, {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registryWith({std::make_shared<PathEcho>()});
    MapScope scope;
    // strict: the level is reached by every lookup (lookup_options consult it), so every lookup fails
    const LookupResult strict = Engine::load(tree.hieraYaml(), options)->lookup(scope, "k");
    EXPECT_ERROR(strict, ErrorCode::UnsupportedBackend);
    QVERIFY2(errorText(strict).contains("hiera_vault"), qPrintable(errorText(strict)));
    // skipped: the next level, a function without locations too, answers (its path is empty)
    options.skipUnsupportedLevels = true;
    auto engine = Engine::load(tree.hieraYaml(), options);
    const LookupResult r = engine->lookup(scope, "k");
    EXPECT_FOUND(r, Value("k@"));
    QVERIFY(hasWarningContaining(r, "level skipped"));
    // the hierarchy view shows the levels, without a location row for the call without a path
    const auto levels = engine->resolveHierarchy(scope);
    QCOMPARE(levels.size(), std::size_t(3));
    QVERIFY(levels[0].locations.empty());
    QVERIFY(!levels[0].unsupported.empty());
    QVERIFY(levels[1].locations.empty());
    // a data_hash level still needs a location (docs/seed-rules.md §2), and eyaml_lookup_key says it needs one
    TempTree dataHash(FileList{{"hiera.yaml", "version: 5\nhierarchy:\n  - name: x\n    data_hash: yaml_data\n"}});
    try {
        Engine::load(dataHash.hieraYaml());
        QFAIL("a data_hash level without a location loaded");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::ConfigNoLocation);
    }
    TempTree eyaml(FileList{{"hiera.yaml", "version: 5\nhierarchy:\n  - name: x\n    lookup_key: eyaml_lookup_key\n"}});
    const LookupResult e = Engine::load(eyaml.hieraYaml())->lookup(scope, "k");
    EXPECT_ERROR(e, ErrorCode::ConfigNoLocation);
    QVERIFY2(errorText(e).contains("'eyaml_lookup_key': one of 'path'"), qPrintable(errorText(e)));
}

QTEST_APPLESS_MAIN(TestProviders)
#include "tst_providers.moc"
