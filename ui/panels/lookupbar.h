#pragma once

// LookupBar — what to look up: the key (with completion over the scope's keys and a history of
// recent keys) and the merge to use (as lookup_options says, or a strategy with its deep options).
// It only says what the user asked for; LookupScheduler decides when that runs.

#include "models/snapshots.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QCompleter;
class QLineEdit;
class QStringListModel;

namespace hiera::ui {

class LookupRunner;

class LookupBar : public QWidget
{
    Q_OBJECT
public:
    explicit LookupBar(LookupRunner* runner, QWidget* parent = nullptr);
    ~LookupBar() override;

    // The request as the bar shows it now; an empty key when there is none.
    AnswerRequest request() const;
    QString key() const;
    // Puts `key` in the field and commits it (history, an immediate lookup).
    void setKey(const QString& key);
    // Picks the merge selector entry: "" (as lookup_options says), first, unique, hash or deep.
    void setMergeStrategy(const QString& strategy);
    // The key field gets the focus with its text selected (Find, Ctrl+L).
    void focusKey();

    QStringList history() const;
    void setHistory(const QStringList& keys);
    QLineEdit* keyEdit() const;
    QWidget* deepOptions() const { return m_deepOptions; }

Q_SIGNALS:
    void edited(); // typing or a merge option: look up after a short pause
    void committed(); // Return, a history or completion pick: look up now

private:
    void commit();
    void addToHistory(const QString& key);
    void updateMergeOptions();
    void onScopeResolved(const ScopeSnapshotPtr& snapshot);

    LookupRunner* m_runner;
    QComboBox* m_keyCombo;
    QCompleter* m_completer;
    QStringListModel* m_keyList;
    QComboBox* m_mergeCombo;
    QWidget* m_deepOptions; // the row of the deep-merge options
    QLineEdit* m_knockoutEdit;
    QCheckBox* m_sortArraysCheck;
    QCheckBox* m_mergeHashArraysCheck;
    ScopeSnapshotPtr m_keysSnapshot; // the snapshot whose keys the completer offers
};

} // namespace hiera::ui
