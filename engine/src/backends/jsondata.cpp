// json_data: Puppet's built-in data_hash function for JSON files.

#include "backends/builtin.h"

#include <hiera/backend.h>
#include <hiera/error.h>
#include <hiera/yaml.h>

namespace hiera::detail {

namespace {

class JsonData : public DataHashBackend
{
public:
    std::string name() const override { return "json_data"; }
    bool readsOptions() const override { return false; }
    Value load(BackendContext& context) const override
    {
        const std::string& path = context.path();
        Value v = parseData(context.read(context.limits().maxDocumentBytes), path, DataFormat::Json, context.limits());
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

std::shared_ptr<const DataHashBackend> makeJsonData()
{
    static const auto instance = std::make_shared<const JsonData>();
    return instance;
}

} // namespace hiera::detail
