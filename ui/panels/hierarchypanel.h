#pragma once

// HierarchyPanel — the hierarchy as the current scope makes it (HierarchyModel), with a banner for a
// hiera.yaml that does not load and for what discovering the repository warned about (once). A file's
// context menu opens it in the Source pane or asks for its impact across the node library.
// Subscribes to the runner itself.

#include "models/snapshots.h"

#include <QStringList>
#include <QWidget>

class QTreeView;

namespace hiera::ui {

class HierarchyModel;
class LookupRunner;
class MessageBanner;

class HierarchyPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HierarchyPanel(LookupRunner* runner, QWidget* parent = nullptr);

    HierarchyModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    MessageBanner* banner() const { return m_banner; }

Q_SIGNALS:
    void hierarchyShown(); // a resolved hierarchy for the current scope is on screen
    void sourceRequested(const QModelIndex& index);
    // Show which nodes read the data file `path` and which keys it decides (its context menu).
    void impactRequested(const QString& path);

private:
    void show(const ScopeSnapshotPtr& snapshot);
    void fitColumns();
    void showDiscoveryWarnings(const QString& hieraYaml);
    void showContextMenu(const QPoint& position);

    LookupRunner* m_runner;
    HierarchyModel* m_model;
    MessageBanner* m_banner;
    QTreeView* m_view;
    QString m_warnedRepository;
    QStringList m_shownWarnings;
    QString m_loadFailure; // the last load's failure, until a load works
};

} // namespace hiera::ui
