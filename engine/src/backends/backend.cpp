#include <hiera/backend.h>
#include <hiera/error.h>
#include <hiera/yaml.h>

namespace hiera {

namespace {

class YamlData : public DataHashBackend
{
public:
    std::string name() const override { return "yaml_data"; }
    Value load(const std::string& path, const Value&, const ParseLimits& limits,
               std::vector<std::string>& warnings) const override
    {
        Value v = loadDataFile(path, DataFormat::Yaml, limits);
        if (v.isHash())
            return v;
        // Puppet: an empty file, `~` or `false` is an empty hash; another top level is too, with a warning.
        const bool empty = v.isNull() || (v.isBoolean() && !v.asBoolean());
        if (!empty)
            warnings.push_back(path + ": file does not contain a valid yaml hash (its top level is "
                               + std::string(v.typeName()) + "); it is read as an empty hash");
        Value h{Hash()};
        h.setMark(SourceFiles::mark(path, 1, 1));
        return h;
    }
};

class JsonData : public DataHashBackend
{
public:
    std::string name() const override { return "json_data"; }
    Value load(const std::string& path, const Value&, const ParseLimits& limits,
               std::vector<std::string>&) const override
    {
        Value v = loadDataFile(path, DataFormat::Json, limits);
        if (!v.isHash())
            throw Error(ErrorCode::DataNotHash,
                        "Value returned from data_hash function 'json_data' expects a Hash value, got "
                            + std::string(v.typeName()),
                        SourceFiles::locate(v.mark()).isValid() ? SourceFiles::locate(v.mark())
                                                                : SourceLocation{path, 1, 1});
        return v;
    }
};

} // namespace

std::shared_ptr<const BackendRegistry> BackendRegistry::defaultRegistry()
{
    static const std::shared_ptr<const BackendRegistry> registry = [] {
        auto r = std::make_shared<BackendRegistry>();
        r->add(std::make_shared<YamlData>());
        r->add(std::make_shared<JsonData>());
        return r;
    }();
    return registry;
}

void BackendRegistry::add(std::shared_ptr<const DataHashBackend> backend)
{
    m_dataHash.push_back(std::move(backend));
}

void BackendRegistry::add(std::shared_ptr<const LookupKeyBackend> backend)
{
    m_lookupKey.push_back(std::move(backend));
}

const DataHashBackend* BackendRegistry::dataHash(const std::string& name) const
{
    for (const auto& b : m_dataHash)
        if (b->name() == name)
            return b.get();
    return nullptr;
}

const LookupKeyBackend* BackendRegistry::lookupKey(const std::string& name) const
{
    for (const auto& b : m_lookupKey)
        if (b->name() == name)
            return b.get();
    return nullptr;
}

} // namespace hiera
