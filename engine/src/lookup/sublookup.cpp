#include "lookup/sublookup.h"

namespace hiera::detail {

std::optional<Value> SubLookup::subLookup(const std::string& key, TraceCursor trace)
{
    if (m_memo)
        if (auto it = m_memo->find(key); it != m_memo->end())
            return it->second;
    std::optional<LookupKey> parsed = LookupKey::tryParse(key);
    if (!parsed)
        throw Error(ErrorCode::InterpolationSyntax, "Syntax error in key given to a lookup: '" + key + "'");
    if (!m_invocation.pushName(key))
        throw Error(ErrorCode::RecursiveLookup, "Recursive lookup detected in " + m_invocation.nameChain());
    struct Pop
    {
        Invocation& invocation;
        ~Pop() { invocation.popName(); }
    } pop{m_invocation};
    std::optional<Value> answer = m_lookups.lookupNested(*parsed, trace);
    if (m_memo)
        m_memo->emplace(key, answer);
    return answer;
}

} // namespace hiera::detail
