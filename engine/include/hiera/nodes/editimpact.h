#pragma once

// What an unsaved edit of one data file does to the node library, before it is saved: every node and
// key whose answer the edit changes, before -> after (docs/editing-data.md).
//
//   hiera::EditSession session(engine, library, "/repo/data/roles/web.yaml");
//   hiera::EditImpact impact = session.evaluate(editedText);      // off the GUI thread
//   if (!impact.error.empty()) show(impact.error);                // "file:line:col: message"
//   for (const hiera::RevisionChange& c : impact.diff.changes) show(c.key, c.before, c.after, c.nodes);
//
// It is the revision diff (hiera/nodes/revisiondiff.h, its rules exact) between the working tree and
// the working tree with the edit (hiera/overlaytree.h), asked only of the nodes whose hierarchy reads
// the file: a data file's text cannot change which files a node reads (paths interpolate facts only),
// so no other node's answers can change. Those nodes are worked out once per session (every node's
// candidate files); each evaluation then costs the lookups the edit reaches on those nodes.
//
// A session is for one state of the disk: both sides read the other files named by their stat, and
// parse each once for the whole session (a ContentParseCache). Make a new session when the files
// change on disk. The edited file must not be a layer's hiera.yaml (the hierarchy is loaded from it).

#include <hiera/engine.h>
#include <hiera/nodes/executor.h>
#include <hiera/nodes/nodelibrary.h>
#include <hiera/nodes/revisiondiff.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hiera {

class OverlayTree;

struct EditImpactOptions
{
    std::string prefix; // only root keys starting with it; empty: all
    const Executor* executor = nullptr; // where the nodes are worked on; null: the calling thread
    // Checked between nodes of the diff. Working out the nodes that read the file (the first
    // evaluation of a session) is not stopped: every later evaluation needs it.
    std::stop_token stop;
};

struct EditImpact
{
    std::string file;
    // The edited text does not parse: one line, "file:line:col: message", and nothing else is evaluated
    // (the diff is empty: a host keeps what the last text that parsed showed).
    std::string error;
    int errorLine = 0, errorColumn = 0; // 1-based; 0 when unknown
    std::size_t nodesReading = 0; // nodes of the library whose hierarchy reads the file
    // Before: the files on disk; after: with the edit. `nodes` counts the whole library.
    RevisionDiff diff;
    bool cancelled = false;
};

class EditSession
{
public:
    // `file`: absolute, as the hierarchy names it.
    EditSession(std::shared_ptr<const Engine> engine, std::shared_ptr<const NodeLibrary> library, std::string file);
    ~EditSession();

    const std::string& file() const { return m_file; }
    // The engine reading `text` for the file and the disk for the rest: a lookup as the edit makes it.
    std::shared_ptr<const Engine> engineWith(const std::string& text) const;
    // Never throws for data problems; thread-safe (evaluations take turns: a host stops a stale one
    // through `options.stop`).
    EditImpact evaluate(const std::string& text, const EditImpactOptions& options = {}) const;
    // "file:line:col: message" when `text` does not parse as the file's format (by its extension:
    // .yaml, .yml, .eyaml, .json); empty when it does, or when the format is not one of these.
    std::string parseError(const std::string& text, int* line = nullptr, int* column = nullptr) const;

private:
    // The indices of the nodes reading the file, worked out on first use.
    std::optional<std::vector<std::size_t>> readers(const EditImpactOptions& options) const;
    std::shared_ptr<const Engine> engineOn(std::shared_ptr<const SourceTree> tree) const;

    std::shared_ptr<const Engine> m_engine;
    std::shared_ptr<const NodeLibrary> m_library;
    std::string m_file;
    std::shared_ptr<ContentParseCache> m_parses;
    mutable std::mutex m_mutex;
    mutable std::shared_ptr<const Engine> m_before; // the disk, as the session reads it
    // The disk with the text evaluated last: one engine for the session, told when the text changes
    // (its parses of every other file stay warm). Evaluations take turns on it.
    mutable std::shared_ptr<OverlayTree> m_afterTree;
    mutable std::shared_ptr<const Engine> m_after;
    mutable std::mutex m_evaluating;
    mutable std::shared_ptr<const NodeLibrary> m_readers; // the nodes reading the file
    mutable std::size_t m_readerCount = 0;
};

} // namespace hiera
