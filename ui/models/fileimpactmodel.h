#pragma once

// FileImpactModel — what one data file decides across the node library (a FileImpactReport): one row
// per key and role (winner: the answer's highest-priority leaf is written in the file; merged: the file
// contributes to a merge another file wins), with the nodes it does so for.

#include "models/fileimpactreport.h"

#include <QAbstractTableModel>

namespace hiera::ui {

class FileImpactModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, RoleColumn, NodesColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 340, // QString: the row's root key
        NodesRole, // QStringList: the nodes of the row
    };

    explicit FileImpactModel(QObject* parent = nullptr);

    void setReport(FileImpactReportPtr report);
    FileImpactReportPtr report() const { return m_report; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    FileImpactReportPtr m_report;
};

} // namespace hiera::ui
