#pragma once

// RevisionAnswerDialog — one node's answer to one key of a revision diff, as it is on each side: the
// explanation report of the lookup on the base revision beside the one on the newer side (levels,
// files, value, each leaf's file:line, the revision named), made off the GUI thread by the diff's
// runner. The node can be switched among the nodes of the change. Opened from the Revision diff panel
// (a row's double click or Return, or its context menu); closing it deletes it.

#include "jobs/repositoryoptions.h"
#include "models/revisiondiffreport.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QTextBrowser;

namespace hiera::ui {

class RevisionDiffRunner;

class RevisionAnswerDialog : public QDialog
{
    Q_OBJECT
public:
    RevisionAnswerDialog(RevisionDiffRunner* runner, RevisionDiffReportPtr report, RepositoryOptions repository,
                         const QString& key, const QStringList& nodes, bool revealSecrets, QWidget* parent = nullptr);

    QComboBox* nodeBox() const { return m_node; }
    QTextBrowser* beforeView() const { return m_before; }
    QTextBrowser* afterView() const { return m_after; }
    QString statusText() const;

Q_SIGNALS:
    void answerShown(); // both sides (or why not) are on screen

private:
    void request();
    void showAnswer(const RevisionAnswerPtr& answer);

    RevisionDiffRunner* m_runner;
    RevisionDiffReportPtr m_report;
    RepositoryOptions m_repository;
    QString m_key;
    bool m_reveal;
    QComboBox* m_node;
    QLabel* m_status;
    QTextBrowser* m_before;
    QTextBrowser* m_after;
};

} // namespace hiera::ui
