#pragma once

// MainWindow — the explorer's frame: the lookup bar, answer and trace panels in the middle, the facts,
// hierarchy and source in docks around them; menus, actions, settings, the title and status bar.
// The panels do the work and subscribe to the LookupRunner themselves (hotspot's pages): a new view
// is a new panel and one line here.

#include "document/factsdocument.h"
#include "models/snapshots.h"
#include "window/explanationreport.h"

#include <QMainWindow>
#include <QStringList>

class AllKeysPanel;
class AnswerPanel;
class NodeDiffPanel;
class NodeReportRunner;
class RevisionDiffPanel;
class RevisionDiffRunner;
class DataFileSync;
class FactsPanel;
class HelpGuide;
class HierarchyPanel;
class ImpactPanel;
class ImpactRunner;
class OverridesPanel;
class LookupBar;
class LookupRunner;
class LookupScheduler;
class RepositoryMenu;
class SourceViewer;
class TracePanel;
class ElidedLabel;
class QDockWidget;
class FleetPanel;
class FleetRunner;
class NodesPanel;
class QLabel;
class QLineEdit;
class QMenu;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The questions the facts document asks before anything could be lost. Without a handler a message
    // box asks; tests and main.cpp's scripted runs answer through setQuestionHandler() instead.
    using Question = FactsDocument::Question;
    using Answer = FactsDocument::Answer;
    using QuestionHandler = FactsDocument::QuestionHandler;
    void setQuestionHandler(QuestionHandler handler);

    // Opens a control repository in the background, by its hiera.yaml or its root directory (its
    // modules' layers too, with the options the Repository menu keeps for it); the answer follows when
    // it is loaded. With unsaved fact edits, asks first (Discard goes back to the saved facts); false if
    // the user cancelled.
    bool openHierarchy(const QString& hieraYaml);
    // Reads a facts file (facter -y / -j, puppet facts, or a scope saved here) in the background; the
    // facts panel says it is reading, and factsLoadFinished follows. A later open supersedes one still
    // reading. With unsaved fact edits, asks first; false if the user cancelled.
    bool openFacts(const QString& path);
    // A node picked in the node library or the fleet view: its facts become the scope.
    void openNode(const QString& name, const QString& factsFile, bool ownFile);
    // The node called `name` in the loaded library, opened as openNode does (nothing if it has none).
    void openLibraryNode(const QString& name);
    bool isReadingFacts() const;
    // Writes the scope (or only its facts) as YAML, or JSON for a .json name, atomically.
    bool saveFactsTo(const QString& path, bool factsOnly = false);
    // The demo hierarchy with web01's facts and a deep-merge key; false if no demo is installed.
    bool openDemo();
    // Puts `key` in the key field and looks it up.
    void setKey(const QString& key);
    // Picks the merge selector entry: "" (as lookup_options says), first, unique, hash or deep.
    void setMergeStrategy(const QString& strategy);
    // Shows the source behind a row of any of the models (their SourceFileRole/SourceLineRole).
    void showSourceFor(const QModelIndex& index);
    // Brings the dock that holds `panel` to the front (its tab, if tabbed).
    void raisePanel(QWidget* panel);

    // The current answer as an exportable report (File ▸ Export Explanation, Print Explanation).
    ExplanationReport explanationReport() const;

    // Decides what a dropped or command-line file is: a hiera.yaml (version 5 with a hierarchy) or facts.
    static bool looksLikeHieraYaml(const QString& path);

    // The status bar's "Facts: …". Tests reach the panels and runners themselves (tests/ui/windowparts.h):
    // the window has no getters for its parts.
    QString factsStatusText() const;
    QString hieraYamlPath() const { return m_hieraYaml; }
    QString factsPath() const;
    // Unsaved fact edits are written to this file (FactsAutosave) a moment after each edit and every
    // few seconds while there are any; it is removed by a clean save or a discard.
    QString autosaveFile() const;
    void setAutosaveDelays(int afterEditMs, int periodMs);

Q_SIGNALS:
    void answerShown(); // a lookup result (found, not found or error) is on screen
    void hierarchyShown(); // a resolved hierarchy for the current scope is on screen
    void engineLoadFinished(bool ok);
    void factsLoadFinished(bool ok); // the newest facts read is applied (true) or shown as an error

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool event(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // What a switch from `previous` keeps: the facts if the new hierarchy can use them, key filters
    // never (RepositorySwitch); the key is decided at its first answer (settleKeyAfterSwitch).
    void leaveRepository(const QString& previous);
    void settleKeyAfterSwitch();
    void createPanels();
    QDockWidget* addDock(QWidget* panel, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    void createActions();
    void readSettings();
    void writeSettings() const;
    // First-run proportions of the docks (View ▸ Reset Layout brings them back).
    void applyDefaultLayout();
    void resetLayout();
    void showGuide();

    void loadHierarchy(const QString& hieraYaml);
    void onEngineLoaded(const QString& hieraYaml);
    void onLoadFailed(const QString& hieraYaml);
    void openHierarchyDialog();
    void openRepositoryFolderDialog();
    void openFactsDialog();
    void exportFactsDialog();
    void findInFocusedPanel();
    // A panel's search field (All keys, Nodes, Compare), or null; and giving a panel the keyboard.
    QLineEdit* searchOf(const QWidget* panel) const;
    void focusPanel(QWidget* panel);
    void markCurrentNode();
    void exportExplanationDialog();
    void printExplanationDialog();
    QString askSavePath(const QString& suggestion, FactsDocument::SaveKind kind);
    FactsDocument::Answer askWithMessageBox(Question question, const QString& text);
    void addRecent(const QString& settingsKey, const QString& path);
    void rebuildRecentMenus();
    void updateTitle();
    void showAbout();

    LookupRunner* m_runner = nullptr;
    FactsDocument* m_facts = nullptr;
    LookupBar* m_lookupBar = nullptr;
    LookupScheduler* m_scheduler = nullptr;
    DataFileSync* m_fileSync = nullptr;
    AnswerPanel* m_answerPanel = nullptr;
    TracePanel* m_tracePanel = nullptr;
    FactsPanel* m_factsPanel = nullptr;
    HierarchyPanel* m_hierarchyPanel = nullptr;
    SourceViewer* m_sourceViewer = nullptr;
    OverridesPanel* m_overridesPanel = nullptr;
    HelpGuide* m_helpGuide = nullptr;
    RepositoryMenu* m_repositoryMenu = nullptr;

    ElidedLabel* m_statusLabel = nullptr;
    ElidedLabel* m_factsLabel = nullptr; // the facts file the answers are for
    FleetRunner* m_fleet = nullptr;
    NodeReportRunner* m_reports = nullptr;
    AllKeysPanel* m_allKeysPanel = nullptr;
    NodeDiffPanel* m_nodeDiffPanel = nullptr;
    RevisionDiffRunner* m_revisionDiffs = nullptr;
    RevisionDiffPanel* m_revisionDiffPanel = nullptr;
    ImpactRunner* m_impacts = nullptr;
    ImpactPanel* m_impactPanel = nullptr;
    NodesPanel* m_nodesPanel = nullptr;
    FleetPanel* m_fleetPanel = nullptr;
    QLabel* m_busyLabel = nullptr;
    QMenu* m_recentHierarchyMenu = nullptr;
    QMenu* m_recentFactsMenu = nullptr;

    QString m_hieraYaml;
    // A repository switch's notice (what was kept of the one before, what was closed or cleared), shown
    // once the key's first answer from the new engine says whether the key is kept too.
    EnginePtr m_switchEngine;
    QStringList m_switchNotice;
    bool m_layoutRestored = false; // readSettings() found the user's dock layout
    bool m_shownOnce = false;
};
