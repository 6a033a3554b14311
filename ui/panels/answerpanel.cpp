#include "panels/answerpanel.h"

#include "jobs/lookuprunner.h"
#include "models/valueconvert.h"
#include "models/valuetreemodel.h"
#include "panels/answersummary.h"
#include "panels/lookupscheduler.h"
#include "widgets/messagebanner.h"
#include "widgets/pathdelegate.h"
#include "widgets/treeviews.h"

#include <hiera/lookupkey.h>

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace hiera::ui {

using ValueConvert::toQString;

AnswerPanel::AnswerPanel(LookupRunner* runner, LookupScheduler* scheduler, QWidget* parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_valueModel(new ValueTreeModel(this))
    , m_rootValueModel(new ValueTreeModel(this))
{
    setObjectName(QStringLiteral("answerPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_banner = new MessageBanner(this);
    m_banner->setObjectName(QStringLiteral("answerBanner"));
    layout->addWidget(m_banner);
    // A read-only text box three lines high rather than a label: a label's new text re-lays out the
    // window (its size hint follows the text), and that repainted every panel on each answer; a line
    // edit clipped the summary at the panel's width. Wrapped at words, selectable all the same; a
    // longer summary scrolls.
    m_summary = new QPlainTextEdit(this);
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setReadOnly(true);
    m_summary->setFrameShape(QFrame::NoFrame);
    m_summary->setFocusPolicy(Qt::ClickFocus);
    m_summary->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_summary->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_summary->document()->setDocumentMargin(2);
    m_summary->setFixedHeight(3 * m_summary->fontMetrics().lineSpacing() + 2 * 2 + 2);
    m_summary->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    QPalette summaryPalette = m_summary->palette();
    summaryPalette.setColor(QPalette::Base, summaryPalette.color(QPalette::Window));
    layout->addWidget(m_summary);

    m_tabs = new QTabWidget(this);
    m_valueView = TreeViews::make(m_tabs, QStringLiteral("valueView"), m_valueModel);
    m_rootValueView = TreeViews::make(m_tabs, QStringLiteral("rootValueView"), m_rootValueModel);
    for (QTreeView* view : {m_valueView, m_rootValueView})
        PathDelegate::install(view, {ValueTreeModel::OriginColumn});
    m_yamlText = new QPlainTextEdit(m_tabs);
    m_yamlText->setObjectName(QStringLiteral("yamlText"));
    m_yamlText->setReadOnly(true);
    m_yamlText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_valueView, tr("V&alue"));
    m_tabs->addTab(m_rootValueView, tr("R&oot value"));
    m_tabs->addTab(m_yamlText, tr("&YAML"));
    auto* copyButton = new QToolButton(m_tabs);
    copyButton->setText(tr("Copy YAML"));
    copyButton->setToolTip(tr("Copy the value as YAML"));
    copyButton->setAutoRaise(true);
    connect(copyButton, &QToolButton::clicked, this, &AnswerPanel::copyYaml);
    m_tabs->setCornerWidget(copyButton);
    layout->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        updateRootValue();
        updateYaml();
    });
    TreeViews::connectSourceClicks(m_valueView, ValueTreeModel::OriginColumn, this, &AnswerPanel::sourceRequested);
    TreeViews::connectSourceClicks(m_rootValueView, ValueTreeModel::OriginColumn, this, &AnswerPanel::sourceRequested);

    connect(runner, &LookupRunner::lookupFinished, this, &AnswerPanel::show);
    connect(runner, &LookupRunner::engineLoaded, this, [this] {
        m_noHierarchy = false;
        if (m_banner->kind() == MessageBanner::Kind::Error)
            m_banner->clearMessage(); // an error of the previous hierarchy's answer
    });
    // A failed load is told once, by the hierarchy panel; without any hierarchy the summary points there.
    connect(runner, &LookupRunner::loadFailed, this, [this] {
        m_noHierarchy = !m_runner->engine();
        if (m_noHierarchy)
            showNoKey();
    });
    connect(scheduler, &LookupScheduler::noKey, this, &AnswerPanel::showNoKey);
    connect(scheduler, &LookupScheduler::waitingForFacts, this,
            [this] { setSummary(tr("Reading the facts: the answer follows.")); });
    showNoKey();
}

void AnswerPanel::showNoKey()
{
    m_runner->releaseLater(std::exchange(m_outcome, nullptr));
    m_valueModel->clear();
    m_rootValueModel->clear();
    m_rootValueStale = false;
    m_yamlStale = true;
    updateYaml();
    setSummary(m_noHierarchy ? tr("No hierarchy is loaded: the Hierarchy panel says why.")
                             : tr("Type a key to look it up (Ctrl+L focuses the key field)."));
    if (m_noKeyNotice.isEmpty())
        m_banner->clearMessage(); // what it said was about the previous key
    else
        m_banner->showMessage(MessageBanner::Kind::Information, std::exchange(m_noKeyNotice, QString()));
}

void AnswerPanel::show(const LookupOutcomePtr& outcome)
{
    // The previous answer (its trace and values) is freed on a worker once every view has let go.
    LookupOutcomePtr previous = std::exchange(m_outcome, outcome);
    const hiera::LookupResult& result = outcome->result;
    const QString baseDirectory = QFileInfo(m_runner->hieraYaml()).absolutePath();
    const QString key = toQString(outcome->request.key);
    const auto parsedKey = hiera::LookupKey::tryParse(outcome->request.key);
    const QString rootKey = parsedKey ? toQString(parsedKey->root()) : key;

    if (result.found()) {
        m_valueModel->setValue(result.value, key, baseDirectory);
    } else if (result.unverifiedValue) {
        // Not the answer: what the rest of the data holds, greyed beside the error (hiera/engine.h,
        // LookupResult::unverifiedValue).
        m_valueModel->setValue(*result.unverifiedValue, key, baseDirectory);
        m_valueModel->setUnverified(true);
    } else {
        m_valueModel->clear();
    }
    m_valueView->expandAll();
    for (int column = 0; column < ValueTreeModel::OriginColumn; ++column)
        m_valueView->resizeColumnToContents(column);
    m_rootValueStale = true;
    updateRootValue();
    m_yamlStale = true;
    updateYaml();

    // The banner says what went wrong, in place; the summary says how the answer was made.
    if (result.status == hiera::LookupResult::Status::Error && result.error) {
        QString text = QString::fromUtf8(result.error->what());
        if (result.unverifiedValue)
            text += tr("\nThe greyed value is what the rest of the data holds: not the answer, which Puppet "
                       "refuses until this is fixed.");
        m_banner->showMessage(MessageBanner::Kind::Error, text);
    } else if (result.status == hiera::LookupResult::Status::NotFound) {
        const QString text = result.rootFound
            ? tr("\"%1\" was found, but \"%2\" does not lead to a value inside it.").arg(rootKey, key)
            : tr("No value for \"%1\" in any level of the hierarchy.").arg(key);
        m_banner->showMessage(MessageBanner::Kind::Information, text);
    } else if (!result.warnings.empty()) {
        QStringList warnings;
        for (const auto& w : result.warnings)
            warnings << toQString(w);
        m_banner->showMessage(MessageBanner::Kind::Warning, warnings.join(QLatin1Char('\n')));
    } else {
        m_banner->clearMessage();
    }
    setSummary(AnswerSummary::text(*outcome));
    m_runner->releaseLater(std::move(previous));
    Q_EMIT answerShown();
}

void AnswerPanel::setSummary(const QString& text)
{
    m_summary->setPlainText(text);
    m_summary->setToolTip(text);
}

QString AnswerPanel::summaryText() const
{
    return m_summary->toPlainText();
}

QString AnswerPanel::yaml() const
{
    return m_outcome ? AnswerSummary::yaml(*m_outcome) : QString();
}

void AnswerPanel::updateRootValue(bool force)
{
    if (!m_rootValueStale || (!force && m_tabs->currentWidget() != m_rootValueView))
        return;
    m_rootValueStale = false;
    const hiera::LookupResult& result = m_outcome->result;
    if (!result.rootFound) {
        m_rootValueModel->clear();
        return;
    }
    const auto parsedKey = hiera::LookupKey::tryParse(m_outcome->request.key);
    const QString rootKey = parsedKey ? toQString(parsedKey->root()) : toQString(m_outcome->request.key);
    m_rootValueModel->setValue(result.rootValue, rootKey, QFileInfo(m_runner->hieraYaml()).absolutePath());
    if (parsedKey && parsedKey->isDotted())
        m_rootValueModel->markPicked(parsedKey->segments()); // which element the answer is
    m_rootValueView->expandAll();
    for (int column = 0; column < ValueTreeModel::OriginColumn; ++column)
        m_rootValueView->resizeColumnToContents(column);
}

void AnswerPanel::updateYaml()
{
    if (m_yamlStale && m_tabs->currentWidget() == m_yamlText) {
        m_yamlStale = false;
        m_yamlText->setPlainText(yaml());
    }
}

void AnswerPanel::copyYaml()
{
    QApplication::clipboard()->setText(yaml());
    Q_EMIT statusMessage(tr("Copied the value as YAML"));
}

} // namespace hiera::ui
