#include <hiera/lookupkey.h>
#include <hiera/scope.h>

namespace hiera {

namespace {

std::string_view stripTopScope(std::string_view ref)
{
    if (ref.substr(0, 2) == "::")
        ref.remove_prefix(2);
    return ref;
}

} // namespace

MapScope::MapScope(Value root) : m_root(std::move(root))
{
}

std::optional<Value> MapScope::lookup(std::string_view ref) const
{
    ref = stripTopScope(ref);
    if (!m_root.isHash() || ref.empty())
        return std::nullopt;
    // Fast path: a plain name.
    if (LookupKey::isSingleSegment(ref)) {
        if (const Value* v = m_root.asHash().find(ref))
            return *v;
        return std::nullopt;
    }
    auto key = LookupKey::tryParse(ref);
    if (!key)
        return std::nullopt;
    const Value* root = m_root.asHash().find(std::string_view(key->root()));
    if (!root)
        return std::nullopt;
    if (const Value* v = dig(*root, key->segments()))
        return *v;
    return std::nullopt;
}

BoundScope::BoundScope(const Scope& parent, std::string name, Value value)
    : m_parent(parent)
    , m_name(std::move(name))
    , m_value(std::move(value))
{
}

std::optional<Value> BoundScope::lookup(std::string_view ref) const
{
    // `::name` means top scope only: Puppet binds the mapped_paths loop variable in a local scope, so
    // `%{::dc}` still reads the top-scope `dc` (Puppet 7.23), and only `%{dc}` sees the element.
    if (ref.substr(0, 2) == "::")
        return m_parent.lookup(ref);
    const std::string_view r = ref;
    if (r.substr(0, m_name.size()) == m_name) {
        if (r.size() == m_name.size())
            return m_value;
        if (r[m_name.size()] == '.') {
            auto key = LookupKey::tryParse(r);
            if (key && key->root() == m_name) {
                if (const Value* v = dig(m_value, key->segments()))
                    return *v;
                return std::nullopt;
            }
        }
    }
    return m_parent.lookup(ref);
}

} // namespace hiera
