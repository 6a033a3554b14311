#include "config/locationresolver.h"

#include "interpolate/interpolation.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <filesystem>
#include <fnmatch.h>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_set>

namespace hiera::detail {

namespace {

namespace fs = std::filesystem;

// Collapses "//", "/./" and a trailing "/" or "/.", which the file system reads the same way. ".." is
// kept: `nodes/../common.yaml` exists only when nodes/ does, and Puppet asks the file system (Puppet
// 7.23: a missing nodes/ gives location_not_found). Paths that need nothing are returned as they are.
bool isTidy(std::string_view p)
{
    return p.find("//") == std::string_view::npos && p.find("/./") == std::string_view::npos && !p.ends_with("/.")
        && !p.starts_with("./") && (p.size() < 2 || p.back() != '/');
}

std::string tidy(std::string p)
{
    if (isTidy(p))
        return p;
    const bool absolute = !p.empty() && p[0] == '/';
    std::string out = absolute ? "/" : "";
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t end = p.find('/', start);
        if (end == std::string::npos)
            end = p.size();
        const std::string_view part(p.data() + start, end - start);
        if (!part.empty() && part != ".") {
            if (!out.empty() && out.back() != '/')
                out += '/';
            out += part;
        }
        start = end + 1;
    }
    return out.empty() ? "." : out;
}

// Ruby's Pathname#+ (Puppet joins a datadir and a location with it): leading "." and ".." components
// of `rel` are taken lexically against `base`'s last components ("/.." is "/"); the rest of `rel` is
// returned as written, to be appended. `rel` must be relative.
std::pair<std::string, std::string> consumeLeading(std::string base, const std::string& rel)
{
    base = tidy(std::move(base));
    std::size_t pos = 0;
    while (pos < rel.size()) {
        std::size_t start = pos;
        while (start < rel.size() && rel[start] == '/')
            ++start;
        std::size_t end = rel.find('/', start);
        if (end == std::string::npos)
            end = rel.size();
        const std::string_view part(rel.data() + start, end - start);
        if (part == ".") {
            pos = end;
            continue;
        }
        if (part != "..")
            break;
        if (base == "/") { // Pathname: ".." at the root stays at the root
            pos = end;
            continue;
        }
        const std::size_t slash = base.rfind('/');
        const std::string_view last =
            slash == std::string::npos ? std::string_view(base) : std::string_view(base).substr(slash + 1);
        if (last == ".." || base.empty() || base == ".")
            break;
        base = slash == std::string::npos ? std::string() : slash == 0 ? std::string("/") : base.substr(0, slash);
        pos = end;
    }
    while (pos < rel.size() && rel[pos] == '/')
        ++pos;
    return {base, rel.substr(pos)};
}

// A relative path of plain components (no "." or "..", no empty one, no trailing "/"): what nearly
// every hierarchy path interpolates to (`nodes/web01.yaml`).
bool isPlainRelative(std::string_view rel)
{
    if (rel.empty() || rel.front() == '/' || rel.back() == '/')
        return false;
    std::size_t start = 0;
    while (start <= rel.size()) {
        std::size_t end = rel.find('/', start);
        if (end == std::string_view::npos)
            end = rel.size();
        const std::string_view part = rel.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            return false;
        start = end + 1;
    }
    return true;
}

// The common case of joinPath and appendPath, every level of every node: a tidy base and a plain
// relative path join as written (the general code would return the same string, at several times the
// cost). Empty when the case does not apply.
std::optional<std::string> joinPlain(const std::string& base, const std::string& rel)
{
    if (base.empty() || base == "." || !isTidy(base) || !isPlainRelative(rel))
        return std::nullopt;
    std::string out;
    out.reserve(base.size() + 1 + rel.size());
    out += base;
    if (base != "/")
        out += '/';
    out += rel;
    return out;
}

std::string appendPath(const std::string& base, const std::string& rest)
{
    if (auto plain = joinPlain(base, rest))
        return std::move(*plain);
    if (rest.empty())
        return base.empty() ? std::string(".") : base;
    if (base.empty())
        return tidy(rest);
    return tidy(base.back() == '/' ? base + rest : base + '/' + rest);
}

// `base` + `rel` as Pathname#+ does: an absolute `rel` replaces `base`.
std::string joinPath(const std::string& base, const std::string& rel)
{
    if (!rel.empty() && rel[0] == '/')
        return tidy(rel);
    if (auto plain = joinPlain(base, rel))
        return std::move(*plain);
    auto [b, rest] = consumeLeading(base, rel);
    return appendPath(b, rest);
}

// Escapes glob metacharacters so that a datadir is matched literally (braces included: they are
// alternatives, docs/hiera-reference.md §2.3).
std::string globEscape(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\' || c == '{' || c == '}')
            out += '\\';
        out += c;
    }
    return out;
}

// An empty path component, or one that is only an extension (`nodes/.yaml`), shows an empty
// interpolation even when the variable was defined (as "").
bool looksSuspicious(const std::string& rel)
{
    if (rel.empty())
        return true;
    std::size_t start = 0;
    while (start <= rel.size()) {
        std::size_t end = rel.find('/', start);
        if (end == std::string::npos)
            end = rel.size();
        const std::string part = rel.substr(start, end - start);
        if (part.empty() && end != rel.size() && start != 0)
            return true;
        if (part.size() > 1 && part[0] == '.' && part != "..")
            return true;
        start = end + 1;
    }
    return false;
}

void withLocation(const LocationSpec& spec, const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        if (e.location().isValid())
            throw;
        throw Error(e.code(), e.message(), spec.location);
    }
}

} // namespace

namespace {

// One step of Ruby's ruby_brace_expand (dir.c), written out by hand: glob(3)'s GLOB_BRACE differs
// (it treats an unclosed brace as literal and sorts nothing across alternatives the same way), and no
// library does Ruby's rules.
void expandBracesInto(const std::string& s, std::vector<std::string>& out)
{
    std::size_t lbrace = std::string::npos, rbrace = std::string::npos;
    int nest = 0;
    for (std::size_t p = 0; p < s.size(); ++p) {
        if (s[p] == '{' && nest++ == 0)
            lbrace = p;
        if (s[p] == '}' && lbrace != std::string::npos && --nest == 0) {
            rbrace = p;
            break;
        }
        if (s[p] == '\\' && ++p >= s.size())
            break;
    }
    if (lbrace == std::string::npos) {
        if (out.size() >= maxBraceAlternatives)
            throw Error(ErrorCode::ConfigInvalidValue,
                        "the glob has more than " + std::to_string(maxBraceAlternatives) + " brace alternatives");
        out.push_back(s);
        return;
    }
    if (rbrace == std::string::npos)
        return; // an unclosed brace: Ruby matches nothing
    const std::string head = s.substr(0, lbrace);
    const std::string tail = s.substr(rbrace + 1);
    std::size_t p = lbrace;
    while (p < rbrace) {
        const std::size_t t = ++p;
        nest = 0;
        while (p < rbrace && !(s[p] == ',' && nest == 0)) {
            if (s[p] == '{')
                ++nest;
            if (s[p] == '}')
                --nest;
            if (s[p] == '\\' && ++p == rbrace)
                break;
            ++p;
        }
        expandBracesInto(head + s.substr(t, p - t) + tail, out);
    }
}

} // namespace

std::vector<std::string> expandBraces(const std::string& pattern)
{
    std::vector<std::string> out;
    expandBracesInto(pattern, out);
    return out;
}

std::string unescapeGlob(const std::string& pattern)
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '\\' && i + 1 < pattern.size())
            ++i;
        out += pattern[i];
    }
    return out;
}

namespace {

// One component of a glob pattern, as Ruby's glob_make_pattern (dir.c) reads it: `**` followed by a
// slash matches zero or more directories; a component holding an unescaped `*`, `?` or `[` is
// matched against each directory entry; any other is a name (escapes removed), joined without
// reading the directory.
struct GlobPart
{
    enum class Kind { Name, Magic, Recursive };
    Kind kind;
    std::string text;
};

bool hasMagic(std::string_view component)
{
    for (std::size_t i = 0; i < component.size(); ++i) {
        if (component[i] == '\\') {
            ++i;
            continue;
        }
        if (component[i] == '*' || component[i] == '?' || component[i] == '[')
            return true;
    }
    return false;
}

std::vector<GlobPart> globParts(const std::string& pattern)
{
    std::vector<std::string> components;
    std::size_t start = 0;
    while (start <= pattern.size()) {
        std::size_t end = pattern.find('/', start);
        if (end == std::string::npos)
            end = pattern.size();
        if (end > start)
            components.push_back(pattern.substr(start, end - start));
        start = end + 1;
    }
    std::vector<GlobPart> parts;
    for (std::size_t i = 0; i < components.size(); ++i) {
        const std::string& c = components[i];
        if (c == "**" && i + 1 < components.size()) {
            if (parts.empty() || parts.back().kind != GlobPart::Kind::Recursive) // `**/**/` is one
                parts.push_back({GlobPart::Kind::Recursive, c});
        } else if (hasMagic(c)) {
            parts.push_back({GlobPart::Kind::Magic, c}); // `**` last is `*`, as in Ruby
        } else {
            parts.push_back({GlobPart::Kind::Name, unescapeGlob(c)});
        }
    }
    return parts;
}

enum class EntryType { Unknown, Missing, Directory, Symlink, Other };

EntryType lstatType(const SourceTree& tree, const std::string& path)
{
    const TreeStat st = tree.lstat(path.empty() ? "." : path); // a relative glob starts at ""
    switch (st.kind) {
    case TreeStat::Kind::Missing:
        return EntryType::Missing;
    case TreeStat::Kind::Directory:
        return EntryType::Directory;
    case TreeStat::Kind::Symlink:
        return EntryType::Symlink;
    case TreeStat::Kind::File:
    case TreeStat::Kind::Other:
        break;
    }
    return EntryType::Other;
}

EntryType typeOfEntry(TreeEntry::Type type)
{
    switch (type) {
    case TreeEntry::Type::Unknown:
        return EntryType::Unknown;
    case TreeEntry::Type::Directory:
        return EntryType::Directory;
    case TreeEntry::Type::Symlink:
        return EntryType::Symlink;
    case TreeEntry::Type::Other:
        break;
    }
    return EntryType::Other;
}

std::string joinEntry(const std::string& dir, const std::string& name)
{
    if (dir.empty())
        return name;
    return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// Ruby's glob_helper (dir.c) for one brace-free pattern, with Dir.glob's defaults (sorted, no
// FNM_DOTMATCH): a directory's entries are read once, sorted bytewise, and each entry is matched
// against every place the pattern can be at, so that the matches come depth first in sorted order
// (g/a/x.yaml, g/b.yaml, g/c/x.yaml for g/**/*.yaml). A wildcard never matches a leading dot, and
// `**/` never enters a hidden directory nor a symbolic link to one.
class RubyGlob
{
public:
    RubyGlob(const SourceTree& tree, std::vector<GlobPart> parts, GlobExpansion& out)
        : m_tree(tree)
        , m_parts(std::move(parts))
        , m_out(out)
    {
    }

    void run(const std::string& root) { visit(root, EntryType::Unknown, {0}); }

private:
    using Places = std::vector<std::size_t>; // indices into m_parts; m_parts.size() = the whole matched

    void visit(const std::string& path, EntryType type, const Places& places)
    {
        const std::size_t n = m_parts.size();
        if (std::find(places.begin(), places.end(), n) != places.end()) {
            if (type == EntryType::Unknown)
                type = lstatType(m_tree, path);
            if (type != EntryType::Missing)
                m_out.matches.push_back(path);
        }
        if (type == EntryType::Missing)
            return;
        bool reads = false; // a wildcard or `**/` at some place: the directory must be read
        for (std::size_t p : places)
            if (p < n && m_parts[p].kind != GlobPart::Kind::Name)
                reads = true;
        if (!reads) {
            for (std::size_t p : places) {
                if (p >= n)
                    continue;
                if (p + 1 == n)
                    noteDirectory(path); // where the file named last would appear
                visit(joinEntry(path, m_parts[p].text), EntryType::Unknown, {p + 1});
            }
            return;
        }
        std::optional<std::vector<TreeEntry>> listed = m_tree.list(path.empty() ? "." : path);
        if (!listed)
            return;
        noteDirectory(path);
        std::vector<std::pair<std::string, EntryType>> entries;
        entries.reserve(listed->size());
        for (TreeEntry& e : *listed)
            entries.emplace_back(std::move(e.name), typeOfEntry(e.type));
        std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [name, entryType] : entries) {
            const std::string entryPath = joinEntry(path, name);
            Places next;
            auto add = [&](std::size_t p) {
                if (std::find(next.begin(), next.end(), p) == next.end())
                    next.push_back(p);
            };
            for (std::size_t p : places) {
                if (p >= n)
                    continue;
                std::size_t q = p;
                if (m_parts[p].kind == GlobPart::Kind::Recursive) {
                    if (name[0] != '.') {
                        if (entryType == EntryType::Unknown)
                            entryType = lstatType(m_tree, entryPath);
                        if (entryType == EntryType::Directory)
                            add(p); // one more directory for `**/`
                    }
                    q = p + 1; // and none
                }
                const GlobPart& part = m_parts[q];
                const bool matches = part.kind == GlobPart::Kind::Name
                    ? name == part.text
                    : ::fnmatch(part.text.c_str(), name.c_str(), FNM_PERIOD) == 0;
                if (matches)
                    add(q + 1);
            }
            if (!next.empty())
                visit(entryPath, entryType, next);
        }
    }

    void noteDirectory(const std::string& path)
    {
        if (m_noted.insert(path).second)
            m_out.directories.push_back(path.empty() ? "." : path);
    }

    const SourceTree& m_tree;
    std::vector<GlobPart> m_parts;
    GlobExpansion& m_out;
    std::unordered_set<std::string> m_noted;
};

} // namespace

GlobExpansion expandGlob(const SourceTree& tree, const std::string& pattern)
{
    GlobExpansion out;
    for (const std::string& alternative : expandBraces(pattern)) {
        GlobExpansion one;
        RubyGlob(tree, globParts(alternative), one).run(!alternative.empty() && alternative[0] == '/' ? "/" : "");
        for (std::string& m : one.matches) {
            if (tree.stat(m).kind == TreeStat::Kind::Directory)
                continue; // Puppet drops directories (a symbolic link to one too)
            out.matches.push_back(std::move(m));
        }
        for (std::string& d : one.directories)
            out.directories.push_back(std::move(d));
    }
    return out;
}

GlobCache::GlobCache(std::chrono::milliseconds interval, std::shared_ptr<const SourceTree> tree)
    : m_interval(interval)
    , m_tree(tree ? std::move(tree) : SourceTree::workingTree())
{
}

std::shared_ptr<const GlobExpansion> GlobCache::expand(const std::string& pattern)
{
    const auto now = std::chrono::steady_clock::now();
    if (m_interval.count() > 0) {
        std::lock_guard lock(m_mutex);
        if (auto it = m_entries.find(pattern); it != m_entries.end() && now - it->second.checkedAt < m_interval)
            return it->second.matches;
    }
    auto matches = std::make_shared<const GlobExpansion>(expandGlob(*m_tree, pattern));
    if (m_interval.count() > 0) {
        std::lock_guard lock(m_mutex);
        if (m_entries.size() > 10000)
            m_entries.clear();
        m_entries[pattern] = Entry{matches, now};
    }
    return matches;
}

void GlobCache::clear()
{
    std::lock_guard lock(m_mutex);
    m_entries.clear();
}

namespace {
// A NUL byte in an interpolated path (from a fact such as `../../etc/secret\0`) would end the path at
// the NUL in every system call, dropping the `.yaml` the hierarchy adds and reading any file. Ruby
// refuses such strings ("string contains null byte"), and so does every path of a level here.
LocationInterpolation checkedPath(LocationInterpolation li, const Level& level, const std::string& declared)
{
    if (li.text.find('\0') != std::string::npos) {
        std::string shown;
        for (char c : li.text)
            shown += c == '\0' ? std::string("\\0") : std::string(1, c);
        throw Error(ErrorCode::InterpolationSyntax,
                    "level '" + level.name + "': the path '" + declared + "' interpolates to '" + shown
                        + "', which contains a NUL byte (string contains null byte)");
    }
    return li;
}

bool underPrefix(const std::string& path, const std::string& prefix)
{
    return path.size() >= prefix.size() && path.compare(0, prefix.size(), prefix) == 0
        && (path.size() == prefix.size() || path[prefix.size()] == '/' || prefix.ends_with('/'));
}

// An absolute path of the deployment read from the checkout (Config::deployedPaths); `deployed` is set
// to the path as written when it was mapped, `outside` when it lies under a deployment root that no
// mapping covers. The path is normalised lexically first, as the deployed machine's file system would
// resolve it (docs/layers.md): `…/environments/production/../../outside` is not in the environment, so
// a `..` can never carry a mapped path out of the checkout. For a glob `pattern`, the checkout's own
// folder is escaped before the rest of the pattern joins it (a checkout named `ck[1]` is no pattern).
std::string mapDeployed(const Config& config, const std::string& path, std::string* deployed, bool* outside,
                        bool pattern = false)
{
    if (path.empty() || path[0] != '/')
        return path;
    // Most paths are normal already, and std::filesystem allocates a path per component: this ran
    // for every candidate of every node (a tenth of a revision diff over 20,000 nodes).
    const std::string_view p(path);
    const bool normalAlready = p.find("//") == p.npos && p.find("/./") == p.npos && p.find("/../") == p.npos
        && !p.ends_with("/.") && !p.ends_with("/..");
    const std::string normal = normalAlready ? path : std::filesystem::path(path).lexically_normal().string();
    bool climbedOut = false;
    for (const DeployedPath& d : config.deployedPaths) {
        if (underPrefix(normal, d.deployed)) {
            if (deployed)
                *deployed = path;
            return (pattern ? globEscape(d.local) : d.local) + normal.substr(d.deployed.size());
        }
        climbedOut = climbedOut || underPrefix(path, d.deployed);
    }
    if (outside) {
        *outside = *outside || climbedOut;
        for (const std::string& root : config.deploymentRoots)
            *outside = *outside || underPrefix(normal, root);
    }
    return path;
}

// Maps a candidate's path (an absolute location replaces the datadir: Pathname#+).
void mapCandidate(const Config& config, Candidate& c)
{
    if (config.deployedPaths.empty() && config.deploymentRoots.empty())
        return;
    std::string deployed;
    c.path = mapDeployed(config, c.path, &deployed, &c.outsideRepository);
    if (!deployed.empty())
        c.deployedPath = std::move(deployed);
}

// One candidate from a path or a mapped_paths template, interpolated.
Candidate pathCandidate(const LocationSpec& spec, const std::string& datadir, LocationInterpolation li)
{
    Candidate c;
    c.kind = spec.kind;
    c.declared = spec.pattern;
    c.originalPath = spec.pattern;
    c.path = joinPath(datadir, li.text);
    c.interpolated = std::move(li.text);
    c.undefinedVariables = std::move(li.undefinedVariables);
    c.suspicious = !c.undefinedVariables.empty() || looksSuspicious(c.interpolated);
    return c;
}
} // namespace

LevelLocations resolveLevel(const Config& config, const Level& level, const Scope& scope, GlobCache& globs)
{
    LevelLocations out;
    // Puppet joins the datadir to hiera.yaml's directory *before* interpolating it
    // (`@config_root + datadir`, then interpolate): only a datadir written absolute is absolute;
    // `%{facts.root}/data` with root=/srv is `<config dir>//srv/data`.
    if (!level.datadir.empty() && level.datadir[0] == '/') {
        out.datadir = tidy(checkedPath(interpolateLocation(level.datadir, scope), level, level.datadir).text);
    } else {
        auto [base, rest] = consumeLeading(config.directory, level.datadir);
        out.datadir = appendPath(base, checkedPath(interpolateLocation(rest, scope), level, level.datadir).text);
    }
    // The deployment's datadir (/etc/puppetlabs/code/environments/production/hieradata) read from the
    // checkout; what is joined to it below follows.
    std::string deployedDatadir;
    bool datadirOutside = false;
    out.datadir = mapDeployed(config, out.datadir, &deployedDatadir, &datadirOutside);

    for (const LocationSpec& spec : level.locations) {
        withLocation(spec, [&] {
            switch (spec.kind) {
            case LocationSpec::Kind::Path:
                out.candidates.push_back(pathCandidate(
                    spec, out.datadir, checkedPath(interpolateLocation(spec.pattern, scope), level, spec.pattern)));
                mapCandidate(config, out.candidates.back());
                break;
            case LocationSpec::Kind::Glob: {
                LocationInterpolation li = checkedPath(interpolateLocation(spec.pattern, scope), level, spec.pattern);
                std::string pattern = li.text;
                bool globOutside = datadirOutside;
                if (li.text.empty() || li.text[0] != '/') {
                    auto [base, rest] = consumeLeading(out.datadir, li.text);
                    pattern = globEscape(base) + (base.ends_with('/') ? "" : "/") + rest;
                } else {
                    globOutside = false;
                    pattern = mapDeployed(config, pattern, nullptr, &globOutside, /*pattern*/ true);
                }
                const std::string joined = joinPath(out.datadir, li.text);
                const auto expansion = globs.expand(pattern); // keep the list alive through the loop
                const std::size_t firstPattern = out.globPatterns.size();
                for (const std::string& alternative : expandBraces(pattern))
                    out.globPatterns.push_back(unescapeGlob(alternative));
                if (out.globPatterns.size() > firstPattern) {
                    // The directories read, as patterns in them: a watcher watches each pattern's directory.
                    const std::string& first = out.globPatterns[firstPattern];
                    const std::string last = first.substr(first.rfind('/') + 1);
                    std::unordered_set<std::string> seen(
                        out.globPatterns.begin() + static_cast<std::ptrdiff_t>(firstPattern), out.globPatterns.end());
                    for (const std::string& directory : expansion->directories)
                        if (std::string watched = joinEntry(directory, last); seen.insert(watched).second)
                            out.globPatterns.push_back(std::move(watched));
                }
                for (const std::string& match : expansion->matches) {
                    Candidate c;
                    c.kind = spec.kind;
                    c.declared = spec.pattern;
                    c.originalPath = joined;
                    c.path = tidy(match);
                    c.interpolated =
                        c.path.starts_with(out.datadir + "/") ? c.path.substr(out.datadir.size() + 1) : c.path;
                    c.undefinedVariables = li.undefinedVariables;
                    c.suspicious = !c.undefinedVariables.empty();
                    c.outsideRepository = globOutside;
                    out.candidates.push_back(std::move(c));
                }
                break;
            }
            case LocationSpec::Kind::MappedPaths: {
                std::optional<Value> list = scope.lookup(spec.scopeKey);
                // Seed: a missing or non-array scope value contributes no paths.
                if (!list || !list->isArray())
                    break;
                for (const Value& element : list->asArray()) {
                    BoundScope bound(scope, spec.loopVariable, element);
                    out.candidates.push_back(pathCandidate(
                        spec, out.datadir, checkedPath(interpolateLocation(spec.pattern, bound), level, spec.pattern)));
                    mapCandidate(config, out.candidates.back());
                }
                break;
            }
            }
        });
    }
    if (!deployedDatadir.empty())
        for (Candidate& c : out.candidates)
            if (c.deployedPath.empty() && c.path.starts_with(out.datadir + "/"))
                c.deployedPath = deployedDatadir + c.path.substr(out.datadir.size());
    return out;
}

} // namespace hiera::detail
