#pragma once

// OverridesModel — the override chain (hiera::OverrideChain) as a tree: "Every level" lists what each level holds
// for the key, greyed where the answer uses none of it (the tooltip says why: overridden, knocked out, root key
// only); "Each leaf" lists the answer's leaves with their origin and, under each, the elements of a merged array
// with the level each came from, the values it replaced, and what a knockout removed and by which entry. Files are
// named from the repository's root. Rows answer the source roles, so a click shows the file. Read-only; reset per
// result.

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
    // Files are named relative to `baseDirectory` (the repository's root) when they lie under it.
    void setResult(const OverrideChainPtr& result, bool revealSecrets = false, const QString& baseDirectory = {});
    OverrideChainPtr result() const { return m_result; }
    QModelIndex levelsRoot() const { return index(0, 0); }
    QModelIndex leavesRoot() const { return index(1, 0); }

private:
    OverrideChainPtr m_result;
};
