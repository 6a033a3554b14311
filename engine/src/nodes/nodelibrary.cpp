#include "nodes/factsources.h"
#include "nodes/factsscope.h"
#include "nodes/factstore.h"
#include "nodes/parallel.h"

#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodescope.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>

namespace hiera {

namespace fs = std::filesystem;

const char* factsFormatName(FactsFormat format)
{
    switch (format) {
    case FactsFormat::FacterYaml:
        return "facter-yaml";
    case FactsFormat::FacterJson:
        return "facter-json";
    case FactsFormat::PuppetFacts:
        return "puppet-facts";
    case FactsFormat::PuppetDB:
        return "puppetdb";
    }
    return "?";
}

namespace {

bool isFactsFileName(const fs::path& p)
{
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// What one worker made of one file, kept per file so that the result does not depend on thread timing.
struct FileResult
{
    std::vector<Node> nodes;
    std::vector<SourceLocation> at; // where each of `nodes` starts in the file
    std::vector<Error> errors;
    std::uint64_t bytes = 0;
    bool done = false;
};

FileResult loadFile(const std::string& file, const NodeLibraryOptions& options,
                    const std::shared_ptr<detail::FactStore>& store, const std::string& environment)
{
    FileResult r;
    try {
        const std::string text = readFile(file, options.limits.maxDocumentBytes);
        r.bytes = text.size();
        detail::FactsSource source = detail::parseFactsSource(text, file, options.limits);
        r.errors = std::move(source.errors);
        for (auto& parsed : source.nodes) {
            Node node;
            node.name = parsed.name.empty() ? detail::nameFromFile(file) : std::move(parsed.name);
            // The scope hiera-lookup --facts FILE --node NAME --environment E builds (hiera/nodescope.h),
            // read from the store. A name that cannot be a certname (its own, or the facts'
            // trusted.certname) skips this node only, named in the errors.
            std::string certname;
            try {
                detail::checkNodeName(node.name, parsed.at);
                certname = certnameFor(parsed.facts, node.name);
            } catch (const Error& e) {
                r.errors.push_back(e.location().isValid() ? e : Error(e.code(), e.message(), parsed.at));
                continue;
            }
            node.sourceFile = file;
            node.format = parsed.format;
            node.environment = std::move(parsed.environment);
            const SourceMark mark{parsed.facts.mark().file, 0, 0, 0};
            const detail::FactStore::Cell cell = store->add(parsed.facts);
            parsed.facts = Value();
            node.storedFacts =
                std::make_shared<detail::FactsScope>(store, cell, mark, std::move(certname), environment);
            node.scope = node.storedFacts;
            r.nodes.push_back(std::move(node));
            r.at.push_back(parsed.at);
        }
    } catch (const Error& e) {
        r.errors.push_back(e.location().isValid() ? e : Error(e.code(), e.message(), {file, 0, 0}));
    } catch (const std::bad_alloc&) {
        r.errors.emplace_back(ErrorCode::DataLimit, "out of memory while reading facts", SourceLocation{file, 0, 0});
    } catch (const std::exception& e) {
        r.errors.emplace_back(ErrorCode::Internal, e.what(), SourceLocation{file, 0, 0});
    }
    return r;
}

std::vector<std::string> listFiles(const std::string& path)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        throw Error(ErrorCode::Io, "no such file or directory", {path, 0, 0});
    if (!fs::is_directory(status))
        return {path};
    std::vector<std::string> files;
    fs::directory_iterator it(path, ec);
    if (ec)
        throw Error(ErrorCode::Io, "cannot list the directory: " + ec.message(), {path, 0, 0});
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            throw Error(ErrorCode::Io, "cannot list the directory: " + ec.message(), {path, 0, 0});
        if (isFactsFileName(it->path()) && !it->is_directory(ec))
            files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// A file name for a node name, or nothing when the name could reach outside the directory or is
// not one file's name.
std::optional<std::string> plainFileName(const std::string& name)
{
    if (name.empty() || name.front() == '.' || name.find_first_of(std::string_view("/\\\0", 3)) != std::string::npos)
        return std::nullopt;
    return name;
}

} // namespace

NodeLibrary NodeLibrary::load(const std::string& path, const NodeLibraryOptions& options)
{
    return loadFiles(path, listFiles(path), options);
}

NodeLibrary NodeLibrary::loadNodes(const std::string& path, const std::vector<std::string>& names,
                                   const NodeLibraryOptions& options)
{
    std::error_code ec;
    if (!names.empty() && fs::is_directory(path, ec)) {
        std::vector<std::string> files;
        for (const std::string& name : names) {
            const auto file = plainFileName(name);
            if (!file)
                break;
            for (const char* ext : {".yaml", ".yml", ".json"}) {
                const std::string candidate = (fs::path(path) / (*file + ext)).string();
                if (fs::is_regular_file(candidate, ec)
                    && std::find(files.begin(), files.end(), candidate) == files.end())
                    files.push_back(candidate);
            }
        }
        std::sort(files.begin(), files.end());
        NodeLibrary some = loadFiles(path, files, options);
        if (std::all_of(names.begin(), names.end(), [&](const std::string& n) { return some.find(n) != nullptr; }))
            return some;
    }
    return load(path, options);
}

namespace {

// A file named after its node (web01.example.com.yaml for web01.example.com).
bool isNamedAfter(const Node& node)
{
    return fs::path(node.sourceFile).stem().string() == node.name;
}

} // namespace

NodeLibrary NodeLibrary::loadFiles(const std::string& path, const std::vector<std::string>& files,
                                   const NodeLibraryOptions& options)
{
    NodeLibrary library;
    library.m_path = path;
    std::vector<FileResult> results(files.size());
    auto store = std::make_shared<detail::FactStore>();

    std::atomic<std::size_t> done{0};
    detail::parallelItems(files.size(), options.executor, options.stop, [&](std::size_t i) {
        results[i] = loadFile(files[i], options, store, options.environment);
        results[i].done = true;
        const std::size_t n = ++done;
        if (options.progress)
            options.progress(n, files.size());
    });
    store->finishBuilding(); // drops the indexes only adding needs
    library.m_store = store;

    std::vector<SourceLocation> keptAt; // where each node of library.m_nodes starts
    for (auto& r : results) {
        if (!r.done) {
            library.m_cancelled = true;
            continue;
        }
        library.m_factBytes += r.bytes;
        for (auto& e : r.errors)
            library.m_errors.push_back(std::move(e));
        for (std::size_t i = 0; i < r.nodes.size(); ++i) {
            Node& node = r.nodes[i];
            auto [it, inserted] = library.m_byName.emplace(node.name, library.m_nodes.size());
            if (!inserted) {
                // One rule wherever a node is read: the file named after the node wins (loadNodes()
                // reads only that one), else the first file in name order, and within one export
                // the first factset.
                Node& kept = library.m_nodes[it->second];
                const bool replaces = isNamedAfter(node) && !isNamedAfter(kept);
                const std::string prefix = "duplicate node '" + printableLine(node.name) + "': ";
                if (node.sourceFile == kept.sourceFile) {
                    library.m_warnings.push_back(prefix + "the factset at " + r.at[i].toString()
                                                 + " is ignored, the first at " + keptAt[it->second].toString()
                                                 + " is used");
                    continue;
                }
                const Node& ignored = replaces ? kept : node;
                const Node& winner = replaces ? node : kept;
                library.m_warnings.push_back(prefix + ignored.sourceFile + " is ignored, " + winner.sourceFile
                                             + (isNamedAfter(winner) ? " is named after it" : " names it too"));
                if (replaces) {
                    kept = std::move(node);
                    keptAt[it->second] = r.at[i];
                }
                continue;
            }
            library.m_nodes.push_back(std::move(node));
            keptAt.push_back(r.at[i]);
        }
    }
    return library;
}

std::size_t NodeLibrary::storedBytes() const
{
    return m_store ? m_store->bytes() : 0;
}

Value Node::facts() const
{
    return storedFacts ? storedFacts->facts() : Value(Hash());
}

NodeLibrary NodeLibrary::subset(const std::vector<std::size_t>& indices) const
{
    NodeLibrary out;
    out.m_path = m_path;
    out.m_store = m_store; // the nodes' facts live there
    out.m_cancelled = m_cancelled;
    out.m_nodes.reserve(indices.size());
    for (const std::size_t i : indices) {
        out.m_byName.emplace(m_nodes[i].name, out.m_nodes.size());
        out.m_nodes.push_back(m_nodes[i]);
    }
    return out;
}

const Node* NodeLibrary::find(std::string_view name) const
{
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? nullptr : &m_nodes[it->second];
}

} // namespace hiera
