// What a change does to every node (hiera/nodes/revisiondiff.h): a control repository is committed step by
// step (a value edited, a key removed, a node file added, a value changed only through
// interpolation, a lookup_options merge changed, a module's data changed, a YAML error introduced, a
// level added, a file a glob matches added), and the diff between each two steps is held to every key of every node
// resolved on both revisions (hiera::resolveAllKeys): the same (node, key, before, after) and nothing else, however
// little it recomputed. Then the working tree against HEAD, the secrets, the exports, and the
// recomputation bounds (a node none of whose files changed is not recomputed).
// The repositories are made with the git command (the test's tool; the code reads them with libgit2).

#include "testutils.h"

#include "support/gitcommand.h"
#include "support/htmlreader.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/gitrevisiontree.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodes/revisiondiff.h>
#include <hiera/nodes/revisiondiffcache.h>
#include <hiera/valueformat.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace hiera;
using namespace testutils;

namespace {

std::shared_ptr<const Engine> engineOn(const std::string& root, const std::shared_ptr<const SourceTree>& tree)
{
    EnvironmentOptions envOptions;
    envOptions.tree = tree;
    const Environment env = Environment::discover(root, envOptions);
    EngineOptions engineOptions;
    engineOptions.tree = tree;
    return Engine::fromLayers(env.layers, engineOptions);
}

std::string answerText(LookupResult::Status status, const Value& value, const std::string& error)
{
    switch (status) {
    case LookupResult::Status::Found:
        return toJson(value);
    case LookupResult::Status::NotFound:
        return "(not found)";
    case LookupResult::Status::Error:
        return "error: " + error;
    }
    return {};
}

// Every (node, key, before, after) whose answer differs, from every key of every node resolved on both.
std::set<std::string> bruteForce(const Engine& before, const Engine& after, const NodeLibrary& library)
{
    std::set<std::string> out;
    for (const Node& node : library.nodes()) {
        std::map<std::string, std::pair<std::string, std::string>> answers;
        for (const ResolvedKey& k : resolveAllKeys(before, *node.scope).keys)
            answers[k.key].first = answerText(k.status, k.value, k.error);
        for (const ResolvedKey& k : resolveAllKeys(after, *node.scope).keys)
            answers[k.key].second = answerText(k.status, k.value, k.error);
        for (auto& [key, pair] : answers) {
            // A key one side's files do not define (or define in a file that no longer parses) is
            // looked up there all the same: not found, or the error the broken file gives.
            for (auto [side, engine] : {std::pair{&pair.first, &before}, std::pair{&pair.second, &after}}) {
                if (side->empty()) {
                    const LookupResult r = engine->lookup(*node.scope, key);
                    *side = answerText(r.status, r.value, r.error ? printableLine(r.error->what()) : "");
                }
            }
            if (pair.first != pair.second)
                out.insert(node.name + " | " + key + " | " + pair.first + " | " + pair.second);
        }
    }
    return out;
}

std::set<std::string> flattened(const RevisionDiff& diff)
{
    std::set<std::string> out;
    for (const RevisionChange& c : diff.changes)
        for (const std::string& node : c.nodes)
            out.insert(node + " | " + c.key + " | " + answerText(c.before.status, c.before.value, c.before.error)
                       + " | " + answerText(c.after.status, c.after.value, c.after.error));
    return out;
}

const RevisionChange* changeOf(const RevisionDiff& diff, const std::string& key)
{
    for (const RevisionChange& c : diff.changes)
        if (c.key == key)
            return &c;
    return nullptr;
}

} // namespace

class TestRevisionDiff : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_repo;
    NodeLibrary m_library;

    QString git(const QStringList& args, bool* ok = nullptr)
    {
        return GitCommand(QString::fromStdString(m_repo)).run(args, ok);
    }
    void write(const std::string& relative, const std::string& text)
    {
        const QString path = QString::fromStdString(m_repo + "/" + relative);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.data(), static_cast<qint64>(text.size()));
    }
    void commit(const QString& tag)
    {
        bool ok = false;
        git({QStringLiteral("add"), QStringLiteral("-A")}, &ok);
        QVERIFY(ok);
        git({QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), tag}, &ok);
        QVERIFY(ok);
        git({QStringLiteral("tag"), tag}, &ok);
        QVERIFY(ok);
    }
    // The diff from `from` to `to` (empty: the working tree), held to the brute force.
    RevisionDiff checked(const std::string& from, const std::string& to)
    {
        const auto before = engineOn(m_repo, openRevision(m_repo, from));
        const auto after = engineOn(m_repo, to.empty() ? nullptr : openRevision(m_repo, to));
        RevisionDiff diff = diffRevisions(*before, *after, m_library);
        const std::set<std::string> expected = bruteForce(*before, *after, m_library);
        const std::set<std::string> got = flattened(diff);
        if (got != expected) {
            for (const auto& e : expected)
                if (!got.count(e))
                    qWarning("missing: %s", e.c_str());
            for (const auto& g : got)
                if (!expected.count(g))
                    qWarning("extra: %s", g.c_str());
        }
        [&] { QVERIFY2(got == expected, (from + " -> " + (to.empty() ? "working tree" : to)).c_str()); }();
        return diff;
    }

    // The diff through `options` (a RevisionDiffCache), held to the brute force and to a fresh diff
    // (the same files, keys and counts: a kept side changes how much is resolved, never the result).
    void keptDiffChecked(const std::shared_ptr<const Engine>& before, const std::shared_ptr<const Engine>& after,
                         const NodeLibrary& library, const RevisionDiffOptions& options, const char* what)
    {
        const RevisionDiff kept = diffRevisions(*before, *after, library, options);
        const RevisionDiff fresh = diffRevisions(*before, *after, library);
        QVERIFY2(flattened(kept) == bruteForce(*before, *after, library), what);
        QVERIFY2(flattened(kept) == flattened(fresh), what);
        QCOMPARE(kept.changedFiles, fresh.changedFiles);
        QCOMPARE(kept.lookups, fresh.lookups);
        QCOMPARE(kept.keysRecomputed, fresh.keysRecomputed);
        QCOMPARE(kept.nodesRecomputed, fresh.nodesRecomputed);
        QCOMPARE(kept.reason, fresh.reason);
    }
    std::shared_ptr<const Engine> atRevision(const char* revision)
    {
        return engineOn(m_repo, openRevision(m_repo, revision));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (GitCommand::program().isEmpty())
            QSKIP("git is not installed");
        QVERIFY(m_dir.isValid());
        m_repo = m_dir.path().toStdString() + "/repo";
        QDir().mkpath(QString::fromStdString(m_repo));
        bool ok = false;
        git({QStringLiteral("init"), QStringLiteral("-q")}, &ok);
        QVERIFY(ok);
        write("hiera.yaml",
              "version: 5\n"
              "defaults: {datadir: data, data_hash: yaml_data}\n"
              "hierarchy:\n"
              "  - name: node\n"
              "    path: 'nodes/%{trusted.certname}.yaml'\n"
              "  - name: role\n"
              "    path: 'roles/%{facts.role}.yaml'\n"
              "  - name: os\n"
              "    path: 'os/%{facts.os.family}.yaml'\n"
              "  - name: common\n"
              "    path: common.yaml\n");
        write("data/common.yaml",
              "lookup_options:\n  merged: {merge: unique}\n"
              "site: paris\nmotd: \"welcome to %{lookup('site')}\"\nplain: 1\n"
              "merged: [common]\nsecret_ref: common\n");
        write("data/roles/web.yaml", "merged: [web]\ngone: soon\nport: 80\n");
        write("data/roles/db.yaml", "merged: [db]\nport: 5432\n");
        write("data/os/Debian.yaml", "pkg: apt\n");
        write("data/os/RedHat.yaml", "pkg: yum\n");
        write("data/nodes/web1.yaml", "port: 8080\n");
        write("modules/ntp/hiera.yaml", "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n");
        write("modules/ntp/data/common.yaml", "ntp::servers: [a.pool]\n");
        commit(QStringLiteral("s0"));

        // The nodes, read once for every diff.
        const std::string facts = m_dir.path().toStdString() + "/facts";
        QDir().mkpath(QString::fromStdString(facts));
        const std::vector<std::tuple<std::string, std::string, std::string>> nodes = {
            {"web1", "web", "Debian"}, {"web2", "web", "Debian"}, {"db1", "db", "RedHat"}, {"mon1", "", "Debian"}};
        for (const auto& [name, role, family] : nodes) {
            QFile f(QString::fromStdString(facts + "/" + name + ".yaml"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(("certname: " + name + "\n" + (role.empty() ? "" : "role: " + role + "\n")
                     + "os:\n  family: " + family + "\n")
                        .c_str());
        }
        m_library = NodeLibrary::load(facts);
        QCOMPARE(m_library.size(), std::size_t(4));
    }

    void valueEdited()
    {
        write("data/common.yaml",
              "lookup_options:\n  merged: {merge: unique}\n"
              "site: paris\nmotd: \"welcome to %{lookup('site')}\"\nplain: 2\n"
              "merged: [common]\nsecret_ref: common\n");
        commit(QStringLiteral("s1"));
        const RevisionDiff d = checked("s0", "s1");
        QCOMPARE(d.changes.size(), std::size_t(1));
        QCOMPARE(d.changes[0].key, std::string("plain"));
        QCOMPARE(d.changes[0].nodes.size(), std::size_t(4));
        QCOMPARE(d.changes[0].sourcesAfter, std::vector<std::string>{m_repo + "/data/common.yaml:5"});
        QCOMPARE(d.keysRecomputed, std::size_t(1)); // only `plain`: nothing interpolates it
        QVERIFY(!d.hierarchyChanged);
        QCOMPARE(d.changedFiles, std::vector<std::string>{m_repo + "/data/common.yaml"});
    }

    void keyRemoved()
    {
        write("data/roles/web.yaml", "merged: [web]\nport: 80\n");
        commit(QStringLiteral("s2"));
        const RevisionDiff d = checked("s1", "s2");
        const RevisionChange* c = changeOf(d, "gone");
        QVERIFY(c);
        QVERIFY(c->before.found() && !c->after.found());
        QCOMPARE(c->nodes, (std::vector<std::string>{"web1", "web2"}));
        QCOMPARE(d.nodesRecomputed, std::size_t(2)); // the nodes that do not read roles/web.yaml are skipped
    }

    void nodeFileAdded()
    {
        write("data/nodes/db1.yaml", "port: 6432\n");
        commit(QStringLiteral("s3"));
        const RevisionDiff d = checked("s2", "s3");
        QCOMPARE(d.changes.size(), std::size_t(1));
        QCOMPARE(d.changes[0].nodes, std::vector<std::string>{"db1"});
        QCOMPARE(d.nodesRecomputed, std::size_t(1));
    }

    void changedOnlyThroughInterpolation()
    {
        // motd's own line is untouched: it changes because the key it interpolates does.
        write("data/common.yaml",
              "lookup_options:\n  merged: {merge: unique}\n"
              "site: lyon\nmotd: \"welcome to %{lookup('site')}\"\nplain: 2\n"
              "merged: [common]\nsecret_ref: common\n");
        commit(QStringLiteral("s4"));
        const RevisionDiff d = checked("s3", "s4");
        const RevisionChange* motd = changeOf(d, "motd");
        QVERIFY(motd);
        QCOMPARE(motd->after.value.asString(), std::string("welcome to lyon"));
        QCOMPARE(d.keysRecomputed, std::size_t(2)); // site, and motd through it
    }

    void lookupOptionsMergeChanged()
    {
        write("data/common.yaml",
              "lookup_options:\n  merged: {merge: first}\n"
              "site: lyon\nmotd: \"welcome to %{lookup('site')}\"\nplain: 2\n"
              "merged: [common]\nsecret_ref: common\n");
        commit(QStringLiteral("s5"));
        const RevisionDiff d = checked("s4", "s5");
        const RevisionChange* merged = changeOf(d, "merged");
        QVERIFY(merged);
        QCOMPARE(toJson(merged->after.value), std::string("[\"web\"]"));
    }

    void moduleDataChanged()
    {
        write("modules/ntp/data/common.yaml", "ntp::servers: [b.pool]\n");
        commit(QStringLiteral("s6"));
        const RevisionDiff d = checked("s5", "s6");
        QCOMPARE(d.changes.size(), std::size_t(1));
        QCOMPARE(d.changes[0].key, std::string("ntp::servers"));
        QCOMPARE(d.changes[0].nodes.size(), std::size_t(4));
    }

    void yamlErrorIntroduced()
    {
        write("data/os/RedHat.yaml", "pkg: [yum\n");
        commit(QStringLiteral("s7"));
        const RevisionDiff d = checked("s6", "s7");
        QVERIFY(!d.changes.empty());
        for (const RevisionChange& c : d.changes) {
            QCOMPARE(c.nodes, std::vector<std::string>{"db1"});
            QCOMPARE(c.after.status, LookupResult::Status::Error);
            QVERIFY2(c.after.error.find("data/os/RedHat.yaml:2:1: ") != std::string::npos, c.after.error.c_str());
        }
    }

    void levelAdded()
    {
        write("hiera.yaml",
              "version: 5\n"
              "defaults: {datadir: data, data_hash: yaml_data}\n"
              "hierarchy:\n"
              "  - name: node\n"
              "    path: 'nodes/%{trusted.certname}.yaml'\n"
              "  - name: role\n"
              "    path: 'roles/%{facts.role}.yaml'\n"
              "  - name: site\n"
              "    path: 'sites/%{facts.os.family}.yaml'\n"
              "  - name: os\n"
              "    path: 'os/%{facts.os.family}.yaml'\n"
              "  - name: common\n"
              "    path: common.yaml\n");
        write("data/sites/Debian.yaml", "site: berlin\n");
        commit(QStringLiteral("s8"));
        const RevisionDiff d = checked("s7", "s8");
        QVERIFY(d.hierarchyChanged);
        QVERIFY(changeOf(d, "site"));
        QCOMPARE(d.nodesRecomputed, std::size_t(4));
    }

    void globMatchesAFileAdded()
    {
        // The hierarchy is the same on both sides, but a glob level matches a file more after.
        write("hiera.yaml",
              "version: 5\n"
              "defaults: {datadir: data, data_hash: yaml_data}\n"
              "hierarchy:\n"
              "  - name: node\n"
              "    path: 'nodes/%{trusted.certname}.yaml'\n"
              "  - name: role\n"
              "    path: 'roles/%{facts.role}.yaml'\n"
              "  - name: site\n"
              "    path: 'sites/%{facts.os.family}.yaml'\n"
              "  - name: os\n"
              "    path: 'os/%{facts.os.family}.yaml'\n"
              "  - name: shared\n"
              "    glob: 'shared/*.yaml'\n"
              "  - name: common\n"
              "    path: common.yaml\n");
        write("data/shared/a.yaml", "extra_a: a\n");
        commit(QStringLiteral("s9"));
        write("data/shared/b.yaml", "extra_b: b\n");
        commit(QStringLiteral("s10"));
        const RevisionDiff d = checked("s9", "s10");
        QVERIFY(!d.hierarchyChanged);
        QCOMPARE(d.changedFiles, std::vector<std::string>{m_repo + "/data/shared/b.yaml"});
        QVERIFY(changeOf(d, "extra_b"));
        // db1's broken RedHat.yaml fails its lookups the same way on both sides.
        QCOMPARE(changeOf(d, "extra_b")->nodes, (std::vector<std::string>{"mon1", "web1", "web2"}));
    }

    void workingTreeAgainstHead()
    {
        write("data/roles/db.yaml", "merged: [db]\nport: 5433\n"); // uncommitted
        write("data/nodes/mon1.yaml", "plain: 3\n"); // untracked
        const RevisionDiff d = checked("HEAD", "");
        QVERIFY(changeOf(d, "plain"));
        QCOMPARE(changeOf(d, "plain")->nodes, std::vector<std::string>{"mon1"});
        // Nothing of db1's answers changed: port comes from its node file.
        QVERIFY(!changeOf(d, "port"));
        QCOMPARE(d.changedFiles.size(), std::size_t(2));
        bool ok = false;
        git({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("--"), QStringLiteral(".")}, &ok);
        QVERIFY(ok);
        QFile::remove(QString::fromStdString(m_repo + "/data/nodes/mon1.yaml"));
        const RevisionDiff clean = checked("HEAD", "");
        QVERIFY(clean.changes.empty());
        QCOMPARE(clean.nodesRecomputed, std::size_t(0));
    }

    void prefixLimitsTheKeys()
    {
        const auto before = engineOn(m_repo, openRevision(m_repo, "s0"));
        const auto after = engineOn(m_repo, openRevision(m_repo, "s8"));
        RevisionDiffOptions options;
        options.prefix = "ntp::";
        const RevisionDiff d = diffRevisions(*before, *after, m_library, options);
        // Two changes of one key: the new servers on three nodes, the broken RedHat.yaml on db1 (the
        // environment's layer is searched before the module's).
        QCOMPARE(d.changes.size(), std::size_t(2));
        for (const RevisionChange& c : d.changes)
            QCOMPARE(c.key, std::string("ntp::servers"));
        QCOMPARE(d.changes[0].nodes, (std::vector<std::string>{"mon1", "web1", "web2"}));
        QCOMPARE(d.changes[1].after.status, LookupResult::Status::Error);
    }

    void exportsNameTheChange()
    {
        const auto before = engineOn(m_repo, openRevision(m_repo, "s0"));
        const auto after = engineOn(m_repo, openRevision(m_repo, "s1"));
        const RevisionDiff d = diffRevisions(*before, *after, m_library);
        RevisionDiffExportOptions options;
        options.from = "s0";
        options.to = "s1";
        options.relativeTo = m_repo;
        options.nodesShown = 2;
        const Value doc = parseData(revisionDiffJson(d, options), "diff.json", DataFormat::Json);
        QCOMPARE(doc.asHash().find("nodes")->asInteger(), std::int64_t(4));
        QCOMPARE(doc.asHash().find("keys_recomputed")->asInteger(), std::int64_t(1));
        const Value& change = doc.asHash().find("changes")->asArray().at(0);
        QCOMPARE(change.asHash().find("key")->asString(), std::string("plain"));
        QCOMPARE(change.asHash().find("before")->asInteger(), std::int64_t(1));
        QCOMPARE(change.asHash().find("after")->asInteger(), std::int64_t(2));
        QCOMPARE(change.asHash().find("found_before")->asBoolean(), true);
        QCOMPARE(change.asHash().find("sources_after")->asArray().at(0).asString(), std::string("data/common.yaml:5"));
        const std::string md = revisionDiffMarkdown(d, options);
        QVERIFY2(md.find("| plain | `1` | `2` | 4 nodes: db1, mon1 <details><summary>and 2 more</summary>")
                     != std::string::npos,
                 md.c_str());

        // The page names every node, and reads back under the strict reader of the exports' HTML.
        std::string error;
        const auto page = testsupport::readHtml(revisionDiffHtml(d, options), &error);
        QVERIFY2(page, error.c_str());
        QCOMPARE(page->title, std::string("Hiera revision diff from s0 to s1"));
        const std::vector<std::vector<std::string>>& table = page->tables.at(0);
        QCOMPARE(table.at(0), (std::vector<std::string>{"Key", "s0", "s1", "Nodes", "Sources"}));
        QCOMPARE(table.at(1).at(0), std::string("plain"));
        QCOMPARE(table.at(1).at(1), std::string("1"));
        QCOMPARE(table.at(1).at(2), std::string("2"));
        QCOMPARE(table.at(1).at(3), std::string("4 nodes: db1, mon1, web1, web2"));
        QCOMPARE(table.at(1).at(4), std::string("s0: data/common.yaml:5\ns1: data/common.yaml:5"));

        // A narrowed view says how it was narrowed, in every format.
        options.nodeFilter = "role=web";
        QCOMPARE(parseData(revisionDiffJson(d, options), "diff.json", DataFormat::Json)
                     .asHash()
                     .find("node_filter")
                     ->asString(),
                 std::string("role=web"));
        QVERIFY(revisionDiffMarkdown(d, options).find("only the nodes the filter role=web shows") != std::string::npos);
        QVERIFY(testsupport::readHtml(revisionDiffHtml(d, options))->paragraphs.at(0).find("role=web")
                != std::string::npos);
    }

    // Keys, values, node names, files and warnings that try to be markup stay text in the page.
    void htmlIsSafeWhateverTheData()
    {
        const std::string hostile = "<script>alert(1)</script>\" onmouseover=\"x\" &amp; \xff\x1b[31m";
        RevisionDiff d;
        d.nodes = 1;
        d.reason = hostile;
        d.changedFiles = {"/repo/" + hostile + ".yaml"};
        d.warnings = {hostile};
        RevisionChange c;
        c.key = hostile;
        c.before.status = LookupResult::Status::Found;
        c.before.value = Value(hostile);
        c.after.status = LookupResult::Status::Error;
        c.after.error = hostile;
        c.nodes = {hostile};
        c.sourcesBefore = {"/repo/" + hostile + ".yaml:3"};
        d.changes.push_back(c);
        RevisionDiffExportOptions options;
        options.from = hostile;
        options.to = "<b>";
        options.relativeTo = "/repo";
        options.nodeFilter = hostile;
        const std::string html = revisionDiffHtml(d, options);
        std::string error;
        const auto page = testsupport::readHtml(html, &error);
        QVERIFY2(page, error.c_str());
        const std::string text = testsupport::htmlNormalised(hostile);
        const std::vector<std::string>& row = page->tables.at(0).at(1);
        QCOMPARE(row.at(0), text);
        // Not UTF-8, so not JSON: written as Ruby inspects it, the markup as text all the same.
        QVERIFY2(row.at(1).find("<script>alert(1)</script>") != std::string::npos, row.at(1).c_str());
        QCOMPARE(row.at(2), "error: " + text);
        QCOMPARE(row.at(3), text);
        QVERIFY2(page->contentSecurityPolicy.find("default-src 'none'") != std::string::npos,
                 page->contentSecurityPolicy.c_str());
    }

    // A RevisionDiffCache keeps each revision's side (hiera/nodes/revisiondiffcache.h): every diff
    // through it is the fresh one, whichever sides it holds — the same pair again, a later revision
    // against a kept one, the sides swapped, a broken file, a glob level, a hierarchy change — and a
    // library read anew (the same names, other facts) reuses nothing of the old one's nodes.
    void keptSidesGiveTheSameDiffs()
    {
        RevisionDiffCache kept;
        RevisionDiffOptions options;
        options.cache = &kept;
        const auto s0 = atRevision("s0"), s4 = atRevision("s4"), s6 = atRevision("s6"), s7 = atRevision("s7");
        keptDiffChecked(s0, s4, m_library, options, "s0 -> s4");
        QCOMPARE(kept.keptNodes(), std::size_t(8)); // common.yaml changed: every node, both sides
        keptDiffChecked(s0, s4, m_library, options, "s0 -> s4 again");
        keptDiffChecked(s0, s6, m_library, options, "s0 -> s6 (s0 kept)");
        keptDiffChecked(s6, s7, m_library, options, "s6 -> s7 (a YAML error)");
        keptDiffChecked(s7, s0, m_library, options, "s7 -> s0");
        keptDiffChecked(s7, atRevision("s8"), m_library, options, "s7 -> s8 (a level added)");
        const auto s9 = atRevision("s9"), s10 = atRevision("s10");
        keptDiffChecked(s9, s10, m_library, options, "s9 -> s10 (a glob)");
        keptDiffChecked(s9, s10, m_library, options, "s9 -> s10 again");

        // The same names, other facts: web1 is a database server now, mon1 a web one.
        const std::string facts = m_dir.path().toStdString() + "/facts2";
        QDir().mkpath(QString::fromStdString(facts));
        for (const auto& [name, role] : std::vector<std::pair<std::string, std::string>>{
                 {"web1", "db"}, {"web2", "web"}, {"db1", "db"}, {"mon1", "web"}}) {
            QFile f(QString::fromStdString(facts + "/" + name + ".yaml"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(("certname: " + name + "\nrole: " + role + "\nos:\n  family: Debian\n").c_str());
        }
        const NodeLibrary other = NodeLibrary::load(facts);
        // s2 removed a key of roles/web.yaml: which nodes see it depends on their roles.
        const auto s1 = atRevision("s1"), s2 = atRevision("s2");
        keptDiffChecked(s1, s2, m_library, options, "s1 -> s2");
        keptDiffChecked(s1, s2, other, options, "s1 -> s2, another library");
        QCOMPARE(changeOf(diffRevisions(*s1, *s2, other, options), "gone")->nodes,
                 (std::vector<std::string>{"mon1", "web2"}));

        // The working tree is never kept: an edit between two diffs is seen.
        const auto working = engineOn(m_repo, nullptr);
        keptDiffChecked(s10, working, m_library, options, "s10 -> working tree");
        write("data/shared/b.yaml", "extra_b: edited\n");
        keptDiffChecked(s10, working, m_library, options, "s10 -> working tree, edited");
        bool ok = false;
        git({QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("--"), QStringLiteral(".")}, &ok);
        QVERIFY(ok);
        kept.clear();
        QCOMPARE(kept.keptNodes(), std::size_t(0));
    }

    // A revision reads from the disk what lies outside the repository (here through a link committed
    // in it): such a node is never kept, so that a change on the disk between two diffs is seen as a
    // fresh diff sees it.
    void pathsOutsideTheRevisionAreNotKept()
    {
        const QString outside = m_dir.path() + QStringLiteral("/outside");
        for (const char* side : {"A", "B"}) {
            QDir().mkpath(outside + "/" + side);
            QFile f(outside + "/" + side + "/ext.yaml");
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(("ext_key: " + std::string(side) + "\n").c_str());
        }
        write("hiera.yaml",
              "version: 5\n"
              "defaults: {datadir: data, data_hash: yaml_data}\n"
              "hierarchy:\n"
              "  - name: node\n"
              "    path: 'nodes/%{trusted.certname}.yaml'\n"
              "  - name: outside\n"
              "    path: 'ext/ext.yaml'\n"
              "  - name: common\n"
              "    path: common.yaml\n");
        const QString link = QString::fromStdString(m_repo + "/data/ext");
        QFile::remove(link);
        QVERIFY(QFile::link(QStringLiteral("../../outside/A"), link));
        commit(QStringLiteral("t1"));
        QFile::remove(link);
        QVERIFY(QFile::link(QStringLiteral("../../outside/B"), link));
        commit(QStringLiteral("t2"));

        RevisionDiffCache kept;
        RevisionDiffOptions options;
        options.cache = &kept;
        const auto t1 = atRevision("t1"), t2 = atRevision("t2");
        keptDiffChecked(t1, t2, m_library, options, "t1 -> t2");
        const RevisionDiff d = diffRevisions(*t1, *t2, m_library, options);
        QVERIFY(changeOf(d, "ext_key"));
        QCOMPARE(changeOf(d, "ext_key")->nodes.size(), std::size_t(4));
        // B's file now says what A's does: no change any more.
        QFile f(outside + "/B/ext.yaml");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("ext_key: A\n");
        f.close();
        keptDiffChecked(t1, t2, m_library, options, "t1 -> t2, B edited on the disk");
        QVERIFY(!changeOf(diffRevisions(*t1, *t2, m_library, options), "ext_key"));
        QCOMPARE(kept.keptNodes(), std::size_t(0)); // every node reads ext/ext.yaml
    }
};

QTEST_GUILESS_MAIN(TestRevisionDiff)
#include "tst_revisiondiff.moc"
