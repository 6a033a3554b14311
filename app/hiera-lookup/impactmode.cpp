#include "impactmode.h"

#include "fleetmode.h"

#include <hiera/fileimpact.h>
#include <hiera/valueformat.h>

#include <filesystem>

CommandOutput runImpact(const hiera::Engine& engine, const CliArgs& args, const std::string& repositoryRoot)
{
    // `data/roles/web.yaml` means the repository's from wherever it is typed, unless the current
    // directory has such a file.
    std::filesystem::path file(args.impactFile);
    std::error_code ec;
    if (file.is_relative() && !std::filesystem::exists(file, ec) && !repositoryRoot.empty())
        file = std::filesystem::path(repositoryRoot) / file;
    file = std::filesystem::absolute(file, ec).lexically_normal();
    const hiera::NodeLibrary library = loadNodeLibrary(args, {});
    hiera::FileImpactOptions options;
    options.executor = &commandLineExecutor();
    const hiera::FileImpact impact = hiera::fileImpact(engine, library, file.string(), options);
    CommandOutput o;
    if (!impact.exists) {
        o.errors.push_back(args.impactFile + ": no such data file (looked for " + file.string() + ")");
        o.exitCode = 2;
        return o;
    }
    o.warnings = impact.warnings;
    if (!impact.error.empty())
        o.warnings.push_back("the file does not parse: " + impact.error);
    hiera::FileImpactExportOptions exportOptions;
    exportOptions.relativeTo = repositoryRoot;
    switch (args.format) {
    case CliArgs::Format::Json:
        o.out = hiera::fileImpactJson(impact, exportOptions);
        break;
    case CliArgs::Format::Markdown:
        o.out = hiera::fileImpactMarkdown(impact, exportOptions);
        break;
    default:
        o.out = hiera::toYaml(hiera::fileImpactValue(impact, exportOptions));
        break;
    }
    return o;
}
