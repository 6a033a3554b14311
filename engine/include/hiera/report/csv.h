#pragma once

// CSV fields for every CSV the command line and the explorer write (docs/bad-input.md, "What goes
// out"): RFC 4180 quoting, and spreadsheet formulas neutralised as OWASP's CSV injection advice says.
//
// A spreadsheet reads a cell starting with '=', '+', '-', '@', a tab, a CR (or a NUL, which ASVS adds)
// as a formula: a key, a node name or a facts file named `=HYPERLINK(…)` would run when the export is
// opened. Such a field gets a single quote in front (spreadsheets take it as "this is text") and is
// quoted. Two exceptions, so that the export stays exact for a reader that knows the rule:
// - a plain decimal number (-5, -0.25, -1.5e+20) is left as it is: a spreadsheet reads it as that
//   number, never as a formula, and a value column of negative numbers stays numbers;
// - a field that already starts with quotes before such a character ('=x) gets one more quote, so
//   that "remove one leading quote before a run of quotes and a formula character" gives back every
//   field exactly (csvFieldText does that).
// Bytes are written as they are (CSV has no encoding of its own; the exports are UTF-8 where the
// data is). Rows end with CRLF, as the RFC and spreadsheets expect.

#include <initializer_list>
#include <string>
#include <string_view>

namespace hiera {

// True when `field` is written with a quote in front (see above).
bool csvFieldIsNeutralised(std::string_view field);
void appendCsvField(std::string& out, std::string_view field);
void appendCsvRow(std::string& out, std::initializer_list<std::string_view> fields);
std::string csvField(std::string_view field);
// A field as a reader gets it back: the inverse of the neutralisation (the quoting is the CSV
// reader's). For readers of the exports that want the data rather than the spreadsheet's view.
std::string csvFieldText(std::string_view cell);

} // namespace hiera
