#include "puppetdbnode.h"

#include "valueconvert.h"

#include <hiera/facts.h>
#include <hiera/puppetdbexport.h>
#include <hiera/yaml.h>

#include <QCoreApplication>
#include <QFileInfo>

#include <exception>

using hiera::Value;

namespace {
QString tr(const char* text)
{
    // The window's context, as FactsFile's messages: they read alike.
    return QCoreApplication::translate("MainWindow", text);
}
} // namespace

namespace PuppetDBNode {

FactsForm::Form formFor(const QString& certname)
{
    FactsForm::Form form;
    form.shape = FactsForm::Shape::PuppetDB;
    form.json = true;
    form.node = ValueConvert::toStd(certname);
    return form;
}

QString displayName(const QString& exportPath, const QString& certname)
{
    return tr("%1 (in %2)").arg(certname, QFileInfo(exportPath).fileName());
}

FactsFile::Scope read(const QString& exportPath, const QString& certname)
{
    FactsFile::Scope result;
    result.path = exportPath;
    result.form = formFor(certname);
    const std::string file = ValueConvert::toStd(exportPath);
    try {
        const auto set = hiera::findPuppetDBFactset(hiera::readFile(file), file, ValueConvert::toStd(certname));
        if (!set) {
            result.error = tr("Cannot read facts: %1 holds no node %2").arg(exportPath, certname);
            return result;
        }
        // The node's scope as the library builds it: trusted.certname is the entry's certname.
        result.scope = hiera::scopeFromFacts(set->facts, set->certname);
    } catch (const std::exception& e) {
        result.error = tr("Cannot read facts: %1").arg(QString::fromUtf8(e.what()));
        return result;
    }
    result.tree = FactTreeModel::prepare(result.scope);
    return result;
}

FactsForm::Written write(const QString& exportPath, const FactsForm::Form& form, const Value& scope)
{
    const std::string file = ValueConvert::toStd(exportPath);
    const auto text = hiera::replacePuppetDBFacts(hiera::readFile(file), file, form.node,
        FactsForm::documentFor(form, scope));
    if (!text)
        throw NodeGone(form.node);
    FactsForm::Written written;
    written.bytes = QByteArray::fromStdString(*text);
    written.form = form;
    return written;
}

} // namespace PuppetDBNode
