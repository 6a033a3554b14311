#pragma once

// Where something was written. Two forms:
// - SourceMark: 12 bytes carried by every Value; the file is an id into the process-wide SourceFiles
//   registry, so that a value does not hold a copy of its file name.
// - SourceLocation: the readable form (file path, line, column) used in errors, traces and the UI.
// Lines and columns are 1-based; 0 means unknown. yaml-cpp's 0-based marks are converted in exactly one
// place (the YAML loader).

#include <cstdint>
#include <string>
#include <string_view>

namespace hiera {

struct SourceMark
{
    // What else a value's origin says (free: the mark pads to 16 bytes in a Value either way).
    enum Flag : std::uint8_t {
        Decrypted = 1, // plaintext of an eyaml ENC[...] block: hosts mask it, explanations redact it
        StillEncrypted = 2, // an ENC[...] value no key here could decrypt, shown as written
    };
    std::uint32_t file = 0; // 0 = unknown
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint8_t flags = 0;

    bool isValid() const { return file != 0; }
    bool operator==(const SourceMark&) const = default;
};

struct SourceLocation
{
    std::string file;
    int line = 0;
    int column = 0;

    bool isValid() const { return !file.empty(); }
    // "file:line:column", "file:line" or "file", whichever is known.
    std::string toString() const;
    bool operator==(const SourceLocation&) const = default;
};

// Interns file paths for SourceMarks. Thread-safe; ids are never reused, names never change, so a mark
// stays meaningful for the life of the process.
class SourceFiles
{
public:
    static std::uint32_t intern(const std::string& path);
    static std::string name(std::uint32_t id);
    static SourceLocation locate(const SourceMark& mark);
    static SourceMark mark(const std::string& path, int line, int column);
};

// The place a one-line message starts with, as SourceLocation::toString() wrote it before ": " (the
// form of the engine's errors and warnings: "/repo/data/common.yaml:12:7: Undefined variable 'x'");
// invalid when the message does not start with a file and a line. The file is the text before the
// first ":<digits>" that is followed by ":" or ": ", so a path with colons of its own reads back too.
SourceLocation leadingLocation(std::string_view message);

// `path` relative to `base` when it lies below it, else `path` as it is (reports name files from a
// control repository's root).
inline std::string relativePath(const std::string& path, std::string_view base)
{
    while (base.size() > 1 && base.back() == '/')
        base.remove_suffix(1);
    if (!base.empty() && path.size() > base.size() && path.compare(0, base.size(), base) == 0
        && path[base.size()] == '/')
        return path.substr(base.size() + 1);
    return path;
}

} // namespace hiera
