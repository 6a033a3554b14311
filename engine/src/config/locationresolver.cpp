#include "config/locationresolver.h"

#include "interpolate/interpolation.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <glob.h>
#include <optional>
#include <string_view>

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

std::vector<std::string> expandGlob(const std::string& pattern)
{
    std::vector<std::string> out;
    for (const std::string& alternative : expandBraces(pattern)) {
        const std::size_t first = out.size();
        glob_t g{};
        // GLOB_MARK marks directories with a trailing '/', so that they can be dropped (a directory
        // cannot be a data file). Sorting is ours: bytewise, independent of the locale.
        const int rc = ::glob(alternative.c_str(), GLOB_MARK | GLOB_NOSORT, nullptr, &g);
        if (rc == 0) {
            for (std::size_t i = 0; i < g.gl_pathc; ++i) {
                std::string m = g.gl_pathv[i];
                if (!m.empty() && m.back() == '/')
                    continue;
                out.push_back(std::move(m));
            }
        }
        ::globfree(&g);
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
    }
    return out;
}

GlobCache::GlobCache(std::chrono::milliseconds interval) : m_interval(interval)
{
}

std::shared_ptr<const std::vector<std::string>> GlobCache::expand(const std::string& pattern)
{
    const auto now = std::chrono::steady_clock::now();
    if (m_interval.count() > 0) {
        std::lock_guard lock(m_mutex);
        if (auto it = m_entries.find(pattern); it != m_entries.end() && now - it->second.checkedAt < m_interval)
            return it->second.matches;
    }
    auto matches = std::make_shared<const std::vector<std::string>>(expandGlob(pattern));
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
    const std::string normal = std::filesystem::path(path).lexically_normal().string();
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
                const auto matches = globs.expand(pattern); // keep the list alive through the loop
                for (const std::string& alternative : expandBraces(pattern))
                    out.globPatterns.push_back(unescapeGlob(alternative));
                for (const std::string& match : *matches) {
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
