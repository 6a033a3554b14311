#include "fleetmode.h"

#include <hiera/error.h>
#include <hiera/nodes/fleet.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

namespace {

bool g_revealSecrets = false; // --show-secrets

std::string oneLine(const hiera::Value& v)
{
    const hiera::Value shown = g_revealSecrets ? v : hiera::redactSecrets(v);
    try {
        return hiera::toJson(shown);
    } catch (const hiera::Error&) {
        return hiera::rubyInspect(shown); // NaN and infinities have no JSON form
    }
}

std::string answer(const hiera::FleetNodeResult& n)
{
    switch (n.status) {
    case hiera::LookupResult::Status::Found:
        return oneLine(n.value);
    case hiera::LookupResult::Status::Error:
        return "error: " + n.error;
    case hiera::LookupResult::Status::NotFound:
        break;
    }
    return "(not found)";
}

std::string pad(std::string s, std::size_t width)
{
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

// The default output: the groups with their counts, then one line per node. Names, values, files and
// levels come from data: each line is written as one printable line (docs/bad-input.md).
std::string table(const hiera::FleetResult& r)
{
    using hiera::printableLine;
    std::string out = printableLine(r.key) + " on " + std::to_string(r.nodes.size())
        + (r.nodes.size() == 1 ? " node: " : " nodes: ") + std::to_string(r.groups.size())
        + (r.groups.size() == 1 ? " answer" : " distinct answers") + "\n\n";
    std::size_t countWidth = 0;
    for (const auto& g : r.groups)
        countWidth = std::max(countWidth, std::to_string(g.members.size()).size() + 6);
    for (const auto& g : r.groups) {
        const std::size_t n = g.members.size();
        const std::string& first = r.nodes[g.members.front()].name;
        std::string text = g.status == hiera::LookupResult::Status::Found ? oneLine(g.value)
            : g.status == hiera::LookupResult::Status::Error              ? "error: " + g.error
                                                                          : "(not found)";
        out += pad(std::to_string(n) + (n == 1 ? " node" : " nodes"), countWidth) + "  " + printableLine(text) + "\n";
        std::string example = "e.g. " + first;
        if (!g.decidingFiles.empty())
            example += "; from " + g.decidingFiles.front()
                + (g.decidingFiles.size() > 1 ? " and " + std::to_string(g.decidingFiles.size() - 1) + " more" : "");
        out += pad("", countWidth) + "  " + printableLine(example) + "\n";
    }
    std::vector<std::string> names;
    names.reserve(r.nodes.size());
    std::size_t nameWidth = 4;
    for (const auto& n : r.nodes) {
        names.push_back(printableLine(n.name));
        nameWidth = std::max(nameWidth, names.back().size());
    }
    out += "\n" + pad("NODE", nameWidth) + "  VALUE  FILE (LEVEL)\n";
    for (std::size_t i = 0; i < r.nodes.size(); ++i) {
        const auto& n = r.nodes[i];
        std::string rest = answer(n);
        if (!n.file.empty())
            rest += "  " + n.file + (n.level.empty() ? "" : " (" + n.level + ")");
        out += pad(names[i], nameWidth) + "  " + printableLine(rest) + "\n";
    }
    if (r.cancelled)
        out += "(cancelled: " + std::to_string(r.nodes.size()) + " of " + std::to_string(r.total) + " nodes)\n";
    return out;
}

bool writeAll(const std::string& text)
{
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
        std::cerr << "hiera-lookup: error: cannot write to standard output: " << std::strerror(errno) << '\n';
        return false;
    }
    return true;
}

} // namespace

const hiera::Executor& commandLineExecutor()
{
    // The engine starts no threads; hiera-lookup is a host that wants every core for its one job.
    static const hiera::ThreadExecutor executor;
    return executor;
}

hiera::NodeLibrary loadNodeLibrary(const CliArgs& args, const std::vector<std::string>& names)
{
    hiera::NodeLibraryOptions libraryOptions;
    libraryOptions.environment = args.environment;
    libraryOptions.executor = &commandLineExecutor();
    hiera::NodeLibrary library = names.empty() ? hiera::NodeLibrary::load(args.nodesPath, libraryOptions)
                                               : hiera::NodeLibrary::loadNodes(args.nodesPath, names, libraryOptions);
    for (const auto& e : library.errors())
        std::cerr << "hiera-lookup: skipped: " << hiera::printableLine(e.what()) << '\n';
    for (const auto& w : library.warnings())
        std::cerr << "hiera-lookup: warning: " << hiera::printableLine(w) << '\n';
    if (library.empty())
        throw hiera::Error(hiera::ErrorCode::Io, args.nodesPath + ": no node could be read");
    return library;
}

const hiera::Node& libraryNode(const hiera::NodeLibrary& library, const std::string& name)
{
    if (const hiera::Node* node = library.find(name))
        return *node;
    // A short name ("web01") for a certname ("web01.example.com"): say which one was meant.
    std::string hint;
    std::size_t candidates = 0;
    for (const hiera::Node& node : library.nodes())
        if (node.name.size() > name.size() && node.name.compare(0, name.size(), name) == 0
            && node.name[name.size()] == '.' && ++candidates == 1)
            hint = "; did you mean " + node.name;
    if (candidates != 1)
        hint.clear(); // none, or more than one: no guess
    throw hiera::Error(hiera::ErrorCode::Io,
                       "no node named '" + name + "' in " + library.path() + " (" + std::to_string(library.size())
                           + (library.size() == 1 ? " node" : " nodes") + (hint.empty() ? "" : hint + "?") + ")");
}

int runFleet(const hiera::Engine& engine, const CliArgs& args, const std::string& repositoryRoot)
{
    g_revealSecrets = args.showSecrets;
    const hiera::NodeLibrary library = loadNodeLibrary(args, {});
    hiera::LookupRequest request;
    request.merge = args.merge;
    hiera::FleetOptions fleetOptions;
    fleetOptions.executor = &commandLineExecutor();
    hiera::FleetResult r = hiera::lookupAcross(engine, library, args.key, request, fleetOptions);
    hiera::FleetExportOptions options;
    options.revealSecrets = args.showSecrets;
    options.relativeTo = repositoryRoot;

    std::string out;
    switch (args.format) {
    case CliArgs::Format::Table:
        // Files named from the repository's root, as every other report does.
        for (auto& n : r.nodes) {
            n.file = hiera::relativePath(n.file, repositoryRoot);
            for (auto& f : n.decidingFiles)
                f = hiera::relativePath(f, repositoryRoot);
        }
        for (auto& g : r.groups)
            for (auto& f : g.decidingFiles)
                f = hiera::relativePath(f, repositoryRoot);
        out = table(r);
        break;
    case CliArgs::Format::Csv:
        out = hiera::fleetCsv(r, options);
        break;
    case CliArgs::Format::Json:
        out = hiera::fleetJson(r, options);
        break;
    case CliArgs::Format::Markdown:
        out = hiera::fleetMarkdown(r, options);
        break;
    case CliArgs::Format::Html: // only the explanation report (cliargs refuses it here)
    case CliArgs::Format::Yaml:
        out = hiera::toYaml(hiera::fleetValue(r, options));
        break;
    }
    if (!writeAll(out))
        return 2;
    return r.count(hiera::LookupResult::Status::Found) > 0 ? 0 : 1;
}
