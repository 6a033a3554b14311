#include <hiera/report/csv.h>

namespace hiera {

namespace {

bool isFormulaStart(char c)
{
    return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' || c == '\0';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// -digits[.digits][e[+-]digits]: how a JSON number or a Ruby float is written when it is negative.
bool isNegativeNumber(std::string_view s)
{
    std::size_t i = 1; // s[0] is '-'
    auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
        return i > from;
    };
    if (!digits())
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == s.size();
}

} // namespace

bool csvFieldIsNeutralised(std::string_view field)
{
    const std::size_t first = field.find_first_not_of('\'');
    if (first == std::string_view::npos || !isFormulaStart(field[first]))
        return false;
    return first > 0 || field[0] != '-' || !isNegativeNumber(field);
}

void appendCsvField(std::string& out, std::string_view field)
{
    const bool neutralised = csvFieldIsNeutralised(field);
    if (!neutralised && field.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += field;
        return;
    }
    out += '"';
    if (neutralised)
        out += '\'';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

std::string csvField(std::string_view field)
{
    std::string out;
    appendCsvField(out, field);
    return out;
}

void appendCsvRow(std::string& out, std::initializer_list<std::string_view> fields)
{
    bool first = true;
    for (std::string_view f : fields) {
        if (!first)
            out += ',';
        first = false;
        appendCsvField(out, f);
    }
    out += "\r\n";
}

std::string csvFieldText(std::string_view cell)
{
    if (!cell.empty() && cell[0] == '\'' && csvFieldIsNeutralised(cell.substr(1)))
        cell.remove_prefix(1);
    return std::string(cell);
}

} // namespace hiera
