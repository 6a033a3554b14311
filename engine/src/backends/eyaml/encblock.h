#pragma once

// Finding and splitting the ENC[...] blocks of an eyaml value, exactly as Puppet's eyaml_lookup_key
// and hiera-eyaml do (docs/eyaml.md §2). Pure text work: no key, no OpenSSL.

#include <string>
#include <string_view>
#include <vector>

namespace hiera::detail {

// Puppet's `encrypted?` test, /.*ENC\[.*?\]/: an `ENC[` with a `]` after it on the same line. A string
// that fails it is returned as it is, without even the newline chomp (a literal `|` block spread over
// several lines is therefore never decrypted, as in Puppet).
bool containsEncBlock(std::string_view text);

// One piece of a string: text between blocks, or one ENC block. Views into the string given to
// splitEncBlocks: concatenating every piece's `text` gives that string back.
struct EncPiece
{
    enum class Kind { Text, Block };
    Kind kind = Kind::Text;
    std::string_view text; // the bytes as written (for a block: `ENC[` to `]` inclusive)
    std::string_view scheme; // Block: the tag (`PKCS7`, `GPG`, ...), or "PKCS7" when none is written
    bool schemeWritten = false;
    std::string_view payload; // Block: the base64 as written, spaces and newlines included
};

// hiera-eyaml's scan, /ENC\[(\w+,)?([A-Za-z0-9+\/ =\n]+?)\]/ repeated left to right: the tag is ASCII
// word characters, the payload the base64 alphabet plus spaces and newlines, at least one character.
// A candidate whose payload holds anything else (a tab, `\r`, `_`, ...) is not a block and stays text.
// Linear in the length of `text`.
std::vector<EncPiece> splitEncBlocks(std::string_view text);

// Hiera-eyaml's default scheme, used when a block has no tag.
inline constexpr std::string_view kDefaultEncScheme = "PKCS7";

} // namespace hiera::detail
