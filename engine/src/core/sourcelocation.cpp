#include <hiera/sourcelocation.h>

#include <deque>
#include <mutex>
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
