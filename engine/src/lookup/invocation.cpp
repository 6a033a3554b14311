#include "lookup/invocation.h"

#include <hiera/error.h>

#include <algorithm>

namespace hiera::detail {

bool Invocation::pushName(std::string_view name)
{
    if (std::find(m_names.begin(), m_names.end(), name) != m_names.end())
        return false;
    if (m_names.size() >= maxDepth())
        throw Error(ErrorCode::InterpolationLimit,
                    "lookups nested deeper than " + std::to_string(maxDepth()) + " levels: " + nameChain());
    m_names.push_back(name);
    return true;
}

std::string Invocation::nameChain() const
{
    std::string s = "[";
    for (std::size_t i = 0; i < m_names.size(); ++i) {
        s += i ? ", " : "";
        s += m_names[i];
    }
    return s + "]";
}

void Invocation::warn(const std::string& message)
{
    if (std::find(m_warnings.begin(), m_warnings.end(), message) == m_warnings.end())
        m_warnings.push_back(message);
}

} // namespace hiera::detail
