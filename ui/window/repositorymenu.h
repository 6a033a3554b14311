#pragma once

// RepositoryMenu — the Repository menu: the environment a control repository is opened as (name and
// global hiera.yaml, EnvironmentDialog), the eyaml private key, whether levels this engine cannot run
// are skipped, and Reveal Secrets. It knows which RepositoryOptions a repository opens with (its
// remembered settings; the bundled demo's shipped key), and says when they changed so that the window
// reloads it.

#include "jobs/repositoryoptions.h"

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace hiera::ui {

class LookupRunner;

class RepositoryMenu : public QObject
{
    Q_OBJECT
public:
    RepositoryMenu(LookupRunner* runner, QWidget* window);

    QMenu* menu() const { return m_menu; }
    QAction* skipUnsupportedAction() const { return m_skipUnsupported; }
    QAction* revealSecretsAction() const { return m_revealSecrets; }

    // The options `hieraYaml` (RepositoryOptions::hieraYamlFor) opens with.
    RepositoryOptions optionsFor(const QString& hieraYaml) const;
    // The repository the menu's settings apply to (the one opened last).
    void setRepository(const QString& hieraYaml);
    QString repository() const { return m_hieraYaml; }

    // What the menu's actions do once the user has answered (tests call these directly).
    void setEnvironment(const QString& name, const QString& globalHieraYaml, const QString& environmentPath = {});
    void setPrivateKey(const QString& path); // empty: forget it

    // The bundled demo's shipped demo key, when `hieraYaml` is the bundled demo and the key is there.
    static QString demoPrivateKey(const QString& hieraYaml);

Q_SIGNALS:
    // The current repository's options changed: reload it with optionsFor().
    void optionsChanged();

private:
    void editEnvironment();
    void choosePrivateKey();
    void updateActions();

    LookupRunner* m_runner;
    QWidget* m_window;
    QString m_hieraYaml;
    QMenu* m_menu;
    QAction* m_environment;
    QAction* m_chooseKey;
    QAction* m_forgetKey;
    QAction* m_skipUnsupported;
    QAction* m_revealSecrets;
};

} // namespace hiera::ui
