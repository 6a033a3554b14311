#pragma once

// RevisionDiffModel — a node library diffed between two revisions (a RevisionDiffReport): one row per
// key and change (this answer before, that answer after, on these nodes), with the file:line behind
// each side, and what changed in a few words: the elements an array gained and lost, the keys a hash
// gained, lost or changed, a scalar's old and new value. A key prefix narrows the rows. Values are
// compact JSON, "(not found)" or "error: …"; a change between two secrets says "differs (secret)"
// unless secrets are revealed.

#include "models/revisiondiffreport.h"

#include <QAbstractTableModel>

#include <vector>

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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();
    QString answerText(const hiera::KeyDifference::Side& side, bool secretDiffers) const;
    QString sourcesText(const std::vector<std::string>& sources, const QString& separator) const;
    QString changeText(const hiera::RevisionChange& change, bool secretDiffers) const;

    RevisionDiffReportPtr m_report;
    std::vector<std::size_t> m_rows; // into the report's changes
    QString m_prefix;
    QString m_baseDirectory;
    bool m_reveal = false;
};
