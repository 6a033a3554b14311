#include "window/repositorymenu.h"

#include "document/demo.h"
#include "jobs/lookuprunner.h"
#include "window/environmentdialog.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QWidget>

namespace hiera::ui {

RepositoryMenu::RepositoryMenu(LookupRunner* runner, QWidget* window)
    : QObject(window)
    , m_runner(runner)
    , m_window(window)
    , m_menu(new QMenu(tr("&Repository"), window))
{
    m_menu->setObjectName(QStringLiteral("repositoryMenu"));
    m_environment = m_menu->addAction(tr("&Environment…"), this, &RepositoryMenu::editEnvironment);
    m_environment->setObjectName(QStringLiteral("environmentAction"));
    m_menu->addSeparator();
    m_chooseKey = m_menu->addAction(tr("Choose eyaml &Private Key…"), this, &RepositoryMenu::choosePrivateKey);
    m_chooseKey->setObjectName(QStringLiteral("chooseKeyAction"));
    m_forgetKey = m_menu->addAction(tr("&Forget eyaml Private Key"), this, [this] { setPrivateKey({}); });
    m_forgetKey->setObjectName(QStringLiteral("forgetKeyAction"));
    m_revealSecrets = m_menu->addAction(tr("Reveal &Secrets"));
    m_revealSecrets->setObjectName(QStringLiteral("revealSecretsAction"));
    m_revealSecrets->setCheckable(true); // off at every start: revealing is a choice made for the moment
    m_revealSecrets->setToolTip(tr("Show values decrypted from eyaml instead of •••••• "));
    connect(m_revealSecrets, &QAction::toggled, m_runner, &LookupRunner::setRevealSecrets);
    m_menu->addSeparator();
    m_skipUnsupported = m_menu->addAction(tr("S&kip Levels This Engine Cannot Run"));
    m_skipUnsupported->setObjectName(QStringLiteral("skipUnsupportedAction"));
    m_skipUnsupported->setCheckable(true);
    m_skipUnsupported->setChecked(RepositoryOptions::skipUnsupportedSetting());
    m_skipUnsupported->setToolTip(tr("Skip levels with a function this engine cannot run (a custom backend, "
                                     "hiera_vault…) with a warning, instead of failing the lookups that reach them"));
    connect(m_skipUnsupported, &QAction::toggled, this, [this](bool skip) {
        RepositoryOptions::setSkipUnsupportedSetting(skip);
        if (!m_hieraYaml.isEmpty())
            Q_EMIT optionsChanged();
    });
    updateActions();
}

QString RepositoryMenu::demoPrivateKey(const QString& hieraYaml)
{
    const QString demo = Demo::hieraYaml();
    if (demo.isEmpty() || QFileInfo(demo).canonicalFilePath() != QFileInfo(hieraYaml).canonicalFilePath())
        return {};
    // Shipped with the demo (a demo key, labelled as such: it protects nothing).
    const QString key = QFileInfo(demo).absolutePath() + QStringLiteral("/keys/private_key.pkcs7.pem");
    return QFileInfo::exists(key) ? key : QString();
}

RepositoryOptions RepositoryMenu::optionsFor(const QString& hieraYaml) const
{
    RepositoryOptions options = RepositoryOptions::read(RepositoryOptions::rootOf(hieraYaml));
    options.skipUnsupportedLevels = m_skipUnsupported->isChecked();
    if (options.eyamlPrivateKey.isEmpty())
        options.eyamlPrivateKey = demoPrivateKey(hieraYaml);
    return options;
}

void RepositoryMenu::setRepository(const QString& hieraYaml)
{
    m_hieraYaml = hieraYaml;
    updateActions();
}

void RepositoryMenu::setEnvironment(const QString& name, const QString& globalHieraYaml, const QString& environmentPath)
{
    const QString root = RepositoryOptions::rootOf(m_hieraYaml);
    RepositoryOptions options = RepositoryOptions::read(root);
    options.environment = name.isEmpty() ? RepositoryOptions().environment : name;
    options.globalHieraYaml = globalHieraYaml;
    options.environmentPath = environmentPath;
    options.write(root);
    Q_EMIT optionsChanged();
}

void RepositoryMenu::setPrivateKey(const QString& path)
{
    const QString root = RepositoryOptions::rootOf(m_hieraYaml);
    RepositoryOptions options = RepositoryOptions::read(root);
    options.eyamlPrivateKey = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    options.write(root);
    updateActions();
    Q_EMIT optionsChanged();
}

void RepositoryMenu::editEnvironment()
{
    const RepositoryOptions options = RepositoryOptions::read(RepositoryOptions::rootOf(m_hieraYaml));
    EnvironmentDialog dialog(m_window);
    dialog.setEnvironment(options.environment);
    dialog.setGlobalHieraYaml(options.globalHieraYaml);
    dialog.setEnvironmentPath(options.environmentPath);
    if (dialog.exec() == QDialog::Accepted)
        setEnvironment(dialog.environment(), dialog.globalHieraYaml(), dialog.environmentPath());
}

void RepositoryMenu::choosePrivateKey()
{
    const QString current = RepositoryOptions::read(RepositoryOptions::rootOf(m_hieraYaml)).eyamlPrivateKey;
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("eyaml private key"), current.isEmpty() ? RepositoryOptions::rootOf(m_hieraYaml) : current,
        tr("PEM private keys (*.pem);;All files (*)"));
    if (!path.isEmpty())
        setPrivateKey(path);
}

void RepositoryMenu::updateActions()
{
    const bool open = !m_hieraYaml.isEmpty();
    m_environment->setEnabled(open);
    m_chooseKey->setEnabled(open);
    const QString key =
        open ? RepositoryOptions::read(RepositoryOptions::rootOf(m_hieraYaml)).eyamlPrivateKey : QString();
    m_forgetKey->setEnabled(!key.isEmpty());
    m_chooseKey->setToolTip(key.isEmpty() ? tr("Used for eyaml levels whose own pkcs7_private_key cannot be read")
                                          : tr("Now: %1").arg(key));
}

} // namespace hiera::ui
