#include "panels/revisionanswerdialog.h"

#include "jobs/revisiondiffrunner.h"
#include "models/valueconvert.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace hiera::ui {

namespace {

QTextBrowser* sideView(QWidget* parent, const QString& objectName)
{
    auto* view = new QTextBrowser(parent);
    view->setObjectName(objectName);
    // The reports link to nothing; a link that slipped into the data must not be followed.
    view->setOpenLinks(false);
    view->setOpenExternalLinks(false);
    return view;
}

QWidget* labelled(QWidget* parent, const QString& title, QTextBrowser* view)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(title, box);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    layout->addWidget(label);
    layout->addWidget(view, 1);
    return box;
}

} // namespace

RevisionAnswerDialog::RevisionAnswerDialog(RevisionDiffRunner* runner, RevisionDiffReportPtr report,
                                           RepositoryOptions repository, const QString& key, const QStringList& nodes,
                                           bool revealSecrets, QWidget* parent)
    : QDialog(parent)
    , m_runner(runner)
    , m_report(std::move(report))
    , m_repository(std::move(repository))
    , m_key(key)
    , m_reveal(revealSecrets)
{
    setObjectName(QStringLiteral("revisionAnswerDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 on both revisions").arg(key));
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    m_node = new QComboBox(this);
    m_node->setObjectName(QStringLiteral("revisionAnswerNodeBox"));
    m_node->addItems(nodes);
    auto* nodeLabel = new QLabel(tr("&Node:"), this);
    nodeLabel->setBuddy(m_node);
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    top->addWidget(nodeLabel);
    top->addWidget(m_node);
    top->addWidget(m_status, 1);
    layout->addLayout(top);

    m_before = sideView(this, QStringLiteral("revisionAnswerBefore"));
    m_after = sideView(this, QStringLiteral("revisionAnswerAfter"));
    auto* sides = new QSplitter(Qt::Horizontal, this);
    sides->addWidget(labelled(sides, tr("Before: %1").arg(ValueConvert::toQString(m_report->fromName)), m_before));
    sides->addWidget(labelled(sides, tr("After: %1").arg(ValueConvert::toQString(m_report->toName)), m_after));
    layout->addWidget(sides, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(1100, 700);

    connect(m_node, &QComboBox::currentTextChanged, this, &RevisionAnswerDialog::request);
    connect(m_runner, &RevisionDiffRunner::answerExplained, this, &RevisionAnswerDialog::showAnswer);
    request();
}

QString RevisionAnswerDialog::statusText() const
{
    return m_status->text();
}

void RevisionAnswerDialog::request()
{
    const QString node = m_node->currentText();
    if (node.isEmpty())
        return;
    m_status->setText(tr("Looking %1 up for %2 on both revisions…").arg(m_key, node));
    m_runner->explainAnswer(m_report, m_repository, node, m_key, m_reveal);
}

void RevisionAnswerDialog::showAnswer(const RevisionAnswerPtr& answer)
{
    // The runner answers every dialog open on it: only this one's question.
    if (answer->key != m_key || answer->node != m_node->currentText())
        return;
    if (!answer->error.isEmpty()) {
        m_status->setText(answer->error);
        m_before->clear();
        m_after->clear();
    } else {
        m_status->setText(tr("%1's answer, explained as on each revision").arg(answer->node));
        m_before->setHtml(answer->beforeHtml);
        m_after->setHtml(answer->afterHtml);
    }
    Q_EMIT answerShown();
}

} // namespace hiera::ui
