#pragma once

// KeyWarningsModel — the warnings of a node's every-key report (hiera::NodeData::warnings), one row
// each: the key whose lookup gave it, where (file:line from the repository's root, when the warning
// names a place) and what ("Undefined variable 'facts.role'"). The place answers the HieraRoles
// source roles, so a click shows it; KeyRole gives the key, for a double click to look it up.

#include <hiera/nodes/nodedata.h>

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace hiera::ui {

class KeyWarningsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, WhereColumn, WarningColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 300, // QString: the key the warning came with
    };

    explicit KeyWarningsModel(QObject* parent = nullptr);

    void setWarnings(std::vector<hiera::NodeWarning> warnings, const QString& baseDirectory);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The warning's text without the place it starts with (the Where column shows that).
    static QString whatOf(const hiera::NodeWarning& warning);

private:
    const QStringList m_headerLabels = {tr("Key"), tr("Where"), tr("Warning")}; // Column order
    std::vector<hiera::NodeWarning> m_warnings;
    QString m_baseDirectory;
};

} // namespace hiera::ui
