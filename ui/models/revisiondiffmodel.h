#pragma once

// RevisionDiffModel — a node library diffed between two revisions (a RevisionDiffReport): one row per
// key and change (this answer before, that answer after, on these nodes), with the file:line behind
// each side, and what changed in a few words: the elements an array gained and lost, the keys a hash
// gained, lost or changed, a scalar's old and new value. A key prefix and a set of node names (the
// Nodes panel's filter) narrow the rows, and the nodes of each row; shownDiff() is the diff as shown,
// for the exports. Values are
// compact JSON, "(not found)" or "error: …"; a change between two secrets says "differs (secret)"
// unless secrets are revealed.

#include "models/revisiondiffreport.h"

#include <QAbstractTableModel>

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace hiera::ui {

class RevisionDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ChangeColumn, BeforeColumn, AfterColumn, NodesColumn, SourcesColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 320, // QString: the row's key
        NodesRole, // QStringList: the nodes of the row's change
    };

    explicit RevisionDiffModel(QObject* parent = nullptr);

    void setReport(RevisionDiffReportPtr report, bool revealSecrets);
    RevisionDiffReportPtr report() const { return m_report; }
    void setRevealSecrets(bool reveal);
    // Only the keys starting with `prefix` (empty: all).
    void setKeyPrefix(const QString& prefix);
    QString keyPrefix() const { return m_prefix; }
    // Only these nodes (null: every node): a change none of them has is not shown.
    using NodeNames = std::shared_ptr<const std::unordered_set<std::string>>;
    void setNodeNames(NodeNames names);
    bool narrowedToNodes() const { return m_nodeNames != nullptr; }
    // The report's diff narrowed as the rows are: the shown changes, each with its shown nodes.
    hiera::RevisionDiff shownDiff() const;
    // How many node answers the rows hold.
    std::size_t shownAnswers() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();
    QString answerText(const hiera::KeyDifference::Side& side, bool secretDiffers) const;
    QString sourcesText(const std::vector<std::string>& sources, const QString& separator) const;
    QString changeText(const hiera::RevisionChange& change, bool secretDiffers) const;

    struct Row
    {
        std::size_t change; // into the report's changes
        std::vector<std::string> nodes; // its nodes the filter shows; unused (empty) without a node filter
    };
    const std::vector<std::string>& nodesOf(const Row& row) const;

    RevisionDiffReportPtr m_report;
    std::vector<Row> m_rows;
    NodeNames m_nodeNames;
    QString m_prefix;
    QString m_baseDirectory;
    bool m_reveal = false;
};

} // namespace hiera::ui
