#pragma once

// A lookup with its explain trace, made through LookupRunner as the explorer makes it: the tests of
// the models that show traces get their input from the one place the UI meets the engine's API.

#include "jobs/lookuprunner.h"

#include <hiera/engine.h>

#include <QSignalSpy>
#include <QString>

using namespace hiera::ui;

namespace UiTest {

inline LookupOutcomePtr lookUp(const QString& hieraYaml, const hiera::Value& scope, const std::string& key,
                               std::optional<hiera::MergeSpec> merge = std::nullopt)
{
    LookupRunner runner;
    runner.setEngine(hiera::Engine::load(hieraYaml.toStdString(), LookupRunner::engineOptions()), hieraYaml);
    QSignalSpy finished(&runner, &LookupRunner::lookupFinished);
    runner.lookup(scope, AnswerRequest{key, std::move(merge)});
    if (!finished.wait(10000))
        return nullptr;
    return finished.first().at(0).value<LookupOutcomePtr>();
}

} // namespace UiTest
