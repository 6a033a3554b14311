#include "core/bytes.h"
#include "report/utf8.h"

#include <hiera/report/html.h>

namespace hiera {

using detail::validUtf8;
using detail::visibleControls;

std::string htmlText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : visibleControls(validUtf8(text))) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        case '\r':
            out += "&#13;";
            break;
        case '\0':
            out += "\xEF\xBF\xBD";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string htmlDocumentStart(std::string_view title, std::string_view styleSheet)
{
    std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<meta "
                      "http-equiv=\"Content-Security-Policy\" content=\"";
    out += htmlText(kHtmlContentSecurityPolicy); // its quotes as references, as every attribute value
    out += "\">\n<title>";
    out += htmlText(title);
    out += "</title>\n<style>";
    out += styleSheet;
    out += "</style></head><body>\n";
    return out;
}

} // namespace hiera
