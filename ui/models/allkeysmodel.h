#pragma once

// AllKeysModel — every key of one node, resolved (an AllKeysReport): key, value, winning level, file
// and merge, one row per key. Values are shown as compact JSON (so the string "true" and the boolean
// stay apart), decrypted eyaml values masked unless revealed. SearchRole gives a row's key and value
// text for the panel's search; the file cell answers the HieraRoles source roles (click: show it).

#include "models/nodereports.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace hiera::ui {

class AllKeysModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, LevelColumn, FileColumn, MergeColumn, ColumnCount };
    enum Role {
        SearchRole = Qt::UserRole + 200, // QString: key and value text, for the search field
        KeyRole, // QString: the row's root key
    };

    explicit AllKeysModel(QObject* parent = nullptr);

    void setReport(AllKeysReportPtr report, const QString& baseDirectory, bool revealSecrets);
    AllKeysReportPtr report() const { return m_report; }
    void setRevealSecrets(bool reveal);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const QStringList m_headerLabels = {tr("Key"), tr("Value"), tr("Level"), tr("File"), tr("Merge")}; // Column order
    const QString& valueText(std::size_t row) const;

    AllKeysReportPtr m_report;
    QString m_baseDirectory;
    bool m_reveal = false;
    // Value texts, made the first time a row is shown or searched: converting every value of a large
    // hierarchy up front would stall the GUI thread for each report, most of which nobody scrolls.
    mutable std::vector<QString> m_valueTexts;
    mutable std::vector<bool> m_valueTextMade;
};

} // namespace hiera::ui
