// Provenance (hiera/provenance.h) and the override chain built on it (hiera/overridechain.h): which
// sources a lookup credits is decided by the files the answer's leaves carry, so that a unique merge
// credits every level an element came from, a deep merge's knockout is "removed by" its entry rather
// than an override, and a dotted key credits the file behind the dug leaf, not the files that hold the
// root key.

#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/overridechain.h>
#include <hiera/provenance.h>

#include <QTest>

using namespace hiera;
using namespace testutils;
using Outcome = SourceContribution::Outcome;

namespace {

FileList repository()
{
    return {{"hiera.yaml",
             "version: 5\nhierarchy:\n"
             "  - name: node\n    path: node.yaml\n"
             "  - name: role\n    path: role.yaml\n"
             "  - name: dc\n    path: dc.yaml\n"
             "  - name: common\n    path: common.yaml\n"},
            {"data/node.yaml",
             "ntp::servers:\n  - \"--pool.ntp.org\"\n  - ntp1\n"
             "app::cfg:\n  mode: \"--strict\"\n"
             "first::key: node\n"},
            {"data/role.yaml",
             "backup::exclude:\n  - /var/tmp\n  - /proc\n"
             "ntp::servers:\n  - pool.ntp.org\n"
             "profile::ntp:\n  servers: [a]\n"
             "first::key: role\n"},
            {"data/dc.yaml", "profile::ntp:\n  servers: [c, d]\n  iburst: true\n"},
            {"data/common.yaml",
             "lookup_options:\n"
             "  backup::exclude: {merge: unique}\n"
             "  ntp::servers: {merge: {strategy: deep, knockout_prefix: \"--\"}}\n"
             "  app::cfg: {merge: {strategy: deep, knockout_prefix: \"--\"}}\n"
             "  profile::ntp: {merge: deep}\n"
             "backup::exclude:\n  - /proc\n  - /sys\n  - /tmp\n"
             "ntp::servers:\n  - pool.ntp.org\n  - ntp0\n"
             "app::cfg:\n  mode: lax\n  port: 80\n"
             "profile::ntp:\n  servers: [z]\n"}};
}

std::string fileName(const std::string& path)
{
    return path.substr(path.find_last_of('/') + 1);
}

// level name → outcome, for the sources that found the key
std::map<std::string, Outcome> outcomes(const std::vector<SourceContribution>& sources)
{
    std::map<std::string, Outcome> out;
    for (const SourceContribution& s : sources)
        out[s.level] = s.outcome;
    return out;
}

} // namespace

class TestProvenance : public QObject
{
    Q_OBJECT
    TempTree m_tree{repository()};
    std::shared_ptr<const Engine> m_engine;
    MapScope m_scope;

    std::vector<SourceContribution> sourcesOf(const std::string& key)
    {
        LookupRequest request;
        request.explain = true;
        const LookupResult r = m_engine->lookup(m_scope, key, request);
        if (!r.trace)
            return {};
        return sourceContributions(*r.trace);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tree.isValid());
        m_engine = Engine::load(m_tree.hieraYaml());
    }

    // docs/bad-input.md, "Exports and reports": a key whose root holds a dot (`'"a.b".c'`) has the same override chain
    // as the same data under a plain root. Its root used to be looked up unquoted (`a` dug into `b`): no levels, and
    // the Overrode column stayed empty.
    void quotedDottedRootHasItsChain()
    {
        TempTree tree({{"hiera.yaml",
                        "version: 5\nhierarchy:\n  - name: high\n    path: high.yaml\n"
                        "  - name: low\n    path: low.yaml\n"},
                       {"data/high.yaml", "\"a.b\": {c: from high}\nab: {c: from high}\n"},
                       {"data/low.yaml", "\"a.b\": {c: from low}\nab: {c: from low}\n"}});
        QVERIFY(tree.isValid());
        const auto engine = Engine::load(tree.hieraYaml());
        for (const std::string key : {"\"a.b\".c", "'a.b'.c", "ab.c"}) {
            const OverrideChain chain = overrideChain(*engine, m_scope, key, std::nullopt);
            QVERIFY2(chain.error.empty(), chain.error.c_str());
            QCOMPARE(chain.answer, Value("from high"));
            QCOMPARE(chain.levels.size(), std::size_t(2));
            QCOMPARE(chain.leaves.size(), std::size_t(1));
            QCOMPARE(chain.leaves[0].overrode.size(), std::size_t(1));
            QCOMPARE(chain.leaves[0].overrode[0].value, Value("from low"));
            QCOMPARE(chain.leaves[0].overrode[0].level, std::string("low"));
        }
    }

    void uniqueMergeCreditsEveryElement()
    {
        const auto sources = outcomes(sourcesOf("backup::exclude"));
        QCOMPARE(sources.at("role"), Outcome::Merged);
        QCOMPARE(sources.at("common"), Outcome::Merged); // /sys and /tmp are in the answer
        const OverrideChain chain = overrideChain(*m_engine, m_scope, "backup::exclude", std::nullopt);
        QVERIFY2(chain.error.empty(), chain.error.c_str());
        QCOMPARE(chain.leaves.size(), std::size_t(1));
        const OverrideLeaf& leaf = chain.leaves[0];
        QVERIFY(leaf.overrode.empty()); // nothing was replaced: the lower array was merged in
        QCOMPARE(leaf.elements.size(), std::size_t(4));
        const std::vector<std::pair<std::string, std::string>> expected{
            {"/var/tmp", "role"}, {"/proc", "role"}, {"/sys", "common"}, {"/tmp", "common"}};
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(leaf.elements[i].value, Value(expected[i].first));
            QCOMPARE(leaf.elements[i].level, expected[i].second);
            QCOMPARE(fileName(leaf.elements[i].origin.file), expected[i].second + ".yaml");
        }
        for (const OverrideLevel& level : chain.levels)
            QVERIFY2(level.contributed, level.level.c_str());
    }

    void knockoutIsRemovedByItsEntry()
    {
        // node: [--pool.ntp.org, ntp1]; role: [pool.ntp.org]; common: [pool.ntp.org, ntp0]. The knockout
        // acts on the next value folded in (role's) and is then used up: common's pool.ntp.org stays.
        const auto sources = outcomes(sourcesOf("ntp::servers"));
        QCOMPARE(sources.at("node"), Outcome::Merged);
        QCOMPARE(sources.at("role"), Outcome::Removed); // its only element was knocked out
        QCOMPARE(sources.at("common"), Outcome::Merged);
        const OverrideChain chain = overrideChain(*m_engine, m_scope, "ntp::servers", std::nullopt);
        QCOMPARE(chain.answer, Value(makeArray({"pool.ntp.org", "ntp0", "ntp1"})));
        QCOMPARE(chain.leaves.size(), std::size_t(1));
        QVERIFY(chain.leaves[0].overrode.empty());
        QCOMPARE(chain.leaves[0].elements.at(0).level, std::string("common"));
        QCOMPARE(chain.leaves[0].elements.at(2).level, std::string("node"));
        QCOMPARE(chain.removed.size(), std::size_t(1));
        const RemovedValue& r = chain.removed[0];
        QCOMPARE(r.value, Value("pool.ntp.org"));
        QCOMPARE(r.level, std::string("role"));
        QCOMPARE(fileName(r.location.file), std::string("role.yaml"));
        QCOMPARE(r.removedByLevel, std::string("node"));
        QCOMPARE(fileName(r.removedBy.file), std::string("node.yaml"));
        QCOMPARE(r.removedBy.line, 2);
        for (const OverrideLevel& level : chain.levels)
            QCOMPARE(level.contributed, level.level != "role");
    }

    void knockedOutScalarIsNotAnOverride()
    {
        // node's mode: "--strict" over common's lax: the answer is "", and lax was removed, not overridden.
        const OverrideChain chain = overrideChain(*m_engine, m_scope, "app::cfg", std::nullopt);
        QVERIFY2(chain.error.empty(), chain.error.c_str());
        const auto mode = std::find_if(chain.leaves.begin(), chain.leaves.end(),
                                       [](const OverrideLeaf& l) { return l.path == "mode"; });
        QVERIFY(mode != chain.leaves.end());
        QCOMPARE(mode->value, Value(""));
        QCOMPARE(mode->level, std::string("node"));
        QVERIFY(mode->overrode.empty());
        QCOMPARE(chain.removed.size(), std::size_t(1));
        QCOMPARE(chain.removed[0].value, Value("lax"));
        QCOMPARE(chain.removed[0].removedByLevel, std::string("node"));
    }

    void dottedKeyCreditsTheDugLeaf()
    {
        // Deep merge lists the lower level's elements first: servers = [z, c, d, a]; .1 is dc's c.
        const LookupResult r = m_engine->lookup(m_scope, "profile::ntp.servers.1", {});
        QCOMPARE(r.value, Value("c"));
        const auto sources = outcomes(sourcesOf("profile::ntp.servers.1"));
        QCOMPARE(sources.at("dc"), Outcome::Merged);
        QCOMPARE(sources.at("role"), Outcome::RootOnly); // role's servers has no element 1
        QCOMPARE(sources.at("common"), Outcome::RootOnly);
        const auto all = sourcesOf("profile::ntp.servers.1");
        const auto dc = std::find_if(all.begin(), all.end(), [](const auto& s) { return s.level == "dc"; });
        QCOMPARE(dc->leaves, std::size_t(1));
        // Element 0 is common's: dc holds an element 0 too, but not the one in the answer.
        const auto zero = outcomes(sourcesOf("profile::ntp.servers.0"));
        QCOMPARE(zero.at("common"), Outcome::Merged);
        QCOMPARE(zero.at("dc"), Outcome::Overridden);
        // Element 3 is role's only server: role has no element 3 of its own, yet the leaf is its.
        const auto three = outcomes(sourcesOf("profile::ntp.servers.3"));
        QCOMPARE(three.at("role"), Outcome::Merged);
        QCOMPARE(three.at("dc"), Outcome::RootOnly);
        const OverrideChain chain = overrideChain(*m_engine, m_scope, "profile::ntp.servers.1", std::nullopt);
        for (const OverrideLevel& level : chain.levels)
            QCOMPARE(level.contributed, level.level == "dc");
    }

    void firstFoundWinsByOrder()
    {
        const auto sources = outcomes(sourcesOf("first::key"));
        QCOMPARE(sources.at("node"), Outcome::Won);
        QVERIFY(!sources.count("role")); // a first-found lookup stops at the winner
        const OverrideChain chain = overrideChain(*m_engine, m_scope, "first::key", std::nullopt);
        QCOMPARE(chain.levels.size(), std::size_t(2));
        QVERIFY(chain.levels[0].contributed && !chain.levels[1].contributed);
        QCOMPARE(chain.levels[1].outcome, Outcome::Shadowed);
        QCOMPARE(chain.leaves.at(0).overrode.size(), std::size_t(1));
        QCOMPARE(chain.leaves.at(0).overrode[0].value, Value("role"));
    }
    // Many files (docs/performance.md, "Cost that grows with the input"): past a few levels, leaves and elements the
    // chain answers from tables (file -> level, path -> levels holding it, knock -> entry) instead of searching the
    // levels. The answers must be the searches': every element's level, each leaf's overridden values in priority
    // order, knockouts removed by the first entry that names them.
    void manyFilesKeepTheChain()
    {
        constexpr int kFiles = 30;
        FileList files{{"hiera.yaml", "version: 5\nhierarchy:\n  - name: every file\n    glob: \"f/*.yaml\"\n"}};
        for (int i = 0; i < kFiles; ++i) {
            QByteArray text = "many::list:\n  - own" + QByteArray::number(i) + "\n  - shared\n";
            text += "many::cfg:\n  own" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\n";
            text += "  mode: m" + QByteArray::number(i) + "\n";
            text += "many::first: v" + QByteArray::number(i) + "\n";
            // The top file knocks out every other file's own entry (twice over: the first one counts).
            text += "many::ko:\n";
            if (i == 0)
                for (int j = 1; j < kFiles; ++j)
                    text += "  - \"--k" + QByteArray::number(j) + "\"\n  - \"--k" + QByteArray::number(j) + "\"\n";
            text += "  - k" + QByteArray::number(i) + "\n";
            files.append({QStringLiteral("data/f/%1.yaml").arg(i, 2, 10, QLatin1Char('0')), text});
        }
        TempTree tree(files);
        QVERIFY(tree.isValid());
        const auto engine = Engine::load(tree.hieraYaml());
        const auto name = [](int i) { return QStringLiteral("%1.yaml").arg(i, 2, 10, QLatin1Char('0')).toStdString(); };

        MergeSpec unique;
        unique.strategy = MergeStrategy::Unique;
        const OverrideChain list = overrideChain(*engine, m_scope, "many::list", unique);
        QVERIFY2(list.error.empty(), list.error.c_str());
        QCOMPARE(list.levels.size(), std::size_t(kFiles));
        QCOMPARE(list.leaves.size(), std::size_t(1));
        const OverrideLeaf& leaf = list.leaves[0];
        QVERIFY(leaf.overrode.empty());
        QCOMPARE(leaf.elements.size(), std::size_t(kFiles + 1));
        for (int i = 0; i < kFiles; ++i) {
            const OverrideElement& e = leaf.elements[i < 1 ? 0 : i + 1];
            QCOMPARE(e.value, Value("own" + std::to_string(i)));
            QCOMPARE(fileName(e.origin.file), name(i));
            QCOMPARE(e.level, std::string("every file"));
            QVERIFY(list.levels[i].contributed);
            QCOMPARE(fileName(list.levels[i].path), name(i));
        }
        QCOMPARE(leaf.elements[1].value, Value("shared"));
        QCOMPARE(fileName(leaf.elements[1].origin.file), name(0));

        // First found: the top file's value overrode every other file's, in order.
        const OverrideChain first = overrideChain(*engine, m_scope, "many::first", std::nullopt);
        QCOMPARE(first.leaves.size(), std::size_t(1));
        QCOMPARE(first.leaves[0].overrode.size(), std::size_t(kFiles - 1));
        for (int i = 1; i < kFiles; ++i)
            QCOMPARE(first.leaves[0].overrode[i - 1].value, Value("v" + std::to_string(i)));

        // Deep: every file's own key is its leaf, with nothing below; `mode` overrode every lower file's.
        MergeSpec deep;
        deep.strategy = MergeStrategy::Deep;
        const OverrideChain cfg = overrideChain(*engine, m_scope, "many::cfg", deep);
        QCOMPARE(cfg.leaves.size(), std::size_t(kFiles + 1));
        std::size_t owns = 0;
        for (const OverrideLeaf& l : cfg.leaves) {
            if (l.path == "mode") {
                QCOMPARE(l.value, Value("m0"));
                QCOMPARE(l.overrode.size(), std::size_t(kFiles - 1));
                for (int i = 1; i < kFiles; ++i) {
                    QCOMPARE(l.overrode[i - 1].value, Value("m" + std::to_string(i)));
                    QCOMPARE(fileName(l.overrode[i - 1].location.file), name(i));
                }
                continue;
            }
            ++owns;
            QVERIFY(l.overrode.empty());
            QCOMPARE(fileName(l.origin.file), name(std::stoi(l.path.substr(3))));
        }
        QCOMPARE(owns, std::size_t(kFiles));

        // Knockouts: the top file's `--kN` (each written twice) act on the next file folded in only, so
        // k1 is removed, by the first `--k1` (line 9, the list's first entry; the second is on line 10).
        MergeSpec knockout = deep;
        knockout.knockoutPrefix = "--";
        const OverrideChain ko = overrideChain(*engine, m_scope, "many::ko", knockout);
        QVERIFY2(ko.error.empty(), ko.error.c_str());
        QCOMPARE(ko.removed.size(), std::size_t(1));
        QCOMPARE(ko.removed[0].value, Value("k1"));
        QCOMPARE(fileName(ko.removed[0].location.file), name(1));
        QCOMPARE(fileName(ko.removed[0].removedBy.file), name(0));
        QCOMPARE(ko.removed[0].removedBy.line, 9);
    }
};

QTEST_APPLESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
