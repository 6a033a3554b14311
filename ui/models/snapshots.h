#pragma once

// The immutable results the worker jobs hand to the GUI thread (heaptrack's TreeData habit): models
// keep a shared_ptr to one and convert to QString only when a view asks.

#include <hiera/engine.h>
#include <hiera/overridechain.h>
#include <hiera/provenance.h>

#include <QMetaType>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hiera::ui {

// What the lookup bar asks the answer for: a key and, if the user chose one, a merge (the engine's options of
// one lookup are hiera::LookupRequest).
struct AnswerRequest
{
    std::string key;
    std::optional<hiera::MergeSpec> merge; // unset: as lookup_options says
};

// What a scope makes of the hierarchy: the hierarchy view, completion and file watching.
struct ScopeSnapshot
{
    std::shared_ptr<const hiera::Engine> engine; // keeps ResolvedLevel::level valid
    hiera::Value scope; // the scope tree it was resolved for (shared storage: a reference count)
    std::string environment; // and the $environment lookups set when the scope does not (NodeScope::ofTree)
    std::vector<hiera::ResolvedLevel> levels;
    std::vector<std::string> keys; // Engine::keyInventory
    // The same keys as QStrings for the completer, made on the worker: a large hierarchy has a
    // hundred thousand keys, and converting them on the GUI thread stalled it for tens of ms.
    QStringList keyList;
    std::vector<std::string> candidateFiles; // Engine::candidateFiles
    std::string error; // the engine threw (it should not; shown, not fatal)
    double elapsedMs = 0;

    // The scope lookups for this snapshot run with (scope plus $environment), for a job of its own
    // (all keys, a node comparison): it shares the scope tree.
    std::shared_ptr<const hiera::Scope> topScope() const;
};

struct LookupOutcome
{
    std::shared_ptr<const hiera::Engine> engine;
    AnswerRequest request;
    hiera::Value scope; // what it was looked up against (shared storage: a reference count)
    hiera::LookupResult result;
    // sourceContributions(*result.trace), made on the worker with the result: the summary and the
    // Sources table both read it, and walking a trace of thousands of files twice on the GUI
    // thread stalled it (docs/performance.md, "Cost that grows with the input"). Empty without a trace.
    std::vector<hiera::SourceContribution> contributions;
    double elapsedMs = 0;
    // Set when the result holds values decrypted from eyaml: the same outcome with them masked
    // (SecretMask), which the views are shown until the user reveals secrets. Null on that copy.
    std::shared_ptr<const LookupOutcome> masked;
    bool secretsMasked = false; // this is such a masked copy
};

using EnginePtr = std::shared_ptr<const hiera::Engine>;
using ScopeSnapshotPtr = std::shared_ptr<const ScopeSnapshot>;
using LookupOutcomePtr = std::shared_ptr<const LookupOutcome>;
using OverrideChainPtr = std::shared_ptr<const hiera::OverrideChain>; // hiera::overrideChain, made on a worker

} // namespace hiera::ui

Q_DECLARE_METATYPE(hiera::ui::EnginePtr)
Q_DECLARE_METATYPE(hiera::ui::ScopeSnapshotPtr)
Q_DECLARE_METATYPE(hiera::ui::LookupOutcomePtr)
Q_DECLARE_METATYPE(hiera::ui::OverrideChainPtr)
