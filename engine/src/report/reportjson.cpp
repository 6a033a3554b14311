#include "report/reportjson.h"

namespace hiera::detail {

std::string reportJson(const Value& document, bool pretty)
{
    return writeJson(document, pretty, JsonInvalid::Replace);
}

} // namespace hiera::detail
