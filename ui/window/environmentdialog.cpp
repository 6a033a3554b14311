#include "window/environmentdialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>

namespace hiera::ui {

EnvironmentDialog::EnvironmentDialog(QWidget* parent)
    : QDialog(parent)
    , m_environment(new QLineEdit(this))
    , m_global(new QLineEdit(this))
    , m_environmentPath(new QLineEdit(this))
{
    setObjectName(QStringLiteral("environmentDialog"));
    setWindowTitle(tr("Environment"));
    // Puppet's environment names: letters, digits and underscores.
    m_environment->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z0-9_]+")), m_environment));
    m_environment->setPlaceholderText(QStringLiteral("production"));
    m_global->setPlaceholderText(tr("none"));
    m_global->setClearButtonEnabled(true);
    m_environmentPath->setObjectName(QStringLiteral("environmentPathEdit"));
    m_environmentPath->setPlaceholderText(
        QStringLiteral("/etc/puppetlabs/code/environments:/etc/puppet/code/environments"));
    m_environmentPath->setClearButtonEnabled(true);
    m_environmentPath->setToolTip(tr("Where Puppet deploys environments (its environmentpath). The repository is read "
                                     "as <directory>/<environment name>: a datadir written as that deployed path is "
                                     "read from the repository. Separate several directories with ':'."));

    auto* browseButton = new QPushButton(tr("&Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &EnvironmentDialog::browse);
    auto* globalRow = new QHBoxLayout;
    globalRow->addWidget(m_global, 1);
    globalRow->addWidget(browseButton);

    auto* form = new QFormLayout;
    form->addRow(tr("&Environment name:"), m_environment);
    // A row of a layout gets no buddy from addRow: without one the label would show its "&".
    auto* globalLabel = new QLabel(tr("&Global hiera.yaml:"), this);
    globalLabel->setBuddy(m_global);
    form->addRow(globalLabel, globalRow);
    form->addRow(tr("Deployed &under:"), m_environmentPath);
    auto* note = new QLabel(tr("Lookups set the top-scope variable <code>environment</code> to this name unless "
                               "the facts set it, as <code>puppet lookup --environment</code> does. The global "
                               "layer is searched before the environment's."),
                            this);
    note->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_environment, &QLineEdit::textChanged, this, [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(m_environment->hasAcceptableInput());
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(520, sizeHint().height());
}

void EnvironmentDialog::setEnvironment(const QString& name)
{
    m_environment->setText(name);
}

QString EnvironmentDialog::environment() const
{
    return m_environment->text().trimmed();
}

void EnvironmentDialog::setGlobalHieraYaml(const QString& path)
{
    m_global->setText(path);
}

QString EnvironmentDialog::globalHieraYaml() const
{
    const QString path = m_global->text().trimmed();
    return path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
}

void EnvironmentDialog::setEnvironmentPath(const QString& dirs)
{
    m_environmentPath->setText(dirs);
}

QString EnvironmentDialog::environmentPath() const
{
    return m_environmentPath->text().trimmed();
}

void EnvironmentDialog::browse()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Global hiera.yaml"), m_global->text(),
                                                      tr("Hiera configuration (hiera.yaml *.yaml);;All files (*)"));
    if (!path.isEmpty())
        m_global->setText(path);
}

} // namespace hiera::ui
