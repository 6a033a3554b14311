#include "panels/tracepanel.h"

#include "jobs/lookuprunner.h"
#include "models/contributionmodel.h"
#include "models/explanationmodel.h"
#include "models/valueconvert.h"
#include "panels/lookupscheduler.h"
#include "widgets/pathdelegate.h"
#include "widgets/treeviews.h"

#include <hiera/explain.h>

#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace hiera::ui {

TracePanel::TracePanel(LookupRunner* runner, LookupScheduler* scheduler, QWidget* parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_contributionModel(new ContributionModel(this))
    , m_explanationModel(new ExplanationModel(this))
    , m_explanationProxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("tracePanel"));
    m_explanationProxy->setSourceModel(m_explanationModel);
    m_explanationProxy->setRecursiveFilteringEnabled(true);
    m_explanationProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_explanationProxy->setFilterKeyColumn(-1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget(this);
    layout->addWidget(m_tabs);

    m_contributionView = new QTableView(m_tabs);
    m_contributionView->setObjectName(QStringLiteral("contributionView"));
    m_contributionView->setModel(m_contributionModel);
    PathDelegate::install(m_contributionView, {ContributionModel::FileColumn, ContributionModel::OriginColumn});
    m_contributionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_contributionView->setAlternatingRowColors(true);
    m_contributionView->horizontalHeader()->setStretchLastSection(true);
    m_contributionView->verticalHeader()->setVisible(false);
    m_contributionView->setWordWrap(false);
    m_contributionView->verticalHeader()->setDefaultSectionSize(m_contributionView->fontMetrics().height() + 6);
    TreeViews::limitContentSizing(m_contributionView->horizontalHeader());

    m_explanationPage = new QWidget(m_tabs);
    auto* explainLayout = new QVBoxLayout(m_explanationPage);
    explainLayout->setContentsMargins(0, 0, 0, 0);
    m_explanationFilter = new QLineEdit(m_explanationPage);
    m_explanationFilter->setPlaceholderText(tr("Filter the trace…"));
    m_explanationFilter->setClearButtonEnabled(true);
    m_explanationView = TreeViews::make(m_explanationPage, QStringLiteral("explanationView"), m_explanationProxy);
    PathDelegate::install(m_explanationView, {ExplanationModel::OriginColumn});
    explainLayout->addWidget(m_explanationFilter);
    explainLayout->addWidget(m_explanationView, 1);
    connect(m_explanationFilter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_explanationProxy->setFilterFixedString(text);
        m_explanationView->expandAll();
    });

    m_explainText = new QPlainTextEdit(m_tabs);
    m_explainText->setObjectName(QStringLiteral("explainText"));
    m_explainText->setReadOnly(true);
    m_explainText->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_explainText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_tabs->addTab(m_contributionView, tr("&Sources"));
    m_tabs->addTab(m_explanationPage, tr("E&xplain"));
    m_tabs->addTab(m_explainText, tr("Explain &text"));
    connect(m_tabs, &QTabWidget::currentChanged, this, &TracePanel::updateStaleViews);
    TreeViews::connectSourceClicks(m_contributionView, ContributionModel::OriginColumn, this,
                                   &TracePanel::sourceRequested);
    TreeViews::connectSourceClicks(m_explanationView, ExplanationModel::OriginColumn, this,
                                   &TracePanel::sourceRequested);

    connect(runner, &LookupRunner::lookupFinished, this, &TracePanel::show);
    connect(scheduler, &LookupScheduler::noKey, this, &TracePanel::clear);
    clear();
}

void TracePanel::clear()
{
    m_runner->releaseLater(std::exchange(m_outcome, nullptr));
    m_contributionModel->setTrace(nullptr);
    m_explanationModel->setTrace(nullptr);
    m_staleViews = ExplanationTree | ExplanationText;
    updateStaleViews();
}

void TracePanel::show(const LookupOutcomePtr& outcome)
{
    LookupOutcomePtr previous = std::exchange(m_outcome, outcome);
    const QString baseDirectory = QFileInfo(m_runner->hieraYaml()).absolutePath();
    const hiera::TracePtr& trace = outcome->result.trace;
    m_contributionModel->setContributions(trace, outcome->contributions, baseDirectory);
    m_explanationModel->setTrace(trace, baseDirectory);
    m_contributionView->resizeColumnsToContents();
    // Long paths would push the values out of sight: no column takes much more than a quarter of the table.
    const int widest = std::max(170, m_contributionView->viewport()->width() / 4);
    for (int column = 0; column < ContributionModel::ValueColumn; ++column)
        m_contributionView->setColumnWidth(column, std::min(m_contributionView->columnWidth(column), widest));
    m_staleViews = ExplanationTree | ExplanationText;
    updateStaleViews();
    m_runner->releaseLater(std::move(previous));

    const auto& rows = m_contributionModel->rows();
    for (std::size_t row = 0; row < rows.size(); ++row) {
        if (rows[row].outcome == ContributionModel::Outcome::Won
            || rows[row].outcome == ContributionModel::Outcome::Merged) {
            Q_EMIT winnerShown(m_contributionModel->index(static_cast<int>(row), ContributionModel::OriginColumn));
            break;
        }
    }
}

void TracePanel::updateStaleViews()
{
    if ((m_staleViews & ExplanationTree) && m_tabs->currentWidget() == m_explanationPage) {
        m_staleViews &= ~ExplanationTree;
        m_explanationView->expandAll();
        m_explanationView->resizeColumnToContents(ExplanationModel::StepColumn);
        m_explanationView->resizeColumnToContents(ExplanationModel::OutcomeColumn); // short words: whole
    }
    if ((m_staleViews & ExplanationText) && m_tabs->currentWidget() == m_explainText) {
        m_staleViews &= ~ExplanationText;
        QString text;
        try {
            if (m_outcome && m_outcome->result.trace) {
                // The runner hands over secrets already masked (SecretMask) unless the user revealed
                // them: print what the other views show. Anything else stays "<sensitive>".
                hiera::ExplainOptions options;
                options.revealSecrets = m_outcome->secretsMasked || m_runner->revealSecrets();
                text = ValueConvert::toQString(hiera::explainText(*m_outcome->result.trace, options));
            }
        } catch (const std::exception& e) {
            text = QString::fromUtf8(e.what());
        }
        m_explainText->setPlainText(text);
    }
}

} // namespace hiera::ui
