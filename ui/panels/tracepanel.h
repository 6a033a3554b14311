#pragma once

// TracePanel — how the answer was found: the sources table (every data file consulted, in priority
// order, with its outcome), the explain trace as a filterable tree, and Puppet's --explain text.
// Subscribes to the runner's results itself; the tree's expansion and the text are made when their
// tab is shown (they cost more than the rest of the answer on a large trace).

#include "models/snapshots.h"

#include <QWidget>

class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace hiera::ui {

class ContributionModel;
class ExplanationModel;
class LookupRunner;
class LookupScheduler;

class TracePanel : public QWidget
{
    Q_OBJECT
public:
    TracePanel(LookupRunner* runner, LookupScheduler* scheduler, QWidget* parent = nullptr);

    ContributionModel* contributionModel() const { return m_contributionModel; }
    ExplanationModel* explanationModel() const { return m_explanationModel; }
    QSortFilterProxyModel* explanationProxy() const { return m_explanationProxy; }
    QTableView* contributionView() const { return m_contributionView; }

Q_SIGNALS:
    void sourceRequested(const QModelIndex& index); // an origin was clicked
    // The origin of the file that won or merged first, after each answer (for a source view that has
    // nothing better to show).
    void winnerShown(const QModelIndex& origin);

private:
    void show(const LookupOutcomePtr& outcome);
    void clear();
    void updateStaleViews();

    LookupRunner* m_runner;
    LookupOutcomePtr m_outcome;
    ContributionModel* m_contributionModel;
    ExplanationModel* m_explanationModel;
    QSortFilterProxyModel* m_explanationProxy;
    QTabWidget* m_tabs;
    QTableView* m_contributionView;
    QWidget* m_explanationPage;
    QTreeView* m_explanationView;
    QLineEdit* m_explanationFilter;
    QPlainTextEdit* m_explainText;
    enum StaleView { ExplanationTree = 1, ExplanationText = 2 };
    int m_staleViews = 0;
};

} // namespace hiera::ui
