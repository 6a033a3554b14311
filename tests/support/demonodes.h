#pragma once

// The bundled demo control repository (resources/demo) as `puppet lookup --environment production`
// sees it: environment layer, the site/profile module layer, the eyaml level decrypted with the demo
// key; and its nodes' scopes from resources/demo/facts.

#include "support/testpaths.h"

#include <hiera/engine.h>
#include <hiera/environment.h>
#include <hiera/facts.h>

#include <memory>
#include <string>

namespace demo {

inline const std::string dir = testpaths::demoDir().toStdString();

inline std::shared_ptr<hiera::Engine> engine()
{
    const hiera::Environment env = hiera::Environment::discover(dir);
    hiera::EngineOptions options;
    options.eyamlPrivateKey = dir + "/keys/private_key.pkcs7.pem";
    return hiera::Engine::fromLayers(env.layers, options);
}

// `factsFile` below resources/demo/facts, e.g. "web01.example.com.yaml".
inline hiera::MapScope scope(const std::string& factsFile)
{
    const hiera::Value facts = hiera::loadFactsFile(dir + "/facts/" + factsFile);
    const hiera::Value extra = hiera::makeHash({{"environment", hiera::Value("production")}});
    return hiera::MapScope(hiera::scopeFromFacts(facts, "", extra));
}

} // namespace demo
