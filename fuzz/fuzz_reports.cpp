// The export writers (hiera/report/*.h: CSV, Markdown, HTML, JSON) fed arbitrary fields, each checked
// by the strict reader the tests use (tests/support/), written apart from the writers so that the two
// cannot share a mistake. Input: fields separated by the byte 0x1E. Checked besides "no crash, hang,
// leak or UB":
// - CSV: a row of every field, and each field alone, reads back (RFC 4180) to the same number of
//   cells, each cell csvFieldText gives back equal to its field, and no cell a spreadsheet takes for
//   a formula;
// - Markdown: each field as text and as a code span, in a table row between two cells and inline,
//   keeps the row's three cells and reads back as the field (line breaks as <br>, bytes that are not
//   UTF-8 as U+FFFD); a code block of the fields is closed only by its own fence; the fields as a
//   folded list of nodes (markdownFoldedList, every cut) stay one table cell, hold each field's text,
//   and open and close exactly the one <details> element the fold writes;
// - HTML: a page titled with a field, with a paragraph and a table cell of each, reads back (only the
//   writers' elements, no attribute or resource from data) with the same text;
// - JSON: a document holding each field as a value, a key and an array item reads back (RFC 8259) with
//   the same strings, bytes that are not UTF-8 replaced and listed in json_replacements.

#include "fuzz_common.h"

#include "support/csvreader.h"
#include "support/htmlreader.h"
#include "support/jsonreader.h"
#include "support/markdownreader.h"
#include "support/utf8normalise.h"

#include <hiera/report/csv.h>
#include <hiera/report/html.h>
#include <hiera/report/json.h>
#include <hiera/report/markdown.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace hiera;

std::vector<std::string> fieldsOf(std::string_view input)
{
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (fields.size() < 16) {
        const std::size_t end = input.find('\x1e', start);
        fields.emplace_back(input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return fields;
}

void checkCsv(const std::vector<std::string>& fields)
{
    std::string csv;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i)
            csv += ',';
        appendCsvField(csv, fields[i]);
    }
    csv += "\r\n";
    for (const std::string& f : fields)
        appendCsvRow(csv, {f});
    std::string error;
    const auto rows = testsupport::readCsv(csv, &error);
    if (!rows)
        fuzz::violated("CSV the writer made does not read", error);
    if (rows->size() != fields.size() + 1 || (*rows)[0].size() != fields.size())
        fuzz::violated("CSV rows or cells lost or added", csv);
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (csvFieldText((*rows)[0][i]) != fields[i] || (*rows)[i + 1].size() != 1
            || csvFieldText((*rows)[i + 1][0]) != fields[i])
            fuzz::violated("a CSV cell does not read back as its field", csv);
    }
    if (const auto formula = testsupport::csvFormulaField(*rows))
        fuzz::violated("a CSV cell a spreadsheet reads as a formula", *formula);
}

void checkMarkdown(const std::vector<std::string>& fields)
{
    for (const std::string& f : fields) {
        const std::string expected = testsupport::markdownNormalised(f);
        for (const bool code : {false, true}) {
            const std::string cell = code ? markdownCode(f) : markdownText(f);
            if (cell.find_first_of("\r\n") != std::string::npos)
                fuzz::violated("a Markdown cell with a line break", cell);
            std::string error;
            const auto cells = testsupport::markdownRowCells("| a | " + cell + " | b |", &error);
            if (!cells || cells->size() != 3)
                fuzz::violated("a Markdown cell splits the row", cell + "\n" + error);
            const auto read = testsupport::markdownInline((*cells)[1], false, &error);
            if (!read || *read != expected)
                fuzz::violated("a Markdown cell does not read back as its field", cell + "\n" + error);
            const std::string inlineText = code ? markdownCode(f, MarkdownContext::Inline) : markdownText(f);
            const auto readInline = testsupport::markdownInline(inlineText, false, &error);
            if (!readInline || *readInline != expected)
                fuzz::violated("inline Markdown does not read back as its field", inlineText + "\n" + error);
        }
    }
    // A code block: its fence is longer than any run of backticks inside, so no line of the fields can
    // close it early.
    std::string text;
    for (const std::string& f : fields)
        text += f + "\n";
    const std::string block = markdownCodeBlock(text, "yaml");
    const std::size_t fence = block.find_first_not_of('`');
    if (fence < 3 || fence == std::string::npos)
        fuzz::violated("a Markdown code block without a fence", block);
    std::size_t run = 0, longest = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    if (fence <= longest)
        fuzz::violated("a Markdown code block fence no longer than a run of backticks inside it", block);

    // A list of node names folded into <details> (the revision diff's and the file impact's tables).
    // Tags as markup: a '<' after an odd run of backslashes is text (markdownText writes a name's '<' as \<).
    const auto count = [](const std::string& text, std::string_view what) {
        std::size_t n = 0;
        for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
            std::size_t slashes = 0;
            while (slashes < at && text[at - 1 - slashes] == '\\')
                ++slashes;
            n += slashes % 2 == 0;
        }
        return n;
    };
    for (const std::size_t shown : {std::size_t{0}, std::size_t{1}, fields.size() / 2, fields.size()}) {
        const std::string cell = markdownFoldedList(fields, shown);
        if (cell.find_first_of("\r\n") != std::string::npos)
            fuzz::violated("a folded Markdown list with a line break", cell);
        std::string error;
        const auto cells = testsupport::markdownRowCells("| a | " + cell + " | b |", &error);
        if (!cells || cells->size() != 3)
            fuzz::violated("a folded Markdown list splits the row", cell + "\n" + error);
        for (const std::string& f : fields)
            if (cell.find(markdownText(f)) == std::string::npos)
                fuzz::violated("a folded Markdown list without one of its names", cell);
        const std::size_t folds = shown < fields.size() ? 1 : 0;
        if (count(cell, "<details>") != folds || count(cell, "</details>") != folds || count(cell, "<summary>") != folds
            || count(cell, "</summary>") != folds)
            fuzz::violated("a folded Markdown list whose names open or close its elements", cell);
    }
}

void checkHtml(const std::vector<std::string>& fields)
{
    std::string page = htmlDocumentStart(fields[0], "p{margin:0}");
    for (const std::string& f : fields)
        page += "<p>" + htmlText(f) + "</p>\n";
    page += "<table>";
    for (const std::string& f : fields)
        page += "<tr><td><code>" + htmlText(f) + "</code></td></tr>";
    page += "</table>\n</body></html>\n";
    std::string error;
    const auto doc = testsupport::readHtml(page, &error);
    if (!doc)
        fuzz::violated("HTML the writer made does not read strictly", error);
    if (doc->title != testsupport::htmlNormalised(fields[0]))
        fuzz::violated("the HTML title does not read back", page);
    if (doc->paragraphs.size() != fields.size() || doc->tables.size() != 1 || doc->tables[0].size() != fields.size())
        fuzz::violated("HTML paragraphs or cells lost or added", page);
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string expected = testsupport::htmlNormalised(fields[i]);
        if (doc->paragraphs[i] != expected || doc->tables[0][i].size() != 1 || doc->tables[0][i][0] != expected)
            fuzz::violated("HTML text does not read back as its field", page);
    }
    if (doc->contentSecurityPolicy != kHtmlContentSecurityPolicy)
        fuzz::violated("the HTML page lost its Content-Security-Policy", page);
}

void checkJson(const std::vector<std::string>& fields)
{
    Hash doc;
    Hash keyed;
    Array list;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        keyed.set(Value(fields[i]), Value(static_cast<std::int64_t>(i)));
        list.push_back(Value(fields[i]));
    }
    doc.set("keyed", Value(std::move(keyed)));
    doc.set("list", Value(std::move(list)));
    bool anyReplaced = false;
    for (const std::string& f : fields)
        anyReplaced = anyReplaced || testsupport::validUtf8Replaced(f) != f;
    for (const bool pretty : {true, false}) {
        const std::string text = reportJson(Value(doc), pretty);
        std::string error;
        const auto read = testsupport::readJson(text, &error);
        if (!read || !read->isHash())
            fuzz::violated("JSON the writer made does not read strictly", error);
        const Hash& h = read->asHash();
        const Value* readList = h.find("list");
        const Value* readKeyed = h.find("keyed");
        if (!readList || !readList->isArray() || readList->asArray().size() != fields.size() || !readKeyed
            || !readKeyed->isHash())
            fuzz::violated("JSON members lost", text);
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const Value expected(testsupport::validUtf8Replaced(fields[i]));
            if (readList->asArray()[i] != expected || !readKeyed->asHash().find(expected))
                fuzz::violated("a JSON string does not read back as its field", text);
        }
        if (h.contains(kJsonReplacementsKey) != anyReplaced)
            fuzz::violated("json_replacements does not match what was replaced", text);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> fields = fieldsOf(std::string_view(reinterpret_cast<const char*>(data), size));
    checkCsv(fields);
    checkMarkdown(fields);
    checkHtml(fields);
    checkJson(fields);
    return 0;
}
