#include "interpolate/interpolation.h"

#include <hiera/config.h>
#include <hiera/error.h>
#include <hiera/yaml.h>

#include <filesystem>
#include <set>

namespace hiera {

const char* backendKindName(BackendKind kind)
{
    switch (kind) {
    case BackendKind::DataHash:
        return "data_hash";
    case BackendKind::DataDig:
        return "data_dig";
    case BackendKind::LookupKey:
        return "lookup_key";
    }
    return "?";
}

namespace {

class ConfigParser
{
public:
    ConfigParser(std::string fileName, Config::Use use) : m_file(std::move(fileName)), m_use(use) { }

    Config parse(std::string_view text, const std::string& baseDirectory)
    {
        Value doc;
        try {
            doc = parseData(text, m_file);
        } catch (const Error& e) {
            throw Error(e.code() == ErrorCode::DataUnreadable ? ErrorCode::ConfigUnreadable : ErrorCode::ConfigSyntax,
                        e.message(), e.location());
        }
        Config config;
        config.path = m_file;
        config.directory = baseDirectory;
        if (!doc.isHash())
            fail(ErrorCode::ConfigVersion,
                 doc.isNull() ? "the file is empty: 'version: 5' is required (only version 5 is supported)"
                              : "the top level must be a mapping with 'version: 5' (only version 5 is supported)",
                 doc);
        const Hash& top = doc.asHash();
        const Value* version = top.find("version");
        if (!version)
            fail(ErrorCode::ConfigVersion, "missing 'version': only version 5 is supported", doc, 1);
        if (!version->isInteger())
            fail(ErrorCode::ConfigVersion,
                 "'version' must be the integer 5, got " + describe(*version) + ": only version 5 is supported",
                 *version);
        if (version->asInteger() != 5)
            fail(ErrorCode::ConfigVersion,
                 "version " + std::to_string(version->asInteger()) + " is not supported: only version 5 is supported",
                 *version);

        for (const auto& e : top) {
            const std::string k = e.key.isString() ? e.key.asString() : "";
            if (k == "version" || k == "defaults" || k == "hierarchy")
                continue;
            if (k == "plan_hierarchy")
                continue; // Bolt plans only; accepted and ignored, as Puppet's lookup does
            if (k == "default_hierarchy") {
                if (m_use == Config::Use::Module)
                    continue;
                fail(ErrorCode::ConfigDefaultHierarchy,
                     "'default_hierarchy' is only allowed in a module's hiera.yaml (it is not supported in the "
                         + std::string(m_use == Config::Use::Environment ? "environment" : "global") + " layer)",
                     e.key);
            }
            fail(ErrorCode::ConfigUnknownKey,
                 "unknown key '" + keyText(e.key) + "' (allowed: version, defaults, hierarchy, plan_hierarchy"
                     + (m_use == Config::Use::Module ? ", default_hierarchy)" : ")"),
                 e.key);
        }

        Defaults defaults;
        if (const Value* d = top.find("defaults"))
            defaults = parseDefaults(*d);

        if (const Value* dh = top.find("default_hierarchy"); dh && !dh->isNull())
            config.defaultHierarchy = parseLevels(*dh, "default_hierarchy", defaults);
        const Value* hierarchy = top.find("hierarchy");
        if (!hierarchy || hierarchy->isNull()) {
            // Puppet's default hierarchy: a single level reading common.yaml.
            Level level;
            level.name = "Common";
            level.datadir = defaults.datadir.empty() ? "data" : defaults.datadir;
            applyBackend(level, defaults, nullptr);
            level.options = defaults.options;
            level.locations.push_back({LocationSpec::Kind::Path, "common.yaml", {}, {}, {m_file, 1, 1}});
            level.location = {m_file, 1, 1};
            config.hierarchy.push_back(std::move(level));
            return config;
        }
        config.hierarchyDeclared = true;
        config.hierarchy = parseLevels(*hierarchy, "hierarchy", defaults);
        return config;
    }

private:
    struct Defaults;

    std::vector<Level> parseLevels(const Value& list, const std::string& what, const Defaults& defaults) const
    {
        if (!list.isArray())
            fail(ErrorCode::ConfigInvalidValue, "'" + what + "' must be a list of levels, got " + describe(list), list);
        std::vector<Level> levels;
        std::set<std::string> names;
        std::size_t index = 0;
        for (const Value& entry : list.asArray()) {
            Level level = parseLevel(entry, defaults, index++);
            if (!names.insert(level.name).second)
                fail(ErrorCode::ConfigDuplicateName, what + " name '" + level.name + "' is defined more than once",
                     entry);
            levels.push_back(std::move(level));
        }
        return levels;
    }

    struct Defaults
    {
        std::string datadir;
        std::optional<std::pair<BackendKind, std::string>> backend;
        Value options;
    };

    [[noreturn]] void fail(ErrorCode code, const std::string& message, const Value& at, int fallbackLine = 0) const
    {
        SourceLocation loc = SourceFiles::locate(at.mark());
        if (!loc.isValid())
            loc = {m_file, fallbackLine, fallbackLine ? 1 : 0};
        throw Error(code, message, loc);
    }

    static std::string keyText(const Value& k)
    {
        return k.isString() ? k.asString() : "(" + std::string(k.typeName()) + " key)";
    }

    static std::string describe(const Value& v)
    {
        switch (v.type()) {
        case Value::Type::String:
            return "the string '" + v.asString() + "'";
        case Value::Type::Null:
            return "nothing";
        default:
            return std::string("a ") + v.typeName();
        }
    }

    std::string nonEmptyString(const Value& v, const std::string& what) const
    {
        if (!v.isString())
            fail(ErrorCode::ConfigInvalidValue, what + " must be a string, got " + describe(v), v);
        if (v.asString().empty())
            fail(ErrorCode::ConfigInvalidValue, what + " must not be empty", v);
        return v.asString();
    }

    // Puppet refuses method syntax anywhere Hiera interpolates hiera.yaml itself (locations, datadir,
    // options), and the whole file with it: "Interpolation using method syntax is not allowed in this
    // context". The message says what to write instead where there is an equivalent.
    void refuseMethods(const Value& v, const std::string& what) const
    {
        if (v.isString()) {
            for (const detail::Token& t : detail::methodTokensIn(v.asString())) {
                const std::string written = v.asString().substr(t.begin, t.end - t.begin);
                std::string instead;
                if (t.method == "scope")
                    instead = "; write %{" + t.argument + "} instead";
                else if (t.method == "literal")
                    instead = "; write '" + t.argument + "' as it is instead";
                else if (t.method == "lookup" || t.method == "hiera" || t.method == "alias")
                    instead = "; only scope variables can be used here";
                fail(ErrorCode::ConfigMethodInPath,
                     "Interpolation using method syntax is not allowed in this context: " + written + " in " + what
                         + instead,
                     v);
            }
        } else if (v.isArray()) {
            for (const auto& e : v.asArray())
                refuseMethods(e, what);
        } else if (v.isHash()) {
            for (const auto& e : v.asHash())
                refuseMethods(e.value, what);
        }
    }

    Value parseOptions(const Value& v, const std::string& where) const
    {
        if (v.isNull())
            return Value();
        if (!v.isHash())
            fail(ErrorCode::ConfigInvalidValue, "'options' in " + where + " must be a mapping, got " + describe(v), v);
        for (const auto& e : v.asHash()) {
            const std::string k = keyText(e.key);
            if (k == "path" || k == "uri")
                fail(ErrorCode::ConfigInvalidValue,
                     "option key '" + k + "' used in " + where + " is reserved by Puppet", e.key);
            bool ok = e.key.isString() && !k.empty() && std::isalpha(static_cast<unsigned char>(k[0]));
            for (char c : k)
                ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
            ok = ok && k.back() != '_' && k.back() != '-';
            if (!ok)
                fail(ErrorCode::ConfigInvalidValue,
                     "option key '" + k + "' in " + where + " must be a name of letters, digits, '_' and '-'", e.key);
            refuseMethods(e.value, "the options of " + where);
        }
        return v;
    }

    // Returns the backend declared in `map` (at most one), failing on more than one.
    std::optional<std::pair<BackendKind, std::string>> backendIn(const Hash& map, const Value& at,
                                                                 const std::string& where) const
    {
        std::optional<std::pair<BackendKind, std::string>> found;
        int count = 0;
        for (auto [key, kind] :
             {std::pair{"data_hash", BackendKind::DataHash}, std::pair{"data_dig", BackendKind::DataDig},
              std::pair{"lookup_key", BackendKind::LookupKey}}) {
            if (const Value* v = map.find(key)) {
                ++count;
                found = std::pair{kind, nonEmptyString(*v, std::string("'") + key + "'")};
            }
        }
        if (count > 1)
            fail(ErrorCode::ConfigMultipleBackends,
                 where + " declares multiple backend functions (only one of data_hash, data_dig and lookup_key)", at);
        return found;
    }

    Defaults parseDefaults(const Value& d) const
    {
        Defaults out;
        if (d.isNull())
            return out;
        if (!d.isHash())
            fail(ErrorCode::ConfigInvalidValue, "'defaults' must be a mapping, got " + describe(d), d);
        static const std::set<std::string> allowed{"datadir", "data_hash", "data_dig", "lookup_key", "options"};
        for (const auto& e : d.asHash())
            if (!e.key.isString() || !allowed.count(e.key.asString()))
                fail(ErrorCode::ConfigUnknownKey,
                     "unknown key '" + keyText(e.key)
                         + "' in defaults (allowed: datadir, data_hash, data_dig, lookup_key, options)",
                     e.key);
        const Hash& h = d.asHash();
        if (const Value* v = h.find("datadir")) {
            out.datadir = nonEmptyString(*v, "'datadir'");
            refuseMethods(*v, "the datadir of defaults");
        }
        out.backend = backendIn(h, d, "defaults");
        if (const Value* v = h.find("options"))
            out.options = parseOptions(*v, "defaults");
        return out;
    }

    static void applyBackend(Level& level, const Defaults& defaults,
                             const std::optional<std::pair<BackendKind, std::string>>* own)
    {
        if (own && *own) {
            level.kind = (*own)->first;
            level.function = (*own)->second;
            level.backendInherited = false;
        } else if (defaults.backend) {
            level.kind = defaults.backend->first;
            level.function = defaults.backend->second;
            level.backendInherited = true;
        } else {
            level.kind = BackendKind::DataHash; // seed: data_hash: yaml_data when no backend is set anywhere
            level.function = "yaml_data";
            level.backendInherited = true;
        }
    }

    Level parseLevel(const Value& entry, const Defaults& defaults, std::size_t index) const
    {
        const std::string where = "hierarchy entry " + std::to_string(index + 1);
        if (!entry.isHash())
            fail(ErrorCode::ConfigInvalidValue, where + " must be a mapping, got " + describe(entry), entry);
        const Hash& h = entry.asHash();
        static const std::set<std::string> allowed{"name",     "path",         "paths",   "glob",
                                                   "globs",    "mapped_paths", "datadir", "data_hash",
                                                   "data_dig", "lookup_key",   "options"};
        static const std::set<std::string> puppetOnly{"uri", "uris", "hiera3_backend", "v4_data_hash"};
        for (const auto& e : h) {
            const std::string k = keyText(e.key);
            if (e.key.isString() && allowed.count(k))
                continue;
            if (puppetOnly.count(k))
                fail(ErrorCode::ConfigUnknownKey, "key '" + k + "' in " + where + " is not supported by this engine",
                     e.key);
            fail(ErrorCode::ConfigUnknownKey,
                 "unknown key '" + k + "' in " + where
                     + " (allowed: name, path, paths, glob, globs, mapped_paths, datadir, data_hash, data_dig, "
                       "lookup_key, options)",
                 e.key);
        }
        Level level;
        level.location = SourceFiles::locate(entry.mark());
        const Value* name = h.find("name");
        if (!name)
            fail(ErrorCode::ConfigMissingName, where + " has no 'name'", entry);
        level.name = nonEmptyString(*name, "'name' of " + where);
        const std::string lw = "hierarchy entry '" + level.name + "'";

        auto addLocation = [&](LocationSpec::Kind kind, const Value& v, const std::string& what) {
            std::string s = nonEmptyString(v, what + " in " + lw);
            refuseMethods(v, "the " + what + " of " + lw);
            level.locations.push_back({kind, std::move(s), {}, {}, SourceFiles::locate(v.mark())});
        };
        auto addList = [&](LocationSpec::Kind kind, const Value& v, const std::string& what, bool stringAllowed) {
            if (v.isString() && stringAllowed) {
                addLocation(kind, v, what);
                return;
            }
            if (!v.isArray() || v.asArray().empty())
                fail(ErrorCode::ConfigInvalidValue,
                     "'" + what + "' in " + lw + " must be a non-empty list of strings, got " + describe(v), v);
            for (const Value& item : v.asArray())
                addLocation(kind, item, what);
        };
        if (const Value* v = h.find("path"))
            addLocation(LocationSpec::Kind::Path, *v, "path");
        if (const Value* v = h.find("paths"))
            addList(LocationSpec::Kind::Path, *v, "paths", true);
        if (const Value* v = h.find("glob"))
            addLocation(LocationSpec::Kind::Glob, *v, "glob");
        if (const Value* v = h.find("globs"))
            addList(LocationSpec::Kind::Glob, *v, "globs", false);
        if (const Value* v = h.find("mapped_paths")) {
            if (!v->isArray() || v->asArray().size() != 3)
                fail(ErrorCode::ConfigMappedPaths,
                     "'mapped_paths' in " + lw + " must be exactly three strings [scope_key, loop_var, template]", *v);
            for (const Value& item : v->asArray())
                if (!item.isString() || item.asString().empty())
                    fail(ErrorCode::ConfigMappedPaths,
                         "'mapped_paths' in " + lw + " must be exactly three non-empty strings, got " + describe(item),
                         item);
            const Array& a = v->asArray();
            refuseMethods(a[2], "the mapped_paths template of " + lw);
            level.locations.push_back({LocationSpec::Kind::MappedPaths, a[2].asString(), a[0].asString(),
                                       a[1].asString(), SourceFiles::locate(v->mark())});
        }
        if (const Value* v = h.find("datadir")) {
            level.datadir = nonEmptyString(*v, "'datadir' in " + lw);
            refuseMethods(*v, "the datadir of " + lw);
        } else {
            level.datadir = defaults.datadir.empty() ? "data" : defaults.datadir;
        }
        auto own = backendIn(h, entry, lw);
        applyBackend(level, defaults, &own);
        // Seed 002: a level selects data files. A lookup_key or data_dig function may do without
        // (hiera_vault is written so): Puppet then calls it once, without a path.
        if (level.locations.empty() && level.kind == BackendKind::DataHash)
            fail(ErrorCode::ConfigNoLocation, lw + " must declare one of path, paths, glob, globs or mapped_paths",
                 entry);
        // A level's options replace (do not merge with) the defaults' options.
        if (const Value* v = h.find("options"))
            level.options = parseOptions(*v, lw);
        else
            level.options = defaults.options;
        return level;
    }

    std::string m_file;
    Config::Use m_use;
};

} // namespace

Config Config::parse(std::string_view text, const std::string& baseDirectory, const std::string& fileName, Use use)
{
    const std::string file =
        fileName.empty() ? (std::filesystem::path(baseDirectory) / "hiera.yaml").string() : fileName;
    return ConfigParser(file, use).parse(text, baseDirectory);
}

Config Config::load(const std::string& path, Use use)
{
    return load(*SourceTree::workingTree(), path, use);
}

Config Config::load(const SourceTree& tree, const std::string& path, Use use)
{
    std::string text;
    try {
        text = tree.read(path, ParseLimits{}.maxDocumentBytes);
    } catch (const Error& e) {
        throw Error(ErrorCode::ConfigUnreadable, e.message(), e.location());
    }
    std::filesystem::path p = std::filesystem::absolute(path).lexically_normal();
    return parse(text, p.parent_path().string(), p.string(), use);
}

} // namespace hiera
