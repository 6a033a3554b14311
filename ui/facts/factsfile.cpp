#include "facts/factsfile.h"

#include <hiera/error.h>

#include "models/valueconvert.h"

#include <hiera/facts.h>
#include <hiera/yaml.h>

#include <QCoreApplication>
#include <QFileInfo>

#include <exception>
#include <string_view>

namespace hiera::ui {

using hiera::Value;

namespace {
QString tr(const char* text)
{
    // The window's translation context: these are the messages it showed when it read facts itself.
    return QCoreApplication::translate("MainWindow", text);
}
} // namespace

namespace FactsFile {
DiskStamp stampOf(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return {};
    return {info.size(), info.lastModified()};
}

Contents read(const QString& path)
{
    const DiskStamp stamp = stampOf(path); // before reading: a change while reading shows at save time
    // The text and the whole document are kept (FactsForm): a save writes the file back in its form.
    const std::string file = ValueConvert::toStd(path);
    FactsForm::Form form;
    Value loaded;
    try {
        const std::string text = hiera::readFile(file);
        // Parsed once, as hiera::parseFacts does (JSON typing for a document that starts like JSON), but
        // keeping the whole document: a `puppet facts` wrapper or a saved scope is written back as one.
        const bool json = FactsForm::detect(text, Value()).json;
        Value document;
        try {
            document = hiera::parseData(text, file, json ? hiera::DataFormat::Json : hiera::DataFormat::Yaml);
        } catch (const hiera::Error&) {
            if (!json)
                throw;
            document = hiera::parseData(text, file, hiera::DataFormat::Yaml);
        }
        if (document.isNull())
            document = Value(hiera::Hash());
        if (!document.isHash())
            loaded = hiera::parseFacts(text, file); // throws the engine's message for a non-mapping
        form = FactsForm::detect(text, document);
        loaded = form.shape == FactsForm::Shape::PuppetFacts ? *document.asHash().find(std::string_view("values"))
                                                             : document;
    } catch (const std::exception& e) {
        return {{}, {}, tr("Cannot read facts: %1").arg(QString::fromUtf8(e.what())), path, {}, stamp};
    }
    Contents result;
    result.path = path;
    result.form = std::move(form);
    result.stamp = stamp;
    try {
        result.scope = result.form.shape == FactsForm::Shape::Scope ? std::move(loaded) : hiera::scopeFromFacts(loaded);
    } catch (const std::exception& e) {
        result.error = tr("Cannot use these facts: %1").arg(QString::fromUtf8(e.what()));
        return result;
    }
    result.tree = FactTreeModel::prepare(result.scope);
    return result;
}

} // namespace FactsFile

} // namespace hiera::ui
