#pragma once

// MainWindow — the explorer: facts on the left, the lookup bar and the answer in the middle, the
// hierarchy and a source viewer around it. It owns the models and wires them to a LookupRunner;
// every fact edit, key change, merge choice or file change on disk re-runs the lookup (debounced)
// off the GUI thread and the newest result replaces the answer.

#include "factsautosave.h"
#include "factsfile.h"
#include "snapshots.h"

#include <hiera/value.h>

#include <QMainWindow>
#include <QSet>
#include <QStringList>

#include <functional>
#include <optional>

class ContributionModel;
class DataFileWatcher;
class ExplanationModel;
class FactTreeModel;
class HierarchyModel;
class LookupRunner;
class MessageBanner;
class SourceViewer;
class ValueTreeModel;
class QAction;
class QCheckBox;
class QComboBox;
class QCompleter;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QStringListModel;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeView;
class QUndoStack;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The questions the window asks before anything could be lost. Without a handler a message box
    // asks; tests and main.cpp's scripted runs answer through setQuestionHandler() instead.
    enum class Question {
        SaveChanges, // unsaved fact edits, before closing or opening other facts or another hierarchy
        RecoverAutosave, // edits autosaved by a session that ended without saving them
    };
    enum class Answer {
        Accept, // save the facts / recover the autosave
        Discard, // drop the edits (the autosave goes too)
        Cancel, // do not close or open / keep the autosave for later
    };
    using QuestionHandler = std::function<Answer(Question question, const QString& text)>;
    void setQuestionHandler(QuestionHandler handler) { m_questionHandler = std::move(handler); }

    // Loads a hiera.yaml in the background; the answer follows when it is loaded. With unsaved fact
    // edits, asks first (Discard goes back to the saved facts); false if the user cancelled.
    bool openHierarchy(const QString& hieraYaml);
    // Reads a facts file (facter -y / -j, puppet facts, or a scope saved here) in the background; the
    // facts panel says it is reading, and factsLoadFinished follows (errors show in place). A later open
    // supersedes one still reading. With unsaved fact edits, asks first; false if the user cancelled.
    bool openFacts(const QString& path);
    // A facts file is being read (openFacts, the demo, a revert): the facts panel waits for it.
    bool isReadingFacts() const;
    // Writes the scope (or only its facts) as YAML, or JSON for a .json name, atomically.
    bool saveFactsTo(const QString& path, bool factsOnly = false);
    // The demo hierarchy with web01's facts and a deep-merge key; false if no demo is installed.
    bool openDemo();
    // Puts `key` in the key field and looks it up.
    void setKey(const QString& key);
    // Picks the merge selector entry: "" (as lookup_options says), first, unique, hash or deep.
    void setMergeStrategy(const QString& strategy);

    // Decides what a dropped or command-line file is: a hiera.yaml (version 5 with a hierarchy) or facts.
    static bool looksLikeHieraYaml(const QString& path);

    // For tests and main.cpp.
    FactTreeModel* factModel() const { return m_factModel; }
    QUndoStack* undoStack() const { return m_undoStack; }
    HierarchyModel* hierarchyModel() const { return m_hierarchyModel; }
    ValueTreeModel* valueModel() const { return m_valueModel; }
    ValueTreeModel* rootValueModel() const { return m_rootValueModel; }
    ContributionModel* contributionModel() const { return m_contributionModel; }
    ExplanationModel* explanationModel() const { return m_explanationModel; }
    QSortFilterProxyModel* explanationProxy() const { return m_explanationProxy; }
    LookupRunner* runner() const { return m_runner; }
    DataFileWatcher* fileWatcher() const { return m_watcher; }
    QLineEdit* keyEdit() const;
    QTreeView* factView() const { return m_factView; }
    QTreeView* valueView() const { return m_valueView; }
    QTableView* contributionView() const { return m_contributionView; }
    SourceViewer* sourceViewer() const { return m_sourceViewer; }
    MessageBanner* answerBanner() const { return m_answerBanner; }
    MessageBanner* factBanner() const { return m_factBanner; }
    QString answerYaml() const;
    QString summaryText() const;
    QStringList keyHistory() const;
    LookupOutcomePtr lastOutcome() const { return m_lastOutcome; }
    QString hieraYamlPath() const { return m_hieraYaml; }
    QString factsPath() const { return m_factsPath; }
    // Unsaved fact edits are written to this file (FactsAutosave) a moment after each edit and every
    // few seconds while there are any; it is removed by a clean save or a discard.
    QString autosaveFile() const;
    void setAutosaveDelays(int afterEditMs, int periodMs);
    // Shows the source behind a row of any of the models (their SourceFileRole/SourceLineRole).
    void showSourceFor(const QModelIndex& index);

Q_SIGNALS:
    void answerShown(); // a lookup result (found, not found or error) is on screen
    void hierarchyShown(); // a resolved hierarchy for the current scope is on screen
    void engineLoadFinished(bool ok);
    void factsLoadFinished(bool ok); // the newest facts read is applied (true) or shown as an error

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createModels();
    void createWidgets();
    void createActions();
    void readSettings();
    void applyDefaultLayout();
    void expandFacts();
    void resizeFactColumns();
    void writeSettings() const;

    void scheduleRefresh();
    void scheduleLookup();
    void runScope();
    bool runLookup(); // false if no lookup was started (no key, no engine)
    hiera::Value scopeValue();
    std::optional<hiera::MergeSpec> currentMerge() const;

    void onEngineLoaded(const QString& hieraYaml, const EnginePtr& engine);
    void onLoadFailed(const QString& hieraYaml, const QString& message);
    void onScopeResolved(const ScopeSnapshotPtr& snapshot);
    void onLookupFinished(const LookupOutcomePtr& outcome);
    void showNoKey();
    void updateStaleViews();
    void setSummary(const QString& text);
    static QString yamlText(const LookupOutcome& outcome);

    void onDataChanged(const QStringList& files, const QStringList& directories);
    void processChangedFiles();

    void loadHierarchy(const QString& hieraYaml);
    void readFacts(const QString& path);
    void onFactsRead(const QString& path, const std::shared_ptr<FactsFile::Scope>& facts);
    void onFactsReadFailed(const QString& path, const QString& message);
    void finishFactsRead();
    // Lookups wait while the scope is about to change (facts being read, an autosave to offer): an
    // answer for facts that are being replaced would only flash by.
    bool scopeSettled() const;
    Answer ask(Question question, const QString& text);
    void revertFacts();
    void writeAutosave();
    void discardAutosave();
    void onAutosaveRead(const QString& hieraYaml, const std::shared_ptr<const FactsAutosave::Entry>& entry);
    void offerRecovery(const FactsAutosave::Entry& entry);
    void openHierarchyDialog();
    void openFactsDialog();
    bool saveFacts();
    bool saveFactsAsDialog();
    void exportFactsDialog();
    // True when it is fine to go on: nothing unsaved, saved, or discarded (then reverted if asked).
    bool maybeSaveFacts(bool revertOnDiscard = false);
    void addFact();
    void removeFact();
    void copyYaml();
    void commitKey();
    void addToHistory(const QString& key);
    void addRecent(const QString& settingsKey, const QString& path);
    void rebuildRecentMenus();
    void updateTitle();
    void updateMergeOptions();
    void showAbout();

    // Models
    FactTreeModel* m_factModel = nullptr;
    QUndoStack* m_undoStack = nullptr;
    HierarchyModel* m_hierarchyModel = nullptr;
    ValueTreeModel* m_valueModel = nullptr;
    ValueTreeModel* m_rootValueModel = nullptr;
    ContributionModel* m_contributionModel = nullptr;
    ExplanationModel* m_explanationModel = nullptr;
    QSortFilterProxyModel* m_explanationProxy = nullptr;
    QStringListModel* m_keyListModel = nullptr;
    LookupRunner* m_runner = nullptr;

    // Widgets
    QComboBox* m_keyCombo = nullptr;
    QCompleter* m_keyCompleter = nullptr;
    QComboBox* m_mergeCombo = nullptr;
    QLineEdit* m_knockoutEdit = nullptr;
    QCheckBox* m_sortArraysCheck = nullptr;
    QCheckBox* m_mergeHashArraysCheck = nullptr;
    MessageBanner* m_answerBanner = nullptr;
    MessageBanner* m_factBanner = nullptr;
    MessageBanner* m_hierarchyBanner = nullptr;
    QLineEdit* m_summaryLabel = nullptr; // how the answer was made (read-only)
    QTabWidget* m_answerTabs = nullptr;
    QTabWidget* m_traceTabs = nullptr;
    QTreeView* m_valueView = nullptr;
    QTreeView* m_rootValueView = nullptr;
    QPlainTextEdit* m_yamlText = nullptr;
    QTableView* m_contributionView = nullptr;
    QTreeView* m_explanationView = nullptr;
    QLineEdit* m_explanationFilter = nullptr;
    QPlainTextEdit* m_explainText = nullptr;
    QTreeView* m_factView = nullptr;
    QTreeView* m_hierarchyView = nullptr;
    SourceViewer* m_sourceViewer = nullptr;
    QLabel* m_statusLabel = nullptr;
    QLabel* m_busyLabel = nullptr;
    QMenu* m_recentHierarchyMenu = nullptr;
    QMenu* m_recentFactsMenu = nullptr;
    QAction* m_removeFactAction = nullptr;
    QWidget* m_factsToolBar = nullptr;

    // State
    QTimer* m_refreshTimer = nullptr; // facts changed: lookup, then hierarchy
    QTimer* m_lookupTimer = nullptr; // key or merge changed: lookup only
    bool m_scopeAfterLookup = false; // resolve the scope when the pending answer is shown
    QTimer* m_fileChangeTimer = nullptr;
    QTimer* m_autosaveTimer = nullptr; // debounces the autosave after an edit
    QTimer* m_autosaveTick = nullptr; // the autosave at the latest every few seconds while editing
    bool m_autosavePending = false; // edits not yet in the autosave
    QString m_autosaveKey; // the hiera.yaml the last autosave was written for
    // An autosave read for a newly loaded hierarchy, offered once the facts being read are in (they
    // come first, as when facts were read on the spot: the recovered edits go on top of them).
    std::shared_ptr<const FactsAutosave::Entry> m_pendingRecovery;
    quint64 m_factsChanges = 0; // FactTreeModel::factsChanged so far
    quint64 m_factsChangesAtRead = 0; // ... when the newest facts read started
    QuestionHandler m_questionHandler;
    DataFileWatcher* m_watcher = nullptr;
    bool m_configChanged = false; // the hiera.yaml changed: reload
    QSet<QString> m_changedFiles;
    QSet<QString> m_changedDirectories;
    QString m_hieraYaml;
    QString m_baseDirectory;
    QString m_factsPath;
    hiera::Value m_scope;
    bool m_scopeDirty = true;
    LookupOutcomePtr m_lastOutcome;
    bool m_layoutRestored = false; // readSettings() found the user's dock layout
    bool m_shownOnce = false;
    ScopeSnapshotPtr m_keysSnapshot; // the snapshot whose keys the completer offers
    // Views of the answer not brought up to date yet because their tab is not shown.
    enum StaleView { YamlView = 1, ExplanationTree = 2, ExplanationText = 4 };
    int m_staleViews = 0;
};
