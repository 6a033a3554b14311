#include "providers/valuechecks.h"

#include <hiera/valueformat.h>

namespace hiera::detail {

void rethrowAt(const Error& e, const Value& at)
{
    if (e.location().isValid())
        throw e;
    throw Error(e.code(), e.message(), SourceFiles::locate(at.mark()));
}

void checkLookupValue(const Value& v, std::string_view key)
{
    if (v.isArray()) {
        for (const auto& e : v.asArray())
            checkLookupValue(e, key);
    } else if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            if (!e.key.isString() && !e.key.isNumber())
                throw Error(ErrorCode::DataType,
                            "the value of '" + std::string(key) + "' has a hash key of type " + e.key.typeName() + " ("
                                + rubyInspect(e.key) + "), which Puppet cannot look up; quote the key",
                            SourceFiles::locate(e.key.mark()));
            checkLookupValue(e.value, key);
        }
    }
}

} // namespace hiera::detail
