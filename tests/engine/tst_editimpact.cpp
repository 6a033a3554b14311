// An unsaved edit of one data file held to the files on disk (hiera/nodes/editimpact.h,
// docs/editing-data.md): a value edit changing three nodes (and a key interpolating it), an edit in
// YAML that does not parse (said at file:line:col, nothing evaluated, the next good text evaluated
// again), an edit that changes no answer, and the file on disk untouched throughout. The overlay tree
// (hiera/overlaytree.h) answers for the edited file from memory and for the rest from the disk.

#include "testutils.h"

#include <hiera/engine.h>
#include <hiera/nodes/editimpact.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/overlaytree.h>
#include <hiera/valueformat.h>

#include <QFile>
#include <QTest>

using namespace hiera;
using namespace testutils;

namespace {

const char* const webRole = "port: 80\n# the role's packages\npackages: [nginx]\n";

std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

class TestEditImpact : public QObject
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
        // `url` interpolates `port`: an edit of port reaches it through the common file.
        {"data/common.yaml", "port: 22\nurl: \"http://host:%{lookup('port')}/\"\nmotd: hello\n"},
        {"data/roles/web.yaml", webRole},
        {"data/roles/db.yaml", "port: 5432\n"},
        // web4 decides its port in its own file: the role's edit does not reach it.
        {"data/nodes/web4.yaml", "port: 8080\n"},
        {"facts/web1.yaml", "certname: web1\nrole: web\n"},
        {"facts/web2.yaml", "certname: web2\nrole: web\n"},
        {"facts/web3.yaml", "certname: web3\nrole: web\n"},
        {"facts/web4.yaml", "certname: web4\nrole: web\n"},
        {"facts/db1.yaml", "certname: db1\nrole: db\n"},
    }};
    std::shared_ptr<const Engine> m_engine;
    std::shared_ptr<const NodeLibrary> m_library;

    std::string webFile() const { return m_tree.path(QStringLiteral("data/roles/web.yaml")); }

    QByteArray onDisk() const
    {
        QFile f(QString::fromStdString(webFile()));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tree.isValid());
        m_engine = Engine::load(m_tree.hieraYaml());
        m_library = std::make_shared<const NodeLibrary>(NodeLibrary::load(m_tree.path(QStringLiteral("facts"))));
        QCOMPARE(m_library->size(), std::size_t(5));
    }

    void theOverlayReadsTheEditAndTheDiskForTheRest()
    {
        const std::string common = m_tree.path(QStringLiteral("data/common.yaml"));
        const OverlayTree tree(nullptr, {{webFile(), "port: 81\n"}}, /*nameBaseFiles=*/true);
        QCOMPARE(tree.read(webFile(), 1000), std::string("port: 81\n"));
        QCOMPARE(tree.stat(webFile()).size, std::int64_t(9));
        QVERIFY(tree.read(common, 1000).starts_with("port: 22\n"));
        // Named by their stat, so that engines of one session share their parses; the edit by its text.
        QVERIFY(tree.stat(common).contentId.starts_with("disk:"));
        QVERIFY(tree.stat(webFile()).contentId.starts_with("edit:"));
        QVERIFY(tree.stat(webFile()).contentId
                != OverlayTree(nullptr, {{webFile(), "port: 82\n"}}).stat(webFile()).contentId);
        QVERIFY_THROWS_EXCEPTION(Error, tree.read(webFile(), 4)); // a host's limit holds for an edit too
        QVERIFY(tree.describe().find("with unsaved edits to " + webFile()) != std::string::npos);
    }

    void oneSessionFollowsEachNewText()
    {
        // The session's engine is told of each text (OverlayTree::set): never an answer of the one before.
        OverlayTree tree(nullptr, {{webFile(), "port: 81\n"}});
        const std::string first = tree.stat(webFile()).contentId;
        tree.set(webFile(), "port: 82\n");
        QCOMPARE(tree.read(webFile(), 1000), std::string("port: 82\n"));
        QVERIFY(tree.stat(webFile()).contentId != first);

        const EditSession session(m_engine, m_library, webFile());
        const std::string packages = "# the role's packages\npackages: [nginx]\n";
        for (const char* port : {"81", "82", "83"}) {
            const EditImpact impact = session.evaluate(std::string("port: ") + port + "\n" + packages);
            QCOMPARE(impact.diff.changes.size(), std::size_t(2));
            for (const RevisionChange& c : impact.diff.changes)
                if (c.key == "port")
                    QCOMPARE(toJson(c.after.value), std::string(port));
        }
        // Back to the file's own text: nothing changes.
        QVERIFY(session.evaluate(webRole).diff.changes.empty());
    }

    void aValueEditChangesThreeNodes()
    {
        const EditSession session(m_engine, m_library, webFile());
        const EditImpact impact = session.evaluate("port: 81\n# the role's packages\npackages: [nginx]\n");
        QVERIFY2(impact.error.empty(), impact.error.c_str());
        QCOMPARE(impact.nodesReading, std::size_t(4)); // the web nodes, not db1
        QCOMPARE(impact.diff.nodes, std::size_t(5));
        QCOMPARE(impact.diff.changedFiles, std::vector<std::string>{webFile()});
        std::map<std::string, std::pair<std::string, std::string>> values;
        for (const RevisionChange& c : impact.diff.changes) {
            QCOMPARE(sorted(c.nodes), (std::vector<std::string>{"web1", "web2", "web3"}));
            values[c.key] = {toJson(c.before.value), toJson(c.after.value)};
        }
        const std::map<std::string, std::pair<std::string, std::string>> expected = {
            {"port", {"80", "81"}},
            {"url", {"\"http://host:80/\"", "\"http://host:81/\""}},
        };
        QCOMPARE(values, expected);

        // The engine with the edit answers as the edit makes it; the disk is untouched.
        const std::shared_ptr<const Engine> edited = session.engineWith("port: 81\n");
        QCOMPARE(toJson(edited->lookup(*m_library->find("web1")->scope, "port").value), std::string("81"));
        QCOMPARE(toJson(m_engine->lookup(*m_library->find("web1")->scope, "port").value), std::string("80"));
        QCOMPARE(onDisk(), QByteArray(webRole));
    }

    void aYamlErrorIsSaidAtItsLineAndColumnAndTheNextTextEvaluated()
    {
        const EditSession session(m_engine, m_library, webFile());
        const EditImpact broken = session.evaluate("port: 81\npackages: [nginx\n");
        QVERIFY(!broken.error.empty());
        QVERIFY2(broken.error.starts_with(webFile() + ":"), broken.error.c_str());
        QVERIFY2(broken.errorLine >= 2 && broken.errorColumn > 0, broken.error.c_str());
        QVERIFY2(
            broken.error.find(":" + std::to_string(broken.errorLine) + ":" + std::to_string(broken.errorColumn) + ":")
                != std::string::npos,
            broken.error.c_str());
        QVERIFY(broken.diff.changes.empty()); // nothing evaluated: the host keeps the last good answer

        // Back to good text: evaluated as if the error had never been.
        const EditImpact fixed = session.evaluate("port: 81\npackages: [nginx]\n");
        QVERIFY(fixed.error.empty());
        QCOMPARE(fixed.diff.changes.size(), std::size_t(2));
        QCOMPARE(session.parseError("a: [1\n").empty(), false);
        QCOMPARE(session.parseError("a: [1]\n"), std::string());
    }

    void anEditThatChangesNoAnswer()
    {
        const EditSession session(m_engine, m_library, webFile());
        // Comments, spacing and key order: the file's bytes differ, no answer does.
        const EditImpact impact = session.evaluate("packages:   [nginx]   # reordered\nport:   80\n");
        QVERIFY(impact.error.empty());
        QCOMPARE(impact.diff.changedFiles, std::vector<std::string>{webFile()});
        QVERIFY(impact.diff.changes.empty());
        // The unchanged text is no change at all.
        QVERIFY(session.evaluate(webRole).diff.changedFiles.empty());
    }

    void aStoppedEvaluationSaysSo()
    {
        const EditSession session(m_engine, m_library, webFile());
        std::stop_source stop;
        stop.request_stop();
        EditImpactOptions options;
        options.stop = stop.get_token();
        const EditImpact stopped = session.evaluate("port: 81\n", options);
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.diff.changes.empty());
        // The readers were worked out all the same (the next evaluation needs them); the diff was not.
        QCOMPARE(stopped.nodesReading, std::size_t(4));
        // packages goes too: port, url and packages change.
        QCOMPARE(session.evaluate("port: 81\n").diff.changes.size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestEditImpact)
#include "tst_editimpact.moc"
