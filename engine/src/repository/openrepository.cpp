#include <hiera/error.h>
#include <hiera/openrepository.h>

namespace hiera {

OpenedRepository openRepository(const std::string& path, EnvironmentOptions environment, EngineOptions engine,
                                std::shared_ptr<const SourceTree> tree, bool nameTheTree)
{
    environment.tree = tree;
    engine.tree = tree;
    Environment discovered = [&] {
        try {
            return Environment::discover(path, environment);
        } catch (const Error& e) {
            if (!nameTheTree)
                throw;
            throw Error(e.code(), (tree ? tree->describe() : std::string("the working tree")) + ": " + e.what());
        }
    }();
    OpenedRepository out;
    out.root = discovered.root;
    out.name = discovered.name;
    out.warnings = std::move(discovered.warnings);
    out.notices = std::move(discovered.notices);
    out.engine = Engine::fromLayers(std::move(discovered.layers), std::move(engine));
    return out;
}

} // namespace hiera
