#include "window/explanationreport.h"

#include "models/toolname.h"

#include <hiera/explanationreport.h>
#include <hiera/nodescope.h>
#include <hiera/scope.h>
#include <hiera/version.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QPrinter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QTextDocument>

namespace hiera::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ExplanationReport", text);
}

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

// The extension a dialog filter names ("PDF (*.pdf)": ".pdf"); Markdown's for none.
QString extensionOf(const QString& filter)
{
    const QRegularExpressionMatch ext = QRegularExpression(QStringLiteral("\\*(\\.[a-z]+)")).match(filter);
    return ext.hasMatch() ? ext.captured(1) : QStringLiteral(".md");
}

const QLatin1String kFormatSetting("export/format/explanation");

// The engine's report of the window's outcome: the same documents hiera-lookup writes.
std::string reportText(const ExplanationDocument& r, std::string (*writer)(const hiera::ExplanationReport&))
{
    const LookupOutcome& outcome = *r.outcome;
    const hiera::MapScope lookupScope(outcome.scope);
    hiera::ExplanationReport report;
    report.engine = outcome.engine.get();
    report.key = outcome.request.key;
    report.merge = outcome.request.merge;
    report.mergeChosenBy = tr("chosen in the explorer").toStdString();
    report.result = &outcome.result;
    report.scope = &lookupScope;
    report.overrides = r.overrides && r.overrides->key == outcome.request.key ? r.overrides.get() : nullptr;
    report.hieraYaml = QFileInfo(r.hieraYaml).absoluteFilePath().toStdString();
    report.factsFile = r.factsFile.toStdString();
    report.noFactsFile = tr("(unsaved)").toStdString();
    report.factsEdited = r.factsEdited;
    if (r.factsEdited && !r.fileScope.isNull())
        for (hiera::LeafDifference& d : hiera::scopeDifferences(r.fileScope, outcome.scope))
            report.factsChanged.push_back({std::move(d.path), std::move(d.before), std::move(d.after)});
    report.revision = r.revision.toStdString();
    report.tool = ToolName::text().toStdString();
    // With the zone: 2025-03-01T14:05:09+01:00 (CET) (a local time alone does not say when).
    report.time =
        QStringLiteral("%1 (%2)")
            .arg(r.time.toOffsetFromUtc(r.time.offsetFromUtc()).toString(Qt::ISODate), r.time.timeZoneAbbreviation())
            .toStdString();
    report.revealSecrets = r.revealSecrets;
    return writer(report);
}

} // namespace

ExplanationDocument::Format ExplanationDocument::formatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return Format::Html;
    if (suffix == QLatin1String("json"))
        return Format::Json;
    if (suffix == QLatin1String("pdf"))
        return Format::Pdf;
    return Format::Markdown;
}

QString ExplanationDocument::toMarkdown() const
{
    return QString::fromStdString(reportText(*this, &hiera::explanationMarkdown));
}

QString ExplanationDocument::toHtml() const
{
    return QString::fromStdString(reportText(*this, &hiera::explanationHtml));
}

QByteArray ExplanationDocument::toJson() const
{
    return QByteArray::fromStdString(reportText(*this, &hiera::explanationJson));
}

void ExplanationDocument::print(QPrinter* printer) const
{
    QTextDocument document;
    document.setHtml(toHtml());
    document.print(printer);
}

QString ExplanationDocument::fileFilters()
{
    return tr("Markdown (*.md);;HTML, self-contained (*.html);;JSON (*.json);;PDF (*.pdf)");
}

QString ExplanationDocument::suggestedFileName(const std::string& key, const QString& factsPath, const QString& filter)
{
    QString name = str(key);
    if (!factsPath.isEmpty())
        name += QLatin1Char('-') + QFileInfo(factsPath).completeBaseName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
    return name + extensionOf(filter);
}

QString ExplanationDocument::lastFilter()
{
    const QStringList filters = fileFilters().split(QStringLiteral(";;"));
    const QString suffix = QSettings().value(kFormatSetting).toString();
    for (const QString& filter : filters)
        if (!suffix.isEmpty() && extensionOf(filter) == QLatin1Char('.') + suffix)
            return filter;
    return filters.front();
}

void ExplanationDocument::rememberFormat(const QString& savedPath)
{
    const QString suffix = QFileInfo(savedPath).suffix().toLower();
    for (const QString& filter : fileFilters().split(QStringLiteral(";;")))
        if (extensionOf(filter) == QLatin1Char('.') + suffix)
            QSettings().setValue(kFormatSetting, suffix);
}

QString ExplanationDocument::withExtension(const QString& path, const QString& selectedFilter)
{
    if (!QFileInfo(path).suffix().isEmpty())
        return path;
    return path + extensionOf(selectedFilter);
}

bool ExplanationDocument::save(const QString& path, QString* error) const
{
    const Format format = formatFor(path);
    if (format == Format::Pdf) {
        QPrinter printer(QPrinter::HighResolution);
        printer.setOutputFormat(QPrinter::PdfFormat);
        printer.setOutputFileName(path);
        print(&printer);
        if (QFileInfo(path).size() > 0)
            return true;
        *error = tr("Cannot write %1").arg(path);
        return false;
    }
    const QByteArray bytes =
        QByteArray::fromStdString(reportText(*this,
                                             format == Format::Json       ? &hiera::explanationJson
                                                 : format == Format::Html ? &hiera::explanationHtml
                                                                          : &hiera::explanationMarkdown));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace hiera::ui
