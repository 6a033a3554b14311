#pragma once

// Text that other programs read as UTF-8 (JSON, HTML, Markdown) must be UTF-8, whatever the data held:
// a !!binary value, a facts file named in another encoding, a key with such bytes. Making it UTF-8 is
// core/bytes.h's validUtf8 (the JSON writer, in core/, needs it too); this is what the text writers do
// with it then.

#include <string>
#include <string_view>

namespace hiera::detail {

// Valid UTF-8 `s` (validUtf8's output) with every character that moves the cursor or reorders text on
// a terminal or in a viewer (ESC and the other C0 and C1 controls, DEL, the line and paragraph
// separators, the bidirectional overrides, isolates and marks) written as the visible escape
// hiera::printableLine uses (`\e`, `\x85`, `\u202E`): a report read with cat, less or a browser shows
// them instead of obeying them. Line feeds, carriage returns, tabs and NUL are kept: each writer has its
// own rule for them.
std::string visibleControls(std::string_view s);

} // namespace hiera::detail
