#pragma once

// MainWindow — the explorer's frame: the lookup bar, answer and trace panels in the middle, the facts,
// hierarchy and source in docks around them; settings, the title and status bar, and the commands the
// menus call. The panels do the work and subscribe to the LookupRunner themselves (hotspot's pages).
// Helpers of this room, each with one job, put the window together: panelsetup.cpp makes the parts
// (runners and panels) and wires them to each other, docksetup.cpp docks them and keeps the layout,
// windowactions.cpp lays out the menus (calling the window back through WindowCommands), panelfocus.cpp
// gives the keyboard to the panel the user turns to, factsprompts.cpp asks the facts document's
// questions. A new view is a new panel, a line in each of PanelSetup::create and DockSetup::dockPanels,
// and its requests connected in MainWindow::connectParts.

#include "document/datafileeditor.h"
#include "document/factsdocument.h"
#include "models/snapshots.h"
#include "window/explanationreport.h"
#include "window/panelsetup.h"
#include "window/switchnotice.h"
#include "window/windowactions.h"
#include "window/windowsettings.h"

#include <QMainWindow>
#include <QStringList>

class QLabel;
class QMenu;

namespace hiera::ui {

class ElidedLabel;
class HelpGuide;
class RepositoryMenu;

class MainWindow : public QMainWindow, private WindowCommands
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The questions the facts document asks before anything could be lost. Without a handler a message
    // box asks; tests and hiera-explorer-testhooks (--test-answer) answer through setQuestionHandler() instead.
    using Question = FactsDocument::Question;
    using Answer = FactsDocument::Answer;
    using QuestionHandler = FactsDocument::QuestionHandler;
    void setQuestionHandler(QuestionHandler handler);
    // The same for the data file edited in the Source pane (document/datafileeditor.h).
    void setDataQuestionHandler(DataFileEditor::QuestionHandler handler);

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
    bool openDemo() override;
    // Puts `key` in the key field and looks it up.
    void setKey(const QString& key);
    // Picks the merge selector entry: "" (as lookup_options says), first, unique, hash or deep.
    void setMergeStrategy(const QString& strategy);
    // Shows the source behind a row of any of the models (their SourceFileRole/SourceLineRole).
    void showSourceFor(const QModelIndex& index);
    // Brings the dock that holds `panel` to the front (its tab, if tabbed).
    void raisePanel(QWidget* panel);

    // The current answer as an exportable report (File ▸ Export Explanation, Print Explanation).
    ExplanationDocument explanationReport() const;

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
    // What the panels ask of the window (a source, a key, a node), and the window's own state following
    // the runner and the facts; made after PanelSetup::connectPanels.
    void connectParts();
    void createStatusBar();

    // The menus' commands (WindowCommands, windowactions.h).
    void openHierarchyDialog() override;
    void openRepositoryFolderDialog() override;
    void reload() override;
    void reloadWithNewOptions() override;
    void openFactsDialog() override;
    void exportFactsDialog() override;
    void exportExplanationDialog() override;
    void printExplanationDialog() override;
    void findInFocusedPanel() override;
    void resetLayout() override; // DockSetup::resetLayout
    void showGuide() override;
    void showAbout() override;

    void loadHierarchy(const QString& hieraYaml);
    void onEngineLoaded(const QString& hieraYaml);
    void onLoadFailed(const QString& hieraYaml);
    void markCurrentNode();
    void addRecent(WindowSettings::Recent list, const QString& path);
    void rebuildRecentMenus();
    void updateTitle();

    WindowParts m_parts; // the runners, the facts document and the panels (panelsetup.h)
    HelpGuide* m_helpGuide = nullptr;
    RepositoryMenu* m_repositoryMenu = nullptr;

    ElidedLabel* m_statusLabel = nullptr;
    ElidedLabel* m_factsLabel = nullptr; // the facts file the answers are for
    QLabel* m_busyLabel = nullptr;
    QMenu* m_recentHierarchyMenu = nullptr;
    QMenu* m_recentFactsMenu = nullptr;

    QString m_hieraYaml;
    // What a switch to another repository kept, closed or cleared: said once the key's first answer
    // from the new engine says whether the key is kept too.
    SwitchNotice m_switchNotice;
    bool m_layoutRestored = false; // WindowSettings::restore() found the user's dock layout
    bool m_shownOnce = false;
};

} // namespace hiera::ui
