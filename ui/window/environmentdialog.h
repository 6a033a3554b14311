#pragma once

// EnvironmentDialog — the environment a control repository is opened as: its name ($environment, as
// `puppet lookup --environment`) and an optional global hiera.yaml (Puppet's hiera_config).

#include <QDialog>

class QLineEdit;

class EnvironmentDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EnvironmentDialog(QWidget* parent = nullptr);

    void setEnvironment(const QString& name);
    QString environment() const;
    void setGlobalHieraYaml(const QString& path);
    QString globalHieraYaml() const;

    QLineEdit* environmentEdit() const { return m_environment; }
    QLineEdit* globalEdit() const { return m_global; }

private:
    void browse();

    QLineEdit* m_environment;
    QLineEdit* m_global;
};
