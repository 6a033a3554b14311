#pragma once

// AnswerPanel — the answer to the current request: a banner for what went wrong (an error, not
// found, skipped files), a summary line of how it was made, and the value as a tree with every
// leaf's origin, the root key's merged value, and YAML. Subscribes to the runner's results itself.

#include "models/snapshots.h"

#include <QWidget>

class QPlainTextEdit;
class QTabWidget;
class QTreeView;

namespace hiera::ui {

class LookupRunner;
class LookupScheduler;
class MessageBanner;
class ValueTreeModel;

class AnswerPanel : public QWidget
{
    Q_OBJECT
public:
    AnswerPanel(LookupRunner* runner, LookupScheduler* scheduler, QWidget* parent = nullptr);

    LookupOutcomePtr outcome() const { return m_outcome; }
    ValueTreeModel* valueModel() const { return m_valueModel; }
    // Made current when asked for (it is filled only while its tab is shown).
    ValueTreeModel* rootValueModel()
    {
        updateRootValue(true);
        return m_rootValueModel;
    }
    QTreeView* valueView() const { return m_valueView; }
    MessageBanner* banner() const { return m_banner; }
    QString summaryText() const;
    QString yaml() const;
    void copyYaml(); // the value as YAML to the clipboard
    // What the banner says when the key field is next found empty (once), instead of nothing: why the
    // key was cleared (a repository switch).
    void setNoKeyNotice(const QString& text) { m_noKeyNotice = text; }

Q_SIGNALS:
    void answerShown(); // a lookup result (found, not found or error) is on screen
    void sourceRequested(const QModelIndex& index); // an origin was clicked
    void statusMessage(const QString& text);

private:
    void show(const LookupOutcomePtr& outcome);
    void showNoKey();
    void setSummary(const QString& text);
    void updateYaml();
    // The root key's value, made when its tab is shown or `force`d: a merge over thousands of files
    // is a tree of thousands of rows, and building it beside the answer's doubled the GUI thread's
    // time on each answer (docs/performance.md, "Cost that grows with the input").
    void updateRootValue(bool force = false);

    LookupRunner* m_runner;
    LookupOutcomePtr m_outcome;
    ValueTreeModel* m_valueModel;
    ValueTreeModel* m_rootValueModel;
    MessageBanner* m_banner;
    QPlainTextEdit* m_summary; // how the answer was made (read-only, wrapped)
    QTabWidget* m_tabs;
    QTreeView* m_valueView;
    QTreeView* m_rootValueView;
    QPlainTextEdit* m_yamlText;
    bool m_rootValueStale = false;
    bool m_yamlStale = true; // made when its tab is shown: it costs more than the rest on a large value
    QString m_noKeyNotice; // setNoKeyNotice: said once the key field is empty
    bool m_noHierarchy = false; // the last load failed and no earlier hierarchy answers meanwhile
};

} // namespace hiera::ui
