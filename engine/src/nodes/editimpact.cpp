// EditSession: an unsaved edit of one data file held to the files on disk with the revision diff's
// rules (hiera/nodes/editimpact.h, docs/editing-data.md), over the nodes that read the file.

#include "nodes/dataformat.h"
#include "nodes/parallel.h"

#include <hiera/error.h>
#include <hiera/nodes/editimpact.h>
#include <hiera/overlaytree.h>
#include <hiera/yaml.h>

#include <algorithm>
#include <atomic>
#include <string_view>

namespace hiera {

EditSession::EditSession(std::shared_ptr<const Engine> engine, std::shared_ptr<const NodeLibrary> library,
                         std::string file)
    : m_engine(std::move(engine))
    , m_library(std::move(library))
    , m_file(std::move(file))
    , m_parses(makeContentParseCache())
{
}

EditSession::~EditSession() = default;

std::shared_ptr<const Engine> EditSession::engineOn(std::shared_ptr<const SourceTree> tree) const
{
    EngineOptions options = m_engine->options();
    options.tree = std::move(tree);
    options.contentParses = m_parses;
    return Engine::fromLayers(m_engine->layers(), std::move(options));
}

std::shared_ptr<const Engine> EditSession::engineWith(const std::string& text) const
{
    return engineOn(std::make_shared<OverlayTree>(m_engine->options().tree,
                                                  std::map<std::string, std::string>{{m_file, text}},
                                                  /*nameBaseFiles=*/true));
}

std::string EditSession::parseError(const std::string& text, int* line, int* column) const
{
    const std::optional<DataFormat> format = detail::dataFormatOf(m_file);
    if (!format)
        return {};
    try {
        parseData(text, m_file, *format, m_engine->options().limits);
    } catch (const Error& e) {
        if (line)
            *line = e.location().line;
        if (column)
            *column = e.location().column;
        return e.what();
    } catch (const std::exception& e) {
        return m_file + ": " + e.what();
    }
    return {};
}

std::optional<std::vector<std::size_t>> EditSession::readers(const EditImpactOptions& options) const
{
    const std::vector<Node>& nodes = m_library->nodes();
    std::vector<char> reads(nodes.size(), 0);
    std::atomic<std::size_t> done{0};
    // Not stopped with the evaluation that asked: a host stops each evaluation when the user types on,
    // and the readers, which every later evaluation needs, would then never be worked out.
    detail::parallelItems(nodes.size(), options.executor, std::stop_token{}, [&](std::size_t i) {
        const std::vector<std::string> files = m_engine->candidateFiles(*nodes[i].scope);
        reads[i] = std::find(files.begin(), files.end(), m_file) != files.end();
        ++done;
    });
    if (done != nodes.size())
        return std::nullopt;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (reads[i])
            out.push_back(i);
    return out;
}

EditImpact EditSession::evaluate(const std::string& text, const EditImpactOptions& options) const
{
    EditImpact impact;
    impact.file = m_file;
    impact.diff.nodes = m_library->size();
    impact.error = parseError(text, &impact.errorLine, &impact.errorColumn);
    if (!impact.error.empty())
        return impact;

    std::shared_ptr<const Engine> before;
    std::shared_ptr<const NodeLibrary> readers;
    {
        // One evaluation works the readers out; the others wait for it (the first keystroke's).
        const std::lock_guard lock(m_mutex);
        if (!m_readers) {
            std::optional<std::vector<std::size_t>> found = this->readers(options);
            if (!found) {
                impact.cancelled = true;
                return impact;
            }
            m_readerCount = found->size();
            m_readers = std::make_shared<const NodeLibrary>(m_library->subset(*found));
            m_before =
                engineOn(std::make_shared<OverlayTree>(m_engine->options().tree, std::map<std::string, std::string>{},
                                                       /*nameBaseFiles=*/true));
            m_afterTree = std::make_shared<OverlayTree>(
                m_engine->options().tree, std::map<std::string, std::string>{{m_file, text}}, /*nameBaseFiles=*/true);
            m_after = engineOn(m_afterTree);
        }
        before = m_before;
        readers = m_readers;
        impact.nodesReading = m_readerCount;
    }

    RevisionDiffOptions diffOptions;
    diffOptions.prefix = options.prefix;
    diffOptions.executor = options.executor;
    diffOptions.stop = options.stop;
    // The session's engine with this text: only the edited file is read again.
    const std::lock_guard turn(m_evaluating);
    m_afterTree->set(m_file, text);
    m_after->invalidate(m_file);
    impact.diff = diffRevisions(*before, *m_after, *readers, diffOptions);
    impact.diff.nodes = m_library->size();
    impact.cancelled = impact.diff.cancelled;
    return impact;
}

} // namespace hiera
