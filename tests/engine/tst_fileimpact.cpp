// What one data file decides across a node library (hiera/nodes/fileimpact.h): the nodes whose hierarchy
// reads it, and each key it defines that takes its value from it — as the winner, or as a contributor
// to a merge — held to every key of every node resolved on its own (hiera::resolveAllKeys, the All
// keys view's rule for the winning file); a file no node reads, one that does not exist, one that does
// not parse; and hiera-lookup --impact printing the same.

#include "testutils.h"

#include "support/hieralookupcli.h"

#include <hiera/engine.h>
#include <hiera/nodes/fileimpact.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodelibrary.h>

#include <QTest>

#include <map>
#include <set>

using namespace hiera;
using namespace testutils;

class TestFileImpact : public QObject
{
    Q_OBJECT

    TempTree m_tree{{
        {"hiera.yaml",
         "version: 5\n"
         "defaults: {datadir: data, data_hash: yaml_data}\n"
         "hierarchy:\n"
         "  - name: node\n"
         "    path: 'nodes/%{trusted.certname}.yaml'\n"
         "  - name: role\n"
         "    path: 'roles/%{facts.role}.yaml'\n"
         "  - name: common\n"
         "    path: common.yaml\n"},
        {"data/common.yaml",
         "lookup_options:\n  packages: {merge: unique}\n"
         "packages: [vim]\nport: 22\nmotd: hello\n"},
        // web1's node file overrides port and adds a package: the role file is merged into packages
        // there, and does not decide port at all.
        // `aliased` is held by the same files on both web nodes, but takes port's value, which web1's
        // node file decides: only on web2 is the role file its winner (answers are shared between nodes
        // only when they depend on nothing but the files holding the key).
        {"data/roles/web.yaml", "packages: [nginx]\nport: 80\nweb_only: yes\naliased: \"%{alias('port')}\"\n"},
        {"data/roles/unused.yaml", "port: 1\n"},
        {"data/roles/db.yaml", "lookup_options:\n  port: {merge: first}\n  '^profile::.*': {merge: deep}\n"},
        {"data/roles/broken.yaml", "port: [1\n"},
        {"data/nodes/web1.yaml", "port: 8080\npackages: [htop]\n"},
        {"facts/web1.yaml", "certname: web1\nrole: web\n"},
        {"facts/web2.yaml", "certname: web2\nrole: web\n"},
        {"facts/db1.yaml", "certname: db1\nrole: db\n"},
        {"facts/bad1.yaml", "certname: bad1\nrole: broken\n"},
    }};
    std::shared_ptr<const Engine> m_engine;
    NodeLibrary m_library;

    // (node, key) -> role, from every key of every node resolved alone.
    std::set<std::string> bruteForce(const std::string& file) const
    {
        std::set<std::string> out;
        for (const Node& node : m_library.nodes()) {
            const NodeData data = resolveAllKeys(*m_engine, *node.scope);
            for (const ResolvedKey& k : data.keys) {
                if (!k.found())
                    continue;
                if (k.location.file == file)
                    out.insert(node.name + " " + k.key + " winner");
            }
        }
        return out;
    }

    // (node, key) for the keys the impact names the file the winner of.
    static std::set<std::string> winnersOf(const FileImpact& impact)
    {
        std::set<std::string> winners;
        for (const KeyImpact& k : impact.keys)
            if (k.role == KeyImpact::Role::Winner)
                for (const std::string& n : k.nodes)
                    winners.insert(n + " " + k.key + " winner");
        return winners;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tree.isValid());
        m_engine = Engine::load(m_tree.hieraYaml());
        m_library = NodeLibrary::load(m_tree.path(QStringLiteral("facts")));
        QCOMPARE(m_library.size(), std::size_t(4));
    }

    void aRoleFile()
    {
        const std::string file = m_tree.path(QStringLiteral("data/roles/web.yaml"));
        const FileImpact impact = fileImpact(*m_engine, m_library, file);
        QVERIFY(impact.exists);
        QVERIFY(impact.error.empty());
        std::vector<std::string> reading = impact.nodesReading;
        std::sort(reading.begin(), reading.end());
        QCOMPARE(reading, (std::vector<std::string>{"web1", "web2"}));
        QCOMPARE(impact.keysDefined, std::size_t(4));
        std::map<std::string, std::vector<std::string>> got;
        for (const KeyImpact& k : impact.keys) {
            std::vector<std::string> nodes = k.nodes;
            std::sort(nodes.begin(), nodes.end());
            got[k.key + " " + keyImpactRoleName(k.role)] = nodes;
        }
        const std::map<std::string, std::vector<std::string>> expected = {
            {"aliased winner", {"web2"}},
            {"packages merged", {"web1"}}, // web1's own file holds the highest-priority leaf
            {"packages winner", {"web2"}},
            {"port winner", {"web2"}}, // web1's node file decides its port alone
            {"web_only winner", {"web1", "web2"}},
        };
        QCOMPARE(got, expected);

        // The winners are the keys whose answer the All keys view places in this file.
        QCOMPARE(winnersOf(impact), bruteForce(file));
    }

    void commonIsReadByEveryNode()
    {
        const std::string file = m_tree.path(QStringLiteral("data/common.yaml"));
        const FileImpact impact = fileImpact(*m_engine, m_library, file);
        QCOMPARE(impact.nodesReading.size(), std::size_t(4));
        QCOMPARE(winnersOf(impact), bruteForce(file));
        // bad1's role file does not parse: its lookups fail, said once each, not counted as decided.
        // One line for the node, not one a key.
        std::vector<std::string> said;
        for (const std::string& w : impact.warnings)
            if (w.find("roles/broken.yaml") != std::string::npos)
                said.push_back(w);
        QCOMPARE(said.size(), std::size_t(1));
        QVERIFY2(said[0].starts_with("bad1: 3 keys fail (packages, …)")
                     && said[0].find(", not counted: ") != std::string::npos,
                 said[0].c_str());
    }

    void aFileNoNodeReads()
    {
        const FileImpact unused =
            fileImpact(*m_engine, m_library, m_tree.path(QStringLiteral("data/roles/unused.yaml")));
        QVERIFY(unused.exists);
        QVERIFY(unused.nodesReading.empty());
        QVERIFY(unused.keys.empty());
        QVERIFY(fileImpactMarkdown(unused).find("no node of the 4 in the library reads it") != std::string::npos);
        const FileImpact missing =
            fileImpact(*m_engine, m_library, m_tree.path(QStringLiteral("data/roles/gone.yaml")));
        QVERIFY(!missing.exists);
        QVERIFY(missing.nodesReading.empty());
    }

    // A file of lookup_options only decides no value, but how its keys merge on the nodes that read it.
    void aFileOfLookupOptionsOnly()
    {
        const FileImpact impact = fileImpact(*m_engine, m_library, m_tree.path(QStringLiteral("data/roles/db.yaml")));
        QCOMPARE(impact.nodesReading, std::vector<std::string>{"db1"});
        QCOMPARE(impact.keysDefined, std::size_t(0));
        QCOMPARE(impact.lookupOptions, (std::vector<std::string>{"port", "^profile::.*"}));
        const std::string md = fileImpactMarkdown(impact);
        QVERIFY2(md.find("1 of 4 nodes read it; it defines no key; its lookup\\_options set how port, ^profile::.\\* "
                         "merge on the nodes that read it")
                     != std::string::npos,
                 md.c_str());
    }

    void aFileThatDoesNotParse()
    {
        const FileImpact impact =
            fileImpact(*m_engine, m_library, m_tree.path(QStringLiteral("data/roles/broken.yaml")));
        QCOMPARE(impact.nodesReading, std::vector<std::string>{"bad1"});
        QVERIFY2(impact.error.find("roles/broken.yaml:2:1: ") != std::string::npos, impact.error.c_str());
        QVERIFY(impact.keys.empty());
    }

    void exportsAndTheCommandLine()
    {
        const std::string file = m_tree.path(QStringLiteral("data/roles/web.yaml"));
        FileImpactExportOptions options;
        options.relativeTo = m_tree.path();
        const Value doc =
            parseData(fileImpactJson(fileImpact(*m_engine, m_library, file), options), "i.json", DataFormat::Json);
        QCOMPARE(doc.asHash().find("file")->asString(), std::string("data/roles/web.yaml"));
        QCOMPARE(doc.asHash().find("nodes_reading")->asArray().size(), std::size_t(2));
        // By key, the winner before the contributor.
        std::vector<std::string> packages;
        for (const Value& k : doc.asHash().find("keys")->asArray())
            if (k.asHash().find("key")->asString() == "packages")
                packages.push_back(k.asHash().find("role")->asString());
        QCOMPARE(packages, (std::vector<std::string>{"winner", "merged"}));

#ifdef HIERA_HAVE_LOOKUP_BIN
        // From anywhere, a path from the repository's root; the same document.
        const QStringList base{QStringLiteral("--config"), m_tree.root(), QStringLiteral("--nodes"),
                               m_tree.root() + QStringLiteral("/facts")};
        const CliResult json =
            runHieraLookup(base
                           + QStringList{QStringLiteral("--impact"), QStringLiteral("data/roles/web.yaml"),
                                         QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QCOMPARE(parseData(ss(json.out), "cli.json", DataFormat::Json), doc);
        const CliResult md =
            runHieraLookup(base
                           + QStringList{QStringLiteral("--impact"), QStringLiteral("data/roles/web.yaml"),
                                         QStringLiteral("--format"), QStringLiteral("markdown")});
        QVERIFY2(
            md.out.startsWith(QStringLiteral("**Hiera file impact** of `data/roles/web.yaml`: 2 of 4 nodes read it")),
            qPrintable(md.out));
        QVERIFY2(md.out.contains(QStringLiteral("| web\\_only | winner | web1, web2 |")), qPrintable(md.out));
        // A file that is not there is one line and exit 2; a misuse is a usage error.
        const CliResult missing =
            runHieraLookup(base + QStringList{QStringLiteral("--impact"), QStringLiteral("data/nope.yaml")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.startsWith(QStringLiteral("hiera-lookup: error: data/nope.yaml: no such data file"))
                     && missing.err.count(QLatin1Char('\n')) == 1,
                 qPrintable(missing.err));
        // A file that does not parse: the nodes that read it, and exit 2 with the error on stderr.
        const CliResult broken =
            runHieraLookup(base + QStringList{QStringLiteral("--impact"), QStringLiteral("data/roles/broken.yaml")});
        QCOMPARE(broken.exitCode, 2);
        QVERIFY2(broken.out.contains(QStringLiteral("bad1")), qPrintable(broken.out));
        QVERIFY2(broken.err.contains(QStringLiteral("the file does not parse: "))
                     && broken.err.contains(QStringLiteral("roles/broken.yaml:2:1")),
                 qPrintable(broken.err));
        const CliResult directory =
            runHieraLookup(base + QStringList{QStringLiteral("--impact"), QStringLiteral("data/roles")});
        QCOMPARE(directory.exitCode, 2);
        QVERIFY2(directory.err == QStringLiteral("hiera-lookup: error: data/roles: is a directory, not a data file\n"),
                 qPrintable(directory.err));
        const CliResult noNodes = runHieraLookup(QStringList{
            QStringLiteral("--config"), m_tree.root(), QStringLiteral("--impact"), QStringLiteral("data/common.yaml")});
        QCOMPARE(noNodes.exitCode, 2);
        QVERIFY2(noNodes.err.contains(QStringLiteral("--impact reads a data file against the nodes of a library")),
                 qPrintable(noNodes.err));
#endif
    }
};

QTEST_GUILESS_MAIN(TestFileImpact)
#include "tst_fileimpact.moc"
