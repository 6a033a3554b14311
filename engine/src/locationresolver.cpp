#include "locationresolver.h"

#include "interpolation.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <glob.h>

namespace hiera::detail {

namespace {

namespace fs = std::filesystem;

std::string joinPath(const std::string& base, const std::string& rel)
{
    fs::path p(rel);
    if (p.is_absolute())
        return p.lexically_normal().string();
    return (fs::path(base) / p).lexically_normal().string();
}

// Escapes glob metacharacters so that a datadir is matched literally.
std::string globEscape(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
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

std::vector<std::string> expandGlob(const std::string& pattern)
{
    std::vector<std::string> out;
    glob_t g{};
    // GLOB_MARK marks directories with a trailing '/', so that they can be dropped (a directory
    // cannot be a data file). Sorting is ours: bytewise, independent of the locale.
    const int rc = ::glob(pattern.c_str(), GLOB_MARK | GLOB_NOSORT, nullptr, &g);
    if (rc == 0) {
        for (std::size_t i = 0; i < g.gl_pathc; ++i) {
            std::string m = g.gl_pathv[i];
            if (!m.empty() && m.back() == '/')
                continue;
            out.push_back(std::move(m));
        }
    }
    ::globfree(&g);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

LevelLocations resolveLevel(const Config& config, const Level& level, const Scope& scope)
{
    LevelLocations out;
    const LocationInterpolation datadir = interpolateLocation(level.datadir, scope);
    out.datadir = joinPath(config.directory, datadir.text);

    for (const LocationSpec& spec : level.locations) {
        withLocation(spec, [&] {
            switch (spec.kind) {
            case LocationSpec::Kind::Path: {
                LocationInterpolation li = interpolateLocation(spec.pattern, scope);
                Candidate c;
                c.kind = spec.kind;
                c.declared = spec.pattern;
                c.originalPath = spec.pattern;
                c.interpolated = li.text;
                c.path = joinPath(out.datadir, li.text);
                c.undefinedVariables = std::move(li.undefinedVariables);
                c.suspicious = !c.undefinedVariables.empty() || looksSuspicious(c.interpolated);
                out.candidates.push_back(std::move(c));
                break;
            }
            case LocationSpec::Kind::Glob: {
                LocationInterpolation li = interpolateLocation(spec.pattern, scope);
                const std::string pattern = fs::path(li.text).is_absolute()
                                                ? li.text
                                                : globEscape(out.datadir) + "/" + li.text;
                const std::string joined = joinPath(out.datadir, li.text);
                for (std::string& match : expandGlob(pattern)) {
                    Candidate c;
                    c.kind = spec.kind;
                    c.declared = spec.pattern;
                    c.originalPath = joined;
                    c.path = fs::path(match).lexically_normal().string();
                    c.interpolated = fs::path(c.path).lexically_relative(out.datadir).string();
                    c.undefinedVariables = li.undefinedVariables;
                    c.suspicious = !c.undefinedVariables.empty();
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
                    LocationInterpolation li = interpolateLocation(spec.pattern, bound);
                    Candidate c;
                    c.kind = spec.kind;
                    c.declared = spec.pattern;
                    c.originalPath = spec.pattern;
                    c.interpolated = li.text;
                    c.path = joinPath(out.datadir, li.text);
                    c.undefinedVariables = std::move(li.undefinedVariables);
                    c.suspicious = !c.undefinedVariables.empty() || looksSuspicious(c.interpolated);
                    out.candidates.push_back(std::move(c));
                }
                break;
            }
            }
        });
    }
    return out;
}

} // namespace hiera::detail
