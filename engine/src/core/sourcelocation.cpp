#include <hiera/sourcelocation.h>

#include <deque>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <unordered_map>

namespace hiera {

std::string SourceLocation::toString() const
{
    std::string s = file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0)
            s += ':' + std::to_string(column);
    }
    return s;
}

namespace {
// The digits at `text[at...]`, and where they end; nothing when there are none (or too many for a line).
std::optional<std::pair<int, std::size_t>> digitsAt(std::string_view text, std::size_t at)
{
    std::size_t end = at;
    int value = 0;
    while (end < text.size() && end - at < 9 && text[end] >= '0' && text[end] <= '9')
        value = value * 10 + (text[end++] - '0');
    if (end == at || (end < text.size() && text[end] >= '0' && text[end] <= '9'))
        return std::nullopt;
    return std::pair{value, end};
}
} // namespace

SourceLocation leadingLocation(std::string_view message)
{
    // Written by hand: a regular expression would need backtracking to find the first ":<line>:" after
    // a path that may hold colons, and this runs over every warning of a node's report.
    for (std::size_t colon = message.find(':'); colon != std::string_view::npos && colon > 0;
         colon = message.find(':', colon + 1)) {
        const auto line = digitsAt(message, colon + 1);
        if (!line && colon + 1 < message.size() && message[colon + 1] >= '0' && message[colon + 1] <= '9')
            return {}; // more digits than a line has: not a place
        if (!line || line->second >= message.size() || message[line->second] != ':')
            continue;
        if (line->first == 0) // the first ":<digits>:" is the place; line 0 is none
            return {};
        SourceLocation where{std::string(message.substr(0, colon)), line->first, 0};
        if (const auto column = digitsAt(message, line->second + 1);
            column && column->second < message.size() && message[column->second] == ':')
            where.column = column->first;
        return where;
    }
    return {};
}

namespace {
struct Registry
{
    std::shared_mutex mutex;
    std::deque<std::string> names{std::string()}; // id 0 = unknown
    std::unordered_map<std::string, std::uint32_t> ids;
};

Registry& registry()
{
    static Registry r;
    return r;
}
} // namespace

std::uint32_t SourceFiles::intern(const std::string& path)
{
    if (path.empty())
        return 0;
    Registry& r = registry();
    {
        std::shared_lock lock(r.mutex);
        if (auto it = r.ids.find(path); it != r.ids.end())
            return it->second;
    }
    std::unique_lock lock(r.mutex);
    auto [it, inserted] = r.ids.emplace(path, static_cast<std::uint32_t>(r.names.size()));
    if (inserted)
        r.names.push_back(path);
    return it->second;
}

std::string SourceFiles::name(std::uint32_t id)
{
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    return id < r.names.size() ? r.names[id] : std::string();
}

SourceLocation SourceFiles::locate(const SourceMark& mark)
{
    return {name(mark.file), static_cast<int>(mark.line), static_cast<int>(mark.column)};
}

SourceMark SourceFiles::mark(const std::string& path, int line, int column)
{
    return {intern(path), static_cast<std::uint32_t>(line > 0 ? line : 0),
            static_cast<std::uint32_t>(column > 0 ? column : 0)};
}

} // namespace hiera
