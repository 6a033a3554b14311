#include "facts/puppetdbnode.h"

#include "models/valueconvert.h"

#include <hiera/facts.h>
#include <hiera/nodes/puppetdbexport.h>
#include <hiera/yaml.h>

#include <QCoreApplication>
#include <QFileInfo>

#include <exception>

namespace hiera::ui {

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

FactsFile::Contents read(const QString& exportPath, const QString& certname)
{
    FactsFile::Contents result;
    result.path = exportPath;
    result.form = formFor(certname);
    result.stamp = FactsFile::stampOf(exportPath);
    const std::string file = ValueConvert::toStd(exportPath);
    try {
        const auto set = hiera::findPuppetDBFactset(hiera::readFile(file), file, ValueConvert::toStd(certname));
        if (!set) {
            result.error = tr("Cannot read facts: %1 holds no node %2").arg(exportPath, certname);
            return result;
        }
        // The node's scope as the library builds it: trusted.certname is the entry's certname.
        result.scope = hiera::scopeFromFacts(set->facts, set->certname);
        result.form.document = set->facts; // what a save checks the entry still holds
    } catch (const std::exception& e) {
        result.error = tr("Cannot read facts: %1").arg(QString::fromUtf8(e.what()));
        return result;
    }
    result.tree = FactTreeModel::prepare(result.scope);
    return result;
}

FactsForm::Written write(const QString& exportPath, const FactsForm::Form& form, const Value& scope,
                         bool overwriteChanges)
{
    const std::string file = ValueConvert::toStd(exportPath);
    const Value facts = FactsForm::documentFor(form, scope);
    Value previous;
    const auto text = hiera::replacePuppetDBFacts(hiera::readFile(file), file, form.node, facts, {}, &previous);
    if (!text)
        throw NodeGone(form.node);
    // Other nodes' entries may change meanwhile (a new export); this node's own entry changing means
    // someone else edited these facts, and writing over that is the user's call. (Found in the same
    // pass as the replacement: a second parse of a 70 MB export cost a quarter of a second.)
    if (!overwriteChanges && !form.document.isNull() && !(previous == form.document))
        throw EntryChanged(form.node);
    FactsForm::Written written;
    written.bytes = QByteArray::fromStdString(*text);
    written.form = form;
    written.form.document = facts;
    return written;
}

} // namespace PuppetDBNode

} // namespace hiera::ui
