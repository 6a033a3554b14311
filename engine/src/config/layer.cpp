// hiera::Layer's names (hiera/layer.h), as Puppet's explain output prints them.

#include <hiera/layer.h>

#include <string>

namespace hiera {

const char* layerKindName(Layer::Kind kind)
{
    switch (kind) {
    case Layer::Kind::Global:
        return "global";
    case Layer::Kind::Environment:
        return "environment";
    case Layer::Kind::Module:
        return "module";
    }
    return "?";
}

std::string Layer::displayName() const
{
    return kind == Kind::Module ? "module " + module : layerKindName(kind);
}

std::string Layer::providerTitle() const
{
    switch (kind) {
    case Kind::Global:
        return "Global Data Provider (hiera configuration version 5)";
    case Kind::Environment:
        return "Environment Data Provider (hiera configuration version 5)";
    case Kind::Module:
        return "Module \"" + module + "\" Data Provider (hiera configuration version 5)";
    }
    return {};
}

} // namespace hiera
