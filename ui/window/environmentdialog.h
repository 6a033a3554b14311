#pragma once

// EnvironmentDialog — the environment a control repository is opened as: its name ($environment, as
// `puppet lookup --environment`), an optional global hiera.yaml (Puppet's hiera_config), and where
// Puppet deploys environments (its environmentpath), so that a datadir written as the deployed path is
// read from the checkout.

#include <QDialog>

class QLineEdit;

namespace hiera::ui {

class EnvironmentDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EnvironmentDialog(QWidget* parent = nullptr);

    void setEnvironment(const QString& name);
    QString environment() const;
    void setGlobalHieraYaml(const QString& path);
    QString globalHieraYaml() const;
    void setEnvironmentPath(const QString& dirs);
    QString environmentPath() const; // ':'-separated; empty: Puppet's defaults

    QLineEdit* environmentEdit() const { return m_environment; }
    QLineEdit* globalEdit() const { return m_global; }
    QLineEdit* environmentPathEdit() const { return m_environmentPath; }

private:
    void browse();

    QLineEdit* m_environment;
    QLineEdit* m_global;
    QLineEdit* m_environmentPath;
};

} // namespace hiera::ui
