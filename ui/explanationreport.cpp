#include "explanationreport.h"

#include "valueconvert.h"

#include <hiera/scope.h>
#include <hiera/trace.h>
#include <hiera/valueformat.h>
#include <hiera/version.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPrinter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QTextDocument>

using hiera::TraceNode;
using hiera::Value;

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

// Files under the hierarchy's directory are named from there (data/common.yaml:53): the report names
// the hierarchy itself in full once, and absolute paths made the tables three times as tall.
QString at(const hiera::SourceLocation& location, const QString& baseDirectory)
{
    if (!location.isValid())
        return {};
    const QString file = ValueConvert::shortPath(str(location.file), baseDirectory);
    return location.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(location.line) : file;
}

// Everything the writers print, collected once from the outcome and the overrides.
struct Content
{
    QString baseDirectory; // the hierarchy's: files under it are named from there
    QString key, merge, status, valueYaml, error, tool, time, hieraYaml, factsFile;
    Value value;
    bool found = false;
    bool redacted = false;
    QList<QPair<QString, Value>> facts; // the scope references the hierarchy read
    struct Consulted { QString level, file, outcome, line; };
    QList<Consulted> consulted;
    struct Leaf { QString path; Value value; QString origin; QList<QPair<Value, QString>> overrode; };
    QList<Leaf> leaves;
    QStringList warnings;
    QStringList references; // %{...} in the consulted paths, resolved against the scope afterwards
};

QString outcomeText(TraceNode::Event event)
{
    switch (event) {
    case TraceNode::Event::Found: return tr("found");
    case TraceNode::Event::NotFound: return tr("key not in file");
    case TraceNode::Event::LocationNotFound: return tr("no such file");
    case TraceNode::Event::Failed: return tr("failed");
    default: return QString::fromLatin1(hiera::traceEventName(event));
    }
}

void walk(const TraceNode& node, const QString& level, bool nested, Content& c, bool reveal)
{
    switch (node.kind) {
    case TraceNode::Kind::ScopeRead:
        if (node.value && std::none_of(c.facts.begin(), c.facts.end(), [&](const auto& f) { return f.first == str(node.name); }))
            c.facts.append({ str(node.name), reveal ? *node.value : hiera::redactSecrets(*node.value) });
        return;
    case TraceNode::Kind::LookupOptions:
    case TraceNode::Kind::SubLookup:
        nested = true; // its levels are another key's: only its scope reads count
        break;
    case TraceNode::Kind::Location:
        // The facts a level's path was made from: its %{...} references, as written.
        if (!nested) {
            static const QRegularExpression reference(QStringLiteral("%\\{\\s*([^}'\"(]+?)\\s*\\}"));
            for (auto it = reference.globalMatch(str(node.originalPath)); it.hasNext();)
                c.references << it.next().captured(1);
        }
        if (!nested)
            c.consulted.append({ level, node.path.empty() ? str(node.originalPath) : ValueConvert::shortPath(str(node.path), c.baseDirectory), outcomeText(node.event),
                node.location.line > 0 ? QString::number(node.location.line) : QString() });
        break;
    case TraceNode::Kind::Level: {
        const bool hasLocations = std::any_of(node.children.begin(), node.children.end(),
            [](const auto& ch) { return ch->kind == TraceNode::Kind::Location; });
        if (!nested && !hasLocations)
            c.consulted.append({ str(node.name), QString(), outcomeText(node.event), QString() });
        for (const auto& child : node.children)
            walk(*child, str(node.name), nested, c, reveal);
        return;
    }
    default:
        break;
    }
    for (const auto& child : node.children)
        walk(*child, level, nested, c, reveal);
}

Content collect(const ExplanationReport& r)
{
    Content c;
    const auto& outcome = *r.outcome;
    const hiera::LookupResult& result = outcome.result;
    const auto redact = [&](const Value& v) { return r.revealSecrets ? v : hiera::redactSecrets(v); };
    c.key = str(outcome.request.key);
    const QString base = QFileInfo(r.hieraYaml).absolutePath();
    c.baseDirectory = base;
    if (outcome.request.merge)
        c.merge = QString::fromLatin1(hiera::mergeStrategyName(outcome.request.merge->strategy)) + tr(" (chosen in the explorer)");
    else if (result.trace && result.trace->merge)
        c.merge = QString::fromLatin1(hiera::mergeStrategyName(result.trace->merge->strategy))
            + (result.trace->mergeFromLookupOptions ? tr(" (from lookup_options)") : QString());
    else
        c.merge = QStringLiteral("first");
    c.found = result.found();
    c.status = result.found() ? tr("found") : result.error ? tr("error") : tr("not found");
    if (result.error)
        c.error = str(result.error->what());
    if (result.found()) {
        c.redacted = !r.revealSecrets && hiera::containsSecret(result.value);
        c.value = redact(result.value);
        c.valueYaml = str(hiera::toYaml(c.value));
    }
    for (const auto& w : result.warnings)
        c.warnings << str(w);
    c.tool = QStringLiteral("Hiera Explorer %1 (engine %2)").arg(QCoreApplication::applicationVersion(), QStringLiteral(HIERA_VERSION));
    c.time = r.time.toString(Qt::ISODate);
    c.hieraYaml = r.hieraYaml;
    c.factsFile = r.factsFile;
    if (result.trace)
        walk(*result.trace, QString(), false, c, r.revealSecrets);
    // The facts in the paths come first: they chose the files. (The scope reads of interpolated values
    // are in the trace already.)
    const hiera::MapScope scope(outcome.scope);
    QList<QPair<QString, Value>> pathFacts;
    for (QString ref : std::as_const(c.references)) {
        ref = r.mappedVariables.value(ref, ref);
        if (std::any_of(pathFacts.begin(), pathFacts.end(), [&](const auto& f) { return f.first == ref; }))
            continue;
        const std::optional<Value> v = scope.lookup(ref.toStdString());
        pathFacts.append({ ref, v ? redact(*v) : Value() });
    }
    for (const auto& f : std::as_const(c.facts)) {
        if (std::none_of(pathFacts.begin(), pathFacts.end(), [&](const auto& p) { return p.first == f.first; }))
            pathFacts.append(f);
    }
    c.facts = pathFacts;
    if (r.overrides && r.overrides->key == outcome.request.key) {
        for (const Overrides::Leaf& leaf : r.overrides->leaves) {
            Content::Leaf l { str(leaf.path), redact(leaf.value), at(leaf.origin, base), {} };
            for (const Overrides::Overridden& below : leaf.overrode)
                l.overrode.append({ redact(below.value), at(below.location, base) });
            c.leaves.append(l);
        }
    }
    return c;
}

QString text(const Value& v)
{
    return str(Overrides::displayValue(v));
}

QJsonValue json(const Value& v)
{
    const QJsonDocument doc = QJsonDocument::fromJson("[" + QByteArray::fromStdString(hiera::toJson(v)) + "]");
    return doc.array().isEmpty() ? QJsonValue() : doc.array().first();
}

} // namespace

ExplanationReport::Format ExplanationReport::formatFor(const QString& path)
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

QString ExplanationReport::toMarkdown() const
{
    const Content c = collect(*this);
    QString md;
    md += tr("# Hiera lookup of `%1`\n\n").arg(c.key);
    md += tr("- Merge: %1\n- Result: %2\n- Hierarchy: `%3`\n- Facts: `%4`\n- Made by %5 at %6\n")
              .arg(c.merge, c.status, c.hieraYaml, c.factsFile.isEmpty() ? tr("(unsaved)") : c.factsFile, c.tool, c.time);
    if (!c.error.isEmpty())
        md += tr("- Error: %1\n").arg(c.error);
    for (const QString& w : c.warnings)
        md += tr("- Warning: %1\n").arg(w);
    md += tr("\n## Value\n\n");
    md += c.found ? QStringLiteral("```yaml\n%1```\n").arg(c.valueYaml) : tr("Not found.\n");
    if (c.redacted)
        md += tr("\nDecrypted eyaml values are redacted.\n");
    if (!c.leaves.isEmpty()) {
        md += tr("\n## Where each part came from, and what it overrode\n\n| Leaf | Value | From | Overrode |\n|---|---|---|---|\n");
        for (const auto& leaf : c.leaves) {
            QStringList over;
            for (const auto& [v, where] : leaf.overrode)
                over << QStringLiteral("`%1` (%2)").arg(text(v), where);
            md += QStringLiteral("| %1 | `%2` | %3 | %4 |\n")
                      .arg(leaf.path.isEmpty() ? c.key : leaf.path, text(leaf.value), leaf.origin, over.join(QStringLiteral("; ")));
        }
    }
    md += tr("\n## Facts the hierarchy used\n\n");
    if (c.facts.isEmpty())
        md += tr("None.\n");
    for (const auto& [name, v] : c.facts)
        md += QStringLiteral("- `%1` = `%2`\n").arg(name, text(v));
    md += tr("\n## Levels and files consulted\n\n| Level | File | Outcome | Line |\n|---|---|---|---|\n");
    for (const auto& row : c.consulted)
        md += QStringLiteral("| %1 | `%2` | %3 | %4 |\n").arg(row.level, row.file, row.outcome, row.line);
    return md;
}

QString ExplanationReport::toHtml() const
{
    const Content c = collect(*this);
    const auto e = [](const QString& s) { return s.toHtmlEscaped(); };
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
                        "<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
                        "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #999;padding:2px 6px;"
                        "text-align:left;vertical-align:top}code,pre{font-family:monospace}pre{background:#f4f4f4;"
                        "padding:0.5em}.over{color:#777;text-decoration:line-through}</style></head><body>\n")
             .arg(e(tr("Hiera lookup of %1").arg(c.key)));
    h += QStringLiteral("<h1>%1 <code>%2</code></h1>\n").arg(e(tr("Hiera lookup of")), e(c.key));
    h += QStringLiteral("<table>");
    const QList<QPair<QString, QString>> facts {
        { tr("Merge"), c.merge }, { tr("Result"), c.status }, { tr("Hierarchy"), c.hieraYaml },
        { tr("Facts"), c.factsFile.isEmpty() ? tr("(unsaved)") : c.factsFile }, { tr("Made by"), c.tool }, { tr("Time"), c.time } };
    for (const auto& [name, value] : facts)
        h += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(e(name), e(value));
    if (!c.error.isEmpty())
        h += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(e(tr("Error")), e(c.error));
    for (const QString& w : c.warnings)
        h += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(e(tr("Warning")), e(w));
    h += QStringLiteral("</table>\n<h2>%1</h2>\n").arg(e(tr("Value")));
    h += c.found ? QStringLiteral("<pre>%1</pre>\n").arg(e(c.valueYaml)) : QStringLiteral("<p>%1</p>\n").arg(e(tr("Not found.")));
    if (c.redacted)
        h += QStringLiteral("<p>%1</p>\n").arg(e(tr("Decrypted eyaml values are redacted.")));
    if (!c.leaves.isEmpty()) {
        h += QStringLiteral("<h2>%1</h2>\n<table><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>\n")
                 .arg(e(tr("Where each part came from, and what it overrode")), e(tr("Leaf")), e(tr("Value")), e(tr("From")), e(tr("Overrode")));
        for (const auto& leaf : c.leaves) {
            QStringList over;
            for (const auto& [v, where] : leaf.overrode)
                over << QStringLiteral("<span class=\"over\"><code>%1</code></span> (%2)").arg(e(text(v)), e(where));
            h += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td>%3</td><td>%4</td></tr>\n")
                     .arg(e(leaf.path.isEmpty() ? c.key : leaf.path), e(text(leaf.value)), e(leaf.origin), over.join(QStringLiteral("<br>")));
        }
        h += QStringLiteral("</table>\n");
    }
    h += QStringLiteral("<h2>%1</h2>\n<table>").arg(e(tr("Facts the hierarchy used")));
    for (const auto& [name, v] : c.facts)
        h += QStringLiteral("<tr><td><code>%1</code></td><td><code>%2</code></td></tr>").arg(e(name), e(text(v)));
    h += QStringLiteral("</table>\n<h2>%1</h2>\n<table><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>\n")
             .arg(e(tr("Levels and files consulted")), e(tr("Level")), e(tr("File")), e(tr("Outcome")), e(tr("Line")));
    for (const auto& row : c.consulted)
        h += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td>%3</td><td>%4</td></tr>\n")
                 .arg(e(row.level), e(row.file), e(row.outcome), e(row.line));
    h += QStringLiteral("</table>\n</body></html>\n");
    return h;
}

QByteArray ExplanationReport::toJson() const
{
    const Content c = collect(*this);
    QJsonObject o;
    o[QStringLiteral("key")] = c.key;
    o[QStringLiteral("merge")] = c.merge;
    o[QStringLiteral("result")] = c.status;
    if (c.found)
        o[QStringLiteral("value")] = json(c.value);
    if (!c.error.isEmpty())
        o[QStringLiteral("error")] = c.error;
    o[QStringLiteral("warnings")] = QJsonArray::fromStringList(c.warnings);
    o[QStringLiteral("secretsRedacted")] = c.redacted;
    o[QStringLiteral("hieraYaml")] = c.hieraYaml;
    o[QStringLiteral("factsFile")] = c.factsFile;
    o[QStringLiteral("tool")] = c.tool;
    o[QStringLiteral("time")] = c.time;
    QJsonObject facts;
    for (const auto& [name, v] : c.facts)
        facts[name] = json(v);
    o[QStringLiteral("factsUsed")] = facts;
    QJsonArray consulted;
    for (const auto& row : c.consulted)
        consulted.append(QJsonObject { { QStringLiteral("level"), row.level }, { QStringLiteral("file"), row.file },
            { QStringLiteral("outcome"), row.outcome }, { QStringLiteral("line"), row.line.toInt() } });
    o[QStringLiteral("consulted")] = consulted;
    QJsonArray leaves;
    for (const auto& leaf : c.leaves) {
        QJsonArray over;
        for (const auto& [v, where] : leaf.overrode)
            over.append(QJsonObject { { QStringLiteral("value"), json(v) }, { QStringLiteral("at"), where } });
        leaves.append(QJsonObject { { QStringLiteral("path"), leaf.path }, { QStringLiteral("value"), json(leaf.value) },
            { QStringLiteral("at"), leaf.origin }, { QStringLiteral("overrode"), over } });
    }
    o[QStringLiteral("leaves")] = leaves;
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

void ExplanationReport::print(QPrinter* printer) const
{
    QTextDocument document;
    document.setHtml(toHtml());
    document.print(printer);
}

QString ExplanationReport::fileFilters()
{
    return tr("Markdown (*.md);;HTML, self-contained (*.html);;JSON (*.json);;PDF (*.pdf)");
}

QString ExplanationReport::suggestedFileName(const std::string& key, const QString& factsPath, const QString& filter)
{
    QString name = str(key);
    if (!factsPath.isEmpty())
        name += QLatin1Char('-') + QFileInfo(factsPath).completeBaseName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
    return name + extensionOf(filter);
}

QString ExplanationReport::lastFilter()
{
    const QStringList filters = fileFilters().split(QStringLiteral(";;"));
    const QString suffix = QSettings().value(kFormatSetting).toString();
    for (const QString& filter : filters)
        if (!suffix.isEmpty() && extensionOf(filter) == QLatin1Char('.') + suffix)
            return filter;
    return filters.front();
}

void ExplanationReport::rememberFormat(const QString& savedPath)
{
    const QString suffix = QFileInfo(savedPath).suffix().toLower();
    for (const QString& filter : fileFilters().split(QStringLiteral(";;")))
        if (extensionOf(filter) == QLatin1Char('.') + suffix)
            QSettings().setValue(kFormatSetting, suffix);
}

QString ExplanationReport::withExtension(const QString& path, const QString& selectedFilter)
{
    if (!QFileInfo(path).suffix().isEmpty())
        return path;
    return path + extensionOf(selectedFilter);
}

bool ExplanationReport::save(const QString& path, QString* error) const
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
    const QByteArray bytes = format == Format::Json ? toJson()
        : format == Format::Html                    ? toHtml().toUtf8()
                                                    : toMarkdown().toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
