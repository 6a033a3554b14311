#pragma once

// hiera::OverlayTree — a source tree (hiera/sourcetree.h) that answers for a few files from memory and
// for everything else from another tree: the working tree "with these unsaved contents", which is how
// an edit is evaluated before it is saved (hiera/nodes/editimpact.h, docs/editing-data.md).
//
//   auto tree = std::make_shared<hiera::OverlayTree>(nullptr, std::map<std::string, std::string>{
//       {"/repo/data/common.yaml", editedText}});
//   auto engine = hiera::Engine::fromLayers(layers, {.tree = tree});   // reads the edit, not the disk
//
// An overlaid path is a regular file holding its text (its folders are the base's: the files edited
// exist). Its TreeStat::contentId names the text, so that engines sharing a ContentParseCache parse one
// text once. set() gives a file another text: an engine over the tree then reads it once told to
// (Engine::invalidate(path)), as it reads a file changed on disk, and keeps every other parse. With `nameBaseFiles`,
// the base's regular files are named too, by what stat(2) says of them (device, inode, size, times): engines over
// successive overlays of one unchanged working tree then share their parses of every file but the edited one. That
// holds only while the base does not change: a host makes new engines when it sees the disk change.

#include <hiera/sourcetree.h>

#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>

namespace hiera {

class OverlayTree : public SourceTree
{
public:
    // `base`: null for the working tree. `files`: absolute path (as the engine spells it) -> content.
    OverlayTree(std::shared_ptr<const SourceTree> base, std::map<std::string, std::string> files,
                bool nameBaseFiles = false);

    std::string read(const std::string& path, std::size_t limit) const override;
    TreeStat stat(const std::string& path) const override;
    TreeStat lstat(const std::string& path) const override;
    std::optional<std::vector<TreeEntry>> list(const std::string& dir, std::string* error = nullptr) const override;
    std::optional<std::string> canonical(const std::string& path) const override;
    // "working tree with unsaved edits to data/common.yaml" (the base's description, then the files).
    std::string describe() const override;

    // The overlaid files and their texts now.
    std::map<std::string, std::string> files() const;
    // `path` holds `content` from now on (thread-safe).
    void set(const std::string& path, std::string content);

private:
    struct File
    {
        std::shared_ptr<const std::string> content;
        TreeStat stat; // made once per text: hashing it on every stat would cost each lookup
    };
    static File fileOf(std::string content);
    std::optional<File> find(const std::string& path) const;
    TreeStat named(TreeStat st) const;

    std::shared_ptr<const SourceTree> m_base;
    mutable std::shared_mutex m_mutex;
    std::map<std::string, File> m_files;
    bool m_nameBaseFiles;
};

} // namespace hiera
