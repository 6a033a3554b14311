#include "factsfile.h"

#include "valueconvert.h"

#include <hiera/facts.h>

#include <QCoreApplication>

#include <exception>
#include <string_view>

using hiera::Value;

namespace {
// A facts file names its node through clientcert (what `puppet lookup --node` uses), else its fqdn.
std::string certnameFor(const Value& facts)
{
    if (!facts.isHash())
        return {};
    for (const char* name : {"clientcert", "fqdn"}) {
        const Value* v = facts.asHash().find(std::string_view(name));
        if (v && v->isString() && !v->asString().empty())
            return v->asString();
    }
    if (const Value* networking = facts.asHash().find(std::string_view("networking"));
        networking && networking->isHash()) {
        const Value* v = networking->asHash().find(std::string_view("fqdn"));
        if (v && v->isString())
            return v->asString();
    }
    return {};
}

// A file this window saved holds the whole scope: a `facts` hash at the top next to the top-scope copies.
bool isSavedScope(const Value& v)
{
    if (!v.isHash())
        return false;
    const Value* facts = v.asHash().find(std::string_view("facts"));
    return facts && facts->isHash();
}

QString tr(const char* text)
{
    // The window's translation context: these are the messages it showed when it read facts itself.
    return QCoreApplication::translate("MainWindow", text);
}
} // namespace

namespace FactsFile {

Scope read(const QString& path)
{
    Value loaded;
    try {
        loaded = hiera::loadFactsFile(ValueConvert::toStd(path));
    } catch (const std::exception& e) {
        return {{}, {}, tr("Cannot read facts: %1").arg(QString::fromUtf8(e.what())), path};
    }
    Scope result;
    result.path = path;
    try {
        result.scope = isSavedScope(loaded) ? std::move(loaded) : hiera::scopeFromFacts(loaded, certnameFor(loaded));
    } catch (const std::exception& e) {
        result.error = tr("Cannot use these facts: %1").arg(QString::fromUtf8(e.what()));
        return result;
    }
    result.tree = FactTreeModel::prepare(result.scope);
    return result;
}

} // namespace FactsFile
