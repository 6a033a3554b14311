#pragma once

// NodesPanel — the node library: open a folder of fact files or a PuppetDB export, list its nodes with
// the facts the hierarchy uses, filter them ("web" anywhere, or "facts.role=db"), and pick one: its
// facts become the scope the explorer answers for. The library is remembered across restarts.

#include "jobs/fleetrunner.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace hiera::ui {

class ElidedLabel;
class LookupRunner;
class MessageBanner;
class NodeListModel;

class NodesPanel : public QWidget
{
    Q_OBJECT
public:
    NodesPanel(FleetRunner* fleet, LookupRunner* runner, QWidget* parent = nullptr);

    NodeListModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    MessageBanner* banner() const { return m_banner; }
    QString statusText() const;
    // The names of the selected nodes, in the view's order.
    QStringList selectedNodes() const;

    // Reads a library (what File ▸ Open Node Library… and a restart do).
    void openLibrary(const QString& path);
    // The file dialog, then openLibrary.
    void chooseLibrary();
    // The library open when the explorer last closed (empty: none).
    static QString rememberedLibrary();

    // Selects the node `name` in the list (the one whose facts are open), scrolled to, without opening
    // it again; no row at all when the library lacks it or the filter hides it.
    void markOpened(const QString& name);
    // The nodes the filter shows (every node, nodes null, without a filter), for the fleet view.
    NodeSelection selection() const;

Q_SIGNALS:
    // The filter now shows other nodes (or another library is open): selection() says which.
    void selectionChanged(const NodeSelection& selection);
    // The facts the hierarchy's paths use that no node of the library has (NodeListModel), after each
    // library or hierarchy; empty when every one is on some node.
    void missingFactsChanged(const QStringList& facts);
    // The user picked a node (double click, Return).
    void nodeChosen(const QString& name, const QString& factsFile, bool ownFile);
    // Compare node `a` with node `b` (a name may be NodeDiffPanel::currentFactsName()).
    void compareRequested(const QString& a, const QString& b);

private:
    void fitColumns();
    void showStatus(); // the counts line, and the hint instead of the list while no library is open
    void showLibrary(const NodeLibraryPtr& library);
    // The library's problems in the banner: skipped files, duplicate names, hierarchy facts no node has.
    void showProblems();
    void activate(const QModelIndex& index);
    void showContextMenu(const QPoint& position);

    FleetRunner* m_fleet;
    LookupRunner* m_runner;
    NodeListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    MessageBanner* m_banner;
    QLineEdit* m_filter;
    QString m_opened; // the node whose facts are open (markOpened), marked again after each filter change
    QTableView* m_view;
    QLabel* m_hint;
    ElidedLabel* m_status;
};

} // namespace hiera::ui
