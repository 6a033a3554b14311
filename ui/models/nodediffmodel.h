#pragma once

// NodeDiffModel — two nodes compared on every key (a NodeDiffReport): one row per key whose answers
// differ, with each side's value (compact JSON, "(not found)", "error: …"; secrets masked unless
// revealed) and the files that contributed on each side. The headers name the two nodes, without the
// domain they share (full names in the headers' tooltips).

#include "models/nodereports.h"

#include <QAbstractTableModel>

#include <utility>

class NodeDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueAColumn, ValueBColumn, FilesAColumn, FilesBColumn, ColumnCount };
    enum Role { KeyRole = Qt::UserRole + 300 }; // QString: the row's root key

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
    QString answerText(const hiera::KeyDifference::Side& side) const;
    QString filesText(const hiera::KeyDifference::Side& side, const QString& separator) const;

    NodeDiffReportPtr m_report;
    QString m_baseDirectory;
    bool m_reveal = false;
};
