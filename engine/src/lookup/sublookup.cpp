// LookupRun as the interpolation host (Puppet's invocation.rb and sub_lookup.rb): lookup(), hiera() and
// alias() inside data, the stack of names being looked up that catches a recursion, the nesting and size
// limits, the warnings.

#include "lookup/lookuprun.h"

#include <algorithm>

namespace hiera::detail {

std::optional<Value> LookupRun::subLookup(const std::string& key, TraceCursor trace)
{
    if (m_subLookupMemo)
        if (auto it = m_subLookupMemo->find(key); it != m_subLookupMemo->end())
            return it->second;
    std::optional<LookupKey> parsed = LookupKey::tryParse(key);
    if (!parsed)
        throw Error(ErrorCode::InterpolationSyntax, "Syntax error in key given to a lookup: '" + key + "'");
    if (!pushName(key))
        throw Error(ErrorCode::RecursiveLookup, "Recursive lookup detected in " + nameChain(key));
    struct Pop
    {
        LookupRun& r;
        ~Pop() { r.popName(); }
    } pop{*this};
    Outcome o = lookupKey(*parsed, std::nullopt, trace);
    std::optional<Value> answer = o.found ? std::optional<Value>(std::move(o.value)) : std::nullopt;
    if (m_subLookupMemo)
        m_subLookupMemo->emplace(key, answer);
    return answer;
}

bool LookupRun::pushName(const std::string& name)
{
    if (std::find(m_names.begin(), m_names.end(), name) != m_names.end())
        return false;
    if (m_names.size() >= m_engine.options().maxInterpolationDepth)
        throw Error(ErrorCode::InterpolationLimit,
                    "lookups nested deeper than " + std::to_string(m_engine.options().maxInterpolationDepth)
                        + " levels: " + nameChain(name));
    m_names.push_back(name);
    return true;
}

std::string LookupRun::nameChain(const std::string&) const
{
    std::string s = "[";
    for (std::size_t i = 0; i < m_names.size(); ++i) {
        s += i ? ", " : "";
        s += m_names[i];
    }
    return s + "]";
}

std::size_t LookupRun::maxDepth() const
{
    return m_engine.options().maxInterpolationDepth;
}

std::size_t LookupRun::maxBytes() const
{
    return m_engine.options().maxInterpolatedBytes;
}

void LookupRun::warn(const std::string& message)
{
    if (std::find(m_warnings.begin(), m_warnings.end(), message) == m_warnings.end())
        m_warnings.push_back(message);
}

} // namespace hiera::detail
