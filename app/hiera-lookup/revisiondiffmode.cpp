#include "revisiondiffmode.h"

#include "fleetmode.h"

#include <hiera/nodes/revisiondiff.h>
#include <hiera/valueformat.h>

CommandOutput runRevisionDiff(const hiera::Engine& before, const hiera::Engine& after,
                              const hiera::NodeLibrary& library, const std::string& from, const std::string& to,
                              const CliArgs& args, const std::string& repositoryRoot)
{
    hiera::RevisionDiffOptions options;
    options.prefix = args.prefix;
    options.executor = &commandLineExecutor();
    const hiera::RevisionDiff diff = hiera::diffRevisions(before, after, library, options);
    CommandOutput o;
    o.warnings = diff.warnings;
    hiera::RevisionDiffExportOptions exportOptions;
    exportOptions.from = from;
    exportOptions.to = to;
    exportOptions.revealSecrets = args.showSecrets;
    exportOptions.relativeTo = repositoryRoot;
    std::string& out = o.out;
    switch (args.format) {
    case CliArgs::Format::Json:
        out = hiera::revisionDiffJson(diff, exportOptions);
        break;
    case CliArgs::Format::Markdown:
        out = hiera::revisionDiffMarkdown(diff, exportOptions);
        break;
    case CliArgs::Format::Html:
        out = hiera::revisionDiffHtml(diff, exportOptions);
        break;
    default:
        out = hiera::toYaml(hiera::revisionDiffValue(diff, exportOptions));
        break;
    }
    o.exitCode = args.failOnChange && !diff.changes.empty() ? 3 : 0;
    return o;
}
