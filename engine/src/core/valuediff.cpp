#include <hiera/valuediff.h>
#include <hiera/valueformat.h>

namespace hiera {

namespace {

std::string join(const std::string& path, const std::string& segment)
{
    return path.empty() ? segment : path + '.' + segment;
}

void compare(const Value* before, const Value* after, const std::string& path, std::vector<LeafDifference>& out,
             std::size_t limit, ArrayWalk arrays)
{
    if (out.size() >= limit)
        return;
    if (before && after && *before == *after)
        return;
    if (before && after && before->isHash() && after->isHash()) {
        for (const auto& e : after->asHash())
            compare(before->asHash().find(e.key), &e.value, join(path, keySegment(e.key)), out, limit, arrays);
        for (const auto& e : before->asHash())
            if (!after->asHash().find(e.key))
                compare(&e.value, nullptr, join(path, keySegment(e.key)), out, limit, arrays);
        return;
    }
    if (before && after && before->isArray() && after->isArray()
        && (arrays == ArrayWalk::Always || before->asArray().size() == after->asArray().size())) {
        const Array& a = before->asArray();
        const Array& b = after->asArray();
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
            compare(i < a.size() ? &a[i] : nullptr, i < b.size() ? &b[i] : nullptr, join(path, std::to_string(i)), out,
                    limit, arrays);
        return;
    }
    out.push_back({path, before ? std::optional<Value>(*before) : std::nullopt,
                   after ? std::optional<Value>(*after) : std::nullopt});
}

} // namespace

std::string keySegment(const Value& key)
{
    const std::string text = key.isString() ? key.asString() : interpolationString(key);
    const bool plain = !text.empty() && text.find_first_of(".'\" \t\n") == std::string::npos;
    if (plain)
        return text;
    if (text.find('\'') == std::string::npos)
        return '\'' + text + '\'';
    return '"' + text + '"';
}

std::vector<LeafDifference> leafDifferences(const Value& before, const Value& after, std::size_t limit,
                                            ArrayWalk arrays)
{
    std::vector<LeafDifference> out;
    compare(&before, &after, {}, out, limit, arrays);
    return out;
}

} // namespace hiera
