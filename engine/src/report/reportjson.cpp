#include "core/jsonwriter.h"

#include <hiera/report/json.h>

namespace hiera {

std::string reportJson(const Value& document, bool pretty)
{
    return detail::writeJson(document, pretty, detail::JsonInvalid::Replace);
}

} // namespace hiera
