#pragma once

// OverridesModel — the override chain (hiera::OverrideChain) as a tree (issue 11 §2.4): "Every level" lists what each
// level holds for the key, greyed where it was overridden; "Each leaf" lists the answer's leaves with their origin and,
// under each, the values it overrode with their file:line. Rows answer the source roles, so a click shows the file.
// Read-only; reset per result.

#include "models/snapshots.h"

#include <QStandardItemModel>

class OverridesModel : public QStandardItemModel
{
    Q_OBJECT
public:
    enum Column { WhereColumn, ValueColumn, FileColumn, ColumnCount };
    enum Role { OverriddenRole = Qt::UserRole + 100 }; // bool: a value the answer does not use

    explicit OverridesModel(QObject* parent = nullptr);

    // Decrypted eyaml values are shown masked unless `revealSecrets` (the runner's reveal state).
    void setResult(const OverrideChainPtr& result, bool revealSecrets = false);
    OverrideChainPtr result() const { return m_result; }
    QModelIndex levelsRoot() const { return index(0, 0); }
    QModelIndex leavesRoot() const { return index(1, 0); }

private:
    OverrideChainPtr m_result;
};
