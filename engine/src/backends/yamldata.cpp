// yaml_data: Puppet's built-in data_hash function for YAML files.

#include "backends/builtin.h"

#include <hiera/backend.h>
#include <hiera/yaml.h>

namespace hiera::detail {

namespace {

class YamlData : public DataHashBackend
{
public:
    std::string name() const override { return "yaml_data"; }
    bool readsOptions() const override { return false; }
    Value load(BackendContext& context) const override
    {
        const std::string& path = context.path();
        Value v = parseData(context.read(context.limits().maxDocumentBytes), path, DataFormat::Yaml, context.limits());
        if (v.isHash())
            return v;
        // Puppet: an empty file, `~` or `false` is an empty hash; another top level is too, with a warning.
        const bool empty = v.isNull() || (v.isBoolean() && !v.asBoolean());
        if (!empty)
            context.warn(path + ": file does not contain a valid yaml hash (its top level is "
                         + std::string(v.typeName()) + "); it is read as an empty hash");
        Value h{Hash()};
        h.setMark(SourceFiles::mark(path, 1, 1));
        return h;
    }
};

} // namespace

std::shared_ptr<const DataHashBackend> makeYamlData()
{
    static const auto instance = std::make_shared<const YamlData>();
    return instance;
}

} // namespace hiera::detail
