#pragma once

// A control repository made of the hostile shapes of docs/bad-input.md ("Hostile shapes of the node
// library and the layers"), for the window's tests and bench-explorer's figures: a modulepath that
// climbs out, loops and names the root; a module reading its data from outside it; 1,000 modules;
// data files that do not parse, a FIFO and a link loop where data files are; ENC blocks damaged,
// huge, in keys and in paths; and a node library of `nodeFiles` tiny facts files beside a FIFO, link
// loops, a link to /dev/zero, nodes named `../../x` or with control bytes, and a PuppetDB export
// with broken entries and a certname given twice.

#include "controlrepofixture.h"
#include "support/testpaths.h"
#include "uitestutils.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <system_error>

#include <sys/stat.h>

using namespace hiera::ui;

namespace UiTest {

// The repository's directory and its node library's, under `root`.
struct HostileRepository
{
    QString repo;
    QString nodes;
    int goodNodes = 0; // the nodes the library lists
};

inline bool writeHostileRepository(const QString& root, HostileRepository& out, int nodeFiles = 2000)
{
    namespace fs = std::filesystem;
    out.repo = root + QStringLiteral("/repo");
    out.nodes = root + QStringLiteral("/nodes");
    QFile enc(testpaths::fixtures() + QStringLiteral("/eyaml/secrets.eyaml"));
    if (!enc.open(QIODevice::ReadOnly))
        return false;
    QByteArray block;
    for (const QByteArray& line : enc.readAll().split('\n'))
        if (line.startsWith("string_form: "))
            block = line.mid(13);
    const QByteArray huge = "ENC[PKCS7," + QByteArray(3 << 20, 'A') + "]";
    const QByteArray hiera = "version: 5\n"
                             "defaults: {datadir: data, data_hash: yaml_data}\n"
                             "hierarchy:\n"
                             "  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n"
                             "  - name: by fact\n    path: \"%{facts.where}.yaml\"\n"
                             "  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n"
                             "    options: {pkcs7_private_key: /nonexistent/key.pem}\n"
                             "  - name: common\n    path: common.yaml\n"
                             "  - name: broken\n    paths: [broken.yaml, fifo.yaml, loop.yaml]\n";
    bool ok = writeFile(out.repo + QStringLiteral("/hiera.yaml"), hiera)
        && writeFile(out.repo + QStringLiteral("/environment.conf"),
                     "modulepath = site:..:/:site/:$basemodulepath:loop:missing\n")
        && writeFile(out.repo + QStringLiteral("/data/common.yaml"),
                     "common::name: \"%{trusted.certname}\"\nlist: [a, b]\nwhere: \"" + block + "\"\n")
        && writeFile(out.repo + QStringLiteral("/data/broken.yaml"), "k: [unclosed\n")
        && writeFile(out.repo + QStringLiteral("/data/secrets.eyaml"),
                     "\"" + block + "\": keyed\nsecret: " + block + "\nhuge: \"" + huge
                         + "\"\ntwice: \"ENC[PKCS7,ENC[PKCS7,abc]]\"\ntruncated: \"ENC[PKCS7,MIIBeQYJKoZI\"\n"
                           "mixed: \"pre "
                         + block + " post\"\n")
        && writeFile(out.repo + QStringLiteral("/site/escape/hiera.yaml"),
                     "version: 5\ndefaults: {datadir: ../../../../../../../etc}\n"
                     "hierarchy: [{name: etc, path: hostname}]\n");
    for (int i = 0; ok && i < 1000; ++i)
        ok = writeFile(out.repo + QStringLiteral("/site/m%1/hiera.yaml").arg(i), "version: 5\n")
            && writeFile(out.repo + QStringLiteral("/site/m%1/data/common.yaml").arg(i),
                         QStringLiteral("m%1::k: %1\n").arg(i).toUtf8());
    for (int i = 0; ok && i < nodeFiles; ++i)
        ok = writeFile(out.nodes + QStringLiteral("/n%1.yaml").arg(i, 5, 10, QLatin1Char('0')),
                       QStringLiteral("role: r%1\nwhere: w\n").arg(i % 7).toUtf8());
    ok = ok && writeFile(out.nodes + QStringLiteral("/evil.json"), R"({"clientcert": "../../etc/x", "role": "e"})")
        && writeFile(out.nodes + QStringLiteral("/control.json"),
                     "{\"clientcert\": \"a\\u001b[31mb\", \"role\": \"e\"}")
        && writeFile(out.nodes + QStringLiteral("/broken.yaml"), "role: [unclosed\n")
        && writeFile(out.nodes + QStringLiteral("/export.json"),
                     R"([{"certname": "pdb1", "facts": [{"name": "role", "value": "db"}]},
 {"certname": "pdb1", "facts": [{"name": "role", "value": "again"}]},
 {"certname": "new\nline", "facts": []},
 {"certname": "pdb2", "facts": {"href": "/only"}},
 {"certname": "pdb3", "facts": [{"name": "big", "value": ")"
                         + QByteArray(1 << 20, 'x') + R"("}]}])");
    if (!ok)
        return false;
    out.goodNodes = nodeFiles + 2; // pdb1 and pdb3
    std::error_code ec;
    const fs::path repo = out.repo.toStdString();
    const fs::path nodes = out.nodes.toStdString();
    fs::create_directory_symlink("..", repo / "loop", ec);
    fs::create_directory_symlink("..", repo / "site" / "selfloop", ec);
    fs::create_symlink("loop.yaml", repo / "data" / "loop.yaml", ec);
    fs::create_symlink("loop.yaml", nodes / "loop.yaml", ec);
    fs::create_symlink("/dev/zero", nodes / "zero.yaml", ec);
    return ::mkfifo((repo / "data" / "fifo.yaml").c_str(), 0600) == 0
        && ::mkfifo((nodes / "fifo.json").c_str(), 0600) == 0;
}

// Every regular file under `dir` (links and FIFOs left alone: reading them is what the program must
// not do either) with a checksum of its content and its mtime, and every entry's name and type: a
// file written with the same bytes, or one added or removed, shows.
inline QStringList treeState(const QString& dir)
{
    QStringList lines;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        QString line = QDir(dir).relativeFilePath(path);
        if (info.isSymLink()) {
            line += QStringLiteral(" -> ") + info.symLinkTarget();
        } else if (info.isFile()) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return {QStringLiteral("unreadable ") + path};
            line += QLatin1Char(' ')
                + QString::fromLatin1(QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex())
                + QLatin1Char(' ') + QString::number(info.lastModified().toMSecsSinceEpoch());
        } else {
            line += info.isDir() ? QStringLiteral("/") : QStringLiteral(" (special)");
        }
        lines << line;
    }
    lines.sort();
    return lines;
}

} // namespace UiTest
