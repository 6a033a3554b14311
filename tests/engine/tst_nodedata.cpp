// All keys of a node (hiera/nodes/nodedata.h): every root key of the node's data files resolved as
// Engine::lookup answers it, with the merge used, the winning file and level; the YAML, JSON and CSV
// exports; one failing key among good ones; cancelling; and hiera-lookup --all-keys.

#include "support/demonodes.h"
#include "support/gitcommand.h"
#include "support/hieralookupcli.h"
#include "testutils.h"

#include <hiera/lookupkey.h>
#include <hiera/nodes/nodedata.h>

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <map>
#include <set>

using namespace hiera;
using namespace testutils;

namespace {

// Where a value counts as written: the file of the highest level that contributed to it. Worked out
// here from resolveHierarchy's order of files and the leaves' marks: the value's own mark unless a
// leaf comes from a file searched before it (a merged hash keeps the mark of the value the merge
// started from), else that leaf's.
SourceLocation expectedLocation(const Engine& engine, const Scope& scope, const Value& v)
{
    std::map<std::string, std::size_t> rank;
    for (const ResolvedLevel& level : engine.resolveHierarchy(scope))
        for (const ResolvedLocation& loc : level.locations)
            if (loc.status == ResolvedLocation::Status::Present)
                rank.emplace(loc.path, rank.size());
    auto rankOf = [&](const SourceMark& m) {
        const auto it = rank.find(SourceFiles::name(m.file));
        return it == rank.end() ? rank.size() : it->second;
    };
    SourceMark best = v.mark();
    std::function<void(const Value&)> walk = [&](const Value& x) {
        if (x.isArray() && !x.asArray().empty()) {
            for (const Value& e : x.asArray())
                walk(e);
        } else if (x.isHash() && !x.asHash().empty()) {
            for (const auto& e : x.asHash())
                walk(e.value);
        } else if (x.mark().isValid() && (!best.isValid() || rankOf(x.mark()) < rankOf(best))) {
            best = x.mark();
        }
    };
    if (!v.mark().isValid() || v.isArray() || v.isHash())
        walk(v);
    return SourceFiles::locate(best);
}

// The inventory's root keys, unquoted: what resolveAllKeys must cover.
std::vector<std::string> inventoryRoots(const Engine& engine, const Scope& scope)
{
    std::set<std::string> roots;
    for (const std::string& k : engine.keyInventory(scope, 1))
        roots.insert(LookupKey::parse(k).root());
    return {roots.begin(), roots.end()};
}

std::string lookupKeyOf(const std::string& root)
{
    return LookupKey::isSingleSegment(root) ? root : '"' + root + '"';
}

const ResolvedKey* findKey(const NodeData& data, const std::string& key)
{
    for (const ResolvedKey& k : data.keys)
        if (k.key == key)
            return &k;
    return nullptr;
}

// A data file with one key Puppet loads but refuses to return (a Ruby symbol: only the lookups that
// reach it fail) and one that recurses, among good ones.
const FileList kOneBadKey = {
    {QStringLiteral("hiera.yaml"),
     "version: 5\nhierarchy:\n  - name: Node\n    path: nodes/%{trusted.certname}.yaml\n"
     "  - name: Common\n    path: common.yaml\n"},
    {QStringLiteral("data/nodes/n1.yaml"), "good: node\nwhen: :later\n"},
    {QStringLiteral("data/common.yaml"), "good: common\nloop: \"%{lookup('loop')}\"\nother: [1, 2]\n"},
};

MapScope scopeOf(const std::string& certname)
{
    return MapScope(makeHash({{"trusted", makeHash({{"certname", Value(certname)}})}}));
}

} // namespace

class TestNodeData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyKeyAsLookupAnswersIt();
    void levelsAgreeWithResolveHierarchy();
    void mergeReported();
    void mergeReportedByLookup();
    void exportsReadBack();
    void secretsRedactedUnlessRevealed();
    void csvTable();
    void oneBadKeyOthersResolve();
    void brokenFileSkipped();
    void undefinedVariableWarningsSayWhere();
    void leadingLocationReadsTheMessagesPlace();
    void sharedWorkAnswersAsAlone();
    void skippedLevelsAnswerAsAlone();
    void cancel();
    void cliAllKeys_data();
    void cliAllKeys();
    void cliAllKeysErrors();
    void cliRevision();
    void brokenDataFilesAreSaid();
};

void TestNodeData::everyKeyAsLookupAnswersIt()
{
    const auto engine = demo::engine();
    const MapScope scope = demo::scope("web01.example.com.yaml");
    const NodeData data = resolveAllKeys(*engine, scope);
    QVERIFY(!data.cancelled);

    QStringList got, expected;
    for (const ResolvedKey& k : data.keys)
        got << qs(k.key);
    for (const std::string& k : inventoryRoots(*engine, scope))
        expected << qs(k);
    QCOMPARE(got, expected);
    QVERIFY(got.size() > 10);

    std::size_t found = 0;
    for (const ResolvedKey& k : data.keys) {
        const LookupResult r = engine->lookup(scope, lookupKeyOf(k.key));
        QVERIFY2(int(r.status) == int(k.status), k.key.c_str());
        if (r.found()) {
            ++found;
            HIERA_COMPARE_ORDERED(k.value, r.value);
            QCOMPARE(qs(k.location.toString()), qs(expectedLocation(*engine, scope, r.value).toString()));
            // The demo's firewall rules: a deep merge whose own mark is common.yaml's, decided by the
            // node's file (its ssh source).
            if (k.key == "profile::firewall::rules") {
                QVERIFY2(k.location.file.ends_with("data/nodes/web01.example.com.yaml"), k.location.file.c_str());
                QCOMPARE(qs(k.level), QStringLiteral("Per-node data"));
            }
        }
        if (r.error)
            QCOMPARE(qs(k.error), qs(printableLine(r.error->what())));
        QVERIFY2(r.merge && k.merge && r.merge->spec == k.merge->spec && r.merge->source == k.merge->source,
                 k.key.c_str());
    }
    QCOMPARE(data.errorCount(), std::size_t(0));
    QVERIFY(found > 10);
}

// The level of each answer, found independently: the level of resolveHierarchy whose locations hold
// the file of the value's mark.
void TestNodeData::levelsAgreeWithResolveHierarchy()
{
    const auto engine = demo::engine();
    const MapScope scope = demo::scope("web01.example.com.yaml");
    const std::vector<ResolvedLevel> levels = engine->resolveHierarchy(scope);
    const NodeData data = resolveAllKeys(*engine, scope);
    std::size_t checked = 0;
    for (const ResolvedKey& k : data.keys) {
        if (!k.found())
            continue;
        std::string level;
        for (const ResolvedLevel& l : levels)
            for (const ResolvedLocation& loc : l.locations)
                if (level.empty() && loc.path == k.location.file && loc.status == ResolvedLocation::Status::Present)
                    level = l.level->name;
        QVERIFY2(!level.empty(), k.key.c_str());
        QCOMPARE(qs(k.level), qs(level));
        ++checked;
    }
    QVERIFY(checked > 10);
    // One known answer: nothing above common.yaml sets the motd.
    const ResolvedKey* motd = findKey(data, "profile::motd::message");
    QVERIFY(motd);
    QCOMPARE(qs(motd->level), QStringLiteral("Common defaults"));
    QCOMPARE(qs(motd->layer), QStringLiteral("environment"));
    QVERIFY(motd->location.file.ends_with("/data/common.yaml"));
}

void TestNodeData::mergeReported()
{
    const auto engine = demo::engine();
    const NodeData data = resolveAllKeys(*engine, demo::scope("web01.example.com.yaml"));

    const ResolvedKey* ntp = findKey(data, "profile::ntp");
    QVERIFY(ntp && ntp->found() && ntp->merge);
    QCOMPARE(int(ntp->merge->spec.strategy), int(MergeStrategy::Deep));
    QCOMPARE(ntp->merge->spec.knockoutPrefix, std::optional<std::string>("--"));
    QCOMPARE(int(ntp->merge->source), int(MergeUsed::Source::LookupOptions));
    QCOMPARE(std::string(ntp->merge->entryName()), std::string("profile::ntp"));
    QCOMPARE(qs(describeMerge(*ntp->merge)), QStringLiteral("deep (lookup_options 'profile::ntp')"));

    const ResolvedKey* timezone = findKey(data, "profile::base::timezone");
    QVERIFY(timezone && timezone->found() && timezone->merge);
    QCOMPARE(int(timezone->merge->spec.strategy), int(MergeStrategy::First));
    QCOMPARE(int(timezone->merge->source), int(MergeUsed::Source::Default));
    QVERIFY(!timezone->merge->lookupOptionsEntry);
    QCOMPARE(qs(describeMerge(*timezone->merge)), QStringLiteral("first (default)"));

    // From the profile module's own lookup_options.
    const ResolvedKey* exclude = findKey(data, "profile::backup::exclude");
    QVERIFY(exclude && exclude->merge);
    QCOMPARE(int(exclude->merge->spec.strategy), int(MergeStrategy::Unique));
    QCOMPARE(std::string(exclude->merge->entryName()), std::string("profile::backup::exclude"));
}

void TestNodeData::mergeReportedByLookup()
{
    const auto engine = demo::engine();
    const MapScope scope = demo::scope("web01.example.com.yaml");
    // A pattern entry of lookup_options.
    LookupResult r = engine->lookup(scope, "profile::firewall::anything");
    QVERIFY(r.merge);
    QCOMPARE(int(r.merge->spec.strategy), int(MergeStrategy::Deep));
    QCOMPARE(std::string(r.merge->entryName()), std::string("^profile::firewall::"));
    // The caller's merge wins; the entry is still named.
    LookupRequest request;
    request.merge = mergeOf(MergeStrategy::Hash);
    r = engine->lookup(scope, "profile::ntp.servers", request);
    QVERIFY(r.merge);
    QCOMPARE(int(r.merge->source), int(MergeUsed::Source::Caller));
    QCOMPARE(int(r.merge->spec.strategy), int(MergeStrategy::Hash));
    QCOMPARE(std::string(r.merge->entryName()), std::string("profile::ntp"));
    // lookup_options itself cannot be looked up: nothing was chosen... but not an error either.
    r = engine->lookup(scope, "lookup_options");
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    // A bad key fails before any merge is chosen.
    r = engine->lookup(scope, "a..b");
    QCOMPARE(int(r.status), int(LookupResult::Status::Error));
    QVERIFY(!r.merge);
}

void TestNodeData::exportsReadBack()
{
    const auto engine = demo::engine();
    const MapScope scope = demo::scope("web01.example.com.yaml");
    const NodeData data = resolveAllKeys(*engine, scope);
    Hash expected;
    for (const ResolvedKey& k : data.keys) {
        const LookupResult r = engine->lookup(scope, lookupKeyOf(k.key));
        if (r.found())
            expected.set(k.key, redactSecrets(r.value));
    }
    QVERIFY(expected.size() > 10);

    const Value fromYaml = parseData(nodeDataYaml(data), "export.yaml");
    HIERA_COMPARE_ORDERED(fromYaml, Value(expected));

    const Value fromJson = parseData(nodeDataJson(data), "export.json", DataFormat::Json);
    QVERIFY(fromJson.isHash());
    HIERA_COMPARE_ORDERED(*fromJson.asHash().find("data"), Value(expected));
    QCOMPARE(*fromJson.asHash().find("errors"), Value(Hash()));
}

void TestNodeData::secretsRedactedUnlessRevealed()
{
    const auto engine = demo::engine();
    const NodeData data = resolveAllKeys(*engine, demo::scope("db01.example.com.yaml"));
    std::string plaintext;
    for (const ResolvedKey& k : data.keys)
        if (k.found() && k.value.isString() && k.value.isSecret())
            plaintext = k.value.asString();
    QVERIFY2(!plaintext.empty(), "db01 has a decrypted string");
    NodeExportOptions reveal;
    reveal.revealSecrets = true;
    for (auto exporter : {&nodeDataYaml, &nodeDataJson, &nodeDataCsv}) {
        QVERIFY(exporter(data, {}).find(plaintext) == std::string::npos);
        QVERIFY(exporter(data, {}).find("<sensitive>") != std::string::npos);
        QVERIFY(exporter(data, reveal).find(plaintext) != std::string::npos);
    }
}

void TestNodeData::csvTable()
{
    const auto engine = demo::engine();
    const NodeData data = resolveAllKeys(*engine, demo::scope("web01.example.com.yaml"));
    NodeExportOptions options;
    options.relativeTo = demo::dir;
    const QStringList lines = qs(nodeDataCsv(data, options)).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("node,key,value,level,file,merge,merge_source,lookup_options,error"));
    QCOMPARE(data.node, std::string("web01.example.com")); // the facts' trusted.certname names the node
    // The YAML export names it in a comment at the top (and still reads back as the data), JSON in a field.
    QVERIFY(nodeDataYaml(data, options).rfind("# node: web01.example.com\n", 0) == 0);
    QCOMPARE(*parseData(nodeDataJson(data, options), "x.json", DataFormat::Json).asHash().find("node"),
             Value("web01.example.com"));
    const auto found =
        std::count_if(data.keys.begin(), data.keys.end(), [](const ResolvedKey& k) { return k.found(); });
    QCOMPARE(lines.size(), int(found) + 1);
    const ResolvedKey* tz = findKey(data, "profile::base::timezone");
    QVERIFY(tz && tz->found());
    const QString tzRow =
        QStringLiteral("web01.example.com,profile::base::timezone,\"\"\"%1\"\"\",%2,%3,first,default,,")
            .arg(qs(tz->value.asString()), qs(tz->level), qs(tz->location.toString().substr(demo::dir.size() + 1)));
    QVERIFY2(lines.contains(tzRow), qPrintable(tzRow));
    QVERIFY(lines.filter(QStringLiteral(",profile::ntp,"))
                .first()
                .contains(QStringLiteral(",deep,lookup_options,profile::ntp,")));
}

void TestNodeData::oneBadKeyOthersResolve()
{
    TempTree tree(kOneBadKey);
    QVERIFY(tree.isValid());
    const auto engine = Engine::load(tree.hieraYaml());
    const MapScope scope = scopeOf("n1");
    const NodeData data = resolveAllKeys(*engine, scope);
    QCOMPARE(data.keys.size(), std::size_t(4)); // good, loop, other, when
    QCOMPARE(data.errorCount(), std::size_t(2));
    const ResolvedKey* when = findKey(data, "when");
    QVERIFY(when && when->status == LookupResult::Status::Error);
    QVERIFY2(qs(when->error).contains(QStringLiteral("nodes/n1.yaml:2:")), when->error.c_str());
    const ResolvedKey* loop = findKey(data, "loop");
    QVERIFY(loop && loop->status == LookupResult::Status::Error);
    QVERIFY2(qs(loop->error).contains(QStringLiteral("Recursive lookup")), loop->error.c_str());
    QVERIFY(!qs(loop->error).contains(QLatin1Char('\n')));
    QCOMPARE(findKey(data, "good")->value, Value("node"));
    QCOMPARE(qs(findKey(data, "good")->level), QStringLiteral("Node"));
    QCOMPARE(findKey(data, "other")->value, json("[1, 2]"));
    QCOMPARE(qs(findKey(data, "other")->level), QStringLiteral("Common"));

    const std::string yamlText = nodeDataYaml(data);
    QVERIFY(yamlText.find("#   loop: ") != std::string::npos);
    QVERIFY(yamlText.find("#   when: ") != std::string::npos);
    QCOMPARE(parseData(yamlText, "x.yaml"), json(R"({"good": "node", "other": [1, 2]})"));
    const Value j = parseData(nodeDataJson(data), "x.json", DataFormat::Json);
    QCOMPARE(*j.asHash().find("data"), json(R"({"good": "node", "other": [1, 2]})"));
    QCOMPARE(keysOf(*j.asHash().find("errors")), (QStringList{QStringLiteral("loop"), QStringLiteral("when")}));
    QCOMPARE(qs(j.asHash().find("errors")->asHash().find("loop")->asString()), qs(loop->error));
}

// Puppet fails every lookup when a data file cannot be parsed; under skipBrokenFiles the file is
// skipped and named in the warnings, and the lookups still fail as Puppet's do (the file is read for
// lookup_options), each with the value the rest of the data holds kept beside its error.
void TestNodeData::brokenFileSkipped()
{
    FileList files = kOneBadKey;
    files.append({QStringLiteral("data/nodes/n2.yaml"), "good: [unclosed\n"});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    const MapScope scope = scopeOf("n2");

    const NodeData strict = resolveAllKeys(*Engine::load(tree.hieraYaml()), scope);
    QCOMPARE(strict.keys.size(), std::size_t(3)); // common.yaml's: the broken file has no keys to offer
    QCOMPARE(strict.errorCount(), std::size_t(3));
    for (const ResolvedKey& k : strict.keys)
        QVERIFY2(qs(k.error).contains(QStringLiteral("nodes/n2.yaml:")), k.error.c_str());

    EngineOptions options;
    options.skipBrokenFiles = true;
    const NodeData lenient = resolveAllKeys(*Engine::load(tree.hieraYaml(), options), scope);
    QCOMPARE(lenient.errorCount(), std::size_t(3));
    QVERIFY(qs(findKey(lenient, "good")->error).contains(QStringLiteral("nodes/n2.yaml:")));
    QCOMPARE(findKey(lenient, "good")->value, Value());
    QCOMPARE(lenient.warnings.size(), std::size_t(1));
    QVERIFY(qs(lenient.warnings.front().message).contains(QStringLiteral("nodes/n2.yaml")));
    QCOMPARE(lenient.warnings.front().location.file, tree.path(QStringLiteral("data/nodes/n2.yaml")));
    QVERIFY(lenient.warnings.front().location.line > 0);
}

// A variable no scope defines, interpolated in a value: the warning names the file, line and column
// of that value, the key whose lookup met it, and reads back as that place. Two places, two warnings.
void TestNodeData::undefinedVariableWarningsSayWhere()
{
    TempTree tree({
        {QStringLiteral("hiera.yaml"), "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"},
        {QStringLiteral("data/common.yaml"),
         "a: \"x-%{facts.nosuch}\"\nb:\n  inner: \"%{facts.nosuch}\"\n"
         "c: \"%{facts.there}\"\n"},
    });
    QVERIFY(tree.isValid());
    const MapScope scope(makeHash({{"facts", makeHash({{"there", Value("yes")}})}}));
    const NodeData data = resolveAllKeys(*Engine::load(tree.hieraYaml()), scope);
    QCOMPARE(findKey(data, "c")->value, Value("yes"));
    QCOMPARE(data.warnings.size(), std::size_t(2));
    const QString common = qs(tree.path(QStringLiteral("data/common.yaml")));
    QCOMPARE(qs(data.warnings[0].key), QStringLiteral("a"));
    QCOMPARE(qs(data.warnings[0].location.file), common);
    QCOMPARE(data.warnings[0].location.line, 1);
    QCOMPARE(data.warnings[0].location.column, 4);
    QCOMPARE(qs(data.warnings[0].message), common + QStringLiteral(":1:4: Undefined variable 'facts.nosuch'"));
    QCOMPARE(qs(data.warnings[1].key), QStringLiteral("b"));
    QCOMPARE(data.warnings[1].location.line, 3);
}

void TestNodeData::leadingLocationReadsTheMessagesPlace()
{
    QCOMPARE(leadingLocation("/r/data/common.yaml:12:7: Undefined variable 'x'"),
             (SourceLocation{"/r/data/common.yaml", 12, 7}));
    QCOMPARE(leadingLocation("/r/data/common.yaml:12: no column"), (SourceLocation{"/r/data/common.yaml", 12, 0}));
    QCOMPARE(leadingLocation("C:/odd:dir/x.yaml:3:1: colons in the path"), (SourceLocation{"C:/odd:dir/x.yaml", 3, 1}));
    QCOMPARE(leadingLocation("Undefined variable 'x'"), SourceLocation{});
    QCOMPARE(leadingLocation("key: 12 things"), SourceLocation{}); // a number, but no place after it
    QCOMPARE(leadingLocation(":1:2: no file"), SourceLocation{});
    QCOMPARE(leadingLocation("f:0:1: line 0 is no line"), SourceLocation{});
    QCOMPARE(leadingLocation("f:99999999999999:1: too long to be a line"), SourceLocation{});
}

// resolveAllKeys shares sub-lookup answers between keys and skips the files that lack a key: each key
// must still answer exactly as its own lookup does, cycles failing for every key in them, and a key in
// more files than the presence index lists still merged from all of them.
void TestNodeData::sharedWorkAnswersAsAlone()
{
    QByteArray hiera = "version: 5\nhierarchy:\n";
    FileList files;
    for (int i = 1; i <= 6; ++i) {
        hiera += "  - name: L" + QByteArray::number(i) + "\n    path: l" + QByteArray::number(i) + ".yaml\n";
        files.append({QStringLiteral("data/l%1.yaml").arg(i),
                      "wide: {k" + QByteArray::number(i) + ": " + QByteArray::number(i) + "}\n"
                          + (i == 3 ? "narrow: [three]\n" : "") + (i == 5 ? "narrow: [five]\n" : "")});
    }
    files.append({QStringLiteral("hiera.yaml"), hiera});
    files.append({QStringLiteral("data/l6.yaml"),
                  "lookup_options: {wide: {merge: deep}, narrow: {merge: unique}}\n"
                  "wide: {k6: 6}\n"
                  "a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\n" // a cycle: both fail
                  "c: \"%{lookup('d')}-%{lookup('d')}\"\nd: v\ne: \"%{alias('c')}\"\n" // shared answers
                  "f: \"%{lookup('wide.k2')} %{lookup('missing')}|\"\n"});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    const auto engine = Engine::load(tree.hieraYaml());
    const MapScope scope;
    const NodeData data = resolveAllKeys(*engine, scope);
    QCOMPARE(data.keys.size(), std::size_t(8)); // a b c d e f narrow wide
    for (const ResolvedKey& k : data.keys) {
        const LookupResult r = engine->lookup(scope, k.key);
        QVERIFY2(int(r.status) == int(k.status), k.key.c_str());
        HIERA_COMPARE_ORDERED(k.value, r.value);
        if (r.error)
            QCOMPARE(qs(k.error), qs(printableLine(r.error->what())));
    }
    QCOMPARE(int(findKey(data, "a")->status), int(LookupResult::Status::Error));
    QCOMPARE(int(findKey(data, "b")->status), int(LookupResult::Status::Error));
    QCOMPARE(findKey(data, "e")->value, Value("v-v"));
    QCOMPARE(findKey(data, "f")->value, Value("2 |"));
    QCOMPARE(findKey(data, "wide")->value, json(R"({"k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6})"));
    QCOMPARE(findKey(data, "narrow")->value, json(R"(["three", "five"])"));
    QCOMPARE(qs(findKey(data, "narrow")->level), QStringLiteral("L3"));
}

// Levels none of whose files hold a key are passed over whole (KeyPresence::skips): the answers must be
// those of plain lookups, past the 64 levels the index has bits for, with missing files, and with a
// level whose file warns (a level that has something to say is never passed over).
void TestNodeData::skippedLevelsAnswerAsAlone()
{
    QByteArray hiera = "version: 5\nhierarchy:\n";
    FileList files;
    for (int i = 1; i <= 70; ++i) {
        hiera += "  - name: L" + QByteArray::number(i) + "\n    path: l" + QByteArray::number(i) + ".yaml\n";
        if (i % 7 == 0)
            continue; // a missing file
        QByteArray text = "own" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\n";
        if (i == 1)
            text += "lookup_options: {spread: {merge: unique}}\n";
        if (i == 2 || i == 40 || i == 66 || i == 69)
            text += "spread: [" + QByteArray::number(i) + "]\nfirst: at" + QByteArray::number(i) + "\n";
        if (i == 30)
            text = "- not\n- a hash\n"; // yaml_data warns about it in every lookup that reaches it
        files.append({QStringLiteral("data/l%1.yaml").arg(i), text});
    }
    files.append({QStringLiteral("hiera.yaml"), hiera});
    TempTree tree(files);
    QVERIFY(tree.isValid());
    const auto engine = Engine::load(tree.hieraYaml());
    const MapScope scope;
    const NodeData data = resolveAllKeys(*engine, scope);
    QCOMPARE(data.keys.size(), std::size_t(61)); // own1..own69 but the missing and l30, spread, first
    QStringList expected; // every lookup's warnings, each once in first-seen order, as resolveAllKeys keeps them
    for (const ResolvedKey& k : data.keys) {
        const LookupResult r = engine->lookup(scope, k.key);
        QVERIFY2(int(r.status) == int(k.status), k.key.c_str());
        HIERA_COMPARE_ORDERED(k.value, r.value);
        for (const std::string& w : r.warnings)
            if (!expected.contains(qs(w)))
                expected << qs(w);
    }
    QCOMPARE(findKey(data, "spread")->value, json(R"([2, 40, 66, 69])"));
    QCOMPARE(findKey(data, "first")->value, Value("at2"));
    QCOMPARE(findKey(data, "own69")->value, Value(69));
    QCOMPARE(qs(findKey(data, "own69")->level), QStringLiteral("L69"));
    QStringList warnings;
    for (const hiera::NodeWarning& w : data.warnings)
        warnings << qs(w.message);
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.front().contains(QStringLiteral("l30.yaml")), qPrintable(warnings.front()));
    QCOMPARE(warnings, expected);
}

void TestNodeData::cancel()
{
    const auto engine = demo::engine();
    const MapScope scope = demo::scope("web01.example.com.yaml");
    std::stop_source source;
    source.request_stop();
    ResolveOptions options;
    options.stop = source.get_token();
    NodeData data = resolveAllKeys(*engine, scope, options);
    QVERIFY(data.cancelled);
    QVERIFY(data.keys.empty());
    QVERIFY(nodeDataYaml(data).starts_with("# node: web01.example.com\n# Cancelled"));

    // Stopped from the progress callback after three keys.
    std::stop_source later;
    std::vector<std::pair<std::size_t, std::size_t>> progress;
    options.stop = later.get_token();
    options.progress = [&](std::size_t done, std::size_t total) {
        progress.emplace_back(done, total);
        if (done == 3)
            later.request_stop();
    };
    data = resolveAllKeys(*engine, scope, options);
    QVERIFY(data.cancelled);
    QCOMPARE(data.keys.size(), std::size_t(3));
    QCOMPARE(progress.size(), std::size_t(3));
    QCOMPARE(progress.back().second, inventoryRoots(*engine, scope).size());
}

// clang-format off
void TestNodeData::cliAllKeys_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("default") << QString();
    QTest::newRow("yaml") << QStringLiteral("yaml");
    QTest::newRow("json") << QStringLiteral("json");
    QTest::newRow("csv") << QStringLiteral("csv");
}
// clang-format on

void TestNodeData::cliAllKeys()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    QFETCH(QString, format);
    const auto engine = demo::engine();
    const NodeData data = resolveAllKeys(*engine, demo::scope("web01.example.com.yaml"));
    QStringList args{QStringLiteral("--config"),
                     qs(demo::dir),
                     QStringLiteral("--facts"),
                     qs(demo::dir + "/facts/web01.example.com.yaml"),
                     QStringLiteral("--eyaml-private-key"),
                     qs(demo::dir + "/keys/private_key.pkcs7.pem"),
                     QStringLiteral("--all-keys")};
    if (!format.isEmpty())
        args << QStringLiteral("--format") << format;
    const CliResult r = runHieraLookup(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    NodeExportOptions options;
    options.relativeTo = demo::dir;
    if (format == QLatin1String("csv")) {
        QCOMPARE(r.out, qs(nodeDataCsv(data, options)));
    } else if (format == QLatin1String("json")) {
        const Value v = parseData(ss(r.out), "out.json", DataFormat::Json);
        HIERA_COMPARE_ORDERED(v, parseData(nodeDataJson(data), "x.json", DataFormat::Json));
    } else {
        HIERA_COMPARE_ORDERED(parseData(ss(r.out), "out.yaml"), parseData(nodeDataYaml(data), "x.yaml"));
        QCOMPARE(r.out, qs(nodeDataYaml(data)));
    }
}

void TestNodeData::cliAllKeysErrors()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    TempTree tree(kOneBadKey);
    QVERIFY(tree.isValid());
    // Some keys failed: the rest is printed, each failure named on stderr, exit status 2.
    CliResult r = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--node"),
                                  QStringLiteral("n1"), QStringLiteral("--all-keys")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(parseData(ss(r.out), "out.yaml"), json(R"({"good": "node", "other": [1, 2]})"));
    QVERIFY2(r.err.contains(QStringLiteral("hiera-lookup: error: loop: ")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("hiera-lookup: error: when: ")), qPrintable(r.err));
    // --all-keys takes no KEY, and refuses --merge (each key has its own).
    r = runHieraLookup(
        {QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--all-keys"), QStringLiteral("good")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: --all-keys takes no KEY")), qPrintable(r.err));
    r = runHieraLookup({QStringLiteral("--config"), qs(tree.hieraYaml()), QStringLiteral("--all-keys"),
                        QStringLiteral("--format"), QStringLiteral("table")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: --format")), qPrintable(r.err));
}

// --revision REV: the hierarchy and its data from that commit of the repository holding --config
// (hiera/gitrevisiontree.h), for a lookup, --explain and --all-keys; facts still from disk; the
// working tree's changes not seen; an unknown revision and a directory in no repository are errors.
void TestNodeData::cliRevision()
{
#ifndef HIERA_HAVE_LOOKUP_BIN
    QSKIP("hiera-lookup is not built");
#endif
    if (GitCommand::program().isEmpty())
        QSKIP("git is not installed (scripts/dev.sh deps installs it)");
    TempTree repo(FileList{{"hiera.yaml",
                            "version: 5\nhierarchy:\n  - name: node\n    path: '%{trusted.certname}.yaml'\n"
                            "  - name: common\n    path: common.yaml\n"},
                           {"data/common.yaml", "answer: one\nremoved: yes\n"}});
    TempTree facts(FileList{{"facts.yaml", "role: web\n"}});
    QVERIFY(repo.isValid() && facts.isValid());
    const GitCommand git(repo.root());
    QVERIFY(git({QStringLiteral("init"), QStringLiteral("-q")}));
    QVERIFY(git({QStringLiteral("add"), QStringLiteral("-A")}));
    QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("one")}));
    QVERIFY(repo.write(QStringLiteral("data/common.yaml"), "answer: two\n"));
    QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-am"), QStringLiteral("two")}));
    QVERIFY(repo.write(QStringLiteral("data/common.yaml"), "answer: dirty\n"));
    QVERIFY(repo.write(QStringLiteral("data/n1.yaml"), "answer: untracked\n"));

    const QString config = repo.root();
    const QStringList base{QStringLiteral("--config"), config,
                           QStringLiteral("--facts"),  qs(facts.path(QStringLiteral("facts.yaml"))),
                           QStringLiteral("--node"),   QStringLiteral("n1")};
    CliResult r = runHieraLookup(base + QStringList{QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QStringLiteral("--- untracked\n"));
    r = runHieraLookup(base
                       + QStringList{QStringLiteral("--revision"), QStringLiteral("HEAD"), QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QStringLiteral("--- two\n"));
    r = runHieraLookup(base + QStringList{QStringLiteral("--revision=HEAD~1"), QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QStringLiteral("--- one\n"));
    r = runHieraLookup(base
                       + QStringList{QStringLiteral("--revision"), QStringLiteral("HEAD"), QStringLiteral("removed")});
    QCOMPARE(r.exitCode, 1);
    r = runHieraLookup(base
                       + QStringList{QStringLiteral("--revision"), QStringLiteral("HEAD~1"),
                                     QStringLiteral("--all-keys"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(parseData(ss(r.out), "out.json"),
             json(R"({"node": "n1", "data": {"answer": "one", "removed": true}, "errors": {}})"));
    r = runHieraLookup(base
                       + QStringList{QStringLiteral("--revision"), QStringLiteral("HEAD~1"),
                                     QStringLiteral("--explain"), QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("one")), qPrintable(r.out));
    QVERIFY2(!r.out.contains(QStringLiteral("untracked")), qPrintable(r.out));
    r = runHieraLookup(base
                       + QStringList{QStringLiteral("--revision"), QStringLiteral("HEAD"), QStringLiteral("--explain"),
                                     QStringLiteral("--format"), QStringLiteral("markdown"), QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("(revision HEAD)")), qPrintable(r.out));

    // Errors: exit status 2, one line.
    r = runHieraLookup(
        base + QStringList{QStringLiteral("--revision"), QStringLiteral("no-such-branch"), QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: error: ")) && r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("unknown revision")) && r.err.contains(QStringLiteral("'no-such-branch'")),
             qPrintable(r.err));
    r = runHieraLookup({QStringLiteral("--config"), qs(facts.path()), QStringLiteral("--revision"),
                        QStringLiteral("HEAD"), QStringLiteral("answer")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("not in a git work tree")) && r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));
    r = runHieraLookup(base
                       + QStringList{QStringLiteral("--revision"), QStringLiteral("HEAD"),
                                     QStringLiteral("--diff-facts"), QStringLiteral("a"), QStringLiteral("b")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: --revision cannot be used with --diff-facts")),
             qPrintable(r.err));
    r = runHieraLookup({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QStringLiteral("--revision REV")));

    // --revision-diff: the library's nodes (here the one facts file, n1 by --node above being absent:
    // named after its file) on two revisions.
    const QStringList diff{QStringLiteral("--config"), config, QStringLiteral("--nodes"), qs(facts.path())};
    r = runHieraLookup(diff
                       + QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD~1"),
                                     QStringLiteral("--to"), QStringLiteral("HEAD"), QStringLiteral("--format"),
                                     QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    const Value doc = parseData(ss(r.out), "diff.json", DataFormat::Json);
    QCOMPARE(doc.asHash().find("nodes")->asInteger(), std::int64_t(1));
    QCOMPARE(doc.asHash().find("changed_files")->asArray(), (Array{Value("data/common.yaml")}));
    const Array& changes = doc.asHash().find("changes")->asArray();
    QCOMPARE(changes.size(), std::size_t(2));
    QCOMPARE(changes[0].asHash().find("key")->asString(), std::string("answer"));
    QCOMPARE(changes[0].asHash().find("before")->asString(), std::string("one"));
    QCOMPARE(changes[0].asHash().find("after")->asString(), std::string("two"));
    QCOMPARE(changes[1].asHash().find("key")->asString(), std::string("removed"));
    QCOMPARE(changes[1].asHash().find("found_after")->asBoolean(), false);
    QVERIFY(changes[1].asHash().find("after")->isNull());
    // The process ends without freeing what it read (main.cpp, exitWithoutFreeing): what it wrote to a
    // file rather than a pipe is whole all the same, with the same exit status.
    QTemporaryDir saved;
    QVERIFY(saved.isValid());
    const QString savedJson = saved.path() + QStringLiteral("/diff.json");
    r = runHieraLookup(diff
                           + QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD~1"),
                                         QStringLiteral("--to"), QStringLiteral("HEAD"), QStringLiteral("--format"),
                                         QStringLiteral("json"), QStringLiteral("--fail-on-change")},
                       QStringLiteral("exec >'") + savedJson + QStringLiteral("';"));
    QCOMPARE(r.exitCode, 3);
    QFile savedFile(savedJson);
    QVERIFY(savedFile.open(QIODevice::ReadOnly));
    QCOMPARE(parseData(savedFile.readAll().toStdString(), "saved.json", DataFormat::Json), doc);
    // The working tree by default, untracked files included; --fail-on-change exits 3 on a change only.
    r = runHieraLookup(
        diff
        + QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD"), QStringLiteral("--fail-on-change")});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.out.contains(QStringLiteral("after: dirty")), qPrintable(r.out));
    r = runHieraLookup(diff
                       + QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD"), QStringLiteral("--to"),
                                     QStringLiteral("HEAD"), QStringLiteral("--fail-on-change"),
                                     QStringLiteral("--format"), QStringLiteral("markdown")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith(QStringLiteral("**Hiera revision diff**: No key changes on any of 1 nodes")),
             qPrintable(r.out));
    // Its errors: one line, exit 2.
    for (const QStringList& bad : {QStringList{QStringLiteral("--revision-diff"), QStringLiteral("no-such-branch")},
                                   QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD"),
                                               QStringLiteral("--to"), QStringLiteral("no-such-branch")}}) {
        r = runHieraLookup(diff + bad);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty() && r.err.count(QLatin1Char('\n')) == 1
                     && r.err.contains(QStringLiteral("no-such-branch")),
                 qPrintable(r.err));
    }
    // A side whose hiera.yaml cannot be read is named: the path is where it is checked out.
    const QByteArray hieraYaml = "version: 5\nhierarchy:\n  - name: node\n    path: '%{trusted.certname}.yaml'\n"
                                 "  - name: common\n    path: common.yaml\n";
    QVERIFY(repo.write(QStringLiteral("hiera.yaml"), "version: 5\nhierarchy: [unclosed\n"));
    r = runHieraLookup(diff + QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("hiera-lookup: error: the working tree: "))
                 && r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));
    r = runHieraLookup(diff
                       + QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD~1"),
                                     QStringLiteral("--to"), QStringLiteral("HEAD")});
    QCOMPARE(r.exitCode, 0); // both commits' hiera.yaml read from git, not the broken one on disk
    QVERIFY(repo.write(QStringLiteral("hiera.yaml"), hieraYaml));
    r = runHieraLookup({QStringLiteral("--config"), qs(facts.path()), QStringLiteral("--nodes"), qs(facts.path()),
                        QStringLiteral("--revision-diff"), QStringLiteral("HEAD")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("not in a git work tree")), qPrintable(r.err));
    for (const QStringList& usage :
         {QStringList{QStringLiteral("--to"), QStringLiteral("HEAD"), QStringLiteral("answer")},
          QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD"), QStringLiteral("answer")},
          QStringList{QStringLiteral("--revision-diff"), QStringLiteral("HEAD"), QStringLiteral("--revision"),
                      QStringLiteral("HEAD")}}) {
        r = runHieraLookup(diff + usage);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.err));
    }
}

// A data file that does not parse: Puppet fails every lookup reaching it, and the keys only it defines
// are in no inventory. The node's data says so (brokenFiles), and --all-keys exits 2 naming it, also
// when it is the node's only file (the list of keys is then empty).
void TestNodeData::brokenDataFilesAreSaid()
{
    TempTree repo(FileList{{"hiera.yaml",
                            "version: 5\nhierarchy:\n  - name: node\n    path: '%{trusted.certname}.yaml'\n"
                            "  - name: common\n    path: common.yaml\n"},
                           {"data/common.yaml", "a: 1\nb: [unclosed\n"}});
    TempTree facts(FileList{{"n1.yaml", "clientcert: n1\n"}});
    QVERIFY(repo.isValid() && facts.isValid());
    const auto engine = Engine::load(repo.hieraYaml());
    const NodeScope scope({Value(Hash{}), "n1", "production", {}});
    NodeData data = resolveAllKeys(*engine, scope);
    QCOMPARE(data.keys.size(), std::size_t(0));
    QCOMPARE(data.brokenFiles.size(), std::size_t(1));
    QVERIFY2(data.brokenFiles[0].location().file.ends_with("data/common.yaml"), data.brokenFiles[0].what());
    QVERIFY(data.brokenFiles[0].location().line >= 2); // where the parser gave up
    // Beside a file that parses, whose keys then fail on the broken one.
    QVERIFY(repo.write(QStringLiteral("data/n1.yaml"), "c: 3\n"));
    engine->invalidate();
    data = resolveAllKeys(*engine, scope);
    QCOMPARE(data.brokenFiles.size(), std::size_t(1));
    QCOMPARE(data.keys.size(), std::size_t(1));
    QCOMPARE(data.keys[0].status, LookupResult::Status::Error);
#ifdef HIERA_HAVE_LOOKUP_BIN
    const CliResult r = runHieraLookup({QStringLiteral("--config"), qs(repo.path()), QStringLiteral("--facts"),
                                        qs(facts.path(QStringLiteral("n1.yaml"))), QStringLiteral("--all-keys")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts).first().contains(QStringLiteral("data/common.yaml:")),
             qPrintable(r.err));
#endif
}

QTEST_APPLESS_MAIN(TestNodeData)
#include "tst_nodedata.moc"
