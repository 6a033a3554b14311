#include "impactmode.h"

#include "fleetmode.h"

#include <hiera/nodes/fileimpact.h>
#include <hiera/valueformat.h>

#include <filesystem>

CommandOutput runImpact(const hiera::Engine& engine, const CliArgs& args, const std::string& repositoryRoot)
{
    // `data/roles/web.yaml` means the repository's from wherever it is typed, unless the current
    // directory has such a file.
    std::filesystem::path file(args.impactFile);
    std::error_code ec;
    std::string lookedFor = std::filesystem::absolute(file, ec).lexically_normal().string();
    if (file.is_relative() && !std::filesystem::exists(file, ec) && !repositoryRoot.empty()) {
        file = std::filesystem::path(repositoryRoot) / file;
        lookedFor += " and " + std::filesystem::absolute(file, ec).lexically_normal().string();
    }
    file = std::filesystem::absolute(file, ec).lexically_normal();
    CommandOutput o;
    if (args.revision.empty() && std::filesystem::is_directory(file, ec)) {
        o.errors.push_back(args.impactFile + ": is a directory, not a data file");
        o.exitCode = 2;
        return o;
    }
    const hiera::NodeLibrary library = loadNodeLibrary(args, {});
    hiera::FileImpactOptions options;
    options.executor = &commandLineExecutor();
    const hiera::FileImpact impact = hiera::fileImpact(engine, library, file.string(), options);
    if (!impact.exists) {
        o.errors.push_back(args.impactFile + ": no such data file"
                           + (args.revision.empty() ? std::string() : " in revision " + args.revision) + " (looked for "
                           + lookedFor + ")");
        o.exitCode = 2;
        return o;
    }
    o.warnings = impact.warnings;
    // Every lookup through a file that does not parse fails: the impact is the nodes that read it.
    if (!impact.error.empty()) {
        o.errors.push_back("the file does not parse: " + impact.error);
        o.exitCode = 2;
    }
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
