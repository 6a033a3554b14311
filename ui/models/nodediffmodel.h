#pragma once

// NodeDiffModel — two nodes compared on every key (a NodeDiffReport): one row per key whose answers
// differ, with each side's value (compact JSON, "(not found)", "error: …") and the files that
// contributed on each side; a hash or an array found on both sides is compared leaf by leaf, one row
// per leaf that differs ("profile::ntp.servers.1"), with the file:line that wrote it on each side.
// Two secrets that differ say "differs (secret)" on both sides unless secrets are revealed (equal ones
// are not differences at all). The headers name the two nodes, without the domain they share (full
// names in the headers' tooltips).

#include "models/nodereports.h"

#include <QAbstractTableModel>

#include <optional>
#include <utility>
#include <vector>

namespace hiera::ui {

class NodeDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueAColumn, ValueBColumn, FilesAColumn, FilesBColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 300, // QString: the row's key (dotted down to the leaf on a leaf's row)
        SideRole, // int: 0 for the columns of node A (and the key), 1 for node B's
    };

    explicit NodeDiffModel(QObject* parent = nullptr);

    void setReport(NodeDiffReportPtr report, const QString& baseDirectory, bool revealSecrets);
    NodeDiffReportPtr report() const { return m_report; }
    void setRevealSecrets(bool reveal);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Two node names without the trailing DNS labels both hosts share, so headers stay readable:
    // ("web01.example.com", "db01.example.com") gives ("web01", "db01"), ("web01.dc1.example.com",
    // "web01.dc2.example.com") gives ("web01.dc1", "web01.dc2"); a name in the form
    // "Current facts (web01.example.com)" has its host shortened inside the parentheses. Names that share
    // no label, or would become equal, stay whole.
    static std::pair<QString, QString> shortNames(const QString& a, const QString& b);

private:
    struct Row
    {
        std::size_t key; // into the report's keys
        std::ptrdiff_t leaf; // into that key's leaves; -1: the key as a whole
    };
    QString answerText(const hiera::KeyDifference::Side& side) const;
    QString leafText(const std::optional<hiera::Value>& value, bool secretDiffers) const;
    QString filesText(const hiera::KeyDifference::Side& side, const QString& separator) const;
    static QString keyText(const hiera::KeyDifference& d, const hiera::LeafDifference* leaf);

    std::vector<Row> m_rows;

    NodeDiffReportPtr m_report;
    QString m_baseDirectory;
    bool m_reveal = false;
};

} // namespace hiera::ui
