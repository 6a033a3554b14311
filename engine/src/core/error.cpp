#include <hiera/error.h>

#include <cstdio>

namespace hiera {

namespace {
std::string withLocation(const std::string& message, const SourceLocation& location)
{
    return location.isValid() ? printableLine(location.toString()) + ": " + message : message;
}

// The length of the valid UTF-8 sequence at `s[i]`, or 0 (overlong forms and surrogates are invalid).
std::size_t utf8SequenceAt(std::string_view s, std::size_t i, char32_t& cp)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b = byte(i);
    std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size())
        return 0;
    cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

// Characters that move the cursor, end a line, or reorder text on a terminal: C0 and C1 controls,
// DEL, the line and paragraph separators, and the bidirectional overrides and isolates.
bool unsafeOnATerminal(char32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E)
        || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F || cp == 0x061C;
}
} // namespace

std::string printableLine(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    char hex[12];
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const std::size_t n = utf8SequenceAt(text, i, cp);
        if (n == 0) { // not UTF-8 (a !!binary value, a file name in another encoding): its bytes in hex
            std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(text[i]));
            out += hex;
            ++i;
            continue;
        }
        if (unsafeOnATerminal(cp)) {
            switch (cp) {
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case 0x1B:
                out += "\\e";
                break;
            default:
                std::snprintf(hex, sizeof hex, cp < 0x100 ? "\\x%02X" : "\\u%04X", static_cast<unsigned>(cp));
                out += hex;
            }
        } else {
            out.append(text, i, n);
        }
        i += n;
    }
    return out;
}

// Messages quote keys, values, paths and file names, all of which come from data: whatever they hold,
// a message stays one printable line (no forged lines on stderr, no terminal escape sequences).
Error::Error(ErrorCode code, std::string message, SourceLocation location)
    : std::runtime_error(withLocation(printableLine(message), location))
    , m_code(code)
    , m_message(printableLine(message))
    , m_location(std::move(location))
{
}

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::None:
        return "None";
    case ErrorCode::ConfigUnreadable:
        return "ConfigUnreadable";
    case ErrorCode::ConfigSyntax:
        return "ConfigSyntax";
    case ErrorCode::ConfigVersion:
        return "ConfigVersion";
    case ErrorCode::ConfigUnknownKey:
        return "ConfigUnknownKey";
    case ErrorCode::ConfigInvalidValue:
        return "ConfigInvalidValue";
    case ErrorCode::ConfigMissingName:
        return "ConfigMissingName";
    case ErrorCode::ConfigDuplicateName:
        return "ConfigDuplicateName";
    case ErrorCode::ConfigNoLocation:
        return "ConfigNoLocation";
    case ErrorCode::ConfigMultipleBackends:
        return "ConfigMultipleBackends";
    case ErrorCode::ConfigMappedPaths:
        return "ConfigMappedPaths";
    case ErrorCode::ConfigDefaultHierarchy:
        return "ConfigDefaultHierarchy";
    case ErrorCode::ConfigMethodInPath:
        return "ConfigMethodInPath";
    case ErrorCode::DataUnreadable:
        return "DataUnreadable";
    case ErrorCode::DataSyntax:
        return "DataSyntax";
    case ErrorCode::DataType:
        return "DataType";
    case ErrorCode::DataLimit:
        return "DataLimit";
    case ErrorCode::DataNotHash:
        return "DataNotHash";
    case ErrorCode::UnsupportedBackend:
        return "UnsupportedBackend";
    case ErrorCode::UnknownBackend:
        return "UnknownBackend";
    case ErrorCode::KeySyntax:
        return "KeySyntax";
    case ErrorCode::InterpolationSyntax:
        return "InterpolationSyntax";
    case ErrorCode::UnknownMethod:
        return "UnknownMethod";
    case ErrorCode::AliasNotEntireString:
        return "AliasNotEntireString";
    case ErrorCode::RecursiveLookup:
        return "RecursiveLookup";
    case ErrorCode::InterpolationLimit:
        return "InterpolationLimit";
    case ErrorCode::MergeType:
        return "MergeType";
    case ErrorCode::MergeOptions:
        return "MergeOptions";
    case ErrorCode::LookupOptions:
        return "LookupOptions";
    case ErrorCode::ConvertTo:
        return "ConvertTo";
    case ErrorCode::EyamlDecrypt:
        return "EyamlDecrypt";
    case ErrorCode::EyamlKey:
        return "EyamlKey";
    case ErrorCode::FactsSyntax:
        return "FactsSyntax";
    case ErrorCode::Io:
        return "Io";
    case ErrorCode::Internal:
        return "Internal";
    }
    return "?";
}

} // namespace hiera
