#include "nodecommands.h"

#include <hiera/error.h>
#include <hiera/nodes/nodedata.h>
#include <hiera/nodes/nodediff.h>

CommandOutput runAllKeys(const hiera::Engine& engine, const hiera::Scope& scope, const CliArgs& args,
                         const std::string& repositoryRoot)
{
    CommandOutput o;
    const hiera::NodeData data = hiera::resolveAllKeys(engine, scope);
    hiera::NodeExportOptions options;
    options.revealSecrets = args.showSecrets;
    options.relativeTo = repositoryRoot;
    switch (args.format) {
    case CliArgs::Format::Json:
        o.out = hiera::nodeDataJson(data, options);
        break;
    case CliArgs::Format::Csv:
        o.out = hiera::nodeDataCsv(data, options);
        break;
    default:
        o.out = hiera::nodeDataYaml(data, options);
        break;
    }
    // A broken data file first: it may be why keys failed, or why there are none.
    for (const hiera::Error& e : data.brokenFiles)
        o.errors.push_back(hiera::printableLine(e.what()));
    for (const hiera::ResolvedKey& k : data.keys)
        if (k.status == hiera::LookupResult::Status::Error)
            o.errors.push_back(hiera::printableLine(k.key) + ": " + k.error);
    for (const hiera::NodeWarning& w : data.warnings)
        o.warnings.push_back(w.message);
    o.exitCode = o.errors.empty() ? 0 : 2;
    return o;
}

CommandOutput runDiff(const hiera::Engine& engine, const NamedScope& a, const NamedScope& b, const CliArgs& args,
                      const std::string& repositoryRoot)
{
    CommandOutput o;
    hiera::DiffOptions diffOptions;
    diffOptions.prefix = args.prefix;
    const hiera::NodeDiff diff = hiera::diffNodes(engine, *a.scope, *b.scope, diffOptions);
    hiera::DiffExportOptions options;
    options.nameA = a.name;
    options.nameB = b.name;
    options.revealSecrets = args.showSecrets;
    options.relativeTo = repositoryRoot;
    switch (args.format) {
    case CliArgs::Format::Markdown:
        o.out = hiera::nodeDiffMarkdown(diff, options);
        break;
    case CliArgs::Format::Json:
        o.out = hiera::nodeDiffJson(diff, options);
        break;
    case CliArgs::Format::Csv:
        o.out = hiera::nodeDiffCsv(diff, options);
        break;
    default:
        o.out = hiera::nodeDiffText(diff, options);
        break;
    }
    o.warnings = diff.warnings;
    // Keys that fail on both nodes were not compared: the answer "no differences" would be untrue.
    for (const auto& [key, error] : diff.failedOnBoth)
        o.errors.push_back(hiera::printableLine(key) + ": fails on both nodes: " + error);
    o.exitCode = !o.errors.empty() ? 2 : diff.keys.empty() ? 0 : 1;
    return o;
}
