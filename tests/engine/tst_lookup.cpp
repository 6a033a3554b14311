// Lookups end to end (docs/hiera-reference.md §2, §4, §5, §7): lookup_options selection, caller merges, dotted keys
// after the merge, not-found cases, backends, files, globs, mapped_paths, the explain trace and the
// provenance of merged values.

#include "support/lookupexpect.h"
#include "support/testpaths.h"
#include "testutils.h"

#include <hiera/context.h>
#include <hiera/engine.h>
#include <hiera/error.h>
#include <hiera/explain.h>
#include <hiera/scope.h>
#include <hiera/sourcelocation.h>
#include <hiera/trace.h>

#include <QDir>
#include <QFile>
#include <QTest>

using namespace hiera;
using namespace testutils;

class TestLookup : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lookupOptionsSelection_data();
    void lookupOptionsSelection();
    void lookupOptionsPatternOrder();
    void lookupOptionsCaseInsensitivePattern();
    void lookupOptionsRubyPatterns_data();
    void lookupOptionsRubyPatterns();
    void lookupOptionsErrors_data();
    void lookupOptionsErrors();
    void lookupOptionsInvalidKey();
    void lookupOptionsNull_data();
    void lookupOptionsNull();
    void symbolFailsOnlyItsLookups();
    void symbolInLookupOptions();
    void dotDotGoesThroughTheFileSystem();
    void datadirJoinedBeforeInterpolation();
    void mappedPathsTopScopeReference();
    void callerMergeOverridesLookupOptions();
    void convertTo_data();
    void convertTo();
    void dottedAfterMerge();
    void firstDoesNotFallThrough();
    void notFound_data();
    void notFound();
    void foundNull();
    void quotedAndOddKeys();
    void keySyntaxError();
    void unsupportedBackends_data();
    void unsupportedBackends();
    void unknownDataHash();
    void missingFilesSkipped();
    void brokenFileIsAnError();
    void dateInAnotherFile();
    void invalidKeysInValue();
    void jsonData();
    void yamlDataReadsJson();
    void emptyAndNonHashFiles();
    void pathIsDirectory();
    void defaultHierarchy();
    void emptyHierarchy();
    void noExtensionAdded();
    void interpolatedPaths();
    void braceGlobs();
    void recursiveGlobs();
    void absoluteInterpolatedPath();
    void globExpansion();
    void globsConcatenate();
    void globNoMatch();
    void mappedPaths();
    void mappedPathsStructured();
    void mappedPathsNonArray_data();
    void mappedPathsNonArray();
    void mixedLocationOrder();
    void resolvedStatuses();
    void explainTrace();
    void explainTraceMerge();
    void explainText();
    void explainJson();
    void provenance();
    void provenanceThroughInterpolation();
    void keyInventory();
    void candidateFiles();
    void hieraFacade();
    void customBackend();
    void backendOptionsInterpolated();
    void globStaysInOneComponent();
    void parseLimitsApply();
};

static const QByteArray kTwoLevels = "version: 5\n"
                                     "hierarchy:\n"
                                     "  - name: high\n"
                                     "    path: high.yaml\n"
                                     "  - name: low\n"
                                     "    path: low.yaml\n";

static LookupResult lookupIn(const TempTree& tree, const std::string& key, const Value& scopeRoot = {},
                             const LookupRequest& o = {})
{
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(scopeRoot.isNull() ? makeHash({}) : scopeRoot);
    return engine->lookup(scope, key, o);
}

static LookupRequest withMerge(MergeStrategy s)
{
    LookupRequest o;
    o.merge = mergeOf(s);
    return o;
}

// clang-format off
void TestLookup::lookupOptionsSelection_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QByteArray>("expected"); // YAML
    // high {x: {p: 1}}, low {x: {q: 2}, y: 1} for every key; the entry chosen decides the merge
    QTest::newRow("exact entry beats pattern") << "a" << QByteArray("{x: {p: 1}, y: 1}"); // hash
    QTest::newRow("pattern searches from ^") << "abc" << QByteArray("{x: {q: 2, p: 1}, y: 1}"); // deep
    QTest::newRow("pattern is not anchored at the end") << "ab" << QByteArray("{x: {q: 2, p: 1}, y: 1}");
    QTest::newRow("no match: first") << "xa" << QByteArray("{x: {p: 1}}");
    QTest::newRow("without ^ an entry is an exact key") << "bcd" << QByteArray("{x: {p: 1}}");
    QTest::newRow("exact key with regex characters") << "\"b.*\"" << QByteArray("{x: {q: 2, p: 1}, y: 1}");
    QTest::newRow("interpolated entry key") << "Ubuntu" << QByteArray("{x: {q: 2, p: 1}, y: 1}");
    QTest::newRow("interpolated entry value") << "mt" << QByteArray("{x: {p: 1}, y: 1}");
    QTest::newRow("entry value from lookup()") << "mtl" << QByteArray("{x: {q: 2, p: 1}, y: 1}");
    QTest::newRow("entry by root key for dotted key") << "dot.x" << QByteArray("{q: 2, p: 1}");
    QTest::newRow("dotted entry never used") << "dot2.x" << QByteArray("{p: 1}");
    QTest::newRow("null entry merge is first") << "nullmerge" << QByteArray("{x: {p: 1}}");
    QTest::newRow("empty hash merge is first") << "emptymerge" << QByteArray("{x: {p: 1}}");
    QTest::newRow("unknown entry keys ignored") << "extra" << QByteArray("{x: {q: 2, p: 1}, y: 1}");
}
// clang-format on

void TestLookup::lookupOptionsSelection()
{
    QFETCH(QString, key);
    QFETCH(QByteArray, expected);
    QByteArray high, low;
    for (const char* k : {"a", "abc", "ab", "xa", "bcd", "\"b.*\"", "Ubuntu", "mt", "dot", "dot2", "nullmerge",
                          "emptymerge", "extra", "mtl"}) {
        high += QByteArray(k) + ": {x: {p: 1}}\n";
        low += QByteArray(k) + ": {x: {q: 2}, y: 1}\n";
    }
    high += "lookup_options:\n"
            "  \"^a\": {merge: deep}\n"
            "  a: {merge: hash}\n"
            "  \"b.*\": {merge: deep}\n"
            "  \"%{facts.os.name}\": {merge: deep}\n"
            "  mt: {merge: \"%{mergetype}\"}\n"
            "  mtl: {merge: \"%{lookup('mergeviadata')}\"}\n"
            "  dot: {merge: deep}\n"
            "  dot2.x: {merge: deep}\n"
            "  nullmerge: {merge: ~}\n"
            "  emptymerge: {merge: {}}\n"
            "  extra: {merge: deep, frobnicate: true}\n";
    low += "mergeviadata: deep\n";
    TempTree tree({{"hiera.yaml", kTwoLevels}, {"data/high.yaml", high}, {"data/low.yaml", low}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("facts: {os: {name: Ubuntu}}\nmergetype: hash\n");
    const LookupResult r = lookupIn(tree, ss(key), scope);
    EXPECT_FOUND(r, yaml(expected.toStdString()));
}

void TestLookup::lookupOptionsPatternOrder()
{
    // item 33: the merged lookup_options hash lists the lowest level's keys first, so low's "^a" is tried
    // before high's "^ab"
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "abc: {x: {p: 1}}\nlookup_options:\n  \"^ab\": {merge: deep}\n"},
                   {"data/low.yaml", "abc: {x: {q: 2}, y: 1}\nlookup_options:\n  \"^a\": {merge: hash}\n"}});
    QVERIFY(tree.isValid());
    LookupRequest o;
    o.explain = true;
    const LookupResult r = lookupIn(tree, "abc", {}, o);
    EXPECT_FOUND(r, yaml("{x: {p: 1}, y: 1}"));
    QVERIFY(r.trace);
    QCOMPARE(qs(r.trace->lookupOptionsEntry), QStringLiteral("^a"));
}

void TestLookup::lookupOptionsCaseInsensitivePattern()
{
    // item 37: Onigmo's inline (?i) works in Puppet
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "ABC: [h]\nlookup_options:\n  \"^(?i)abc\": {merge: unique}\n"},
                   {"data/low.yaml", "ABC: [l]\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "ABC"), yaml("[h, l]"));
}

// lookup_options patterns (keys starting with ^) are Ruby regular expressions, which Puppet matches
// with Onigmo: Ruby's anchors, classes, inline groups and named groups, and Ruby's line anchors.
// clang-format off
void TestLookup::lookupOptionsRubyPatterns_data()
{
    QTest::addColumn<QByteArray>("pattern");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("matches");
    QTest::newRow("\\A") << QByteArray("^\\Aprofile::") << QByteArray("profile::ntp") << true;
    QTest::newRow("\\A not in the middle") << QByteArray("^.*\\Antp") << QByteArray("profile::ntp") << false;
    QTest::newRow("\\z") << QByteArray("^.*::ntp\\z") << QByteArray("profile::ntp") << true;
    QTest::newRow("\\z not before the end") << QByteArray("^.*::nt\\z") << QByteArray("profile::ntp") << false;
    QTest::newRow("\\Z") << QByteArray("^.*ntp\\Z") << QByteArray("profile::ntp") << true;
    QTest::newRow("\\Z before a final newline") << QByteArray("^.*ntp\\Z") << QByteArray("profile::ntp\\n") << true;
    QTest::newRow("\\z not before a final newline") << QByteArray("^.*ntp\\z") << QByteArray("profile::ntp\\n") << false;
    QTest::newRow("\\h upper case") << QByteArray("^key_\\h+$") << QByteArray("key_0AF9") << true;
    QTest::newRow("(?i:...) is scoped") << QByteArray("^(?i:profile)::NTP") << QByteArray("profile::ntp") << false;
    QTest::newRow("named group") << QByteArray("^(?<role>role|profile)::") << QByteArray("role::web") << true;
    QTest::newRow("\\h (hex digit)") << QByteArray("^key_\\h+$") << QByteArray("key_0af9") << true;
    QTest::newRow("\\h is not any letter") << QByteArray("^key_\\h+$") << QByteArray("key_xyz") << false;
    QTest::newRow("(?i:...)") << QByteArray("^(?i:PROFILE)::") << QByteArray("profile::ntp") << true;
    QTest::newRow("(?i) for the rest") << QByteArray("^(?i)profile::NTP") << QByteArray("profile::ntp") << true;
    QTest::newRow("named group backreference") << QByteArray("^(?<mod>[a-z]+)::\\k<mod>$") << QByteArray("ntp::ntp") << true;
    QTest::newRow("named group backreference, no match") << QByteArray("^(?<mod>[a-z]+)::\\k<mod>$") << QByteArray("ntp::dns") << false;
    QTest::newRow("POSIX bracket") << QByteArray("^[[:alpha:]]+::[[:digit:]]") << QByteArray("role::1x") << true;
    QTest::newRow("^ matches after a newline (Ruby)") << QByteArray("^b") << QByteArray("a\\nb") << true;
    QTest::newRow("search, not a full match") << QByteArray("^pro") << QByteArray("profile::x") << true;
    QTest::newRow("unicode") << QByteArray("^caf\\u00e9::") << QByteArray("caf\\u00e9::menu") << true;
}
// clang-format on

void TestLookup::lookupOptionsRubyPatterns()
{
    QFETCH(QByteArray, pattern);
    QFETCH(QByteArray, key);
    QFETCH(bool, matches);
    // Both levels hold an array under the key; a matching pattern makes it a unique merge.
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "\"" + key + "\": [h]\nlookup_options:\n  '" + pattern + "': {merge: unique}\n"},
                   {"data/low.yaml", "\"" + key + "\": [l]\n"}});
    QVERIFY(tree.isValid());
    const Value keyValue = yaml("\"" + key.toStdString() + "\"");
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const LookupResult r = engine->lookup(scope, keyValue.asString()); // none of these keys has a dot or a quote
    EXPECT_FOUND(r, matches ? yaml("[h, l]") : yaml("[h]"));
}

// clang-format off
void TestLookup::lookupOptionsErrors_data()
{
    QTest::addColumn<QByteArray>("options"); // the lookup_options value in high.yaml
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("non-hash entry") << QByteArray("{k: deep}") << ErrorCode::LookupOptions << "must be a hash";
    QTest::newRow("integer entry") << QByteArray("{k: 5}") << ErrorCode::LookupOptions << "must be a hash";
    QTest::newRow("array entry") << QByteArray("{k: [merge]}") << ErrorCode::LookupOptions << "must be a hash";
    QTest::newRow("lookup_options not a hash")
        << QByteArray("5") << ErrorCode::LookupOptions << "value of lookup_options must be a hash";
    QTest::newRow("bad regex") << QByteArray("{\"^k(\": {merge: deep}}") << ErrorCode::LookupOptions << "^k(";
    QTest::newRow("unknown strategy") << QByteArray("{k: {merge: DEEP}}") << ErrorCode::MergeOptions
                                      << "Unknown merge strategy: 'DEEP'";
    QTest::newRow("reverse_deep rejected")
        << QByteArray("{k: {merge: reverse_deep}}") << ErrorCode::MergeOptions << "reverse_deep";
    QTest::newRow("unconstrained_deep rejected")
        << QByteArray("{k: {merge: unconstrained_deep}}") << ErrorCode::MergeOptions << "unconstrained_deep";
    QTest::newRow("default rejected") << QByteArray("{k: {merge: default}}") << ErrorCode::MergeOptions << "default";
    QTest::newRow("hash with knockout_prefix") << QByteArray("{k: {merge: {strategy: hash, knockout_prefix: '--'}}}")
                                               << ErrorCode::MergeOptions << "unrecognized key 'knockout_prefix'";
}
// clang-format on

void TestLookup::lookupOptionsErrors()
{
    QFETCH(QByteArray, options);
    QFETCH(ErrorCode, code);
    QFETCH(QString, fragment);
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "k: {x: 1}\nlookup_options: " + options + "\n"},
                   {"data/low.yaml", "k: {y: 2}\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_ERROR(r, code);
    QVERIFY2(errorText(r).contains(fragment), qPrintable(errorText(r)));
}

void TestLookup::lookupOptionsInvalidKey()
{
    // §4.1 step 1, item 38
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "lookup_options:\n  a: {merge: deep}\na: 1\n"},
                   {"data/low.yaml", "b: 1\n"}});
    QVERIFY(tree.isValid());
    for (const char* key : {"lookup_options", "lookup_options.a"}) {
        const LookupResult r = lookupIn(tree, key);
        QVERIFY2(!r.error, qPrintable(errorText(r)));
        QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    }
    EXPECT_FOUND(lookupIn(tree, "a"), Value(1));
}

// clang-format off
void TestLookup::lookupOptionsNull_data()
{
    // A level whose lookup_options is null takes part in the hash merge of lookup_options, as in
    // Puppet 7.23: next to a real hash it fails every lookup ("Lookup of key 'lookup_options' failed:
    // ..."); alone it means no options.
    QTest::addColumn<QByteArray>("high");
    QTest::addColumn<QByteArray>("low");
    QTest::addColumn<QString>("error"); // empty: k is found as [1]
    QTest::newRow("null above a hash") << QByteArray("lookup_options: ~\n")
                                       << QByteArray("lookup_options: {k: {merge: unique}}\n")
                                       << "The first element of the merge has wrong type, expects a Hash value, got Undef";
    QTest::newRow("hash above a null") << QByteArray("lookup_options: {k: {merge: unique}}\n")
                                       << QByteArray("lookup_options: ~\n")
                                       << "The second element of the merge has wrong type, expects a Hash value, got Undef";
    QTest::newRow("two nulls") << QByteArray("lookup_options: ~\n") << QByteArray("lookup_options: ~\n")
                               << "The first element of the merge has wrong type, expects a Hash value, got Undef";
    QTest::newRow("null alone") << QByteArray("lookup_options: ~\n") << QByteArray("") << QString();
}
// clang-format on

void TestLookup::lookupOptionsNull()
{
    QFETCH(QByteArray, high);
    QFETCH(QByteArray, low);
    QFETCH(QString, error);
    TempTree tree(
        {{"hiera.yaml", kTwoLevels}, {"data/high.yaml", high + "k: [1]\n"}, {"data/low.yaml", low + "k: [2]\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    if (error.isEmpty()) {
        EXPECT_FOUND(r, yaml("[1]"));
        return;
    }
    EXPECT_ERROR(r, ErrorCode::MergeType);
    QVERIFY2(errorText(r).contains(error), qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains(".yaml:1:"), qPrintable(errorText(r))); // where the null is written
}

void TestLookup::symbolFailsOnlyItsLookups()
{
    // Puppet 7.23 loads a file with a symbol value (`a: :foo`) and fails only the lookups that reach
    // it ("Value for key 'a' ... expects Puppet::LookupValue, got Runtime[ruby, 'Symbol']").
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml",
                    "a: :foo\nc:\n  - 1\n  - :bar\nb: one\nk: [1]\nlookup_options:\n  k: {merge: unique}\ne: top\n"},
                   {"data/low.yaml", "a: lower\nk: [2]\nd: :low\ne: &s :sym\nf: *s\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "b"), Value("one"));
    EXPECT_FOUND(lookupIn(tree, "k"), yaml("[1, 2]"));
    const LookupResult a = lookupIn(tree, "a");
    EXPECT_ERROR(a, ErrorCode::DataType);
    QVERIFY2(errorText(a).contains("high.yaml:1:4") && errorText(a).contains(":foo"), qPrintable(errorText(a)));
    const LookupResult c = lookupIn(tree, "c");
    EXPECT_ERROR(c, ErrorCode::DataType);
    QVERIFY2(errorText(c).contains("high.yaml:4:5") && errorText(c).contains(":bar"), qPrintable(errorText(c)));
    // a first lookup that stops above the symbol never reaches it; a merge does
    EXPECT_FOUND(lookupIn(tree, "e"), Value("top"));
    EXPECT_ERROR(lookupIn(tree, "e", {}, withMerge(MergeStrategy::Unique)), ErrorCode::DataType);
    const LookupResult d = lookupIn(tree, "d");
    EXPECT_ERROR(d, ErrorCode::DataType);
    QVERIFY2(errorText(d).contains("low.yaml:3:4"), qPrintable(errorText(d)));
    // an alias of the symbol (this file goes through yaml-cpp, not the block reader) fails too
    const LookupResult f = lookupIn(tree, "f");
    EXPECT_ERROR(f, ErrorCode::DataType);
    QVERIFY2(errorText(f).contains("low.yaml:4:4"), qPrintable(errorText(f)));
}

void TestLookup::symbolInLookupOptions()
{
    // A symbol inside lookup_options fails every lookup, as lookup_options are read for each (Puppet
    // 7.23: "Lookup of key 'lookup_options' failed: Value for key 'lookup_options' ... got Hash[String,
    // Hash[String, Runtime[ruby, 'Symbol'] ...").
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "lookup_options:\n  k:\n    merge: :unique\nk: [1]\n"},
                   {"data/low.yaml", "k: [2]\nb: 1\n"}});
    QVERIFY(tree.isValid());
    for (const char* key : {"b", "k"}) {
        const LookupResult r = lookupIn(tree, key);
        EXPECT_ERROR(r, ErrorCode::DataType);
        QVERIFY2(errorText(r).contains("high.yaml:3:12"), qPrintable(errorText(r)));
    }
}

void TestLookup::dotDotGoesThroughTheFileSystem()
{
    // Puppet 7.23 checks `datadir + path` with the file system: `nodes/../common.yaml` is
    // location_not_found while nodes/ does not exist. A leading `..` is taken lexically (Pathname#+).
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: up\n    path: nodes/../common.yaml\n"
                    "  - name: lead\n    path: ../outside.yaml\n"},
                   {"data/common.yaml", "k: common\n"},
                   {"outside.yaml", "o: outside\n"}});
    QVERIFY(tree.isValid());
    const LookupResult before = lookupIn(tree, "k");
    QVERIFY2(!before.error, qPrintable(errorText(before)));
    QCOMPARE(int(before.status), int(LookupResult::Status::NotFound));
    EXPECT_FOUND(lookupIn(tree, "o"), Value("outside"));
    QVERIFY(QDir(tree.root() + "/data").mkdir("nodes"));
    EXPECT_FOUND(lookupIn(tree, "k"), Value("common"));
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const auto levels = engine->resolveHierarchy(scope);
    QVERIFY(qs(levels.at(0).locations.at(0).path).endsWith("/data/nodes/../common.yaml"));
}

void TestLookup::datadirJoinedBeforeInterpolation()
{
    // Puppet 7.23: `@config_root + datadir`, then interpolation: a datadir that becomes absolute only
    // through a variable stays under hiera.yaml's directory (`%{dd}` with dd=/sub is <root>//sub).
    TempTree tree(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: c\n    datadir: \"%{dd}/data\"\n    path: c.yaml\n"},
         {"sub/data/c.yaml", "k: joined\n"}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("dd: /sub\n");
    EXPECT_FOUND(lookupIn(tree, "k", scope), Value("joined"));
    // a datadir written absolute stays absolute
    TempTree absolute({{"hiera.yaml",
                        "version: 5\nhierarchy:\n  - name: c\n    datadir: \""
                            + QByteArray::fromStdString(tree.path("sub")) + "/%{d}\"\n    path: c.yaml\n"}});
    QVERIFY(absolute.isValid());
    EXPECT_FOUND(lookupIn(absolute, "k", yaml("d: data\n")), Value("joined"));
}

void TestLookup::mappedPathsTopScopeReference()
{
    // Puppet 7.23: inside a mapped_paths template `%{::dc}` reads the top-scope dc, not the loop
    // variable; `%{dc}` reads the loop variable.
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: top\n    mapped_paths: [dcs, dc, \"%{::dc}.yaml\"]\n"
                    "  - name: loop\n    mapped_paths: [dcs, dc, \"n-%{dc}.yaml\"]\n"},
                   {"data/a.yaml", "k: [fa]\n"},
                   {"data/b.yaml", "k: [fb]\n"},
                   {"data/real.yaml", "k: [freal]\n"},
                   {"data/n-a.yaml", "k: [fn-a]\n"},
                   {"data/n-b.yaml", "k: [fn-b]\n"}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("dcs: [a, b]\ndc: real\n");
    EXPECT_FOUND(lookupIn(tree, "k", scope, withMerge(MergeStrategy::Unique)), yaml("[freal, fn-a, fn-b]"));
}

void TestLookup::callerMergeOverridesLookupOptions()
{
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml",
                    "k: {x: {p: 1}}\ns: [b]\nlookup_options:\n  k: {merge: deep}\n"
                    "  s: {merge: unique, convert_to: String}\n"},
                   {"data/low.yaml", "k: {x: {q: 2}, y: 1}\ns: [a]\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k"), yaml("{x: {q: 2, p: 1}, y: 1}"));
    EXPECT_FOUND(lookupIn(tree, "k", {}, withMerge(MergeStrategy::First)), yaml("{x: {p: 1}}"));
    EXPECT_FOUND(lookupIn(tree, "k", {}, withMerge(MergeStrategy::Hash)), yaml("{x: {p: 1}, y: 1}"));
    // convert_to from lookup_options still applies under a caller merge
    EXPECT_FOUND(lookupIn(tree, "s"), Value("['b', 'a']"));
    EXPECT_FOUND(lookupIn(tree, "s", {}, withMerge(MergeStrategy::First)), Value("['b']"));
}

// clang-format off
void TestLookup::convertTo_data()
{
    QTest::addColumn<QByteArray>("value"); // YAML
    QTest::addColumn<QByteArray>("convertTo"); // YAML
    QTest::addColumn<QString>("key"); // k, or a dotted key below k
    QTest::addColumn<QByteArray>("expected"); // JSON; "" = not found; "!" = error
    QTest::newRow("string to Array") << QByteArray("x") << QByteArray("Array") << "k" << QByteArray(R"(["x"])");
    QTest::newRow("hash to Array") << QByteArray("{x: [1]}") << QByteArray("Array") << "k"
                                   << QByteArray(R"([["x", [1]]])");
    QTest::newRow("array to Array") << QByteArray("[1, 2]") << QByteArray("Array") << "k" << QByteArray("[1, 2]");
    QTest::newRow("hex string to Integer") << QByteArray("'0x1F'") << QByteArray("Integer") << "k" << QByteArray("31");
    QTest::newRow("string to Integer") << QByteArray("'42'") << QByteArray("Integer") << "k" << QByteArray("42");
    QTest::newRow("string to Float") << QByteArray("'1.5'") << QByteArray("Float") << "k" << QByteArray("1.5");
    QTest::newRow("integer to Float") << QByteArray("2") << QByteArray("Float") << "k" << QByteArray("2.0");
    QTest::newRow("integer to String") << QByteArray("5") << QByteArray("String") << "k" << QByteArray(R"("5")");
    QTest::newRow("string to Boolean") << QByteArray("'true'") << QByteArray("Boolean") << "k" << QByteArray("true");
    QTest::newRow("pairs to Hash") << QByteArray("[[a, 1], [b, 2]]") << QByteArray("Hash") << "k"
                                   << QByteArray(R"({"a": 1, "b": 2})");
    QTest::newRow("Sensitive") << QByteArray("secret") << QByteArray("Sensitive") << "k"
                               << QByteArray(R"("Sensitive [value redacted]")");
    QTest::newRow("type in array form") << QByteArray("x") << QByteArray("[Array]") << "k" << QByteArray(R"(["x"])");
    QTest::newRow("dig happens before convert")
        << QByteArray("{x: '5'}") << QByteArray("Integer") << "k.x" << QByteArray("5");
    QTest::newRow("dig into scalar before convert") << QByteArray("x") << QByteArray("Array") << "k.0" << QByteArray();
    QTest::newRow("not applied when not found")
        << QByteArray("{x: 1}") << QByteArray("Array") << "k.nosuch" << QByteArray();
    QTest::newRow("not convertible") << QByteArray("abc") << QByteArray("Integer") << "k" << QByteArray("!");
    QTest::newRow("unsupported type") << QByteArray("x") << QByteArray("NoSuchType") << "k" << QByteArray("!");
    QTest::newRow("Puppet type outside the supported set")
        << QByteArray("x") << QByteArray("Timestamp") << "k" << QByteArray("!");
    QTest::newRow("malformed type") << QByteArray("x") << QByteArray("'Array['") << "k" << QByteArray("!");
    // Puppet 7.23's `new` functions (checked with `Array.new(...)` etc. and `puppet lookup`). Error rows:
    // "!" followed by a part of the message.
    QTest::newRow("string to Array: its characters") << QByteArray("abc") << QByteArray("Array") << "k"
                                                     << QByteArray(R"(["a", "b", "c"])");
    QTest::newRow("empty string to Array") << QByteArray("''") << QByteArray("Array") << "k" << QByteArray("[]");
    QTest::newRow("multibyte characters") << QByteArray("'h\u00e9!'") << QByteArray("Array") << "k"
                                          << QByteArray(R"(["h", "\u00e9", "!"])");
    QTest::newRow("integer to Array: a range") << QByteArray("3") << QByteArray("Array") << "k" << QByteArray("[0, 1, 2]");
    QTest::newRow("zero to Array") << QByteArray("0") << QByteArray("Array") << "k" << QByteArray("[]");
    QTest::newRow("empty hash to Array") << QByteArray("{}") << QByteArray("Array") << "k" << QByteArray("[]");
    QTest::newRow("negative integer to Array")
        << QByteArray("-2") << QByteArray("Array") << "k"
        << QByteArray("!The convert_to lookup_option for key 'k' raised error: 'new_array' Value of type Integer "
                      "cannot be converted to Array");
    QTest::newRow("float to Array") << QByteArray("1.5") << QByteArray("Array") << "k"
                                    << QByteArray("!'new_array' Value of type Float cannot be converted to Array");
    QTest::newRow("boolean to Array") << QByteArray("true") << QByteArray("Array") << "k"
                                      << QByteArray("!'new_array' Value of type Boolean cannot be converted to Array");
    QTest::newRow("null to Array") << QByteArray("~") << QByteArray("Array") << "k"
                                   << QByteArray("!'new_array' Value of type Undef cannot be converted to Array");
    QTest::newRow("huge integer to Array") << QByteArray("1000000000") << QByteArray("Array") << "k"
                                           << QByteArray("!would make an array of 1000000000 elements");
    QTest::newRow("long string to Array") << QByteArray(1'100'000, 'a') << QByteArray("Array") << "k"
                                          << QByteArray("!would make an array of 1100000 elements");
    QTest::newRow("[Array, true] wraps") << QByteArray("abc") << QByteArray("[Array, true]") << "k"
                                         << QByteArray(R"(["abc"])");
    QTest::newRow("[Array, true] wraps a float") << QByteArray("1.5") << QByteArray("[Array, true]") << "k"
                                                 << QByteArray("[1.5]");
    QTest::newRow("[Array, true] keeps an array") << QByteArray("[1]") << QByteArray("[Array, true]") << "k"
                                                  << QByteArray("[1]");
    QTest::newRow("[Array, false]") << QByteArray("ab") << QByteArray("[Array, false]") << "k"
                                    << QByteArray(R"(["a", "b"])");
    QTest::newRow("array to String: Puppet's format")
        << QByteArray("[a, [b, 1], {k: ~}, 1.5, true]") << QByteArray("String") << "k"
        << QByteArray(R"("['a', ['b', 1], {'k' => undef}, 1.5, true]")");
    QTest::newRow("hash to String") << QByteArray("{a: 1, b: [x, 1.0e+20]}") << QByteArray("String") << "k"
                                    << QByteArray(R"("{'a' => 1, 'b' => ['x', 1.0e+20]}")");
    QTest::newRow("quotes and escapes in String")
        << QByteArray("[\"it's\", \"a\\nb\", 'x\\y', 'q\"$']") << QByteArray("String") << "k"
        << QByteArray(R"("['it\\'s', \"a\\nb\", 'x\\y', 'q\"$']")");
    QTest::newRow("float to String: %f") << QByteArray("1.5") << QByteArray("String") << "k"
                                         << QByteArray(R"("1.500000")");
    QTest::newRow("null to String") << QByteArray("~") << QByteArray("String") << "k" << QByteArray(R"("")");
    QTest::newRow("octal string to Integer") << QByteArray("'012'") << QByteArray("Integer") << "k" << QByteArray("10");
    QTest::newRow("binary string to Integer") << QByteArray("'0b101'") << QByteArray("Integer") << "k"
                                              << QByteArray("5");
    QTest::newRow("blanks after the sign") << QByteArray("'- 5'") << QByteArray("Integer") << "k" << QByteArray("-5");
    QTest::newRow("leading blank") << QByteArray("' 12'") << QByteArray("Integer") << "k" << QByteArray("12");
    QTest::newRow("bad octal") << QByteArray("'09'") << QByteArray("Integer") << "k"
                               << QByteArray(R"(!raised error: invalid value for Integer(): "09")");
    QTest::newRow("underscore in Integer") << QByteArray("'1_000'") << QByteArray("Integer") << "k"
                                           << QByteArray("!'new' The string '1_000' cannot be converted to Integer");
    QTest::newRow("trailing blank in Integer") << QByteArray("'12 '") << QByteArray("Integer") << "k"
                                               << QByteArray("!'new' The string '12 ' cannot be converted to Integer");
    QTest::newRow("float to Integer") << QByteArray("-1.9") << QByteArray("Integer") << "k" << QByteArray("-1");
    QTest::newRow("true to Integer") << QByteArray("true") << QByteArray("Integer") << "k" << QByteArray("1");
    QTest::newRow("null to Integer") << QByteArray("~") << QByteArray("Integer") << "k"
                                     << QByteArray("!'new' Value of type Undef cannot be converted to Integer");
    QTest::newRow("huge float to Integer") << QByteArray("1.0e+30") << QByteArray("Integer") << "k"
                                           << QByteArray("!out of the 64-bit range");
    QTest::newRow("'012' to Float is decimal") << QByteArray("'012'") << QByteArray("Float") << "k"
                                               << QByteArray("12.0");
    QTest::newRow("hex to Float") << QByteArray("'0x10'") << QByteArray("Float") << "k" << QByteArray("16.0");
    QTest::newRow("exponent with + is not a Float") << QByteArray("'1e+3'") << QByteArray("Float") << "k"
                                                    << QByteArray("!'new_float' The string '1e+3' cannot be converted to Float");
    QTest::newRow("'0' to Float fails as in Puppet") << QByteArray("'0'") << QByteArray("Float") << "k"
                                                     << QByteArray("!undefined method `casecmp' for nil:NilClass");
    QTest::newRow("YES to Boolean") << QByteArray("'YES'") << QByteArray("Boolean") << "k" << QByteArray("true");
    QTest::newRow("empty string to Boolean") << QByteArray("''") << QByteArray("Boolean") << "k"
                                             << QByteArray("!'new_boolean' The string '' cannot be converted to Boolean");
    QTest::newRow("0.0 to Boolean") << QByteArray("0.0") << QByteArray("Boolean") << "k" << QByteArray("false");
    QTest::newRow("flat array to Hash") << QByteArray("[a, 1, b, 2]") << QByteArray("Hash") << "k"
                                        << QByteArray(R"({"a": 1, "b": 2})");
    QTest::newRow("odd array to Hash") << QByteArray("[1, 2, 3]") << QByteArray("Hash") << "k"
                                       << QByteArray("!raised error: odd number of arguments for Hash");
    QTest::newRow("string to Hash") << QByteArray("abcd") << QByteArray("Hash") << "k"
                                    << QByteArray(R"({"a": "b", "c": "d"})");
    QTest::newRow("float to Hash") << QByteArray("1.5") << QByteArray("Hash") << "k"
                                   << QByteArray("!raised error: Value of type Float cannot be converted to Hash");
}
// clang-format on

void TestLookup::convertTo()
{
    QFETCH(QByteArray, value);
    QFETCH(QByteArray, convertTo);
    QFETCH(QString, key);
    QFETCH(QByteArray, expected);
    TempTree tree(
        {{"hiera.yaml", "version: 5\n"},
         {"data/common.yaml", "k: " + value + "\nlookup_options:\n  k:\n    convert_to: " + convertTo + "\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, ss(key));
    if (expected.startsWith('!')) {
        QCOMPARE(int(r.status), int(LookupResult::Status::Error));
        QVERIFY2(r.error->code() == ErrorCode::ConvertTo || r.error->code() == ErrorCode::LookupOptions
                     || r.error->code() == ErrorCode::DataLimit,
                 r.error->what());
        QVERIFY2(errorText(r).contains(QString::fromUtf8(expected.mid(1))), qPrintable(errorText(r)));
    } else if (expected.isEmpty()) {
        QVERIFY2(!r.error, qPrintable(errorText(r)));
        QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    } else {
        EXPECT_FOUND(r, json(expected.toStdString()));
    }
}

void TestLookup::dottedAfterMerge()
{
    // docs/seed-rules.md §1: digging happens after the merge (§5.4)
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml",
                    "k: {y: 1, x: {a: 1}}\nl: [h1, h2]\nd: {x: {p: 1}}\n"
                    "lookup_options:\n  d: {merge: deep}\n"},
                   {"data/low.yaml", "k: {x: {p: lowp}, z: lowz}\nl: [l1]\nd: {x: {q: 2}}\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k.z", {}, withMerge(MergeStrategy::Deep)), Value("lowz"));
    EXPECT_FOUND(lookupIn(tree, "k.x.p", {}, withMerge(MergeStrategy::Deep)), Value("lowp"));
    EXPECT_FOUND(lookupIn(tree, "k.x.a", {}, withMerge(MergeStrategy::Deep)), Value(1));
    // hash merge is shallow: only the higher x is seen
    LookupResult r = lookupIn(tree, "k.x.p", {}, withMerge(MergeStrategy::Hash));
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    EXPECT_FOUND(lookupIn(tree, "k.z", {}, withMerge(MergeStrategy::Hash)), Value("lowz"));
    // unique: indexes the merged array
    EXPECT_FOUND(lookupIn(tree, "l.2", {}, withMerge(MergeStrategy::Unique)), Value("l1"));
    // lookup_options merge, then dig
    EXPECT_FOUND(lookupIn(tree, "d.x.q"), Value(2));
    r = lookupIn(tree, "d.x");
    EXPECT_FOUND(r, yaml("{q: 2, p: 1}"));
    QVERIFY(r.rootFound);
    QCOMPARE(r.rootValue, yaml("{x: {q: 2, p: 1}}"));
}

void TestLookup::firstDoesNotFallThrough()
{
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "k: {y: 1}\ns: str\nn: ~\n"},
                   {"data/low.yaml", "k: {x: lowx}\ns: {x: 1}\nn: {x: 1}\n"}});
    QVERIFY(tree.isValid());
    LookupResult r = lookupIn(tree, "k.x");
    QVERIFY(!r.error);
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    QVERIFY(r.rootFound);
    QCOMPARE(r.rootValue, yaml("{y: 1}"));
    // seed: a higher scalar in the way is not found (Puppet: type mismatch error)
    r = lookupIn(tree, "s.x");
    QVERIFY(!r.error);
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    // digging into a found null: not found, no fallback
    r = lookupIn(tree, "n.x");
    QVERIFY(!r.error);
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    EXPECT_FOUND(lookupIn(tree, "k.x", {}, withMerge(MergeStrategy::Deep)), Value("lowx"));
}

// clang-format off
void TestLookup::notFound_data()
{
    QTest::addColumn<QString>("key");
    QTest::newRow("absent key") << "nosuch";
    QTest::newRow("absent dotted") << "nosuch.x";
    QTest::newRow("missing sub-key") << "ntp.nosuch";
    QTest::newRow("index out of range") << "ntp.servers.9";
    QTest::newRow("negative index") << "ntp.servers.-1";
    QTest::newRow("30-digit index") << "ntp.servers.999999999999999999999999999999";
    QTest::newRow("2^64 + 1 index") << "ntp.servers.18446744073709551617";
    QTest::newRow("colon index") << "ntp.servers.:1";
    QTest::newRow("name on array") << "ntp.servers.x";
    QTest::newRow("non-numeric index") << "ntp.servers.1x";
    QTest::newRow("quoted index on array") << "ntp.servers.\"1\"";
    QTest::newRow("into string") << "ntp.s.x";
    QTest::newRow("index into string") << "ntp.s.0";
    QTest::newRow("into integer") << "ntp.i.x";
    QTest::newRow("index into integer") << "ntp.i.0";
    QTest::newRow("into float") << "ntp.f.x";
    QTest::newRow("into boolean") << "ntp.b.x";
    QTest::newRow("into null") << "ntp.n.x";
    QTest::newRow("integer key vs string segment") << "ntp.h.'1'";
    QTest::newRow("numeric root") << "5.x";
    QTest::newRow("case differs") << "NTP";
    QTest::newRow("leading :: is another key") << "::ntp";
    QTest::newRow("blank is part of the key") << " ntp";
    QTest::newRow("unquoted dotted root") << "a.b";
    QTest::newRow("integer root key") << "1";
    QTest::newRow("boolean root key") << "on";
}
// clang-format on

void TestLookup::notFound()
{
    QFETCH(QString, key);
    static TempTree tree({{"hiera.yaml", "version: 5\n"},
                          {"data/common.yaml",
                           "ntp: {port: 123, servers: [s0, s1], s: str, i: 7, f: 1.5, b: true, n: ~, "
                           "h: {1: int1, \"2\": str2}}\n"
                           "\"a.b\": {c: v}\n"
                           "1: one\n"
                           "on: yes\n"
                           "5: five\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, ss(key));
    QVERIFY2(!r.error, qPrintable(errorText(r)));
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
    QVERIFY(!r.found());
}

void TestLookup::foundNull()
{
    TempTree tree(
        {{"hiera.yaml", kTwoLevels}, {"data/high.yaml", "a: ~\nh: {n: ~, l: [~]}\n"}, {"data/low.yaml", "a: 2\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "a"), Value());
    EXPECT_FOUND(lookupIn(tree, "h.n"), Value());
    EXPECT_FOUND(lookupIn(tree, "h.l.0"), Value());
    EXPECT_FOUND(lookupIn(tree, "a", {}, withMerge(MergeStrategy::Deep)), Value(2));
}

void TestLookup::quotedAndOddKeys()
{
    TempTree tree({{"hiera.yaml", "version: 5\n"},
                   {"data/common.yaml",
                    "\"a.b\": {c: v, \"x.y\": w}\n\" k\": lead\n\"\": empty\n\"::k\": top\nk: plain\n"
                    "ntp: {servers: [s0, s1], h: {1: int1, \"2\": str2}}\n\"2\": two\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "\"a.b\".c"), Value("v"));
    EXPECT_FOUND(lookupIn(tree, "'a.b'.c"), Value("v"));
    EXPECT_FOUND(lookupIn(tree, "\"a.b\".\"x.y\""), Value("w"));
    EXPECT_FOUND(lookupIn(tree, "\"a.b\""), yaml("{c: v, x.y: w}"));
    EXPECT_FOUND(lookupIn(tree, " k"), Value("lead"));
    EXPECT_FOUND(lookupIn(tree, ""), Value("empty"));
    EXPECT_FOUND(lookupIn(tree, "::k"), Value("top"));
    EXPECT_FOUND(lookupIn(tree, "k"), Value("plain"));
    QCOMPARE(int(lookupIn(tree, " k . x ").status), int(LookupResult::Status::NotFound)); // = k.x, into a string
    EXPECT_FOUND(lookupIn(tree, "ntp.servers.01"), Value("s1"));
    EXPECT_FOUND(lookupIn(tree, "ntp.h.1"), Value("int1")); // index segments match integer keys
    EXPECT_FOUND(lookupIn(tree, "ntp.h.\"2\""), Value("str2"));
    EXPECT_FOUND(lookupIn(tree, "2"), Value("two")); // root keys are strings
}

void TestLookup::keySyntaxError()
{
    TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "k: {x: 1}\n"}});
    QVERIFY(tree.isValid());
    for (const char* key : {"k.", ".k", "k..x", "k.\"\".x", "k.a\"b", "\"k.x"}) {
        const LookupResult r = lookupIn(tree, key);
        EXPECT_ERROR(r, ErrorCode::KeySyntax);
        QVERIFY2(errorText(r).contains(QStringLiteral("Syntax error in key: '%1'").arg(key)), qPrintable(errorText(r)));
    }
}

// clang-format off
void TestLookup::unsupportedBackends_data()
{
    QTest::addColumn<QByteArray>("hieraYaml");
    QTest::addColumn<QString>("kind");
    QTest::newRow("level data_dig") << QByteArray("version: 5\nhierarchy:\n  - name: dig\n    path: d.yaml\n"
                                                  "    data_dig: my_dig\n  - name: common\n    path: common.yaml\n")
                                    << "data_dig";
    QTest::newRow("level lookup_key") << QByteArray(
        "version: 5\nhierarchy:\n  - name: vault\n    path: secrets.eyaml\n"
        "    lookup_key: hiera_vault\n  - name: common\n    path: common.yaml\n")
                                      << "lookup_key";
    QTest::newRow("defaults lookup_key") << QByteArray("version: 5\ndefaults:\n  lookup_key: hiera_vault\n"
                                                       "hierarchy:\n  - name: common\n    path: common.yaml\n")
                                         << "lookup_key";
    QTest::newRow("lookup_key below the hit")
        << QByteArray("version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
                      "  - name: vault\n    path: secrets.eyaml\n"
                      "    lookup_key: hiera_vault\n")
        << "lookup_key";
}
// clang-format on

void TestLookup::unsupportedBackends()
{
    QFETCH(QByteArray, hieraYaml);
    QFETCH(QString, kind);
    TempTree tree({{"hiera.yaml", hieraYaml},
                   {"data/common.yaml", "k: v\n"},
                   {"data/d.yaml", "k: d\n"},
                   {"data/secrets.eyaml", "k: s\n"}});
    QVERIFY(tree.isValid());
    // parsing succeeds (seed: reserved kinds parse) ...
    std::shared_ptr<Engine> engine;
    try {
        engine = Engine::load(tree.hieraYaml());
    } catch (const Error& e) {
        QFAIL(e.what());
    }
    // ... and a lookup that reaches the level fails (lookup_options reads every level)
    MapScope scope;
    const LookupResult r = engine->lookup(scope, "k");
    EXPECT_ERROR(r, ErrorCode::UnsupportedBackend);
    QVERIFY2(errorText(r).contains("backend kind"), qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains(kind), qPrintable(errorText(r)));
    QVERIFY2(errorText(r).contains("is not supported: hierarchy entry"), qPrintable(errorText(r)));
    // the hierarchy view says so too, as "cannot be run", not as an error of the level
    bool flagged = false;
    for (const ResolvedLevel& l : engine->resolveHierarchy(scope)) {
        flagged = flagged || !l.unsupported.empty();
        QVERIFY2(l.error.empty(), l.error.c_str());
    }
    QVERIFY(flagged);
}

void TestLookup::unknownDataHash()
{
    TempTree tree(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: x\n    path: common.yaml\n    data_hash: nosuch_data\n"},
         {"data/common.yaml", "k: v\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_ERROR(r, ErrorCode::UnknownBackend);
    QVERIFY2(errorText(r).contains("nosuch_data"), qPrintable(errorText(r)));
}

void TestLookup::missingFilesSkipped()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: a\n    path: missing1.yaml\n"
                    "  - name: b\n    paths: [missing2.yaml, present.yaml]\n"
                    "  - name: c\n    path: missing3.yaml\n    datadir: nodir\n"},
                   {"data/present.yaml", "k: here\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k"), Value("here"));
    EXPECT_FOUND(lookupIn(tree, "k", {}, withMerge(MergeStrategy::Unique)), yaml("[here]"));
}

void TestLookup::brokenFileIsAnError()
{
    // §2.5, item 68: a broken file in the lowest level breaks a lookup whose key is in the highest
    TempTree tree({{"hiera.yaml", kTwoLevels}, {"data/high.yaml", "k: high\n"}, {"data/low.yaml", "a: [1, 2\nb: 3\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_ERROR(r, ErrorCode::DataSyntax);
    const QString low = QDir::cleanPath(qs(tree.path("data/low.yaml")));
    QVERIFY2(errorText(r).contains(low) || QDir::cleanPath(qs(r.error->location().file)) == low,
             qPrintable(errorText(r)));
    QVERIFY(r.error->location().line >= 1);
}

void TestLookup::dateInAnotherFile()
{
    TempTree tree({{"hiera.yaml", kTwoLevels}, {"data/high.yaml", "k: high\n"}, {"data/low.yaml", "d: 2024-01-01\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_ERROR(r, ErrorCode::DataType);
    QCOMPARE(QDir::cleanPath(qs(r.error->location().file)), QDir::cleanPath(qs(tree.path("data/low.yaml"))));
    QCOMPARE(r.error->location().line, 1);
}

void TestLookup::invalidKeysInValue()
{
    // §4.11 / conformance 159: boolean or null keys inside a looked-up value are errors; the rest of the
    // file is fine
    TempTree tree(
        {{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "bools: {on: a, yes: b}\nnulls: {~: x}\nfine: ok\n"}});
    QVERIFY(tree.isValid());
    QCOMPARE(int(lookupIn(tree, "bools").status), int(LookupResult::Status::Error));
    QCOMPARE(int(lookupIn(tree, "nulls").status), int(LookupResult::Status::Error));
    EXPECT_FOUND(lookupIn(tree, "fine"), Value("ok"));
}

void TestLookup::jsonData()
{
    TempTree tree(
        {{"hiera.yaml",
          "version: 5\ndefaults:\n  data_hash: json_data\nhierarchy:\n"
          "  - name: json\n    path: common.json\n"
          "  - name: yaml\n    path: common.yaml\n    data_hash: yaml_data\n"},
         {"data/common.json", R"({"e": 1e3, "y": "yes", "i": 5, "f": 1.0, "s": "%{osfamily}", "d": {"x": [1]}})"},
         {"data/common.yaml", "y: yes\nonly_yaml: 1\n"}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("osfamily: Debian\n");
    EXPECT_FOUND(lookupIn(tree, "e", scope), Value(1000.0));
    EXPECT_FOUND(lookupIn(tree, "y", scope), Value("yes"));
    EXPECT_FOUND(lookupIn(tree, "i", scope), Value(5));
    EXPECT_FOUND(lookupIn(tree, "f", scope), Value(1.0));
    EXPECT_FOUND(lookupIn(tree, "s", scope), Value("Debian")); // JSON values are interpolated like YAML
    EXPECT_FOUND(lookupIn(tree, "d.x.0", scope), Value(1));
    EXPECT_FOUND(lookupIn(tree, "only_yaml", scope), Value(1));

    TempTree arr(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: json\n    path: a.json\n    data_hash: json_data\n"},
         {"data/a.json", "[1, 2]"}});
    QVERIFY(arr.isValid());
    EXPECT_ERROR(lookupIn(arr, "k"), ErrorCode::DataNotHash);

    TempTree bad(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: json\n    path: a.json\n    data_hash: json_data\n"},
         {"data/a.json", "{\"k\": yes}"}});
    QVERIFY(bad.isValid());
    EXPECT_ERROR(lookupIn(bad, "k"), ErrorCode::DataSyntax);
}

void TestLookup::yamlDataReadsJson()
{
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: j\n    path: common.json\n"},
                   {"data/common.json", R"({"k": "v", "n": 5})"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k"), Value("v"));
    EXPECT_FOUND(lookupIn(tree, "n"), Value(5));
}

void TestLookup::emptyAndNonHashFiles()
{
    // [open] empty → empty hash silently; a non-hash top level → empty hash plus a warning
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: empty\n    path: empty.yaml\n"
                    "  - name: comments\n    path: comments.yaml\n"
                    "  - name: marker\n    path: marker.yaml\n"
                    "  - name: list\n    path: list.yaml\n"
                    "  - name: scalar\n    path: scalar.yaml\n"
                    "  - name: common\n    path: common.yaml\n"},
                   {"data/empty.yaml", ""},
                   {"data/comments.yaml", "# nothing here\n"},
                   {"data/marker.yaml", "---\n"},
                   {"data/list.yaml", "- a\n- b\n"},
                   {"data/scalar.yaml", "just a string\n"},
                   {"data/common.yaml", "k: common\nlist: [common]\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_FOUND(r, Value("common"));
    EXPECT_FOUND(lookupIn(tree, "list", {}, withMerge(MergeStrategy::Unique)), yaml("[common]"));
    QVERIFY(r.warnings.size() >= 2);
    bool listNamed = false, scalarNamed = false, emptyNamed = false;
    for (const std::string& w : r.warnings) {
        listNamed = listNamed || qs(w).contains("list.yaml");
        scalarNamed = scalarNamed || qs(w).contains("scalar.yaml");
        emptyNamed = emptyNamed || qs(w).contains("empty.yaml") || qs(w).contains("comments.yaml")
            || qs(w).contains("marker.yaml");
    }
    QVERIFY2(listNamed, "a warning names list.yaml");
    QVERIFY2(scalarNamed, "a warning names scalar.yaml");
    QVERIFY2(!emptyNamed, "empty files are silent");

    TempTree silent(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: e\n    path: e.yaml\n  - name: c\n    path: c.yaml\n"},
         {"data/e.yaml", ""},
         {"data/c.yaml", "k: v\n"}});
    QVERIFY(silent.isValid());
    const LookupResult s = lookupIn(silent, "k");
    EXPECT_FOUND(s, Value("v"));
    QVERIFY(s.warnings.empty());
}

void TestLookup::pathIsDirectory()
{
    TempTree tree(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: d\n    path: adir\n  - name: c\n    path: c.yaml\n"},
         {"data/adir/", {}},
         {"data/c.yaml", "k: v\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    EXPECT_ERROR(r, ErrorCode::DataUnreadable);
    QVERIFY2(errorText(r).contains("adir"), qPrintable(errorText(r)));
}

void TestLookup::defaultHierarchy()
{
    // no hierarchy: Puppet's default, Common -> data/common.yaml
    TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k"), Value("common"));
    TempTree withDefaults(
        {{"hiera.yaml", "version: 5\ndefaults:\n  datadir: other\n"}, {"other/common.yaml", "k: other\n"}});
    QVERIFY(withDefaults.isValid());
    EXPECT_FOUND(lookupIn(withDefaults, "k"), Value("other"));
}

void TestLookup::emptyHierarchy()
{
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy: []\n"}, {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    const LookupResult r = lookupIn(tree, "k");
    QVERIFY(!r.error);
    QCOMPARE(int(r.status), int(LookupResult::Status::NotFound));
}

void TestLookup::noExtensionAdded()
{
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: c\n    path: common\n"},
                   {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    QCOMPARE(int(lookupIn(tree, "k").status), int(LookupResult::Status::NotFound));
}

void TestLookup::interpolatedPaths()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n"
                    "  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n"
                    "  - name: scoped\n    path: \"%{role}/x.yaml\"\n"
                    "  - name: common\n    path: common.yaml\n"},
                   {"data/nodes/.yaml", "k: empty-certname\nn: undefined\n"},
                   {"data/nodes/web01.yaml", "k: node\n"},
                   {"data/os/Debian.yaml", "k: debian\nos: debian\n"},
                   {"data/web/x.yaml", "role: web\n"},
                   {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    const Value full = yaml("trusted: {certname: web01}\nfacts: {os: {family: Debian}}\nrole: web\n");
    EXPECT_FOUND(lookupIn(tree, "k", full), Value("node"));
    EXPECT_FOUND(lookupIn(tree, "os", full), Value("debian"));
    EXPECT_FOUND(lookupIn(tree, "role", full), Value("web"));
    // an undefined variable interpolates to "": nodes/.yaml is tried
    const Value partial = yaml("facts: {os: {family: Debian}}\n");
    EXPECT_FOUND(lookupIn(tree, "n", partial), Value("undefined"));

    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(partial);
    const auto levels = engine->resolveHierarchy(scope);
    QCOMPARE(levels.size(), std::size_t(4));
    const ResolvedLocation& node = levels[0].locations.at(0);
    QCOMPARE(qs(node.declared), QStringLiteral("nodes/%{trusted.certname}.yaml"));
    QCOMPARE(qs(node.interpolated), QStringLiteral("nodes/.yaml"));
    QCOMPARE(QDir::cleanPath(qs(node.path)), QDir::cleanPath(qs(tree.path("data/nodes/.yaml"))));
    QCOMPARE(int(node.status), int(ResolvedLocation::Status::Present));
    QVERIFY(node.suspicious);
    QCOMPARE(node.undefinedVariables.size(), std::size_t(1));
    QCOMPARE(qs(node.undefinedVariables[0]), QStringLiteral("trusted.certname"));
    const ResolvedLocation& os = levels[1].locations.at(0);
    QCOMPARE(qs(os.interpolated), QStringLiteral("os/Debian.yaml"));
    QVERIFY(!os.suspicious);
    QVERIFY(os.undefinedVariables.empty());
    QCOMPARE(qs(levels[2].locations.at(0).interpolated), QStringLiteral("/x.yaml")); // %{role} undefined
}

// Brace alternatives in glob and globs, as Ruby's Dir.glob (tests/conformance/cases/e04 has Puppet's
// answer): each alternative in the order written, its matches sorted, nested and escaped braces, an
// unclosed brace matching nothing, a datadir whose name holds braces matched literally.
void TestLookup::braceGlobs()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\ndefaults: {datadir: \"da{t}a\"}\nhierarchy:\n"
                    "  - name: braces\n    glob: \"{role,os/{x,b*}}/*.yaml\"\n"
                    "  - name: unclosed\n    glob: \"{role/*.yaml\"\n"
                    "  - name: escaped\n    glob: \"\\\\{lit\\\\}.yaml\"\n"},
                   {"da{t}a/role/b.yaml", "k: role-b\n"},
                   {"da{t}a/role/a.yaml", "k: role-a\n"},
                   {"da{t}a/os/x/z.yaml", "k: os-x-z\n"},
                   {"da{t}a/os/b2/c.yaml", "k: os-b2-c\n"},
                   {"da{t}a/os/b1/d.yaml", "k: os-b1-d\n"},
                   {"da{t}a/{lit}.yaml", "lit: literal braces\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    const MapScope scope(makeHash({}));
    const auto levels = engine->resolveHierarchy(scope);
    QCOMPARE(levels.size(), std::size_t(3));
    QStringList order;
    for (const ResolvedLocation& l : levels[0].locations)
        order << qs(l.interpolated);
    QCOMPARE(order, QStringList({"role/a.yaml", "role/b.yaml", "os/x/z.yaml", "os/b1/d.yaml", "os/b2/c.yaml"}));
    QVERIFY(levels[1].locations.empty());
    QCOMPARE(levels[2].locations.size(), std::size_t(1));
    LookupRequest unique;
    unique.merge = MergeSpec::fromValue(Value("unique"));
    EXPECT_FOUND(engine->lookup(scope, "k", unique), makeArray({"role-a", "role-b", "os-x-z", "os-b1-d", "os-b2-c"}));
    EXPECT_FOUND(engine->lookup(scope, "lit"), Value("literal braces"));
    // The file watcher is given each alternative's pattern, whose directory it watches for new files.
    const std::vector<std::string> watched = engine->candidateFiles(scope);
    for (const char* pattern : {"/role/*.yaml", "/os/x/*.yaml", "/os/b*/*.yaml"})
        QVERIFY2(std::find(watched.begin(), watched.end(), tree.path("da{t}a") + pattern) != watched.end(), pattern);

    // Alternatives that multiply past the limit: the level's error, not a hang.
    std::string alternatives;
    for (int i = 0; i < 11; ++i) // 2^11 = 2048 patterns
        alternatives += "{a,b}";
    TempTree bomb(
        {{"hiera.yaml",
          QByteArray::fromStdString("version: 5\nhierarchy:\n  - name: bomb\n    glob: \"" + alternatives + "\"\n")},
         {"data/x.yaml", "k: v\n"}});
    auto bombEngine = Engine::load(bomb.hieraYaml());
    const auto bombLevels = bombEngine->resolveHierarchy(scope);
    QVERIFY2(qs(bombLevels[0].error).contains("brace alternatives"), bombLevels[0].error.c_str());
}

// `**/` in glob and globs, as Ruby's Dir.glob (tests/conformance/cases/e19 has Puppet's answer, issue
// 48): zero or more directories, hidden ones and symbolic links skipped; each directory's entries in
// bytewise order, depth first (a/ before a-b/, which a sort of whole paths put the other way).
void TestLookup::recursiveGlobs()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: any depth\n    glob: \"g/**/*.yaml\"\n"
                    "  - name: one level\n    glob: \"g/*/*.yaml\"\n"
                    "  - name: two stars without a slash\n    glob: \"g/**.yaml\"\n"
                    "  - name: below y\n    globs: [\"g/**/y/*.yaml\"]\n"},
                   {"data/g/top.yaml", "k: top\n"},
                   {"data/g/z.yaml", "k: z\n"},
                   {"data/g/.dot.yaml", "k: dot\n"},
                   {"data/g/x/mid.yaml", "k: mid\n"},
                   {"data/g/x/y/b.yaml", "k: b\n"},
                   {"data/g/x/.h/h.yaml", "k: hidden\n"},
                   {"data/g/.hidden/h.yaml", "k: hidden\n"},
                   {"data/g/a/a.yaml", "k: a\n"},
                   {"data/g/a-b/ab.yaml", "k: ab\n"},
                   {"data/g/d.yaml/e.yaml", "k: e\n"},
                   {"real/r.yaml", "k: r\n"}});
    QVERIFY(tree.isValid());
    QVERIFY(QFile::link(tree.root() + "/real", tree.root() + "/data/g/link"));
    auto engine = Engine::load(tree.hieraYaml());
    const MapScope scope(makeHash({}));
    const auto levels = engine->resolveHierarchy(scope);
    QCOMPARE(levels.size(), std::size_t(4));
    auto names = [&](std::size_t level) {
        QStringList out;
        for (const ResolvedLocation& l : levels[level].locations)
            out << qs(l.interpolated);
        return out;
    };
    QCOMPARE(names(0),
             QStringList({"g/a/a.yaml", "g/a-b/ab.yaml", "g/d.yaml/e.yaml", "g/top.yaml", "g/x/mid.yaml",
                          "g/x/y/b.yaml", "g/z.yaml"}));
    QCOMPARE(names(1),
             QStringList({"g/a/a.yaml", "g/a-b/ab.yaml", "g/d.yaml/e.yaml", "g/link/r.yaml", "g/x/mid.yaml"}));
    QCOMPARE(names(2), QStringList({"g/top.yaml", "g/z.yaml"}));
    QCOMPARE(names(3), QStringList({"g/x/y/b.yaml"}));
    LookupRequest unique;
    unique.merge = MergeSpec::fromValue(Value("unique"));
    EXPECT_FOUND(engine->lookup(scope, "k"), Value("a"));
    EXPECT_FOUND(engine->lookup(scope, "k", unique), makeArray({"a", "ab", "e", "top", "mid", "b", "z", "r"}));
    // The file watcher is given every directory `**/` walked, so that it sees new files there.
    const std::vector<std::string> watched = engine->candidateFiles(scope);
    for (const char* pattern : {"/g/*.yaml", "/g/x/*.yaml", "/g/x/y/*.yaml", "/g/a/*.yaml"})
        QVERIFY2(std::find(watched.begin(), watched.end(), tree.path("data") + pattern) != watched.end(), pattern);
    QVERIFY(std::find(watched.begin(), watched.end(), tree.path("data") + "/g/.hidden/*.yaml") == watched.end());
}

void TestLookup::absoluteInterpolatedPath()
{
    TempTree elsewhere(FileList{{"abs.yaml", "k: absolute\n"}});
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: abs\n    path: \"%{root}/abs.yaml\"\n"
                    "  - name: up\n    path: \"../up.yaml\"\n"},
                   {"up.yaml", "u: up\n"}});
    QVERIFY(tree.isValid() && elsewhere.isValid());
    const Value scope = makeHash({{"root", elsewhere.path()}});
    EXPECT_FOUND(lookupIn(tree, "k", scope), Value("absolute"));
    EXPECT_FOUND(lookupIn(tree, "u", scope), Value("up")); // .. may leave the datadir
}

void TestLookup::globExpansion()
{
    // [open] matches sorted bytewise, directories dropped
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: roles\n    glob: \"roles/*.yaml\"\n"
                    "  - name: fixed\n    glob: common.yaml\n"
                    "  - name: var\n    glob: \"%{dir}/?.yaml\"\n"},
                   {"data/roles/b.yaml", "k: [b]\nfirst: b\n"},
                   {"data/roles/a.yaml", "k: [a]\nfirst: a\n"},
                   {"data/roles/C.yaml", "k: [C]\nfirst: C\n"},
                   {"data/roles/z.txt", "k: [txt]\n"},
                   {"data/roles/dir.yaml/", {}},
                   {"data/common.yaml", "k: [common]\n"},
                   {"data/v/x.yaml", "k: [vx]\n"},
                   {"data/v/xy.yaml", "k: [vxy]\n"}});
    QVERIFY(tree.isValid());
    const Value scope = makeHash({{"dir", "v"}});
    EXPECT_FOUND(lookupIn(tree, "k", scope, withMerge(MergeStrategy::Unique)), yaml("[C, a, b, common, vx]"));
    EXPECT_FOUND(lookupIn(tree, "first", scope), Value("C"));

    auto engine = Engine::load(tree.hieraYaml());
    MapScope s(scope);
    const auto levels = engine->resolveHierarchy(s);
    QStringList names;
    for (const ResolvedLocation& l : levels.at(0).locations) {
        QCOMPARE(int(l.kind), int(LocationSpec::Kind::Glob));
        names << QFileInfo(qs(l.path)).fileName();
    }
    QCOMPARE(names, (QStringList{"C.yaml", "a.yaml", "b.yaml"}));
}

void TestLookup::globsConcatenate()
{
    TempTree tree({{"hiera.yaml", "version: 5\nhierarchy:\n  - name: r\n    globs: ['r1/*.yaml', 'r1/a.yaml']\n"},
                   {"data/r1/a.yaml", "k: [a, a2]\n"},
                   {"data/r1/b.yaml", "k: [b]\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    QStringList names;
    const auto resolved = engine->resolveHierarchy(scope);
    for (const ResolvedLocation& l : resolved.at(0).locations)
        names << QFileInfo(qs(l.path)).fileName();
    QCOMPARE(names, (QStringList{"a.yaml", "b.yaml", "a.yaml"}));
    EXPECT_FOUND(engine->lookup(scope, "k", withMerge(MergeStrategy::Unique)), yaml("[a, a2, b]"));
}

void TestLookup::globNoMatch()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: none\n    glob: \"nomatch/*.yaml\"\n"
                    "  - name: c\n    path: c.yaml\n"},
                   {"data/c.yaml", "k: c\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k"), Value("c"));
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    QVERIFY(engine->resolveHierarchy(scope).at(0).locations.empty());
}

void TestLookup::mappedPaths()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: dcs\n    mapped_paths: [datacenters, dc, \"dc/%{dc}.yaml\"]\n"
                    "  - name: nums\n    mapped_paths: [facts.nums, n, \"n/%{n}.yaml\"]\n"
                    "  - name: shadow\n    mapped_paths: [datacenters, role, \"r/%{role}.yaml\"]\n"
                    "  - name: after\n    path: \"r/%{role}.yaml\"\n"},
                   {"data/dc/dc1.yaml", "k: [dc1]\n"},
                   {"data/dc/dc2.yaml", "k: [dc2]\n"},
                   {"data/n/1.yaml", "k: [n1]\n"},
                   {"data/n/2.yaml", "k: [n2]\n"},
                   {"data/r/dc1.yaml", "k: [rdc1]\n"},
                   {"data/r/dc2.yaml", "k: [rdc2]\n"},
                   {"data/r/web.yaml", "k: [web]\n"}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("datacenters: [dc1, dc2]\nfacts: {nums: [1, 2]}\nrole: web\n");
    // the loop variable shadows `role` only inside the mapped_paths template
    EXPECT_FOUND(lookupIn(tree, "k", scope, withMerge(MergeStrategy::Unique)),
                 yaml("[dc1, dc2, n1, n2, rdc1, rdc2, web]"));
    auto engine = Engine::load(tree.hieraYaml());
    MapScope s(scope);
    const auto levels = engine->resolveHierarchy(s);
    QCOMPARE(levels.at(0).locations.size(), std::size_t(2));
    QCOMPARE(qs(levels[0].locations[0].interpolated), QStringLiteral("dc/dc1.yaml"));
    QCOMPARE(qs(levels[0].locations[1].interpolated), QStringLiteral("dc/dc2.yaml"));
    QCOMPARE(qs(levels[0].locations[0].declared), QStringLiteral("dc/%{dc}.yaml"));
    QCOMPARE(int(levels[0].locations[0].kind), int(LocationSpec::Kind::MappedPaths));
    QCOMPARE(qs(levels[1].locations[1].interpolated), QStringLiteral("n/2.yaml"));
}

void TestLookup::mappedPathsStructured()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n"
                    "  - name: sites\n    mapped_paths: [sites, site, \"site/%{site.name}.yaml\"]\n"
                    "  - name: nested\n    mapped_paths: [pairs, p, \"p/%{p}.yaml\"]\n"},
                   {"data/site/ams.yaml", "k: ams\nlist: [ams]\n"},
                   {"data/site/fra.yaml", "k: fra\nlist: [fra]\n"},
                   {"data/p/[1, 2].yaml", "list: [pair]\n"}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("sites: [{name: ams}, {name: fra}]\npairs: [[1, 2]]\n");
    EXPECT_FOUND(lookupIn(tree, "k", scope), Value("ams"));
    // a structured element is stringified in Ruby inspect form (§2.4)
    EXPECT_FOUND(lookupIn(tree, "list", scope, withMerge(MergeStrategy::Unique)), yaml("[ams, fra, pair]"));
}

// clang-format off
void TestLookup::mappedPathsNonArray_data()
{
    QTest::addColumn<QByteArray>("scope");
    // seed: a missing or non-array scope value contributes no paths (Puppet: a string is one path)
    QTest::newRow("string") << QByteArray("dcs: dc1\n");
    QTest::newRow("integer") << QByteArray("dcs: 5\n");
    QTest::newRow("hash") << QByteArray("dcs: {a: dc1}\n");
    QTest::newRow("missing") << QByteArray("other: 1\n");
    QTest::newRow("empty array") << QByteArray("dcs: []\n");
    QTest::newRow("null") << QByteArray("dcs: ~\n");
}
// clang-format on

void TestLookup::mappedPathsNonArray()
{
    QFETCH(QByteArray, scope);
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: dcs\n    mapped_paths: [dcs, dc, \"%{dc}.yaml\"]\n"
                    "  - name: common\n    path: common.yaml\n"},
                   {"data/dc1.yaml", "k: dc1\n"},
                   {"data/5.yaml", "k: five\n"},
                   {"data/.yaml", "k: empty\n"},
                   {"data/common.yaml", "k: common\n"}});
    QVERIFY(tree.isValid());
    const Value s = yaml(scope.toStdString());
    EXPECT_FOUND(lookupIn(tree, "k", s), Value("common"));
    EXPECT_FOUND(lookupIn(tree, "k", s, withMerge(MergeStrategy::Unique)), yaml("[common]"));
    auto engine = Engine::load(tree.hieraYaml());
    MapScope ms(s);
    QVERIFY(engine->resolveHierarchy(ms).at(0).locations.empty());
}

void TestLookup::mixedLocationOrder()
{
    // [open] path, paths, glob, globs, mapped_paths, whatever order they are written in
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: mixed\n"
                    "    mapped_paths: [dcs, dc, \"m/%{dc}.yaml\"]\n"
                    "    globs: [\"g1/*.yaml\"]\n"
                    "    glob: \"g0/*.yaml\"\n"
                    "    paths: [p1.yaml]\n"
                    "    path: p0.yaml\n"},
                   {"data/m/x.yaml", "k: [m]\n"},
                   {"data/g1/a.yaml", "k: [g1]\n"},
                   {"data/g0/a.yaml", "k: [g0]\n"},
                   {"data/p1.yaml", "k: [p1]\n"},
                   {"data/p0.yaml", "k: [p0]\nfirst: p0\n"}});
    QVERIFY(tree.isValid());
    const Value scope = yaml("dcs: [x]\n");
    EXPECT_FOUND(lookupIn(tree, "k", scope, withMerge(MergeStrategy::Unique)), yaml("[p0, p1, g0, g1, m]"));
    EXPECT_FOUND(lookupIn(tree, "k", scope), yaml("[p0]"));
    auto engine = Engine::load(tree.hieraYaml());
    MapScope s(scope);
    QStringList order;
    const auto resolved = engine->resolveHierarchy(s);
    for (const ResolvedLocation& l : resolved.at(0).locations)
        order << qs(l.interpolated);
    QCOMPARE(order, (QStringList{"p0.yaml", "p1.yaml", "g0/a.yaml", "g1/a.yaml", "m/x.yaml"}));
}

void TestLookup::resolvedStatuses()
{
    TempTree tree(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: l\n    paths: [ok.yaml, missing.yaml, bad.yaml]\n"},
         {"data/ok.yaml", "k: 1\n"},
         {"data/bad.yaml", "k: [\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const auto levels = engine->resolveHierarchy(scope);
    QCOMPARE(levels.size(), std::size_t(1));
    QVERIFY(levels[0].layer);
    QCOMPARE(int(levels[0].layer->kind), int(Layer::Kind::Global));
    QCOMPARE(qs(levels[0].layer->displayName()), QStringLiteral("global"));
    QVERIFY(levels[0].level);
    QCOMPARE(qs(levels[0].level->name), QStringLiteral("l"));
    const auto& locs = levels[0].locations;
    QCOMPARE(locs.size(), std::size_t(3));
    QCOMPARE(int(locs[0].status), int(ResolvedLocation::Status::Present));
    QCOMPARE(int(locs[1].status), int(ResolvedLocation::Status::Missing));
    QCOMPARE(int(locs[2].status), int(ResolvedLocation::Status::Failed));
    QVERIFY(!locs[2].error.empty());
    QVERIFY(locs[0].error.empty());
}

// Collects nodes of a kind, optionally skipping the lookup_options meta-lookup subtree.
static void collect(const TraceNode& n, TraceNode::Kind kind, std::vector<const TraceNode*>& out,
                    bool skipOptions = true)
{
    if (skipOptions && n.kind == TraceNode::Kind::LookupOptions)
        return;
    if (n.kind == kind)
        out.push_back(&n);
    for (const auto& c : n.children)
        collect(*c, kind, out, skipOptions);
}

static std::vector<const TraceNode*> nodesOf(const TraceNode& root, TraceNode::Kind kind, bool skipOptions = true)
{
    std::vector<const TraceNode*> out;
    collect(root, kind, out, skipOptions);
    return out;
}

static const QByteArray kExplainYaml = "version: 5\nhierarchy:\n"
                                       "  - name: high\n    path: high.yaml\n"
                                       "  - name: mid\n    path: mid.yaml\n"
                                       "  - name: low\n    path: low.yaml\n"
                                       "  - name: after\n    path: after.yaml\n";

void TestLookup::explainTrace()
{
    TempTree tree({{"hiera.yaml", kExplainYaml},
                   {"data/mid.yaml", "other: 1\n"},
                   {"data/low.yaml", "# line 1\nk: \"v-%{osfamily}\"\n"},
                   {"data/after.yaml", "k: after\n"}});
    QVERIFY(tree.isValid());
    LookupRequest o;
    o.explain = true;
    const LookupResult r = lookupIn(tree, "k", yaml("osfamily: Debian\n"), o);
    EXPECT_FOUND(r, Value("v-Debian"));
    QVERIFY(r.trace);
    const TraceNode& root = *r.trace;
    QCOMPARE(int(root.kind), int(TraceNode::Kind::Lookup));
    QCOMPARE(qs(root.key), QStringLiteral("k"));

    const auto levels = nodesOf(root, TraceNode::Kind::Level);
    QStringList names;
    for (const TraceNode* l : levels)
        names << qs(l->name);
    // first: the levels after the hit do not appear
    QCOMPARE(names, (QStringList{"high", "mid", "low"}));

    auto locationOf = [](const TraceNode* level) -> const TraceNode* {
        for (const auto& c : level->children)
            if (c->kind == TraceNode::Kind::Location)
                return c.get();
        return nullptr;
    };
    const TraceNode* high = locationOf(levels[0]);
    QVERIFY(high);
    QCOMPARE(int(high->event), int(TraceNode::Event::LocationNotFound));
    QCOMPARE(qs(high->originalPath), QStringLiteral("high.yaml"));
    QCOMPARE(QDir::cleanPath(qs(high->path)), QDir::cleanPath(qs(tree.path("data/high.yaml"))));
    const TraceNode* mid = locationOf(levels[1]);
    QVERIFY(mid);
    QCOMPARE(int(mid->event), int(TraceNode::Event::NotFound));
    QCOMPARE(qs(mid->key), QStringLiteral("k"));
    const TraceNode* low = locationOf(levels[2]);
    QVERIFY(low);
    QCOMPARE(int(low->event), int(TraceNode::Event::Found));
    QCOMPARE(qs(low->key), QStringLiteral("k"));
    QVERIFY(low->value.has_value());
    QCOMPARE(*low->value, Value("v-Debian")); // the value after interpolation
    QCOMPARE(QDir::cleanPath(qs(low->location.file)), QDir::cleanPath(qs(tree.path("data/low.yaml"))));
    QCOMPARE(low->location.line, 2);
    // the found key (column 1) or its value (column 4): both say where it is written
    QVERIFY2(low->location.column == 1 || low->location.column == 4, qPrintable(QString::number(low->location.column)));

    // the interpolation and its scope read hang below the found location
    const auto interps = nodesOf(*low, TraceNode::Kind::Interpolation);
    QVERIFY(!interps.empty());
    QCOMPARE(qs(interps[0]->expression), QStringLiteral("v-%{osfamily}"));
    const auto reads = nodesOf(*low, TraceNode::Kind::ScopeRead);
    QVERIFY(!reads.empty());
    QCOMPARE(qs(reads[0]->name), QStringLiteral("osfamily"));

    // the lookup_options meta-lookup is recorded too
    QVERIFY(!nodesOf(root, TraceNode::Kind::LookupOptions, false).empty());

    // a dotted key adds a dig node
    const LookupResult dug = lookupIn(tree, "k.x", yaml("osfamily: Debian\n"), o);
    QVERIFY(dug.trace);
    QVERIFY(!nodesOf(*dug.trace, TraceNode::Kind::Dig).empty());

    // no trace unless asked
    QVERIFY(!lookupIn(tree, "k").trace);
    QCOMPARE(qs(traceKindName(TraceNode::Kind::Level)).isEmpty(), false);
    QCOMPARE(qs(traceEventName(TraceNode::Event::Found)).isEmpty(), false);
}

void TestLookup::explainTraceMerge()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: high\n    path: high.yaml\n"
                    "  - name: roles\n    glob: \"roles/*.yaml\"\n"},
                   {"data/high.yaml", "k: [h]\nlookup_options:\n  \"^k\": {merge: unique, convert_to: Array}\n"},
                   {"data/roles/a.yaml", "k: [a]\n"},
                   {"data/roles/b.yaml", "k: [b]\n"}});
    QVERIFY(tree.isValid());
    LookupRequest o;
    o.explain = true;
    const LookupResult r = lookupIn(tree, "k", {}, o);
    EXPECT_FOUND(r, yaml("[h, a, b]"));
    QVERIFY(r.trace);
    QCOMPARE(qs(r.trace->lookupOptionsEntry), QStringLiteral("^k"));
    QVERIFY(r.trace->mergeFromLookupOptions);
    QVERIFY(r.trace->merge.has_value());
    QCOMPARE(int(r.trace->merge->strategy), int(MergeStrategy::Unique));
    // the fold is recorded: a Merge node, or the provider node carrying the strategy (Puppet's text prints
    // "Merge strategy unique" ... "Merged result: ...")
    bool mergeRecorded = !nodesOf(*r.trace, TraceNode::Kind::Merge).empty();
    for (const TraceNode* layer : nodesOf(*r.trace, TraceNode::Kind::Layer))
        mergeRecorded = mergeRecorded || (layer->merge && layer->merge->strategy == MergeStrategy::Unique);
    QVERIFY(mergeRecorded);
    const QString text = qs(hiera::explainText(*r.trace));
    QVERIFY2(text.contains("Merge strategy unique"), qPrintable(text));
    QVERIFY2(text.contains("Merged result: [\"h\", \"a\", \"b\"]"), qPrintable(text));
    // both glob matches are location nodes of the roles level (Puppet collapses single-branch merges;
    // we keep every candidate)
    const auto levels = nodesOf(*r.trace, TraceNode::Kind::Level);
    QCOMPARE(levels.size(), std::size_t(2));
    const auto locs = nodesOf(*levels[1], TraceNode::Kind::Location);
    QCOMPARE(locs.size(), std::size_t(2));
    QCOMPARE(QFileInfo(qs(locs[0]->path)).fileName(), QStringLiteral("a.yaml"));
    QCOMPARE(QFileInfo(qs(locs[1]->path)).fileName(), QStringLiteral("b.yaml"));
    QVERIFY(!nodesOf(*r.trace, TraceNode::Kind::ConvertTo).empty());
}

void TestLookup::explainText()
{
    TempTree tree({{"hiera.yaml", kExplainYaml}, {"data/mid.yaml", "other: 1\n"}, {"data/low.yaml", "k: v\n"}});
    QVERIFY(tree.isValid());
    LookupRequest o;
    o.explain = true;
    const LookupResult r = lookupIn(tree, "k", {}, o);
    QVERIFY(r.trace);
    const QString text = qs(hiera::explainText(*r.trace));
    for (const QString& line : {QStringLiteral("Searching for \"k\""), QStringLiteral("Hierarchy entry \"high\""),
                                QStringLiteral("Hierarchy entry \"low\""),
                                QStringLiteral("Original path: \"high.yaml\""), QStringLiteral("Path not found"),
                                QStringLiteral("No such key: \"k\""), QStringLiteral("Found key: \"k\" value: \"v\"")})
        QVERIFY2(text.contains(line), qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(line, text)));
    QVERIFY2(text.contains(QDir::cleanPath(qs(tree.path("data/low.yaml")))), qPrintable(text));
    // first: the levels after the hit do not appear in the key's part (the lookup_options part lists all)
    const QString keyPart = text.mid(text.indexOf("Searching for \"k\""));
    QVERIFY2(!keyPart.contains("Hierarchy entry \"after\""), qPrintable(keyPart));
}

void TestLookup::explainJson()
{
    TempTree tree({{"hiera.yaml", kExplainYaml}, {"data/low.yaml", "k: [1, 2]\n"}});
    QVERIFY(tree.isValid());
    LookupRequest o;
    o.explain = true;
    const LookupResult r = lookupIn(tree, "k", {}, o);
    QVERIFY(r.trace);
    for (bool pretty : {true, false}) {
        const std::string text = hiera::explainJson(*r.trace, pretty);
        Value doc;
        try {
            doc = json(text);
        } catch (const Error& e) {
            QFAIL(e.what());
        }
        QVERIFY(doc.isHash() || doc.isArray());
        QVERIFY(qs(text).contains("high.yaml"));
    }
}

void TestLookup::provenance()
{
    // after a deep merge of three levels every leaf still says which file and line it came from
    const std::string dir = testpaths::fixtures().toStdString() + "/provenance";
    auto engine = Engine::load(dir + "/hiera.yaml");
    MapScope scope(makeHash({{"name", "world"}}));
    const LookupResult r = engine->lookup(scope, "a");
    EXPECT_FOUND(r, yaml("{z: {deep: low}, shared: high, y: [m1, m2], x: 1}"));
    auto where = [](const Value& v) { return SourceFiles::locate(v.mark()); };
    auto fileIs = [&](const Value& v, const char* file) {
        return QDir::cleanPath(qs(where(v).file)) == QDir::cleanPath(qs(dir + "/data/" + file));
    };
    const Hash& a = r.value.asHash();
    QVERIFY2(fileIs(*a.find("x"), "high.yaml"), where(*a.find("x")).toString().c_str());
    QCOMPARE(where(*a.find("x")).line, 2);
    QCOMPARE(where(*a.find("x")).column, 6);
    QVERIFY2(fileIs(*a.find("shared"), "high.yaml"), where(*a.find("shared")).toString().c_str());
    QCOMPARE(where(*a.find("shared")).line, 3);
    const Array& y = a.find("y")->asArray();
    QVERIFY(fileIs(y[0], "mid.yaml"));
    QCOMPARE(where(y[0]).line, 3);
    QCOMPARE(where(y[0]).column, 7);
    QCOMPARE(where(y[1]).column, 11);
    const Value& deep = *a.find("z")->asHash().find("deep");
    QVERIFY2(fileIs(deep, "low.yaml"), where(deep).toString().c_str());
    QCOMPARE(where(deep).line, 5);
    QCOMPARE(where(deep).column, 11);

    // the dug value keeps its mark
    const LookupResult dug = engine->lookup(scope, "a.z.deep");
    EXPECT_FOUND(dug, Value("low"));
    QVERIFY(fileIs(dug.value, "low.yaml"));
    QCOMPARE(where(dug.value).line, 5);

    // unique merge: each element from its own file (the first occurrence of h1 is high's)
    const LookupResult list = engine->lookup(scope, "list");
    EXPECT_FOUND(list, yaml("[h1, m1, l1]"));
    const Array& items = list.value.asArray();
    QVERIFY(fileIs(items[0], "high.yaml"));
    QCOMPARE(where(items[0]).line, 4);
    QCOMPARE(where(items[0]).column, 8);
    QVERIFY(fileIs(items[1], "mid.yaml"));
    QCOMPARE(where(items[1]).line, 6);
    QCOMPARE(where(items[1]).column, 5);
    QVERIFY(fileIs(items[2], "low.yaml"));
    QCOMPARE(where(items[2]).line, 7);
    QCOMPARE(where(items[2]).column, 8);
}

void TestLookup::provenanceThroughInterpolation()
{
    const std::string dir = testpaths::fixtures().toStdString() + "/provenance";
    auto engine = Engine::load(dir + "/hiera.yaml");
    MapScope scope(makeHash({{"name", "world"}}));
    const LookupResult r = engine->lookup(scope, "greeting");
    EXPECT_FOUND(r, Value("hello world"));
    const SourceLocation loc = SourceFiles::locate(r.value.mark());
    QCOMPARE(QDir::cleanPath(qs(loc.file)), QDir::cleanPath(qs(dir + "/data/high.yaml")));
    QCOMPARE(loc.line, 5);
}

void TestLookup::keyInventory()
{
    TempTree tree({{"hiera.yaml", kTwoLevels},
                   {"data/high.yaml", "b: {c: 1, d: [x, {e: 2}]}\nlookup_options:\n  b: {merge: deep}\n"},
                   {"data/low.yaml", "a: 1\nb: {f: 3}\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    const auto keys = engine->keyInventory(scope);
    QStringList list;
    for (const auto& k : keys)
        list << qs(k);
    for (const char* k : {"a", "b", "b.c", "b.d", "b.d.0", "b.d.1", "b.d.1.e", "b.f"})
        QVERIFY2(list.contains(k), qPrintable(list.join(", ")));
    for (const QString& k : list)
        QVERIFY2(!k.startsWith("lookup_options"), qPrintable(k));
    QStringList sorted = list;
    sorted.sort();
    sorted.removeDuplicates();
    QCOMPARE(list.size(), sorted.size());
    const auto shallow = engine->keyInventory(scope, 1);
    QStringList shallowList;
    for (const auto& k : shallow)
        shallowList << qs(k);
    QVERIFY(shallowList.contains("b"));
    QVERIFY(!shallowList.contains("b.d.1.e"));
}

void TestLookup::candidateFiles()
{
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: n\n    path: \"nodes/%{certname}.yaml\"\n"
                    "  - name: c\n    path: common.yaml\n"},
                   {"data/common.yaml", "k: 1\n"}});
    QVERIFY(tree.isValid());
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope(makeHash({{"certname", "web01"}}));
    QStringList files;
    for (const auto& f : engine->candidateFiles(scope))
        files << QDir::cleanPath(qs(f));
    QVERIFY2(files.contains(QDir::cleanPath(qs(tree.path("data/nodes/web01.yaml")))), qPrintable(files.join(", ")));
    QVERIFY(files.contains(QDir::cleanPath(qs(tree.path("data/common.yaml")))));
}

void TestLookup::hieraFacade()
{
    TempTree tree(
        {{"hiera.yaml",
          "version: 5\nhierarchy:\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n"
          "  - name: c\n    path: common.yaml\n"},
         {"data/os/Debian.yaml", "profile::ntp: {port: 123}\n"},
         {"data/common.yaml", "profile::ntp:\n  port: 1\n  servers:\n    - 0.pool.ntp.org\n    - 1.pool.ntp.org\n"}});
    QVERIFY(tree.isValid());
    auto scope = std::make_shared<MapScope>(yaml("facts: {os: {family: Debian}}\n"));
    const Hiera h = Hiera::load(tree.hieraYaml(), scope);
    EXPECT_FOUND(h.lookup("profile::ntp.port"), Value(123));
    const LookupResult miss = h.lookup("profile::ntp.servers.0");
    QCOMPARE(int(miss.status), int(LookupResult::Status::NotFound)); // first: Debian's hash wins, no servers
    LookupRequest deep;
    deep.merge = mergeOf(MergeStrategy::Deep);
    EXPECT_FOUND(h.lookup("profile::ntp.servers.1", deep), Value("1.pool.ntp.org"));
    EXPECT_FOUND(h.lookup("profile::ntp.port", deep), Value(123));
    QCOMPARE(int(h.lookup("profile::ntp.servers.9", deep).status), int(LookupResult::Status::NotFound));
    QCOMPARE(int(h.lookup("profile::ntp.port.deeper", deep).status), int(LookupResult::Status::NotFound));
    QCOMPARE(h.engine().layers().size(), std::size_t(1));
}

void TestLookup::customBackend()
{
    // backends plug in through the registry
    struct Fixed : DataHashBackend
    {
        std::string name() const override { return "fixed_data"; }
        Value load(BackendContext& context) const override
        {
            return makeHash({{"k", Value("from " + QFileInfo(qs(context.path())).fileName().toStdString())}});
        }
    };
    auto registry = std::make_shared<BackendRegistry>(*BackendRegistry::defaultRegistry());
    registry->add(std::make_shared<Fixed>());
    QVERIFY(registry->dataHash("fixed_data"));
    QVERIFY(registry->dataHash("yaml_data"));
    QVERIFY(registry->dataHash("json_data"));
    QVERIFY(!registry->dataHash("nosuch"));
    TempTree tree(
        {{"hiera.yaml", "version: 5\nhierarchy:\n  - name: f\n    path: virtual.x\n    data_hash: fixed_data\n"},
         {"data/virtual.x", "ignored"}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registry;
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    EXPECT_FOUND(engine->lookup(scope, "k"), Value("from virtual.x"));
}

void TestLookup::backendOptionsInterpolated()
{
    // §1.2/§2.1: options values are interpolated (scope only); a level's options replace defaults.options
    struct Capture : DataHashBackend
    {
        std::string name() const override { return "capture_data"; }
        Value load(BackendContext& context) const override
        {
            return makeHash({{"opts_" + QFileInfo(qs(context.path())).fileName().toStdString(), context.options()}});
        }
    };
    auto registry = std::make_shared<BackendRegistry>(*BackendRegistry::defaultRegistry());
    registry->add(std::make_shared<Capture>());
    TempTree tree({{"hiera.yaml",
                    "version: 5\ndefaults:\n  data_hash: capture_data\n  options: {from: defaults}\n"
                    "hierarchy:\n"
                    "  - name: own\n    path: a\n    options: {greeting: \"hi %{osfamily}\", n: [\"%{facts.x}\"]}\n"
                    "  - name: inherited\n    path: b\n"},
                   {"data/a", ""},
                   {"data/b", ""}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.backends = registry;
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope(yaml("osfamily: Debian\nfacts: {x: y}\n"));
    EXPECT_FOUND(engine->lookup(scope, "opts_a"), yaml("{greeting: hi Debian, n: [y]}"));
    EXPECT_FOUND(engine->lookup(scope, "opts_b"), yaml("{from: defaults}"));
}

void TestLookup::globStaysInOneComponent()
{
    // Go filepath.Glob semantics: * and ? match within one path component; [...] classes work
    TempTree tree({{"hiera.yaml",
                    "version: 5\nhierarchy:\n  - name: g\n    glob: \"*.yaml\"\n"
                    "  - name: c\n    glob: \"[ab].yaml\"\n"},
                   {"data/a.yaml", "k: [a]\n"},
                   {"data/b.yaml", "k: [b]\n"},
                   {"data/c.yaml", "k: [c]\n"},
                   {"data/sub/x.yaml", "k: [sub]\n"}});
    QVERIFY(tree.isValid());
    EXPECT_FOUND(lookupIn(tree, "k", {}, withMerge(MergeStrategy::Unique)), yaml("[a, b, c]"));
    auto engine = Engine::load(tree.hieraYaml());
    MapScope scope;
    QCOMPARE(engine->resolveHierarchy(scope).at(1).locations.size(), std::size_t(2));
}

void TestLookup::parseLimitsApply()
{
    std::string deep = "k: ";
    for (int i = 0; i < 40; ++i)
        deep += "[";
    for (int i = 0; i < 40; ++i)
        deep += "]";
    TempTree tree({{"hiera.yaml", "version: 5\n"}, {"data/common.yaml", QByteArray::fromStdString(deep + "\n")}});
    QVERIFY(tree.isValid());
    EngineOptions options;
    options.limits.maxDepth = 16;
    auto engine = Engine::load(tree.hieraYaml(), options);
    MapScope scope;
    EXPECT_ERROR(engine->lookup(scope, "k"), ErrorCode::DataLimit);
    QVERIFY(Engine::load(tree.hieraYaml())->lookup(scope, "k").found());
}

QTEST_APPLESS_MAIN(TestLookup)
#include "tst_lookup.moc"
