#include "facts/factsform.h"

#include "models/valueconvert.h"

#include <hiera/valueformat.h>
#include <hiera/yaml.h>

#include <QFileInfo>

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace hiera::ui {

using hiera::Value;

namespace {

bool startsLikeJson(const std::string& text)
{
    std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        ++i;
    return i < text.size() && text[i] == '{';
}

Value factsOf(const Value& scope)
{
    const Value* facts = scope.isHash() ? scope.asHash().find(std::string_view("facts")) : nullptr;
    return facts && facts->isHash() ? *facts : Value(hiera::Hash());
}

// One scalar whose text is replaced in place.
struct Edit
{
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string text;
};

// The scalars that differ between two documents of the same structure (same keys in the same order,
// same array lengths). False when the structure differs: in-place editing cannot express that.
bool collectChanges(const Value& before, const Value& after, std::vector<std::pair<hiera::SourceMark, Value>>& out)
{
    const bool beforeScalar = !before.isArray() && !before.isHash();
    const bool afterScalar = !after.isArray() && !after.isHash();
    if (beforeScalar && afterScalar) {
        if (!(before == after) || before.type() != after.type())
            out.emplace_back(before.mark(), after);
        return true;
    }
    if (before.type() != after.type())
        return false;
    if (before.isArray()) {
        const auto& a = before.asArray();
        const auto& b = after.asArray();
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!collectChanges(a[i], b[i], out))
                return false;
        }
        return true;
    }
    const auto& a = before.asHash().entries();
    const auto& b = after.asHash().entries();
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!(a[i].key == b[i].key) || !collectChanges(a[i].value, b[i].value, out))
            return false;
    }
    return true;
}

// Where the scalar written at `offset` ends: a quoted scalar at its closing quote, a plain one before a
// comment or the end of the line. npos for what is not edited in place (block scalars, anchors, tags).
std::size_t scalarEnd(const std::string& text, std::size_t offset)
{
    if (offset >= text.size())
        return std::string::npos;
    const char first = text[offset];
    if (first == '"') {
        for (std::size_t i = offset + 1; i < text.size() && text[i] != '\n'; ++i) {
            if (text[i] == '\\')
                ++i;
            else if (text[i] == '"')
                return i + 1;
        }
        return std::string::npos;
    }
    if (first == '\'') {
        for (std::size_t i = offset + 1; i < text.size() && text[i] != '\n'; ++i) {
            if (text[i] == '\'') {
                if (i + 1 < text.size() && text[i + 1] == '\'')
                    ++i;
                else
                    return i + 1;
            }
        }
        return std::string::npos;
    }
    if (first == '|' || first == '>' || first == '&' || first == '*' || first == '!' || first == '\n')
        return std::string::npos;
    std::size_t end = offset;
    while (end < text.size() && text[end] != '\n' && !(text[end] == '#' && end > offset && text[end - 1] == ' '))
        ++end;
    while (end > offset && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
        --end;
    return end;
}

// The original text with the changed scalars written over; empty when that is not possible. The result
// is parsed again and must read as `after`: whatever the heuristics above miss is caught here.
std::string patchInPlace(const std::string& text, const Value& before, const Value& after, Value* reread)
{
    std::vector<std::pair<hiera::SourceMark, Value>> changes;
    if (!collectChanges(before, after, changes))
        return {};
    std::vector<std::size_t> lineStarts{0};
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            lineStarts.push_back(i + 1);
    }
    std::vector<Edit> edits;
    for (const auto& [mark, value] : changes) {
        if (mark.line == 0 || mark.column == 0 || mark.line > lineStarts.size())
            return {};
        const std::size_t begin = lineStarts[mark.line - 1] + mark.column - 1;
        const std::size_t end = scalarEnd(text, begin);
        if (end == std::string::npos)
            return {};
        std::string scalar = hiera::toYaml(value); // "--- <scalar>\n"
        if (scalar.compare(0, 4, "--- ") != 0 || std::count(scalar.begin(), scalar.end(), '\n') != 1)
            return {};
        scalar = scalar.substr(4, scalar.size() - 5);
        edits.push_back({begin, end, std::move(scalar)});
    }
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
    std::string patched = text;
    std::size_t limit = std::string::npos;
    for (const Edit& edit : edits) {
        if (edit.end > limit)
            return {}; // overlapping spans: two values on one scalar's text
        patched.replace(edit.begin, edit.end - edit.begin, edit.text);
        limit = edit.begin;
    }
    try {
        *reread = hiera::parseData(patched, "facts", hiera::DataFormat::Yaml);
        if (*reread == after)
            return patched;
    } catch (const std::exception&) {
    }
    return {};
}

// The comment block a file starts with (its description): kept when the document is written anew.
std::string leadingComments(const std::string& text, bool* moreComments)
{
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t eol = std::min(text.find('\n', pos), text.size());
        const std::string_view line(text.data() + pos, eol - pos);
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string_view::npos && line[first] != '#')
            break;
        pos = std::min(eol + 1, text.size());
    }
    *moreComments = text.find('#', pos) != std::string::npos;
    return text.substr(0, pos);
}

} // namespace

namespace FactsForm {

Form detect(const std::string& text, const Value& document)
{
    Form form;
    form.json = startsLikeJson(text);
    if (!form.json)
        form.text = text;
    form.document = document;
    if (document.isHash()) {
        const hiera::Hash& h = document.asHash();
        const Value* values = h.find(std::string_view("values"));
        const Value* facts = h.find(std::string_view("facts"));
        if (values && values->isHash() && h.find(std::string_view("name")))
            form.shape = Shape::PuppetFacts;
        else if (facts && facts->isHash())
            form.shape = Shape::Scope;
    }
    return form;
}

Form forNewFile(Shape shape, const QString& path)
{
    Form form;
    form.shape = shape;
    form.json = QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0;
    return form;
}

Value documentFor(const Form& form, const Value& scope)
{
    switch (form.shape) {
    case Shape::Facts:
    case Shape::PuppetDB:
        return factsOf(scope);
    case Shape::PuppetFacts: {
        hiera::Hash wrapper = form.document.isHash() ? form.document.asHash() : hiera::Hash();
        wrapper.set("values", factsOf(scope));
        return Value(std::move(wrapper));
    }
    case Shape::Scope:
        break;
    }
    return scope;
}

Written write(const Form& form, const Value& scope)
{
    // The node's facts alone would replace the whole export: PuppetDBNode::write edits its entry instead.
    if (form.shape == Shape::PuppetDB)
        throw std::logic_error("a PuppetDB node is written into its export, not as a file of its own");
    const Value document = documentFor(form, scope);
    Written written;
    written.form = form;
    written.form.document = document;
    if (form.json) {
        written.bytes = QByteArray::fromStdString(hiera::toJson(document, true)) + '\n';
        return written;
    }
    if (!form.text.empty()) {
        Value reread;
        if (std::string patched = patchInPlace(form.text, form.document, document, &reread); !patched.empty()) {
            written.bytes = QByteArray::fromStdString(patched);
            written.form.text = std::move(patched);
            written.form.document = std::move(reread);
            return written;
        }
    }
    bool moreComments = false;
    std::string header = leadingComments(form.text, &moreComments);
    written.commentsDropped = moreComments;
    if (header.empty()) {
        header = form.shape == Shape::Scope
            ? "# Scope saved by Hiera Explorer: facts, trusted and top-scope variables\n"
            : "# Facts saved by Hiera Explorer (puppet lookup --facts reads this)\n";
    }
    written.form.text = header + hiera::toYaml(document);
    written.bytes = QByteArray::fromStdString(written.form.text);
    // Parsed again for the marks of the new text, which the next in-place save needs.
    written.form.document = hiera::parseData(written.form.text, "facts", hiera::DataFormat::Yaml);
    return written;
}

} // namespace FactsForm

} // namespace hiera::ui
