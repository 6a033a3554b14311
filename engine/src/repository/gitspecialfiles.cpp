#include "repository/gitspecialfiles.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace hiera::detail {

namespace {

constexpr std::uintmax_t kMaxConfigBytes = 1u << 20; // larger config files are not read for names
constexpr int kMaxIncludeDepth = 10; // git's own limit

// "a FIFO" for a special file; nothing for a regular file, a directory, a symlink or nothing at all.
std::optional<std::string> specialKind(fs::file_type type)
{
    switch (type) {
    case fs::file_type::fifo:
        return "a FIFO";
    case fs::file_type::block:
    case fs::file_type::character:
        return "a device";
    case fs::file_type::socket:
        return "a socket";
    case fs::file_type::unknown:
        return "not a file";
    default:
        return std::nullopt;
    }
}

// The type of what `p` names, following symlinks (stat(2) never opens the file, so a FIFO cannot block
// it); not_found when nothing is there or a link dangles.
fs::file_type followedType(const fs::path& p)
{
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    return ec ? fs::file_type::not_found : st.type();
}

std::string shown(const fs::path& p, const fs::path& root)
{
    const fs::path rel = p.lexically_normal().lexically_relative(root);
    const std::string text = rel.empty() || *rel.begin() == ".." ? p.string() : rel.string();
    return "'" + text + "'";
}

std::string trimmed(std::string s)
{
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
    s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return s;
}

std::string lowered(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

class Checker
{
public:
    Checker(const GitPlaces& places, std::string home, bool withWorkTree)
        : m_places(places)
        , m_home(std::move(home))
        , m_withWorkTree(withWorkTree)
    {
    }

    std::optional<std::string> run()
    {
        if (auto p = gitDirectory())
            return p;
        std::vector<fs::path> configs{m_places.gitDir / "config", "/etc/gitconfig"};
        const char* xdg = std::getenv("XDG_CONFIG_HOME");
        const fs::path xdgGit = xdg && *xdg ? fs::path(xdg) / "git"
            : m_home.empty()                ? fs::path()
                                            : fs::path(m_home) / ".config/git";
        if (!m_home.empty())
            configs.push_back(fs::path(m_home) / ".gitconfig");
        if (!xdgGit.empty()) {
            configs.push_back(xdgGit / "config");
            m_named.push_back(xdgGit / "ignore");
            m_named.push_back(xdgGit / "attributes");
        }
        for (const fs::path& c : configs)
            if (auto p = config(c, 0))
                return p;
        for (const fs::path& named : m_named)
            if (auto kind = specialKind(followedType(named)))
                return shown(named, m_places.workTree) + " (named by a git config file) is " + *kind;
        return m_withWorkTree ? workTree() : std::nullopt;
    }

private:
    // Every entry of the git directory: libgit2 may open any of them (refs, index, objects, info/...).
    std::optional<std::string> gitDirectory() const
    {
        std::error_code ec;
        fs::recursive_directory_iterator it(m_places.gitDir, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const fs::file_type type = it->symlink_status(ec).type();
            if (ec)
                return std::nullopt;
            const fs::file_type target = type == fs::file_type::symlink ? followedType(it->path()) : type;
            if (auto kind = specialKind(target))
                return shown(it->path(), m_places.workTree) + " is " + *kind;
        }
        return std::nullopt;
    }

    // A config file: must be regular when it exists; the files it names are checked, and the config
    // files it includes read in turn.
    std::optional<std::string> config(const fs::path& file, int depth)
    {
        const fs::file_type type = followedType(file);
        if (type == fs::file_type::not_found)
            return std::nullopt;
        if (auto kind = specialKind(type))
            return shown(file, m_places.workTree) + " (a git config file) is " + *kind;
        if (type != fs::file_type::regular || depth > kMaxIncludeDepth
            || !m_read.insert(file.lexically_normal()).second)
            return std::nullopt;
        std::error_code ec;
        if (fs::file_size(file, ec) > kMaxConfigBytes || ec)
            return std::nullopt;
        std::ifstream in(file); // a regular file, known by stat just now
        std::string line;
        std::vector<fs::path> includes;
        while (std::getline(in, line)) {
            const std::size_t eq = line.find('=');
            if (eq == std::string::npos)
                continue;
            const std::string key = lowered(trimmed(line.substr(0, eq)));
            if (key != "path" && key != "excludesfile" && key != "attributesfile")
                continue;
            fs::path target = expanded(trimmed(line.substr(eq + 1)));
            if (target.empty())
                continue;
            if (key == "path") {
                if (target.is_relative())
                    target = file.parent_path() / target;
                includes.push_back(target);
            } else {
                m_named.push_back(target.is_relative() ? m_places.workTree / target : target);
            }
        }
        for (const fs::path& include : includes)
            if (auto p = config(include, depth + 1))
                return p;
        return std::nullopt;
    }

    fs::path expanded(const std::string& value) const
    {
        if (value.rfind("~/", 0) == 0)
            return m_home.empty() ? fs::path() : fs::path(m_home) / value.substr(2);
        return fs::path(value);
    }

    // The work tree: `.gitignore` and `.gitattributes` files are read (through symlinks), and any other
    // entry git may hash when its stat differs from the index; git's own directories are skipped.
    std::optional<std::string> workTree() const
    {
        std::error_code ec;
        fs::recursive_directory_iterator it(m_places.workTree, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const fs::path name = it->path().filename();
            const fs::file_type type = it->symlink_status(ec).type();
            if (ec)
                return std::nullopt;
            if (name == ".git") {
                if (type == fs::file_type::directory)
                    it.disable_recursion_pending();
                continue;
            }
            fs::file_type checked = type;
            if (type == fs::file_type::symlink && (name == ".gitignore" || name == ".gitattributes"))
                checked = followedType(it->path());
            if (auto kind = specialKind(checked))
                return shown(it->path(), m_places.workTree) + " is " + *kind;
        }
        return std::nullopt;
    }

    const GitPlaces& m_places;
    std::string m_home;
    bool m_withWorkTree = true;
    std::vector<fs::path> m_named; // files config files name, checked once all configs are read
    std::set<fs::path> m_read;
};

} // namespace

std::optional<GitPlaces> findGitPlaces(const fs::path& start, std::string& problem)
{
    std::error_code ec;
    fs::path dir = fs::absolute(start, ec).lexically_normal();
    if (ec)
        return std::nullopt;
    if (!dir.has_filename())
        dir = dir.parent_path();
    for (;;) {
        const fs::path dotGit = dir / ".git";
        const fs::file_type type = followedType(dotGit);
        if (type == fs::file_type::directory)
            return GitPlaces{dir, dotGit};
        if (auto kind = specialKind(type)) {
            problem = shown(dotGit, dir) + " is " + *kind;
            return GitPlaces{dir, {}};
        }
        if (type == fs::file_type::regular) {
            // A worktree or submodule: "gitdir: <path>".
            std::ifstream in(dotGit);
            std::string line;
            std::getline(in, line);
            const std::string prefix = "gitdir:";
            fs::path gitDir = line.rfind(prefix, 0) == 0 ? fs::path(trimmed(line.substr(prefix.size()))) : fs::path();
            if (!gitDir.empty() && gitDir.is_relative())
                gitDir = dir / gitDir;
            if (gitDir.empty() || followedType(gitDir) != fs::file_type::directory) {
                problem = "'.git' names no git directory";
                return GitPlaces{dir, {}};
            }
            return GitPlaces{dir, gitDir};
        }
        if (dir == dir.root_path() || !dir.has_parent_path() || dir.parent_path() == dir)
            return std::nullopt;
        dir = dir.parent_path();
    }
}

std::optional<std::string> specialFileGitWouldOpen(const GitPlaces& places, const std::string& home, bool withWorkTree)
{
    return Checker(places, home, withWorkTree).run();
}

} // namespace hiera::detail
