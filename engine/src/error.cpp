#include <hiera/error.h>

namespace hiera {

namespace {
std::string withLocation(const std::string& message, const SourceLocation& location)
{
    return location.isValid() ? location.toString() + ": " + message : message;
}
} // namespace

Error::Error(ErrorCode code, std::string message, SourceLocation location)
    : std::runtime_error(withLocation(message, location))
    , m_code(code)
    , m_message(std::move(message))
    , m_location(std::move(location))
{
}

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::None: return "None";
    case ErrorCode::ConfigUnreadable: return "ConfigUnreadable";
    case ErrorCode::ConfigSyntax: return "ConfigSyntax";
    case ErrorCode::ConfigVersion: return "ConfigVersion";
    case ErrorCode::ConfigUnknownKey: return "ConfigUnknownKey";
    case ErrorCode::ConfigInvalidValue: return "ConfigInvalidValue";
    case ErrorCode::ConfigMissingName: return "ConfigMissingName";
    case ErrorCode::ConfigDuplicateName: return "ConfigDuplicateName";
    case ErrorCode::ConfigNoLocation: return "ConfigNoLocation";
    case ErrorCode::ConfigMultipleBackends: return "ConfigMultipleBackends";
    case ErrorCode::ConfigMappedPaths: return "ConfigMappedPaths";
    case ErrorCode::ConfigDefaultHierarchy: return "ConfigDefaultHierarchy";
    case ErrorCode::ConfigMethodInPath: return "ConfigMethodInPath";
    case ErrorCode::DataUnreadable: return "DataUnreadable";
    case ErrorCode::DataSyntax: return "DataSyntax";
    case ErrorCode::DataType: return "DataType";
    case ErrorCode::DataLimit: return "DataLimit";
    case ErrorCode::DataNotHash: return "DataNotHash";
    case ErrorCode::UnsupportedBackend: return "UnsupportedBackend";
    case ErrorCode::UnknownBackend: return "UnknownBackend";
    case ErrorCode::KeySyntax: return "KeySyntax";
    case ErrorCode::InterpolationSyntax: return "InterpolationSyntax";
    case ErrorCode::UnknownMethod: return "UnknownMethod";
    case ErrorCode::AliasNotEntireString: return "AliasNotEntireString";
    case ErrorCode::RecursiveLookup: return "RecursiveLookup";
    case ErrorCode::InterpolationLimit: return "InterpolationLimit";
    case ErrorCode::MergeType: return "MergeType";
    case ErrorCode::MergeOptions: return "MergeOptions";
    case ErrorCode::LookupOptions: return "LookupOptions";
    case ErrorCode::ConvertTo: return "ConvertTo";
    case ErrorCode::FactsSyntax: return "FactsSyntax";
    case ErrorCode::Io: return "Io";
    }
    return "?";
}

} // namespace hiera
